#!/usr/bin/env node
// Review benchmark: the seconds `reviewGame` takes over a 100-ply game
// (bench-game.ts) at --nodes a position with --threads engines of one search
// thread each (positions side by side, as `kirin review` does), in each --order
// (the last position first and the first first), --runs times, after a review
// of the first 20 plies that is not timed (it compiles the search). Prints one
// line per review and the median per order. Each position is searched on its
// own, so the order changes neither the nodes nor the scores: each line also
// gives the mean depth reached, the moves marked and the largest drop of a
// move that was the engine's best (the review's own noise: 0 when the scores
// of consecutive positions agree). The CPU seconds (all threads of the
// process) show what the review costs on a busy machine: on idle cores it
// takes about CPU / threads.
//
//   node dist/lab/review/bench.js [--nodes 100000] [--threads 2] [--hash 16]
//       [--order backward,forward] [--runs 1] [--json]
//
// A measurement, not a test: the numbers depend on the machine and its load.

import { Engine, reviewGame } from '../../src/dev.js';
import { commandSpec, scriptCommandLine } from '../../toolkit/command-line.js';
import { interleave, medianOf, timed } from '../timing.js';
import { BENCH_GAME } from './bench-game.js';

const USAGE = `usage: node dist/lab/review/bench.js [--nodes 100000] [--threads 2] [--hash 16]
           [--order backward,forward] [--runs 1] [--json]`;
const cl = scriptCommandLine(
  process.argv.slice(2),
  commandSpec({
    name: 'review-bench',
    usage: USAGE,
    options: {
      nodes: { type: 'string' },
      threads: { type: 'string' },
      hash: { type: 'string' },
      order: { type: 'string' },
      runs: { type: 'string' },
      json: { type: 'boolean' },
    },
  }),
);
const nodes = cl.integer('nodes', 100000, { min: 1 });
const threads = cl.integer('threads', 2, { min: 1, max: 256 });
const hash = cl.integer('hash', 16, { min: 1, max: 65536 });
const runs = cl.integer('runs', 1, { min: 1, max: 100 });
const orders = cl.string('order', 'backward,forward').split(',');
for (const o of orders)
  if (o !== 'backward' && o !== 'forward') {
    process.stderr.write(`review-bench: --order ${o}: not backward or forward\n${USAGE}\n`);
    process.exit(2);
  }

const engines = Array.from({ length: threads }, () => new Engine());
for (const engine of engines) {
  const set = engine.options.set('Hash', String(hash));
  if (!set.ok) throw new Error(set.error.message);
  await engine.ready();
}
// Not timed: the first searches of a process run code that is still being compiled.
const warm = await reviewGame(engines, { moves: BENCH_GAME.slice(0, 20) }, { nodes });
if (!warm.ok) throw new Error(warm.error.message);
interface Review {
  order: string;
  run: number;
  seconds: number;
  cpuSeconds: number;
  nodes: number;
  depth: number;
  noise: number;
  marked: number;
}
const results: Review[] = [];
const byOrder = await interleave(
  orders as ('backward' | 'forward')[],
  runs,
  async (order, round): Promise<Review> => {
    const { value: r, ms, cpuMs } = await timed(() => reviewGame(engines, { moves: BENCH_GAME }, { nodes, order }));
    const seconds = ms / 1000;
    const cpuSeconds = cpuMs / 1000;
    if (!r.ok) throw new Error(r.error.message);
    const searched = r.value.positions.filter((p) => p.terminal === null);
    const depth = searched.reduce((d, p) => d + p.depth, 0) / Math.max(1, searched.length);
    // The review's own noise: what the engine's best moves "lost" (0 for a consistent review), and the marked moves.
    const bestDrops = r.value.plies.filter((p) => p.classification === 'best').map((p) => p.drop);
    const noise = bestDrops.length > 0 ? Math.max(...bestDrops) : 0;
    const marked = r.value.plies.filter((p) => !['best', 'good'].includes(p.classification)).length;
    if (!cl.flag('json'))
      process.stdout.write(
        `${order.padEnd(8)} run ${round + 1}: ${seconds.toFixed(2)} s (CPU ${cpuSeconds.toFixed(2)} s), ${r.value.nodes} nodes, ` +
          `${Math.round(r.value.nodes / seconds)} nodes/s, mean depth ${depth.toFixed(1)}; ` +
          `accuracy red ${r.value.red.accuracy?.toFixed(1)}% black ${r.value.black.accuracy?.toFixed(1)}%, ` +
          `${marked} moves marked, best moves' largest drop ${noise.toFixed(3)}\n`,
      );
    return { order, run: round + 1, seconds, cpuSeconds, nodes: r.value.nodes, depth, noise, marked };
  },
  { each: (review) => results.push(review) },
);
await Promise.all(engines.map((e) => e.close()));
const summary = Object.fromEntries(orders.map((o, i) => [o, medianOf(byOrder[i], (r) => r.seconds)]));
if (cl.flag('json'))
  process.stdout.write(JSON.stringify({ nodes, threads, hash, plies: BENCH_GAME.length, results, summary }) + '\n');
else for (const o of orders) process.stdout.write(`${o}: median ${summary[o].toFixed(2)} s\n`);
