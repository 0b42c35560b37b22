// What the page costs to load, in bytes, counted where a host would count
// them: the body bytes the local server (scripts/web/serve.ts) sends for each
// path. In fresh headless Chromium:
//
//   first search   from opening the page until Kirin's first analysis line
//                  (and the time it took)
//                  (the page made cross-origin isolated first: by the host's
//                  headers, or by its service worker and one reload)
//   first visit    the same, and until the service worker is active (its
//                  offline copy stored)
//   offline cache  the bytes in the page's caches (Cache Storage)
//   reload         a second load of the page, online
//
//   node dist/lab/web/page-bytes.js [--site DIR] [--plain] [--json]
//
// --site serves a built site (index.html, style.css, dist/, sw.js: `node
// dist/scripts/web/build.js --site DIR`, or an older build's copy, to compare);
// without it the page is built into a temporary folder. --plain serves without
// the COOP/COEP headers, as a plain static host. The page is driven through
// its #analysis checkbox and #lines. A measurement, not a test.

import { mkdtempSync, rmSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { buildSite } from '../../scripts/web/build.js';
import { serveWeb } from '../../scripts/web/serve.js';
import { launchChromium } from './chromium.js';
import { chromiumMissing } from './isolated-site.js';
import { commandSpec, readCommandLine, reportCommandLine } from '../../toolkit/command-line.js';
import { runMain } from '../../toolkit/script.js';

/** Body bytes and requests by path, as the server sent them. */
type Tally = Map<string, { bytes: number; requests: number; notModified: number }>;

function countBodies(tally: Tally) {
  return (req: IncomingMessage, res: ServerResponse): void => {
    let bytes = 0;
    const write = res.write.bind(res) as (chunk: unknown, ...rest: unknown[]) => boolean;
    const end = res.end.bind(res) as (chunk?: unknown, ...rest: unknown[]) => ServerResponse;
    const size = (chunk: unknown): number =>
      typeof chunk === 'string' ? Buffer.byteLength(chunk) : chunk instanceof Uint8Array ? chunk.length : 0;
    res.write = ((chunk: unknown, ...rest: unknown[]) => {
      bytes += size(chunk);
      return write(chunk, ...rest);
    }) as typeof res.write;
    res.end = ((chunk?: unknown, ...rest: unknown[]) => {
      if (typeof chunk !== 'function') bytes += size(chunk);
      return end(chunk, ...rest);
    }) as typeof res.end;
    res.on('finish', () => {
      const path = new URL(req.url ?? '/', 'http://x').pathname;
      const t = tally.get(path) ?? { bytes: 0, requests: 0, notModified: 0 };
      t.bytes += bytes;
      t.requests += 1;
      if (res.statusCode === 304) t.notModified += 1;
      tally.set(path, t);
    });
  };
}

const total = (t: Tally): number => [...t.values()].reduce((n, x) => n + x.bytes, 0);

/** Evaluates `expr` until it is true, through the page's reloads. */
async function until(page: Page, expr: string, ms: number, what: string): Promise<void> {
  const end = Date.now() + ms;
  for (;;) {
    try {
      if ((await page.evaluate(expr)) === true) return;
    } catch {
      // a reload replaced the document: ask the new one
    }
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const READY = `crossOriginIsolated === true && document.body !== null && document.body.dataset.ready === 'yes'`;

async function firstLine(page: Page): Promise<void> {
  await until(page, READY, 30_000, 'the page, cross-origin isolated');
  await page.check('#analysis');
  await page.waitForSelector('#lines .line', { timeout: 30_000 });
}

function table(label: string, t: Tally): string {
  const rows = [...t.entries()]
    .sort((a, b) => b[1].bytes - a[1].bytes)
    .map(
      ([p, x]) =>
        `  ${p.padEnd(32)} ${String(x.bytes).padStart(9)}  ${x.requests}x${x.notModified ? ` (${x.notModified} not modified)` : ''}`,
    );
  return `${label}: ${total(t)} bytes in ${[...t.values()].reduce((n, x) => n + x.requests, 0)} requests\n${rows.join('\n')}\n`;
}

const SPEC = commandSpec({
  name: 'page-bytes',
  usage: 'usage: node dist/lab/web/page-bytes.js [--site DIR] [--plain] [--json]',
  options: { site: { type: 'string' }, plain: { type: 'boolean' }, json: { type: 'boolean' } },
});

async function main(argv: string[]): Promise<number> {
  const cl = readCommandLine(argv, SPEC);
  if (!cl.ok) return reportCommandLine(SPEC, cl.error);
  const a = cl.value.values;
  if (chromiumMissing('page-bytes')) return 1;
  const tmp = a.site === undefined ? mkdtempSync(join(tmpdir(), 'kirin-page-bytes-')) : undefined;
  const site = (a.site as string | undefined) ?? tmp!;
  try {
    if (tmp !== undefined) await buildSite(tmp);
    const { server, url } = await serveWeb({ port: 0, webDir: site, distDir: null, isolated: a.plain !== true });
    let tally: Tally = new Map();
    server.prependListener('request', (req, res) => countBodies(tally)(req, res));
    const browser = await launchChromium();
    try {
      const context = await browser.newContext();
      const page = await context.newPage();
      const t0 = Date.now();
      await page.goto(url);
      await firstLine(page);
      const firstSearchMs = Date.now() - t0;
      const firstSearch = new Map(tally);
      const worker = (await page.evaluate(
        `navigator.serviceWorker.getRegistration().then((r) => r !== undefined && navigator.serviceWorker.ready.then(() => true))`,
      )) as boolean;
      const firstVisit = new Map(tally);
      const cache = (await page.evaluate(`(async () => {
        let files = 0, bytes = 0;
        for (const name of await caches.keys()) {
          const c = await caches.open(name);
          for (const r of await c.keys()) { files++; bytes += (await (await c.match(r)).arrayBuffer()).byteLength; }
        }
        return { files, bytes };
      })()`)) as { files: number; bytes: number };
      await page.uncheck('#analysis');
      tally = new Map();
      const t1 = Date.now();
      await page.reload();
      await firstLine(page);
      const reloadMs = Date.now() - t1;
      const reload = new Map(tally);
      server.close();
      if (a.json === true) {
        const obj = (t: Tally) => ({ bytes: total(t), files: Object.fromEntries(t) });
        process.stdout.write(
          JSON.stringify({
            site,
            plain: a.plain === true,
            serviceWorker: worker,
            firstSearch: obj(firstSearch),
            firstSearchMs,
            firstVisit: obj(firstVisit),
            offlineCache: cache,
            reload: obj(reload),
            reloadMs,
          }) + '\n',
        );
      } else {
        process.stdout.write(`${site}${a.plain === true ? ' (plain host: no COOP/COEP headers)' : ''}\n`);
        process.stdout.write(table(`first search (${firstSearchMs} ms)`, firstSearch));
        process.stdout.write(worker ? table('first visit (service worker active)', firstVisit) : 'no service worker\n');
        process.stdout.write(`offline cache: ${cache.files} files, ${cache.bytes} bytes\n`);
        process.stdout.write(table(`reload (${reloadMs} ms)`, reload));
      }
    } finally {
      await browser.close();
      server.close();
    }
  } finally {
    if (tmp !== undefined) rmSync(tmp, { recursive: true, force: true });
  }
  return 0;
}

runMain(import.meta.url, main);
