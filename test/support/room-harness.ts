// A harness page for the page's rooms (web/play, web/library, web/editor) in
// headless Chromium: the page's bundles built into a temporary folder
// (scripts/web/build.ts), plus one more bundle, harness.js, made by esbuild
// from `entry` (TypeScript whose imports are relative to web/, e.g.
// './library/panel.js'), with the library itself taken from the page's
// kirin.js as the page takes it. The blank page loads harness.js; the entry
// puts what the test drives on `window` and sets `window.harnessReady`. Served
// cross-origin isolated (the search thread needs it), from 127.0.0.1.

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as esbuild from 'esbuild';
import type { Browser, Page } from 'playwright-core';
import { repoRoot } from '../../toolkit/files.js';
import { launchChromium } from '../../lab/web/chromium.js';
import { buildWeb } from '../../scripts/web/build.js';
import { serveWeb } from '../../scripts/web/serve.js';

export interface RoomSite {
  readonly url: string;
  readonly browser: Browser;
  /** A fresh page on the harness (in a context of its own unless `context` is given), with its errors collected. */
  open(opts?: { width?: number; height?: number; locale?: string }): Promise<{ page: Page; errors: string[] }>;
  close(): Promise<void>;
}

/** Builds and serves the harness for `entry`, and starts Chromium. */
export async function openRoomSite(entry: string): Promise<RoomSite> {
  const tmp = mkdtempSync(join(tmpdir(), 'kirin-rooms-'));
  let server: Server | undefined;
  let browser: Browser | undefined;
  try {
    const dist = join(tmp, 'dist');
    await buildWeb(dist);
    await esbuild.build({
      stdin: { contents: entry, resolveDir: join(repoRoot(), 'web'), sourcefile: 'harness.ts', loader: 'ts' },
      bundle: true,
      format: 'esm',
      platform: 'browser',
      target: 'es2022',
      logLevel: 'silent',
      outfile: join(dist, 'harness.js'),
      plugins: [
        {
          name: 'kirin-library-from-kirin-js',
          setup(b) {
            // The rooms import the library by its source path; in the page it is ./kirin.js (scripts/web/build.ts).
            b.onResolve({ filter: /\/src\/browser\/index\.js$/ }, () => ({ path: './kirin.js', external: true }));
          },
        },
      ],
    });
    writeFileSync(
      join(tmp, 'index.html'),
      '<!doctype html><html><head><meta charset="utf-8"><title>rooms</title><link rel="icon" href="data:,"></head>' +
        '<body><div id="root"></div><script type="module" src="/dist/harness.js"></script></body></html>\n',
    );
    const served = await serveWeb({ port: 0, webDir: tmp, distDir: dist });
    server = served.server;
    browser = await launchChromium();
    const b = browser;
    const url = served.url;
    return {
      url,
      browser: b,
      async open(opts = {}) {
        const context = await b.newContext({
          viewport: { width: opts.width ?? 1000, height: opts.height ?? 800 },
          locale: opts.locale,
        });
        const page = await context.newPage();
        const errors: string[] = [];
        page.on('pageerror', (e) => errors.push(e.message));
        page.on('console', (m) => {
          if (m.type() === 'error') errors.push(m.text());
        });
        await page.goto(url);
        await page.waitForFunction('window.harnessReady === true', undefined, { timeout: 30_000 });
        return { page, errors };
      },
      async close() {
        await b.close();
        server?.close();
        rmSync(tmp, { recursive: true, force: true });
      },
    };
  } catch (e) {
    await browser?.close();
    server?.close();
    rmSync(tmp, { recursive: true, force: true });
    throw e;
  }
}
