// Network loading time: how long a network file takes to become a usable
// NnueNetwork, measured in a fresh process (the first load is the one a user
// waits for) and then repeated in the same process.
//
//   node dist/lab/nnue/load-bench.js <network file> [--repeats 3] [--json]
//
// Each round first times NnueNetwork.load as the engine loads (in round 1 the
// cold path: nothing compiled yet, the threat tables built once per process):
// the file read in pieces and streamed through the zstd decoder into the
// parser, no buffer of the payload's size. Then, for comparison, the same work
// done whole, stage by stage, one buffer per stage: read (the file's bytes),
// unpack (zstd, or nothing for a plain file), allocate (the network's memory),
// parse (checking and writing the weights into that memory) - the path a
// damaged stream falls back to. A measurement, not a test: the numbers depend
// on the machine and its load; compare within one run.

import { readFileSync } from 'node:fs';
import { NnueNetwork, prepareNetworkDecoder } from '../../src/dev.js';
import { allocateNetworkMemory, parsePayload, unpackContainer } from '../../src/eval/nnue/loader.js';
import { commandSpec, scriptCommandLine } from '../../toolkit/command-line.js';

const USAGE = 'usage: node dist/lab/nnue/load-bench.js <network file> [--repeats 3] [--js] [--json]';
const cl = scriptCommandLine(
  process.argv.slice(2),
  commandSpec({
    name: 'load-bench',
    usage: USAGE,
    options: { repeats: { type: 'string' }, js: { type: 'boolean' }, json: { type: 'boolean' } },
    positionals: { min: 1, max: 1 },
  }),
);
const file = cl.positionals[0];
const repeats = cl.integer('repeats', 3, { min: 1, max: 100 });
const json = cl.flag('json');
const js = cl.flag('js');

/** Wall-clock and CPU (user + system, this process) milliseconds of one stage. */
interface Time {
  wall: number;
  cpu: number;
}
interface Round {
  load: Time;
  read: Time;
  unpack: Time;
  allocate: Time;
  parse: Time;
}

const round1 = (v: number): number => Math.round(v * 10) / 10;
function timed<T>(f: () => T): [T, Time] {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const v = f();
  const wall = performance.now() - t0;
  const c = process.cpuUsage(c0);
  return [v, { wall: round1(wall), cpu: round1((c.user + c.system) / 1000) }];
}
async function timedAsync<T>(f: () => Promise<T>): Promise<[T, Time]> {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const v = await f();
  const wall = performance.now() - t0;
  const c = process.cpuUsage(c0);
  return [v, { wall: round1(wall), cpu: round1((c.user + c.system) / 1000) }];
}
function orExit<T>(r: { ok: true; value: T } | { ok: false; error: { message: string } }): T {
  if (r.ok) return r.value;
  console.log(`ERROR: ${r.error.message}`);
  process.exit(1);
}

function round(): Round {
  const [net, load] = timed(() => NnueNetwork.load(file));
  orExit(net);
  const [bytes, read] = timed(() => readFileSync(file));
  const [un, unpack] = timed(() => unpackContainer(bytes, file));
  const payload = orExit(un).payload;
  const [memory, allocate] = timed(() => allocateNetworkMemory(0));
  const [parsed, parse] = timed(() => parsePayload(payload, memory.buffer as ArrayBuffer, file));
  orExit(parsed);
  return { load, read, unpack, allocate, parse };
}

// As the command line does at start-up (unless --js: the JavaScript decoder, fzstd).
const [wasm, prepare] = js ? [false, { wall: 0, cpu: 0 }] : await timedAsync(prepareNetworkDecoder);
const rounds: Round[] = [];
for (let i = 0; i < repeats; i++) rounds.push(round());
const fileBytes = readFileSync(file).length;
const probe = unpackContainer(new Uint8Array(readFileSync(file)), file);
const info = {
  file,
  fileBytes,
  payloadBytes: probe.ok ? probe.value.payload.length : 0,
  compressed: probe.ok && probe.value.compressed,
  decoder: wasm ? 'zstddec (WebAssembly)' : 'fzstd (JavaScript)',
  prepare,
  rounds,
};
if (json) {
  process.stdout.write(JSON.stringify(info) + '\n');
} else {
  console.log(
    `${file}: ${fileBytes} bytes, ${info.compressed ? 'zstd' : 'plain'}, payload ${info.payloadBytes} bytes (round 1 is a fresh process's first load)`,
  );
  console.log(
    `zstd decoder: ${info.decoder}${wasm ? ` (compiled in ${prepare.wall.toFixed(0)} / ${prepare.cpu.toFixed(0)} ms)` : ''}`,
  );
  console.log('wall / CPU ms (CPU: user + system time of this process; less disturbed by other load than wall time)');
  console.log('        streamed   | the same done whole, stage by stage:');
  console.log('round   NnueNetwork.load            read          unpack        allocate           parse');
  const c = (t: Time, w: number): string => `${t.wall.toFixed(0)} / ${t.cpu.toFixed(0)}`.padStart(w);
  rounds.forEach((r, i) => {
    console.log(
      `${String(i + 1).padStart(5)} ${c(r.load, 18)} ${c(r.read, 15)} ${c(r.unpack, 15)} ${c(r.allocate, 15)} ${c(r.parse, 15)}`,
    );
  });
}
