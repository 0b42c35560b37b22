// The throwaway site the browser measurements run in (load-page, first-move-page,
// browser-speed): the page's build in a temporary folder, served under /dist/
// with one blank HTML page beside it, cross-origin isolated (so memories are
// shared and search threads run, as on the real page), and headless Chromium.
// Files a measurement needs (a network) are copied into `dist` and fetched from
// /dist/NAME; pages import the library as `/dist/kirin.js`.

import { copyFileSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { buildWeb } from '../../scripts/web/build.js';
import { CHROMIUM, launchChromium } from './chromium.js';
import { serveWeb } from '../../scripts/web/serve.js';

/** A page of the site and the uncaught errors it has raised so far. */
interface SitePage {
  readonly page: Page;
  readonly errors: string[];
}

export interface IsolatedSite {
  /** The build folder: what is here is served under /dist/. */
  readonly dist: string;
  readonly server: Server;
  readonly browser: Browser;
  /** A fresh page on the blank HTML page, checked to be cross-origin isolated. */
  openPage(): Promise<SitePage>;
  /** Closes the browser and the server and removes the folder. */
  close(): Promise<void>;
}

/** Says on stderr that Chromium is missing, as `tool`; true when it is. */
export function chromiumMissing(tool: string): boolean {
  if (existsSync(CHROMIUM)) return false;
  process.stderr.write(`${tool}: ${CHROMIUM} is absent (Debian package chromium)\n`);
  return true;
}

/** Builds and serves the site for `tool` (its page titled `title`), with `files` copied into /dist/ by their base names. */
export async function openIsolatedSite(
  tool: string,
  title: string,
  files: readonly string[] = [],
): Promise<IsolatedSite> {
  const tmp = mkdtempSync(join(tmpdir(), `kirin-${tool}-`));
  let server: Server | undefined;
  try {
    const dist = join(tmp, 'dist');
    await buildWeb(dist);
    for (const f of files) copyFileSync(f, join(dist, basename(f)));
    writeFileSync(join(tmp, 'index.html'), `<!doctype html><meta charset="utf-8"><title>${title}</title>\n`);
    const served = await serveWeb({ port: 0, webDir: tmp, distDir: dist });
    server = served.server;
    const browser = await launchChromium();
    return {
      dist,
      server,
      browser,
      async openPage() {
        const page = await browser.newPage();
        const errors: string[] = [];
        page.on('pageerror', (e) => errors.push(e.message));
        await page.goto(`${served.url}index.html`);
        if ((await page.evaluate('crossOriginIsolated')) !== true)
          throw new Error('the page is not cross-origin isolated');
        return { page, errors };
      },
      async close() {
        try {
          await browser.close();
        } finally {
          served.server.close();
          rmSync(tmp, { recursive: true, force: true });
        }
      },
    };
  } catch (e) {
    server?.close();
    rmSync(tmp, { recursive: true, force: true });
    throw e;
  }
}
