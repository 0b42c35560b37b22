// First-move benchmark in the browser (issue 22 item 4, "in the page"): what
// lab/protocol/first-move-bench does for fresh processes, done for fresh pages
// of headless Chromium with the page's build (web bundles, search thread in a
// Web Worker, served cross-origin isolated). Each page imports the library as
// the page does, makes `new Engine({ warmup: true })` with the default
// (embedded) evaluation and waits for `ready()`: the time from the page's start
// (navigation) to ready is printed. Then --runs searches `go movetime` from the
// start position, each after a new game; prints the nodes of each, go #1 / go
// #last per page, and the medians.
//
//   node dist/lab/web/first-move-page.js [--pages 3] [--runs 4] [--movetime 1000] [--json]
//
// Pages after the first share the browser's caches (compiled scripts and
// WebAssembly), as a returning player's would. A measurement, not a test.

import { chromiumMissing, openIsolatedSite } from './isolated-site.js';
import { commandSpec, integerOption, readCommandLine, reportCommandLine } from '../../toolkit/command-line.js';
import { runMain } from '../../toolkit/script.js';
import { medianOf, repeat } from '../timing.js';

/** What one fresh page measured. */
export interface PageRun {
  /** Milliseconds from the page's start (navigation) to the library's module being imported. */
  importedMs: number;
  /** Milliseconds from the page's start (navigation) to the engine's ready(). */
  readyMs: number;
  /** The search thread's evaluation. */
  evaluation: string;
  /** Nodes and depth of each search. */
  searches: { nodes: number; depth: number }[];
}

/** go #1 over go #last of a page. */
export function firstOverLast(run: PageRun): number {
  const last = run.searches[run.searches.length - 1]?.nodes ?? 0;
  return last > 0 ? run.searches[0].nodes / last : NaN;
}

const SPEC = commandSpec({
  name: 'first-move-page',
  usage: 'usage: node dist/lab/web/first-move-page.js [--pages 3] [--runs 4] [--movetime 1000] [--json]',
  options: {
    pages: { type: 'string' },
    runs: { type: 'string' },
    movetime: { type: 'string' },
    json: { type: 'boolean' },
  },
});

async function main(argv: string[]): Promise<number> {
  const cl = readCommandLine(argv, SPEC);
  if (!cl.ok) return reportCommandLine(SPEC, cl.error);
  const a = cl.value.values;
  const numbers: Record<string, number> = {};
  for (const [name, def, min] of [
    ['pages', 3, 1],
    ['runs', 4, 2],
    ['movetime', 1000, 1],
  ] as const) {
    const v = integerOption(a, name, def, { min });
    if (!v.ok) return reportCommandLine(SPEC, v.error);
    numbers[name] = v.value;
  }
  if (chromiumMissing('first-move-page')) return 1;
  const site = await openIsolatedSite('first-move-page', 'Kirin first move');
  let runs: PageRun[];
  try {
    runs = await repeat(numbers.pages, async (p) => {
      const { page, errors } = await site.openPage();
      const run = (await page.evaluate(
        async ([runs, movetime]) => {
          interface Lib {
            Engine: new (c: { warmup: boolean }) => {
              ready(): Promise<void>;
              newGame(): void;
              setPosition(fen: string, moves: string[]): { ok: boolean; error?: { message: string } };
              go(l: { movetime: number; startTime: number }): Promise<{ nodes: number; depth: number }>;
              searchThreadEvaluation(): Promise<{ evaluation: string }>;
              close(): Promise<void>;
            };
            START_FEN: string;
          }
          const lib = (await import('/dist/kirin.js' as string)) as Lib;
          const importedMs = performance.now();
          const engine = new lib.Engine({ warmup: true });
          await engine.ready();
          const readyMs = performance.now();
          const searches: { nodes: number; depth: number }[] = [];
          for (let i = 0; i < runs; i++) {
            engine.newGame();
            const set = engine.setPosition(lib.START_FEN, []);
            if (!set.ok) throw new Error(set.error?.message);
            const r = await engine.go({ movetime, startTime: Date.now() });
            searches.push({ nodes: r.nodes, depth: r.depth });
          }
          const evaluation = (await engine.searchThreadEvaluation()).evaluation;
          await engine.close();
          return { importedMs, readyMs, evaluation, searches };
        },
        [numbers.runs, numbers.movetime] as const,
      )) as PageRun;
      await page.close();
      if (errors.length > 0) throw new Error(`page errors: ${errors.join('; ')}`);
      if (a.json !== true) {
        process.stdout.write(
          `page ${String(p + 1).padStart(2)}  imported ${Math.round(run.importedMs)} ms  ready ${Math.round(run.readyMs)} ms  nodes` +
            run.searches.map((s) => ` ${String(s.nodes).padStart(8)} d${s.depth}`).join('') +
            `  #1/#${run.searches.length} ${firstOverLast(run).toFixed(2)}\n`,
        );
      }
      return run;
    });
  } finally {
    await site.close();
  }
  const ratio = medianOf(runs, firstOverLast);
  const ready = medianOf(runs, (r) => r.readyMs);
  if (a.json === true) {
    process.stdout.write(JSON.stringify({ runs, medianFirstOverLast: ratio, medianReadyMs: ready }) + '\n');
  } else {
    process.stdout.write(
      `go movetime ${numbers.movetime} from the start position, ${numbers.runs} searches per fresh page; ` +
        `evaluation ${runs[0]?.evaluation ?? '?'}; median #1/#${numbers.runs} ${ratio.toFixed(2)}, ` +
        `median ready ${Math.round(ready)} ms after the page started\n`,
    );
  }
  return 0;
}

runMain(import.meta.url, main);
