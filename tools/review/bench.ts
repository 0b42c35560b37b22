#!/usr/bin/env node
// Review benchmark: the seconds `reviewGame` takes over a 100-ply game
// (bench-game.ts) at --nodes a position with --threads search threads, in each
// --order (the last position first, as `kirin review` does, and the first
// first), each from an empty hash, --runs times. Prints one line per review and
// the median per order. At a node limit the order changes what the searches
// see (the mean depth they reach), not how many nodes they search. The target: 100 plies at 100,000 nodes with
// Threads 2 under 30 s on Node.
//
//   node dist/tools/review/bench.js [--nodes 100000] [--threads 2] [--hash 64]
//       [--order backward,forward] [--runs 1] [--json]
//
// A measurement, not a test: the numbers depend on the machine and its load.

import { Engine, reviewGame } from '../../src/dev.js';
import { commandSpec, median, scriptCommandLine } from '../lib.js';
import { BENCH_GAME } from './bench-game.js';

const USAGE = `usage: node dist/tools/review/bench.js [--nodes 100000] [--threads 2] [--hash 64]
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
const hash = cl.integer('hash', 64, { min: 1, max: 65536 });
const runs = cl.integer('runs', 1, { min: 1, max: 100 });
const orders = cl.string('order', 'backward,forward').split(',');
for (const o of orders)
  if (o !== 'backward' && o !== 'forward') {
    process.stderr.write(`review-bench: --order ${o}: not backward or forward\n${USAGE}\n`);
    process.exit(2);
  }

const engine = new Engine();
for (const [name, value] of [
  ['Threads', threads],
  ['Hash', hash],
] as const) {
  const set = engine.options.set(name, String(value));
  if (!set.ok) throw new Error(set.error.message);
}
await engine.ready();
const results: { order: string; run: number; seconds: number; nodes: number; depth: number }[] = [];
for (let run = 1; run <= runs; run++)
  for (const order of orders as ('backward' | 'forward')[]) {
    const t0 = performance.now();
    const r = await reviewGame(engine, { moves: BENCH_GAME }, { nodes, order });
    const seconds = (performance.now() - t0) / 1000;
    if (!r.ok) throw new Error(r.error.message);
    const searched = r.value.positions.filter((p) => p.terminal === null);
    const depth = searched.reduce((d, p) => d + p.depth, 0) / Math.max(1, searched.length);
    results.push({ order, run, seconds, nodes: r.value.nodes, depth });
    if (!cl.flag('json'))
      process.stdout.write(
        `${order.padEnd(8)} run ${run}: ${seconds.toFixed(2)} s, ${r.value.nodes} nodes, ` +
          `${Math.round(r.value.nodes / seconds)} nodes/s, mean depth ${depth.toFixed(1)}; ` +
          `accuracy red ${r.value.red.accuracy?.toFixed(1)}% ` +
          `black ${r.value.black.accuracy?.toFixed(1)}%, blunders ${r.value.red.blunders}/${r.value.black.blunders}\n`,
      );
  }
await engine.close();
const summary = Object.fromEntries(
  orders.map((o) => [o, median(results.filter((r) => r.order === o).map((r) => r.seconds))]),
);
if (cl.flag('json'))
  process.stdout.write(JSON.stringify({ nodes, threads, hash, plies: BENCH_GAME.length, results, summary }) + '\n');
else for (const o of orders) process.stdout.write(`${o}: median ${summary[o].toFixed(2)} s\n`);
