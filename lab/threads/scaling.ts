#!/usr/bin/env node
// Lazy SMP scaling benchmark: nodes/second with T threads against 1 thread, in
// one run (the bench positions at a fixed movetime, so every thread count gets
// the same wall time per position; the runs alternate 1, T, 1, T, ... so that
// a change in machine load hits both alike). Prints the load average before and
// after: on a shared machine the ratio is noisy, a measurement, never a check.
// It also prints the CPU time the process used (process.cpuUsage(), all threads):
// cores used = CPU time / wall time shows whether the threads really ran at the
// same time, and nodes per CPU-second shows the cost of the threads themselves
// (shared-table traffic, synchronisation) whatever the load.
//
//   node dist/lab/threads/scaling.js [--threads 2] [--movetime 500] [--positions 12] [--repeats 2]
//       [--hash 16] [--json]

import { loadavg, cpus } from 'node:os';
import { Engine } from '../../src/dev.js';
import { runBench } from '../../src/protocol/bench.js';
import { BENCH_FENS } from '../../src/protocol/benchpositions.js';
import { writeFileSync, mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { commandSpec, scriptCommandLine } from '../../toolkit/command-line.js';
import { interleave, timed } from '../timing.js';

const argv = process.argv.slice(2);
const USAGE = `usage: node dist/lab/threads/scaling.js [--threads 2] [--movetime 500] [--positions 12] [--repeats 2]
           [--hash 16] [--json]`;
const cl = scriptCommandLine(
  argv,
  commandSpec({
    name: 'scaling',
    usage: USAGE,
    options: {
      threads: { type: 'string' },
      movetime: { type: 'string' },
      positions: { type: 'string' },
      repeats: { type: 'string' },
      hash: { type: 'string' },
      json: { type: 'boolean' },
    },
  }),
);
const threads = Math.max(2, cl.number('threads', 2));
const movetime = cl.number('movetime', 500);
const positions = Math.min(BENCH_FENS.length, cl.number('positions', 12));
const repeats = Math.max(1, cl.number('repeats', 2));
const hash = cl.string('hash', '16');
const json = cl.flag('json');

// The first `positions` bench positions, as a FEN file for bench.
const dir = mkdtempSync(join(tmpdir(), 'kirin-scaling-'));
const fenFile = join(dir, 'fens.txt');
writeFileSync(
  fenFile,
  BENCH_FENS.filter((f) => !f.startsWith('setoption'))
    .slice(0, positions)
    .join('\n') + '\n',
);

const noop = (): void => {};
const loadBefore = loadavg();
type Run = { threads: number; nodes: number; timeMs: number; nps: number; cpuMs: number };
const runs: Run[] = [];
// One engine per thread count, so that no run pays for starting (and compiling)
// a fresh helper thread: `Threads` changes would retire and respawn them.
const engines = new Map<number, Engine>([
  [1, new Engine()],
  [threads, new Engine()],
]);
let failure = '';
try {
  // One short warm-up per engine so that both run compiled code.
  for (const [t, e] of engines) await runBench(e, [hash, String(t), '200', fenFile, 'movetime'], noop, noop);
  await interleave(
    [...engines],
    repeats,
    async ([t, e]): Promise<Run> => {
      const { value: b, cpuMs } = await timed(() =>
        runBench(e, [hash, String(t), String(movetime), fenFile, 'movetime'], noop, noop),
      );
      if (!b.ok) throw new Error(b.error.message);
      return { threads: t, ...b.value, cpuMs: Math.round(cpuMs) };
    },
    { each: (run) => runs.push(run) },
  );
} catch (e) {
  failure = (e as Error).message;
} finally {
  for (const e of engines.values()) await e.close();
}
if (failure) {
  process.stderr.write(`scaling: ${failure}\n`);
  process.exit(1);
}
const loadAfter = loadavg();
const sum = (t: number) => {
  const rs = runs.filter((x) => x.threads === t);
  const nodes = rs.reduce((a, x) => a + x.nodes, 0);
  const ms = rs.reduce((a, x) => a + x.timeMs, 0);
  const cpuMs = rs.reduce((a, x) => a + x.cpuMs, 0);
  return {
    nodes,
    ms,
    nps: Math.round((nodes * 1000) / ms),
    coresUsed: Math.round((cpuMs / ms) * 100) / 100,
    nodesPerCpuSecond: Math.round((nodes * 1000) / Math.max(1, cpuMs)),
  };
};
const one = sum(1),
  many = sum(threads);
const summary = {
  threads,
  movetimeMs: movetime,
  positions,
  repeats,
  cores: cpus().length,
  nps1: one.nps,
  npsN: many.nps,
  ratio: Math.round((many.nps / one.nps) * 100) / 100,
  coresUsed1: one.coresUsed,
  coresUsedN: many.coresUsed,
  nodesPerCpuSecond1: one.nodesPerCpuSecond,
  nodesPerCpuSecondN: many.nodesPerCpuSecond,
  loadavgBefore: loadBefore.map((x) => Math.round(x * 100) / 100),
  loadavgAfter: loadAfter.map((x) => Math.round(x * 100) / 100),
  runs,
};
if (json) process.stdout.write(JSON.stringify(summary) + '\n');
else {
  console.log(`${positions} positions x ${movetime} ms, ${repeats} alternating repeats, ${summary.cores} cores`);
  console.log(
    `1 thread : ${one.nps} nodes/s, ${one.coresUsed} cores used, ${one.nodesPerCpuSecond} nodes per CPU-second`,
  );
  console.log(
    `${threads} threads: ${many.nps} nodes/s  (x${summary.ratio}), ${many.coresUsed} cores used, ${many.nodesPerCpuSecond} nodes per CPU-second`,
  );
  console.log(
    `load average before ${summary.loadavgBefore.join(' ')}, after ${summary.loadavgAfter.join(' ')} (noisy on a shared machine)`,
  );
}
