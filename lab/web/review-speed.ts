// Game review in the browser against Node, in one run: the review benchmark's
// 100-ply game (lab/review/bench-game.ts) reviewed by the library's
// reviewGame at --nodes a position, by the library in headless Chromium (the
// page's build: search thread in a Web Worker, served cross-origin isolated:
// what the page's "Review game" runs) and by the library in this Node process,
// each with --threads search threads, after the engine's warm-up, from an empty
// hash. Prints the seconds of each, the browser/Node ratio, and whether both
// reviews came out the same (with one thread and a node limit they search the
// same trees: the same nodes, scores and marks). The target: the page
// no slower than 1.5 x Node.
//
// A measurement, not a test: run it alone (flock /work/wt/cpu.lock ...).
//
//   node dist/lab/web/review-speed.js [--nodes 100000] [--threads 1] [--runs 1]

import { performance } from 'node:perf_hooks';
import { Engine, reviewGame } from '../../src/dev.js';
import { commandSpec, scriptCommandLine } from '../../toolkit/command-line.js';
import { runMain } from '../../toolkit/script.js';
import { medianOf, repeat } from '../timing.js';
import { BENCH_GAME } from '../review/bench-game.js';
import { chromiumMissing, openIsolatedSite } from './isolated-site.js';

export interface ReviewRun {
  evaluation: string;
  seconds: number;
  nodes: number;
  /** Per ply: its class and the nodes of the position before it (to compare the two reviews). */
  plies: string[];
  red: number | null;
  black: number | null;
}

interface ReviewJob {
  moves: readonly string[];
  nodes: number;
  threads: number;
}

/**
 * The measured review, written to run where `Engine` and `reviewGame` are
 * given: the same code runs in Node and, serialised, in the page (no closures
 * over this module).
 */
async function measure(EngineClass: typeof Engine, review: typeof reviewGame, job: ReviewJob): Promise<ReviewRun> {
  const engine = new EngineClass({ warmup: true });
  try {
    const t = engine.options.set('Threads', String(job.threads));
    if (!t.ok) throw new Error(t.error.message);
    await engine.ready();
    const evaluation = (await engine.searchThreadEvaluation()).evaluation;
    const t0 = performance.now();
    const r = await review(engine, { moves: job.moves }, { nodes: job.nodes });
    const seconds = (performance.now() - t0) / 1000;
    if (!r.ok) throw new Error(r.error.message);
    return {
      evaluation,
      seconds,
      nodes: r.value.nodes,
      plies: r.value.plies.map((p, i) => `${p.classification}:${r.value.positions[i].nodes}`),
      red: r.value.red.accuracy,
      black: r.value.black.accuracy,
    };
  } finally {
    await engine.close();
  }
}

const SPEC = commandSpec({
  name: 'review-speed',
  usage: 'usage: node dist/lab/web/review-speed.js [--nodes 100000] [--threads 1] [--runs 1]',
  options: {
    nodes: { type: 'string' },
    threads: { type: 'string' },
    runs: { type: 'string' },
  },
});

function describe(label: string, r: ReviewRun): string {
  return (
    `${label.padEnd(8)} ${r.seconds.toFixed(2).padStart(7)} s  ${String(r.nodes).padStart(9)} nodes  ` +
    `${String(Math.round(r.nodes / r.seconds)).padStart(7)} nodes/s  accuracy red ${r.red?.toFixed(1)} black ${r.black?.toFixed(1)}`
  );
}

async function main(argv: string[]): Promise<number> {
  const cl = scriptCommandLine(argv, SPEC);
  const job: ReviewJob = {
    moves: BENCH_GAME,
    nodes: cl.integer('nodes', 100000, { min: 1 }),
    threads: cl.integer('threads', 1, { min: 1, max: 256 }),
  };
  const runs = cl.integer('runs', 1, { min: 1, max: 100 });
  if (chromiumMissing('review-speed')) return 1;
  const site = await openIsolatedSite('review-speed', 'Kirin review speed');
  try {
    const { page, errors } = await site.openPage();
    process.stdout.write(
      `# the review benchmark's game (${BENCH_GAME.length} plies), ${job.nodes} nodes a position, ` +
        `${job.threads} thread${job.threads > 1 ? 's' : ''}, after the warm-up\n` +
        `# browser: ${String(await page.evaluate('navigator.userAgent'))}\n# Node ${process.version}\n`,
    );
    const ratios = await repeat(runs, async (round) => {
      const web = (await page.evaluate(
        async ([src, j]) => {
          // The library as the page loads it; `measure` above, serialised.
          const lib = (await import('/dist/kirin.js' as string)) as { Engine: unknown; reviewGame: unknown };
          const fn = new Function(`return (${src as string})`)() as (
            e: unknown,
            r: unknown,
            job: unknown,
          ) => Promise<ReviewRun>;
          return fn(lib.Engine, lib.reviewGame, j);
        },
        [measure.toString(), job] as const,
      )) as ReviewRun;
      const node = await measure(Engine, reviewGame, job);
      const same = web.plies.length === node.plies.length && web.plies.every((p, i) => p === node.plies[i]);
      process.stdout.write(
        `run ${round + 1}\n${describe('Node', node)}\n${describe('browser', web)}\n` +
          `browser/Node time ${(web.seconds / node.seconds).toFixed(2)}; the same review (nodes and marks of every ply): ` +
          `${same ? 'yes' : 'NO'}\n  Node:    ${node.evaluation}\n  browser: ${web.evaluation}\n`,
      );
      return web.seconds / node.seconds;
    });
    if (runs > 1) process.stdout.write(`median browser/Node time ${medianOf(ratios, (r) => r).toFixed(2)}\n`);
    if (errors.length > 0) process.stdout.write(`# page errors: ${errors.join('; ')}\n`);
    return 0;
  } finally {
    await site.close();
  }
}

runMain(import.meta.url, main);
