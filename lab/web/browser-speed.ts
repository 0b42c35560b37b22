// Search speed in the browser against Node, in one run: the same fixed searches
// (`go depth N` on the first bench positions, a new game before each, one
// thread) by the library in headless Chromium (the page's build: web bundles,
// search thread in a Web Worker, served cross-origin isolated) and by the
// library in this Node process, with the classical evaluation and with the
// synthetic seed-1 network. Prints nodes/s of each and the browser/Node ratio,
// the evaluation (and kernels) each search thread used, and whether both
// searched the same trees (the node counts are deterministic with one thread).
// A measurement, not a test: run it alone (flock /work/wt/cpu.lock ...).
//
//   node dist/lab/web/browser-speed.js [--depth 10] [--positions 6] [--classical-only] [--cold]
//
// --cold: no warm-up search before the measured ones (what a page's first
// searches see); by default both sides run the engine's warm-up first.

import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Engine } from '../../src/dev.js';
import { BENCH_FENS } from '../../src/protocol/benchpositions.js';
import { syntheticNetFile } from '../../toolkit/nnue/synthetic-net.js';
import { chromiumMissing, openIsolatedSite } from './isolated-site.js';
import { commandSpec, integerOption, readCommandLine, reportCommandLine } from '../../toolkit/command-line.js';
import { runMain } from '../../toolkit/script.js';

export interface SpeedRun {
  /** The search thread's evaluation (with the kernels it uses). */
  evaluation: string;
  /** Per position: nodes and wall milliseconds of the `go`. */
  searches: { nodes: number; ms: number }[];
}

export interface SpeedJob {
  fens: string[];
  depth: number;
  /** URL (browser) or path (Node) of a network; null: classical. */
  net: string | null;
  warmup: boolean;
}

/** Nodes per second over a run. */
export function nps(run: SpeedRun): number {
  const nodes = run.searches.reduce((a, s) => a + s.nodes, 0);
  const ms = run.searches.reduce((a, s) => a + s.ms, 0);
  return Math.round((nodes * 1000) / Math.max(ms, 1));
}

/**
 * The measured searches, written to run where `Engine` is given: the same code
 * runs in Node and, serialised, in the page (no closures over this module).
 */
async function measure(
  EngineClass: typeof Engine,
  job: SpeedJob,
  netBytes: () => Promise<Uint8Array | null>,
): Promise<SpeedRun> {
  const engine = new EngineClass({ warmup: job.warmup });
  try {
    if (job.warmup) await engine.ready();
    const bytes = await netBytes();
    if (bytes) {
      const r = engine.loadNetworkBytes(bytes, 'seed1.nnue');
      if (!r.ok) throw new Error(r.error.message);
    }
    const evaluation = (await engine.searchThreadEvaluation()).evaluation;
    const searches: { nodes: number; ms: number }[] = [];
    for (const fen of job.fens) {
      engine.newGame();
      const set = engine.setPosition(fen, []);
      if (!set.ok) throw new Error(set.error.message);
      const t0 = performance.now();
      const r = await engine.go({ depth: job.depth, startTime: Date.now() });
      searches.push({ nodes: r.nodes, ms: performance.now() - t0 });
    }
    return { evaluation, searches };
  } finally {
    await engine.close();
  }
}

/** The same measurement in this Node process. */
export function measureNode(job: SpeedJob): Promise<SpeedRun> {
  return measure(Engine, job, () => Promise.resolve(job.net ? new Uint8Array(readFileSync(job.net)) : null));
}

function printRow(label: string, node: SpeedRun, web: SpeedRun): void {
  const n = nps(node),
    w = nps(web);
  const same = node.searches.every((s, i) => s.nodes === web.searches[i]?.nodes);
  const nodes = node.searches.reduce((a, s) => a + s.nodes, 0);
  process.stdout.write(
    `${label.padEnd(10)} Node ${String(n).padStart(8)} nodes/s   browser ${String(w).padStart(8)} nodes/s   ` +
      `browser/Node ${(w / n).toFixed(2)}   (${nodes} nodes each; same trees: ${same ? 'yes' : 'NO'})\n`,
  );
  process.stdout.write(`           Node:    ${node.evaluation}\n           browser: ${web.evaluation}\n`);
}

const SPEC = commandSpec({
  name: 'browser-speed',
  usage: 'usage: node dist/lab/web/browser-speed.js [--depth 10] [--positions 6] [--classical-only] [--cold]',
  options: {
    depth: { type: 'string' },
    positions: { type: 'string' },
    'classical-only': { type: 'boolean' },
    cold: { type: 'boolean' },
  },
});

async function main(argv: string[]): Promise<number> {
  const cl = readCommandLine(argv, SPEC);
  if (!cl.ok) return reportCommandLine(SPEC, cl.error);
  const a = cl.value.values;
  const depthOpt = integerOption(a, 'depth', 10, { min: 1 });
  const positionsOpt = integerOption(a, 'positions', 6, { min: 1 });
  if (!depthOpt.ok) return reportCommandLine(SPEC, depthOpt.error);
  if (!positionsOpt.ok) return reportCommandLine(SPEC, positionsOpt.error);
  const depth = depthOpt.value;
  const fens = BENCH_FENS.slice(0, Math.min(positionsOpt.value, BENCH_FENS.length));
  const warmup = a.cold !== true;
  const evaluations = a['classical-only'] ? ['classical'] : ['classical', 'nnue'];
  if (chromiumMissing('browser-speed')) return 1;
  const netPath = syntheticNetFile(1);
  const site = await openIsolatedSite('browser-speed', 'Kirin speed', [netPath]);
  const served: string[] = [];
  site.server.on('request', (req: { url?: string }) => served.push(req.url ?? ''));
  try {
    const { page, errors } = await site.openPage();
    process.stdout.write(
      `# ${fens.length} bench positions, go depth ${depth}, 1 thread, new game before each; ` +
        `${warmup ? 'after the warm-up search' : 'cold (no warm-up)'}\n` +
        `# browser: ${String(await page.evaluate('navigator.userAgent'))}\n# Node ${process.version}\n`,
    );
    for (const ev of evaluations) {
      const netUrl = ev === 'nnue' ? `/dist/${basename(netPath)}` : null;
      const job: SpeedJob = { fens, depth, net: netUrl, warmup };
      const source = measure.toString();
      const web = (await page.evaluate(
        async ([src, j]) => {
          // The library as the page loads it; `measure` above, serialised.
          const lib = (await import('/dist/kirin.js' as string)) as { Engine: unknown };
          const fn = new Function(`return (${src as string})`)() as (
            e: unknown,
            job: unknown,
            bytes: () => Promise<Uint8Array | null>,
          ) => Promise<SpeedRun>;
          const job = j as SpeedJob;
          return fn(lib.Engine, job, async () =>
            job.net ? new Uint8Array(await (await fetch(job.net)).arrayBuffer()) : null,
          );
        },
        [source, job] as const,
      )) as SpeedRun;
      const node = await measureNode({ ...job, net: ev === 'nnue' ? netPath : null });
      printRow(ev, node, web);
    }
    const wasm = served.filter((u) => u.endsWith('.wasm'));
    process.stdout.write(`# kernel modules the browser fetched: ${wasm.join(', ') || 'none'}\n`);
    if (errors.length > 0) process.stdout.write(`# page errors: ${errors.join('; ')}\n`);
    return 0;
  } finally {
    await site.close();
  }
}

runMain(import.meta.url, main);
