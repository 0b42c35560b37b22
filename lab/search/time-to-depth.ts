// Time to depth and nodes/second over the 49 bench positions, for one or more
// engine builds in one run (issue 22 item 7: a pure speed change keeps every
// search tree, so the same node counts in less time is its whole effect):
//
//   node dist/lab/search/time-to-depth.js --engine CMD [--engine CMD ...]
//        [--depth 13] [--rounds 1] [--positions 49] [--hash 16]
//        [--option NAME=VALUE ...] [--json]
//
// Each engine is one process for the whole run (started and warmed up like a
// GUI's). For every position: `ucinewgame`, `position fen`, `go depth D`; the
// engines take turns going first (by round and position) so that a change in
// the machine's load falls on all of them alike. The time of a depth is the
// `time` of the last `info` line of that depth with a `pv` (the iteration as it
// ended), as the engine itself measured it; nodes likewise. Per position the
// best round counts. Printed: per depth the summed time of each engine and the
// ratio to the first, the total nodes and nodes/second, the geometric mean of
// the per-position ratios, and whether the search trees were identical (the
// same node count at every depth of every position). A measurement on a shared
// machine, not a test.

import { loadavg } from 'node:os';
import { BENCH_FENS } from '../../src/protocol/benchpositions.js';
import { commandSpec, scriptCommandLine } from '../../toolkit/command-line.js';
import { exitWithError, isMain } from '../../toolkit/script.js';
import { UciEngine } from '../../commands/match/uci-engine.js';

const USAGE =
  'usage: node dist/lab/search/time-to-depth.js --engine CMD [--engine CMD ...] [--depth 13] [--rounds 1]\n' +
  '           [--positions 49] [--hash 16] [--option NAME=VALUE ...] [--json]';

/** One finished iteration as the engine reported it. */
export interface Iteration {
  depth: number;
  timeMs: number;
  nodes: number;
}

/**
 * The iterations of one search from its `info` lines: per depth the last line of
 * that depth that has a pv, with its time and nodes; in depth order. Lines
 * without depth, time, nodes or pv (currmove, strings, hashfull) are skipped.
 */
export function parseIterations(lines: readonly string[]): Iteration[] {
  const byDepth = new Map<number, Iteration>();
  for (const line of lines) {
    if (!line.startsWith('info ') || !/\spv\s/.test(line + ' ')) continue;
    const depth = /\sdepth\s+(\d+)/.exec(line);
    const time = /\stime\s+(\d+)/.exec(line);
    const nodes = /\snodes\s+(\d+)/.exec(line);
    if (!depth || !time || !nodes) continue;
    const d = Number(depth[1]);
    byDepth.set(d, { depth: d, timeMs: Number(time[1]), nodes: Number(nodes[1]) });
  }
  return [...byDepth.values()].sort((a, b) => a.depth - b.depth);
}

/** What one engine did on one position in its best round. */
interface PositionResult {
  iterations: Iteration[];
  /** Whether every round reported the same nodes at every depth. */
  stable: boolean;
}

/** Per engine, per position: the best round (by time to the last depth). */
type Results = PositionResult[][];

/** The summary of a run: per depth the summed time of each engine, totals and ratios. */
export interface Summary {
  depth: number;
  engines: string[];
  /** perDepth[d - 1][e]: summed time (ms) to depth d of engine e over the positions that reached it in every engine. */
  perDepth: number[][];
  /** Total nodes of each engine at the last depth. */
  nodes: number[];
  /** Summed time of each engine to the last depth. */
  timeMs: number[];
  /** nodes / timeMs * 1000. */
  nps: number[];
  /** Geometric mean over positions of engine e's time to the last depth over the first engine's. */
  geoMeanRatio: number[];
  /** Positions whose node counts differ from the first engine's at some depth. */
  differentTrees: number[];
  /** Positions where an engine's rounds disagreed with each other (a search that is not deterministic). */
  unstable: number[];
}

/** Sums up results (engines x positions). */
export function summarise(engines: string[], depth: number, results: Results): Summary {
  const positions = results[0].length;
  const perDepth: number[][] = [];
  for (let d = 1; d <= depth; d++) {
    const row = engines.map(() => 0);
    for (let p = 0; p < positions; p++) {
      const at = results.map((r) => r[p].iterations.find((it) => it.depth === d));
      if (at.some((it) => it === undefined)) continue;
      at.forEach((it, e) => (row[e] += it!.timeMs));
    }
    perDepth.push(row);
  }
  const last = (r: PositionResult): Iteration | undefined => r.iterations.find((it) => it.depth === depth);
  const nodes = results.map((r) => r.reduce((s, x) => s + (last(x)?.nodes ?? 0), 0));
  const timeMs = results.map((r) => r.reduce((s, x) => s + (last(x)?.timeMs ?? 0), 0));
  const nps = nodes.map((n, e) => (timeMs[e] > 0 ? Math.round((n * 1000) / timeMs[e]) : 0));
  const geoMeanRatio = results.map((r) => {
    let sum = 0;
    let n = 0;
    for (let p = 0; p < positions; p++) {
      const a = last(results[0][p]);
      const b = last(r[p]);
      if (!a || !b || a.timeMs <= 0 || b.timeMs <= 0) continue;
      sum += Math.log(b.timeMs / a.timeMs);
      n++;
    }
    return n > 0 ? Math.exp(sum / n) : NaN;
  });
  const sameTree = (a: Iteration[], b: Iteration[]): boolean =>
    a.length === b.length && a.every((it, i) => it.depth === b[i].depth && it.nodes === b[i].nodes);
  const differentTrees = results.map((r) =>
    r.reduce((s, x, p) => s + (sameTree(x.iterations, results[0][p].iterations) ? 0 : 1), 0),
  );
  const unstable = results.map((r) => r.reduce((s, x) => s + (x.stable ? 0 : 1), 0));
  return { depth, engines, perDepth, nodes, timeMs, nps, geoMeanRatio, differentTrees, unstable };
}

/** The summary as a table. */
export function formatSummary(s: Summary): string {
  const out: string[] = [];
  const w = 14;
  const pad = (x: string): string => x.padStart(w);
  s.engines.forEach((e, i) => out.push(`engine ${i + 1}: ${e}`));
  out.push('');
  out.push(
    'depth' +
      s.engines.map((_, i) => pad(`#${i + 1} ms`)).join('') +
      s.engines
        .slice(1)
        .map((_, i) => pad(`#${i + 2}/#1`))
        .join(''),
  );
  s.perDepth.forEach((row, d) => {
    const ratios = row.slice(1).map((t) => pad(row[0] > 0 ? (t / row[0]).toFixed(3) : '-'));
    out.push(String(d + 1).padStart(5) + row.map((t) => pad(String(t))).join('') + ratios.join(''));
  });
  out.push('');
  s.engines.forEach((_, i) => {
    const parts = [
      `engine ${i + 1}: nodes ${s.nodes[i]}`,
      `time to depth ${s.depth} ${s.timeMs[i]} ms`,
      `${s.nps[i]} nodes/s`,
    ];
    if (i > 0) {
      parts.push(`time ratio to #1 ${(s.timeMs[i] / s.timeMs[0]).toFixed(3)}`);
      parts.push(`geometric mean of per-position ratios ${s.geoMeanRatio[i].toFixed(3)}`);
      parts.push(
        s.differentTrees[i] === 0
          ? 'same search trees as #1'
          : `search trees differ from #1 in ${s.differentTrees[i]} positions`,
      );
    }
    if (s.unstable[i] > 0) parts.push(`rounds disagreed in ${s.unstable[i]} positions`);
    out.push(parts.join(', '));
  });
  return out.join('\n');
}

async function main(): Promise<void> {
  const cl = scriptCommandLine(
    process.argv.slice(2),
    commandSpec({
      name: 'time-to-depth',
      usage: USAGE,
      options: {
        engine: { type: 'string', multiple: true },
        option: { type: 'string', multiple: true },
        depth: { type: 'string' },
        rounds: { type: 'string' },
        positions: { type: 'string' },
        hash: { type: 'string' },
        json: { type: 'boolean' },
      },
    }),
  );
  const commands = cl.values.engine ?? [];
  if (commands.length === 0) exitWithError('time-to-depth', `--engine is needed\n${USAGE}`, 2);
  const depth = cl.integer('depth', 13, { min: 1, max: 60 });
  const rounds = cl.integer('rounds', 1, { min: 1, max: 100 });
  const fens = BENCH_FENS.filter((f) => !f.startsWith('setoption'));
  const count = cl.integer('positions', fens.length, { min: 1, max: fens.length });
  const hash = String(cl.integer('hash', 16, { min: 1, max: 1 << 20 }));
  const options: Array<[string, string]> = [
    ['Hash', hash],
    ['Threads', '1'],
  ];
  options.push(...cl.nameValues('option'));

  const lines: string[][] = commands.map(() => []);
  const engines = commands.map(
    (command, i) =>
      new UciEngine({ command, options }, (_engine, dir, line) => {
        if (dir === '<' && line.startsWith('info ')) lines[i].push(line);
      }),
  );
  for (const [i, e] of engines.entries()) {
    const started = await e.start(30000);
    if (!started.ok) exitWithError('time-to-depth', `engine ${i + 1}: ${started.error.message}`);
  }
  const load0 = loadavg()[0];
  const results: Results = commands.map(() => []);
  for (let round = 0; round < rounds; round++) {
    for (let p = 0; p < count; p++) {
      const order = engines.map((_, i) => i);
      if ((round + p) % 2 === 1) order.reverse();
      for (const i of order) {
        const e = engines[i];
        const ready = await e.newGame(30000);
        if (ready !== true) exitWithError('time-to-depth', `engine ${i + 1}: no readyok after ucinewgame`);
        lines[i].length = 0;
        const r = await e.go(`position fen ${fens[p]}`, `go depth ${depth}`, 3_600_000);
        if (r.kind !== 'move') exitWithError('time-to-depth', `engine ${i + 1}, position ${p + 1}: ${r.kind}`);
        const its = parseIterations(lines[i]);
        const prev = results[i][p] as PositionResult | undefined;
        if (!prev) {
          results[i][p] = { iterations: its, stable: true };
          continue;
        }
        const same =
          prev.iterations.length === its.length && prev.iterations.every((it, k) => it.nodes === its[k].nodes);
        const t = (x: Iteration[]): number => x[x.length - 1]?.timeMs ?? Infinity;
        results[i][p] = {
          iterations: t(its) < t(prev.iterations) ? its : prev.iterations,
          stable: prev.stable && same,
        };
      }
      if (!cl.flag('json')) process.stderr.write(`\rround ${round + 1}/${rounds}, position ${p + 1}/${count}   `);
    }
  }
  if (!cl.flag('json')) process.stderr.write('\n');
  for (const e of engines) await e.quit();
  const summary = summarise(commands, depth, results);
  if (cl.flag('json')) {
    console.log(JSON.stringify({ ...summary, load: [load0, loadavg()[0]] }));
    return;
  }
  console.log(formatSummary(summary));
  console.log(`load average ${load0.toFixed(2)} before, ${loadavg()[0].toFixed(2)} after`);
}

if (isMain(import.meta.url)) {
  main().catch((e: unknown) => exitWithError('time-to-depth', e instanceof Error ? e.message : String(e)));
}
