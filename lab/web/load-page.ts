// Network loading time in the browser (issue 22 item 3, "in the browser"): what
// lab/nnue/load-bench does in a fresh Node process, done in fresh pages of
// headless Chromium with the page's build (web bundles, served cross-origin
// isolated, so the network memory is shared and the page helper touches it).
// Each page imports the library as the page does, awaits
// prepareNetworkDecoder() and the engine's ready(), fetches the network's bytes
// (timed apart: a download, not a load), then times Engine.loadNetworkBytes
// --loads times. Prints each page's times and the medians of the first and of
// the later loads.
//
//   node dist/lab/web/load-page.js [network file] [--pages 3] [--loads 2] [--json]
//
// Without a file: the synthetic seed-1 network (stored zstd blocks). Pages
// after the first share the browser's caches (compiled scripts and
// WebAssembly). A measurement, not a test: run it alone.

import { existsSync } from 'node:fs';
import { basename } from 'node:path';
import { syntheticNetFile } from '../../toolkit/nnue/synthetic-net.js';
import { chromiumMissing, openIsolatedSite } from './isolated-site.js';
import { commandSpec, integerOption, readCommandLine, reportCommandLine } from '../../toolkit/command-line.js';
import { median } from '../../toolkit/stats.js';
import { runMain } from '../../toolkit/script.js';
import { medianOf, repeat } from '../timing.js';

/** What one fresh page measured (milliseconds). */
interface PageLoads {
  fetchMs: number;
  loadsMs: number[];
  evaluation: string;
}

const SPEC = commandSpec({
  name: 'load-page',
  usage: 'usage: node dist/lab/web/load-page.js [network file] [--pages 3] [--loads 2] [--json]',
  options: { pages: { type: 'string' }, loads: { type: 'string' }, json: { type: 'boolean' } },
  positionals: { min: 0, max: 1 },
});

async function main(argv: string[]): Promise<number> {
  const cl = readCommandLine(argv, SPEC);
  if (!cl.ok) return reportCommandLine(SPEC, cl.error);
  const a = cl.value.values;
  const pages = integerOption(a, 'pages', 3, { min: 1 });
  if (!pages.ok) return reportCommandLine(SPEC, pages.error);
  const loads = integerOption(a, 'loads', 2, { min: 1 });
  if (!loads.ok) return reportCommandLine(SPEC, loads.error);
  if (chromiumMissing('load-page')) return 1;
  const file = cl.value.positionals[0] ?? syntheticNetFile(1);
  if (!existsSync(file)) {
    process.stderr.write(`load-page: network file '${file}' was not found\n`);
    return 1;
  }
  const site = await openIsolatedSite('load-page', 'Kirin network load', [file]);
  let runs: PageLoads[];
  try {
    runs = await repeat(pages.value, async (p) => {
      const { page, errors } = await site.openPage();
      const run = (await page.evaluate(
        async ([n, name]) => {
          interface Lib {
            prepareNetworkDecoder(): Promise<boolean>;
            Engine: new (c: { warmup: boolean }) => {
              ready(): Promise<void>;
              loadNetworkBytes(b: Uint8Array, name: string): { ok: boolean; error?: { message: string } };
              evaluationName(): string;
              close(): Promise<void>;
            };
          }
          const lib = (await import('/dist/kirin.js' as string)) as Lib;
          await lib.prepareNetworkDecoder();
          const engine = new lib.Engine({ warmup: false });
          await engine.ready();
          const f0 = performance.now();
          const bytes = new Uint8Array(await (await fetch(`/dist/${name}`)).arrayBuffer());
          const fetchMs = performance.now() - f0;
          const loadsMs: number[] = [];
          for (let i = 0; i < n; i++) {
            const t0 = performance.now();
            const r = engine.loadNetworkBytes(bytes, name);
            loadsMs.push(performance.now() - t0);
            if (!r.ok) throw new Error(r.error?.message);
          }
          const evaluation = engine.evaluationName();
          await engine.close();
          return { fetchMs, loadsMs, evaluation };
        },
        [loads.value, basename(file)] as const,
      )) as PageLoads;
      await page.close();
      if (errors.length > 0) throw new Error(`page errors: ${errors.join('; ')}`);
      if (a.json !== true) {
        process.stdout.write(
          `page ${String(p + 1).padStart(2)}  fetch ${Math.round(run.fetchMs)} ms  loads` +
            run.loadsMs.map((ms) => ` ${Math.round(ms)}`).join('') +
            ` ms  (${run.evaluation})\n`,
        );
      }
      return run;
    });
  } finally {
    await site.close();
  }
  const first = medianOf(runs, (r) => r.loadsMs[0]);
  const later = runs.flatMap((r) => r.loadsMs.slice(1));
  if (a.json === true) {
    process.stdout.write(
      JSON.stringify({ file, runs, medianFirstMs: first, medianLaterMs: later.length ? median(later) : null }) + '\n',
    );
  } else {
    process.stdout.write(
      `${file}: Engine.loadNetworkBytes in fresh pages, median first load ${Math.round(first)} ms` +
        (later.length ? `, later loads ${Math.round(median(later))} ms` : '') +
        '\n',
    );
  }
  return 0;
}

runMain(import.meta.url, main);
