// The page on any static host and offline (web/pwa/), in headless Chromium
// (Debian's /usr/bin/chromium, driven by playwright-core): the real page,
// built as a site (scripts/web/build.ts buildSite) and served by
// scripts/web/serve.ts without the COOP/COEP headers, as GitHub Pages or a
// file server on a USB stick would. The page isolates itself through its
// service worker (one reload), Kirin searches; with the network off and the
// host gone, a reload still loads the page and Kirin still answers; a new
// build replaces the offline copy. Where the host sends the headers nothing
// reloads; where the browser gives no service worker the page says why, in
// the player's language. Without /usr/bin/chromium the tests are skipped.

import assert from 'node:assert/strict';
import { appendFileSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { buildSite, type PageBuild, writeServiceWorker } from '../scripts/web/build.js';
import { precacheOf } from '../scripts/web/precache.js';
import { serveWeb } from '../scripts/web/serve.js';
import { CHROMIUM, launchChromium } from '../lab/web/chromium.js';

const skip = existsSync(CHROMIUM) ? false : `${CHROMIUM} is absent (Debian package chromium): browser test skipped`;

let tmp = '';
let site = '';
let build: PageBuild | undefined;
let browser: Browser | undefined;

before(async () => {
  if (skip) return;
  tmp = mkdtempSync(join(tmpdir(), 'kirin-pwa-'));
  site = join(tmp, 'site');
  build = await buildSite(site);
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

/** Evaluates `expr` in the page until it is true, through the page's reloads. */
async function until(page: Page, expr: string, ms: number, what: string): Promise<void> {
  const end = Date.now() + ms;
  for (;;) {
    try {
      if ((await page.evaluate(expr)) === true) return;
    } catch {
      // a reload replaced the document between two looks: ask the new one
    }
    if (Date.now() > end) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The page is cross-origin isolated and has started (the test compiles without the DOM library). */
const READY = `crossOriginIsolated === true && document.body !== null && document.body.dataset.ready === 'yes'`;

/** Kirin's first analysis line (the one place this test uses the page's controls: #analysis and #lines). */
async function kirinAnswers(page: Page): Promise<string> {
  if (!(await page.isChecked('#analysis'))) await page.check('#analysis');
  await page.waitForSelector('#lines .line .pv-move', { timeout: 30_000 });
  return (await page.textContent('#lines .line'))!.trim();
}

/** This page's caches: name -> the URLs kept, sorted. */
async function cachesOf(page: Page): Promise<Record<string, string[]>> {
  return (await page.evaluate(`(async () => {
    const out = {};
    for (const name of await caches.keys())
      out[name] = (await (await caches.open(name)).keys()).map((r) => r.url).sort();
    return out;
  })()`)) as Record<string, string[]>;
}

/** Opens a fresh context's page, counting its loads and collecting page errors and console errors. */
async function openPage(
  options: Parameters<Browser['newContext']>[0] = {},
): Promise<{ page: Page; loads: () => number; errors: string[] }> {
  const context = await browser!.newContext({ viewport: { width: 1100, height: 800 }, ...options });
  const page = await context.newPage();
  let loads = 0;
  page.on('load', () => loads++);
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  return { page, loads: () => loads, errors };
}

test(
  'from a plain static host the page isolates itself through its service worker, searches, and works offline',
  { skip, timeout: 180_000 },
  async () => {
    let served = await serveWeb({ port: 0, webDir: site, distDir: null, isolated: false });
    const port = (served.server.address() as AddressInfo).port;
    const { page, loads, errors } = await openPage();
    try {
      // The host sends no isolation header.
      const plain = await fetch(served.url);
      assert.equal(plain.headers.get('cross-origin-embedder-policy'), null);
      assert.equal(plain.headers.get('cross-origin-opener-policy'), null);

      await page.goto(served.url);
      await until(page, READY, 60_000, 'the page, cross-origin isolated through its service worker');
      // One reload by the boot script, and no more.
      await new Promise((r) => setTimeout(r, 1000));
      assert.equal(loads(), 2, 'the first load, then the one reload the boot script makes');
      assert.equal(await page.getAttribute('html', 'data-isolation'), 'isolated');
      assert.equal(await page.evaluate('navigator.serviceWorker.controller !== null'), true);
      // The worker adds the headers the host does not send.
      assert.equal(
        await page.evaluate(`fetch('./').then((r) => r.headers.get('cross-origin-embedder-policy'))`),
        'require-corp',
      );
      assert.equal(await page.isHidden('#fatal'), true);
      assert.equal(await page.isHidden('#isolation'), true, 'nothing to say');
      const line = await kirinAnswers(page);
      assert.match(line, /\d+\. \S/, `Kirin's line: ${line}`);

      // The offline copy: exactly this build's files, in one cache named by its version.
      const cacheName = `kirin ${served.url} ${build!.precache.version}`;
      assert.deepEqual(await cachesOf(page), {
        [cacheName]: build!.precache.urls.map((u) => new URL(u, served.url).href).sort(),
      });
      assert.ok(build!.precache.urls.includes('dist/kirin.knet') && build!.precache.urls.includes('./'));
      // The explorer and the puzzles are not downloaded on the first visit; the first fetch keeps them.
      const lazy = build!.precache.lazy.map((u) => new URL(u, served.url).href).sort();
      assert.deepEqual(lazy, [
        new URL('dist/masters.explorer', served.url).href,
        new URL('dist/puzzles.json', served.url).href,
      ]);
      const sizes = (await page.evaluate(
        `Promise.all(${JSON.stringify(lazy)}.map((u) => fetch(u).then((r) => r.arrayBuffer()).then((b) => b.byteLength)))`,
      )) as number[];
      assert.deepEqual(sizes, [build!.sizes['masters.explorer'], build!.sizes['puzzles.json']]);
      assert.deepEqual(await cachesOf(page), {
        [cacheName]: [...build!.precache.urls.map((u) => new URL(u, served.url).href), ...lazy].sort(),
      });

      // Offline, and the host gone: a reload still loads the page, isolated, and Kirin answers.
      await page.context().setOffline(true);
      served.server.closeAllConnections();
      served.server.close();
      await page.reload();
      await until(page, READY, 60_000, 'the page, offline');
      assert.equal(await page.isHidden('#fatal'), true);
      const offline = await kirinAnswers(page);
      assert.match(offline, /\d+\. \S/, `Kirin's line offline: ${offline}`);
      // The explorer fetched online is there offline.
      assert.equal(
        await page.evaluate(`fetch('dist/masters.explorer').then((r) => r.arrayBuffer()).then((b) => b.byteLength)`),
        build!.sizes['masters.explorer'],
      );

      // A new build (a stylesheet changed) replaces the offline copy when the host is back.
      appendFileSync(join(site, 'style.css'), '\n/* a new build */\n');
      const next = precacheOf(site, join(site, 'dist'), Object.keys(build!.sizes));
      assert.notEqual(next.version, build!.precache.version);
      await writeServiceWorker(join(site, 'sw.js'), next);
      served = await serveWeb({ port, webDir: site, distDir: null, isolated: false });
      await page.context().setOffline(false);
      await page.evaluate('navigator.serviceWorker.getRegistration().then((r) => r.update())');
      const nextName = `kirin ${served.url} ${next.version}`;
      await until(
        page,
        `caches.keys().then((k) => k.length === 1 && k[0] === ${JSON.stringify(nextName)})`,
        60_000,
        'the new build to replace the offline copy',
      );
      assert.match(
        (await page.evaluate(
          `caches.open(${JSON.stringify(nextName)}).then((c) => c.match('style.css')).then((r) => r.text())`,
        )) as string,
        /a new build/,
      );
      assert.deepEqual(errors, []);
    } finally {
      await page.context().close();
      served.server.close();
    }
  },
);

test(
  'where the host sends the headers the page is isolated at once: no reload, and the worker still keeps it offline',
  { skip, timeout: 120_000 },
  async () => {
    const served = await serveWeb({ port: 0, webDir: site, distDir: null });
    const { page, loads, errors } = await openPage();
    try {
      await page.goto(served.url);
      await until(page, READY, 30_000, 'the page');
      assert.equal(await page.getAttribute('html', 'data-isolation'), 'isolated');
      await until(page, `navigator.serviceWorker.controller !== null`, 30_000, 'the service worker');
      assert.equal(loads(), 1, 'no reload');
      const caches = await cachesOf(page);
      assert.deepEqual(Object.keys(caches), [`kirin ${served.url} ${readVersion()}`]);
      assert.deepEqual(errors, []);
    } finally {
      await page.context().close();
      served.server.close();
    }
  },
);

/** The version the site's sw.js carries now (the first test rewrites it). */
function readVersion(): string {
  const m = /version:"([0-9a-f]{16})"/.exec(readFileSync(join(site, 'sw.js'), 'utf8'));
  assert.ok(m, 'sw.js carries its version');
  return m[1];
}

test(
  'a browser that gives the page no service worker is told why, in Chinese, and the page does not reload',
  { skip, timeout: 60_000 },
  async () => {
    const served = await serveWeb({ port: 0, webDir: site, distDir: null, isolated: false });
    const { page, loads } = await openPage({ serviceWorkers: 'block', locale: 'zh-CN' });
    try {
      await page.goto(served.url);
      await page.waitForSelector('body[data-ready="yes"]', { timeout: 30_000 });
      await page.waitForSelector('#isolation', { timeout: 30_000 });
      assert.equal(await page.evaluate('crossOriginIsolated'), false);
      assert.equal(await page.getAttribute('html', 'data-isolation'), 'no-service-worker');
      assert.match((await page.textContent('#isolation')) ?? '', /无法使自己跨源隔离.*没有给它 Service Worker/);
      assert.equal(await page.isVisible('#fatal'), true);
      // Said in its banner under the support message, at the top of the page.
      const fatal = (await page.locator('#fatal').boundingBox())!;
      const said = (await page.locator('#isolation').boundingBox())!;
      assert.ok(said.y >= fatal.y + fatal.height - 1 && said.y + said.height < 800, `#isolation at ${said.y}`);
      assert.ok(Math.abs(said.x - fatal.x) < 1 && Math.abs(said.width - fatal.width) < 1, 'aligned with #fatal');
      await new Promise((r) => setTimeout(r, 1000));
      assert.equal(loads(), 1, 'no reload');
    } finally {
      await page.context().close();
      served.server.close();
    }
  },
);

test('a page opened as a file is told to be served', { skip, timeout: 60_000 }, async () => {
  const { page } = await openPage();
  try {
    // Browsers run no module script from file:// (the page's program), but the boot script is a classic one.
    await page.goto(`file://${join(site, 'index.html')}`);
    await page.waitForSelector('#isolation', { timeout: 30_000 });
    assert.equal(await page.getAttribute('html', 'data-isolation'), 'file');
    assert.match((await page.textContent('#isolation')) ?? '', /opened as a file.*any static web server/);
  } finally {
    await page.context().close();
  }
});
