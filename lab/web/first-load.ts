// The page's first load as a player meets it: fresh pages of headless Chromium
// open the page itself (web/index.html, its stylesheet and bundles, served
// cross-origin isolated), and each page counts the bytes of every response
// and times: the page ready (body[data-ready]), the search thread's first
// answer (the static evaluation shown: the warm-up is done), and Kirin's first
// move as Red when the player takes Black and starts a game as soon as the
// page is ready (Kirin opens from its book, so this is the time a player waits
// for Kirin's first move after the page opens).
// --web and --dist measure another page: a folder with its index.html and
// style.css, and a folder of its bundles (an older build, for a before/after).
//
//   node dist/lab/web/first-load.js [--pages 3] [--web web] [--dist DIR]
//
// Without --dist the page's bundles are built into a temporary folder. Each
// page is a fresh browser context (empty caches). A measurement, not a test.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { commandSpec, scriptCommandLine } from '../../toolkit/command-line.js';
import { repoPath } from '../../toolkit/files.js';
import { runMain } from '../../toolkit/script.js';
import { medianOf, repeat } from '../timing.js';
import { buildWeb } from '../../scripts/web/build.js';
import { serveWeb } from '../../scripts/web/serve.js';
import { launchChromium } from './chromium.js';
import { chromiumMissing } from './isolated-site.js';

const SPEC = commandSpec({
  name: 'first-load',
  usage: 'usage: node dist/lab/web/first-load.js [--pages 3] [--web DIR] [--dist DIR]',
  options: { pages: { type: 'string' }, web: { type: 'string' }, dist: { type: 'string' } },
});

async function main(argv: string[]): Promise<number> {
  const cl = scriptCommandLine(argv, SPEC);
  const pages = cl.integer('pages', 3, { min: 1 });
  const webDir = cl.string('web', repoPath('web'));
  let distDir = cl.string('dist', '');
  if (chromiumMissing('first-load')) return 1;
  const tmp = mkdtempSync(join(tmpdir(), 'kirin-first-load-'));
  if (distDir === '') {
    distDir = join(tmp, 'dist');
    await buildWeb(distDir);
  }
  const { server, url } = await serveWeb({ port: 0, webDir, distDir });
  const browser = await launchChromium();
  try {
    const times = await repeat(pages, async (i) => {
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'en-US' });
      const page = await context.newPage();
      const bytes = new Map<string, number>();
      page.on('response', (r) => {
        r.body().then(
          (b) => bytes.set(new URL(r.url()).pathname.replace(/^.*\//, '') || 'index.html', b.length),
          () => {},
        );
      });
      const start = Date.now();
      await page.goto(url);
      await page.waitForSelector('body[data-ready="yes"]', { timeout: 60_000 });
      const ready = Date.now() - start;
      // As soon as the page is ready the player takes Black: the 对弈 tab where the page has one (the
      // side is a control of it), and a game started with its button where the page has one (the
      // clock's play room), at once before. The search thread's first answer is timed meanwhile.
      const answered = page
        .waitForFunction("(document.getElementById('eval-static').dataset.evaluation || '') !== ''", null, {
          timeout: 60_000,
        })
        .then(() => Date.now() - start);
      if ((await page.$('.tab[data-tab="play"]')) !== null) await page.click('.tab[data-tab="play"]');
      if ((await page.$('.play-side')) !== null) {
        await page.selectOption('.play-side', 'black');
        await page.click('.play-start');
      } else await page.selectOption('#side', 'black');
      await page.waitForFunction("document.querySelectorAll('#moves .move[data-ply]').length >= 1", null, {
        timeout: 60_000,
      });
      const move = Date.now() - start;
      const answeredMs = await answered;
      await page.waitForTimeout(200); // the last bodies
      const total = [...bytes.values()].reduce((a, b) => a + b, 0);
      const files = [...bytes].map(([f, n]) => `${f} ${n}`).join(', ');
      process.stdout.write(
        `page ${i + 1}: ready ${ready} ms, search thread answered ${answeredMs} ms, ` +
          `Kirin's first move ${move} ms; ${total} bytes (${files})\n`,
      );
      await context.close();
      return { ready, answered: answeredMs, move };
    });
    process.stdout.write(
      `medians: ready ${medianOf(times, (t) => t.ready)} ms, answered ${medianOf(times, (t) => t.answered)} ms, ` +
        `Kirin's first move ${medianOf(times, (t) => t.move)} ms\n`,
    );
    return 0;
  } finally {
    await browser.close();
    server.close();
    rmSync(tmp, { recursive: true, force: true });
  }
}

runMain(import.meta.url, main);
