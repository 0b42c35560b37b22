// The page in headless Chromium for the browser tests: the page built into a
// temporary folder and served (COOP/COEP headers on), one browser for a test
// file, and pages opened in fresh contexts that collect their errors.
// Where /usr/bin/chromium is absent, `skip` says so and nothing starts.

import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { buildWeb } from '../../scripts/web/build.js';
import { serveWeb } from '../../scripts/web/serve.js';
import { CHROMIUM, launchChromium } from '../../lab/web/chromium.js';

/** A test's skip reason where there is no Chromium, else false. */
export const skip: string | false = existsSync(CHROMIUM)
  ? false
  : `${CHROMIUM} is absent (Debian package chromium): browser test skipped`;

/** The served page and the browser of one test file (set in its `before`). */
export interface PageServer {
  /** The page's address. */
  readonly url: string;
  readonly browser: Browser;
}

/**
 * Builds and serves the page and launches Chromium before the file's tests
 * (`prefix` names the temporary folder), and closes them after; the fields of
 * the object returned are set once `before` has run.
 */
export function servePage(prefix: string): PageServer {
  let tmp = '';
  let server: Server | undefined;
  const served = { url: '', browser: undefined as unknown as Browser };
  before(async () => {
    if (skip) return;
    tmp = mkdtempSync(join(tmpdir(), `kirin-${prefix}-`));
    const out = join(tmp, 'dist');
    await buildWeb(out);
    ({ server, url: served.url } = await serveWeb({ port: 0, distDir: out }));
    served.browser = await launchChromium();
  });
  after(async () => {
    await (served.browser as Browser | undefined)?.close();
    server?.close();
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  });
  return served;
}

/** A page opened by openPage: its errors (page errors, console errors) and the paths it requested. */
export interface OpenedPage {
  page: Page;
  errors: string[];
  requested: string[];
}

/** Opens `address` in a fresh context of `browser` and waits until the page is ready (body[data-ready="yes"]). */
export async function openPage(
  browser: Browser,
  address: string,
  opts: { width?: number; height?: number; locale?: string; phone?: boolean } = {},
): Promise<OpenedPage> {
  const context = await browser.newContext({
    viewport: { width: opts.width ?? 1280, height: opts.height ?? 800 },
    locale: opts.locale ?? 'en-US',
    isMobile: opts.phone === true,
    hasTouch: opts.phone === true,
  });
  const page = await context.newPage();
  const errors: string[] = [];
  const requested: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  page.on('request', (r) => requested.push(new URL(r.url()).pathname));
  await page.goto(address);
  await page.waitForSelector('body[data-ready="yes"]', { timeout: 30_000 });
  return { page, errors, requested };
}
