#!/usr/bin/env node
// First-move benchmark: is the first search of a fresh engine process as fast
// as the later ones? Starts the engine, sends `uci` and, without waiting for
// anything, `position startpos` and `go movetime <ms>`; then repeats
// `ucinewgame` / `position startpos` / `go movetime <ms>` (each after the
// previous bestmove), and prints the nodes, depth and nodes/second of every
// search, the first against the last.
//
//   node dist/tools/protocol/first-move-bench.js [--runs 10] [--movetime 1000] [--engine "node bin/kirin.js"]
//       [--no-isready]  send the first go right after uci, without waiting for readyok
//       [--json]      one JSON object instead of the table
//
// A measurement, not a test: the numbers depend on the machine and its load.

import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { commandSpec, repoRoot, scriptCommandLine } from '../lib.js';

const root = repoRoot();
const args = process.argv.slice(2);
const USAGE = `usage: node dist/tools/protocol/first-move-bench.js [--runs 10] [--movetime 1000] [--engine "node bin/kirin.js"]
           [--no-isready] [--json]`;
const cl = scriptCommandLine(
  args,
  commandSpec({
    name: 'first-move-bench',
    usage: USAGE,
    options: {
      runs: { type: 'string' },
      movetime: { type: 'string' },
      engine: { type: 'string' },
      json: { type: 'boolean' },
      'no-isready': { type: 'boolean' },
    },
  }),
);
const runs = cl.number('runs', 10);
const movetime = cl.number('movetime', 1000);
const engineCmd = cl.string('engine', `"${process.execPath}" "${join(root, 'bin', 'kirin.js')}"`);
const waitReady = !cl.flag('no-isready');
const json = cl.flag('json');
if (!(runs >= 1) || !(movetime >= 1)) {
  process.stderr.write(`first-move-bench: --runs and --movetime must be numbers >= 1\n${USAGE}\n`);
  process.exit(2);
}

const child = spawn(engineCmd, { shell: true, stdio: ['pipe', 'pipe', 'inherit'], cwd: root });
let buf = '';
let waiter: (() => void) | null = null;
const lines: string[] = [];
child.stdout.on('data', (d: Buffer) => {
  buf += d.toString();
  let i;
  while ((i = buf.indexOf('\n')) >= 0) {
    lines.push(buf.slice(0, i).replace(/\r$/, ''));
    buf = buf.slice(i + 1);
  }
  if (waiter) waiter();
});
const send = (l: string): boolean => child.stdin.write(l + '\n');
async function waitFor(re: RegExp, from: number): Promise<number> {
  for (;;) {
    for (let i = from; i < lines.length; i++) if (re.test(lines[i])) return i;
    await new Promise<void>((r) => (waiter = r));
  }
}

const results: { run: number; depth: number; nodes: number; nps: number; time: number; wall: number }[] = [];
const t0 = Date.now();
send('uci');
if (waitReady) {
  send('isready');
  await waitFor(/^readyok$/, 0);
}
for (let r = 0; r < runs; r++) {
  const from = lines.length;
  if (r > 0) send('ucinewgame');
  send('position startpos');
  const sent = Date.now();
  send(`go movetime ${movetime}`);
  const bi = await waitFor(/^bestmove /, from);
  const wall = Date.now() - sent;
  const infos = lines.slice(from, bi).filter((l) => /^info depth /.test(l));
  const last = infos[infos.length - 1] ?? '';
  const num = (k: string): number => Number(new RegExp(`\\b${k} (\\d+)`).exec(last)?.[1] ?? 0);
  results.push({ run: r + 1, depth: num('depth'), nodes: num('nodes'), nps: num('nps'), time: num('time'), wall });
}
send('quit');
await new Promise((r) => child.on('exit', r));

const first = results[0];
const lastRun = results[results.length - 1];
if (json) {
  process.stdout.write(
    JSON.stringify({ movetime, runs, results, ratio: lastRun.nodes ? first.nodes / lastRun.nodes : null }) + '\n',
  );
} else {
  console.log(
    `go movetime ${movetime} from the start position, ${runs} searches in one process (${Date.now() - t0} ms in all; ${waitReady ? 'after readyok' : 'first go right after uci'})`,
  );
  console.log('run  depth    nodes      nps  time(ms)  wall(ms)');
  for (const x of results) {
    console.log(
      `${String(x.run).padStart(3)}  ${String(x.depth).padStart(5)}  ${String(x.nodes).padStart(7)}  ${String(x.nps).padStart(7)}  ${String(x.time).padStart(8)}  ${String(x.wall).padStart(8)}`,
    );
  }
  console.log(
    `first/last nodes: ${first.nodes} / ${lastRun.nodes} = ${(first.nodes / Math.max(1, lastRun.nodes)).toFixed(2)}`,
  );
}
