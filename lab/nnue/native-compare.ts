// Kirin's `bench` against a native Pikafish's `bench` with the same network, one
// thread each, in one run (issue 22 item 1):
//
//   node dist/lab/nnue/native-compare.js --native PATH --net FILE
//        [--rounds 3] [--depth 13] [--hash 16] [--kirin "node bin/kirin.js"] [--json]
//
// --kirin is a shell command line (quote paths with spaces); --native a path.
//
// Each round runs `bench HASH 1 DEPTH` in a fresh process of each engine, after
// `setoption name EvalFile value FILE` and `setoption name Repetition Rule value
// ComputerRule` (Kirin's port of Pikafish's rule_judge, so that both search the
// same trees; native Pikafish, which has no such option, says so and goes on),
// alternating which engine goes first so that a change in the machine's load
// falls on both. Prints each run's nodes and
// nodes/second, the median nodes/second of each engine and their ratio. A
// measurement, not a test: compare within one run on one machine.

import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { loadavg } from 'node:os';
import { resolve } from 'node:path';
import { commandSpec, scriptCommandLine } from '../../toolkit/command-line.js';
import { exitWithError, isMain } from '../../toolkit/script.js';
import { repoRoot } from '../../toolkit/files.js';
import { interleave, medianOf } from '../timing.js';

const USAGE =
  'usage: node dist/lab/nnue/native-compare.js --native PATH --net FILE [--rounds 3] [--depth 13] [--hash 16] ' +
  '[--kirin CMD] [--json]';
/** What one `bench` printed: its node count, time and nodes/second. */
export interface BenchRun {
  nodes: number;
  timeMs: number;
  nps: number;
}

/** Reads the "Total time (ms) / Nodes searched / Nodes/second" summary both engines print. */
export function parseBenchSummary(text: string): BenchRun | null {
  const num = (label: string): number | null => {
    const m = new RegExp(`^${label}\\s*:\\s*(\\d+)\\s*$`, 'm').exec(text);
    return m ? Number(m[1]) : null;
  };
  const nodes = num('Nodes searched');
  const timeMs = num('Total time \\(ms\\)');
  const nps = num('Nodes/second');
  return nodes === null || timeMs === null || nps === null ? null : { nodes, timeMs, nps };
}

/**
 * The input that makes Kirin or native Pikafish run `bench HASH 1 DEPTH` with the
 * network `net` (an absolute path) on the same trees: Kirin with `Repetition Rule`
 * ComputerRule, Pikafish's own rule (Pikafish says it has no such option and goes on).
 */
export function benchInput(net: string, hash: number, depth: number): string {
  return (
    `setoption name EvalFile value ${net}\nsetoption name Repetition Rule value ComputerRule\n` +
    `bench ${hash} 1 ${depth}\nquit\n`
  );
}

/** Runs the shell command line `command`, feeds it `input`, and returns its bench summary. */
export function runBench(command: string, input: string): Promise<BenchRun> {
  return new Promise((done, fail) => {
    const child = spawn(`exec ${command}`, { shell: true, stdio: ['pipe', 'pipe', 'pipe'] });
    let text = '';
    child.stdout.on('data', (d: Buffer) => (text += d.toString()));
    child.stderr.on('data', (d: Buffer) => (text += d.toString()));
    child.on('error', fail);
    child.on('close', (code) => {
      const r = parseBenchSummary(text);
      if (r) done(r);
      else fail(new Error(`${command} exited ${code} without a bench summary:\n${text.slice(-2000)}`));
    });
    child.stdin.end(input);
  });
}

async function main(): Promise<void> {
  const cl = scriptCommandLine(
    process.argv.slice(2),
    commandSpec({
      name: 'native-compare',
      usage: USAGE,
      options: {
        native: { type: 'string' },
        net: { type: 'string' },
        rounds: { type: 'string' },
        depth: { type: 'string' },
        hash: { type: 'string' },
        kirin: { type: 'string' },
        json: { type: 'boolean' },
      },
      positionals: { min: 0, max: 0 },
    }),
  );
  const nativePath = cl.string('native', '');
  const netFile = cl.string('net', '');
  if (!nativePath || !netFile) exitWithError('native-compare', `--native and --net are needed\n${USAGE}`, 2);
  const net = resolve(netFile);
  if (!existsSync(nativePath)) exitWithError('native-compare', `${nativePath} does not exist`);
  if (!existsSync(net)) exitWithError('native-compare', `${net} does not exist`);
  const rounds = cl.integer('rounds', 3, { min: 1, max: 50 });
  const depth = cl.integer('depth', 13, { min: 1, max: 30 });
  const hash = cl.integer('hash', 16, { min: 1, max: 4096 });
  const kirin = cl.string('kirin', `"${process.execPath}" "${resolve(repoRoot(), 'bin', 'kirin.js')}"`);
  const input = benchInput(net, hash, depth);
  const engines = [
    { name: 'kirin', command: kirin },
    { name: 'native', command: `"${resolve(nativePath)}"` },
  ];
  const load = loadavg()[0];
  const [kirinRuns, nativeRuns] = await interleave(engines, rounds, (e) => runBench(e.command, input), {
    alternate: true,
    each: (run, e, r) => {
      if (!cl.flag('json'))
        console.log(`round ${r + 1} ${e.name.padEnd(6)} nodes ${run.nodes} time ${run.timeMs} ms nps ${run.nps}`);
    },
  });
  const runs = { kirin: kirinRuns, native: nativeRuns };
  const kirinNps = medianOf(runs.kirin, (x) => x.nps);
  const nativeNps = medianOf(runs.native, (x) => x.nps);
  const summary = {
    net,
    depth,
    hash,
    rounds,
    loadAverageAtStart: load,
    kirin: { nodes: runs.kirin[0].nodes, medianNps: kirinNps, runs: runs.kirin },
    native: { nodes: runs.native[0].nodes, medianNps: nativeNps, runs: runs.native },
    ratio: Math.round((kirinNps / nativeNps) * 1000) / 1000,
    sameTrees: runs.kirin[0].nodes === runs.native[0].nodes,
  };
  if (cl.flag('json')) console.log(JSON.stringify(summary, null, 2));
  else {
    console.log(`load average at start ${load.toFixed(2)}`);
    console.log(`kirin : bench nodes ${summary.kirin.nodes}, median ${kirinNps} nodes/s`);
    console.log(`native: bench nodes ${summary.native.nodes}, median ${nativeNps} nodes/s`);
    console.log(`ratio kirin/native: ${summary.ratio.toFixed(3)}`);
    console.log(summary.sameTrees ? 'the same trees (equal node counts)' : 'different trees (node counts differ)');
  }
}

if (isMain(import.meta.url)) await main();
