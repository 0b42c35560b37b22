// The pictures of the page in the README and docs/BROWSER.md
// (docs/images/page-zh*.png): the page in headless Chromium, in the browser
// language --locale, at --width x --height (--phone: a phone's screen, touch),
// with a game file opened and reviewed at --nodes a position, showing the move
// --ply with the tab --tab in front (--scene review, the default). --scene play:
// a game against Kirin at 10+5 after a few moves, its clocks beside the board
// (the 对弈 tab); --scene library: the 棋谱库 tab after the reviewed game and
// the repository's other test games were kept; --scene explorer: the 开局库 tab
// after four moves (no review). The screen is saved as PNG. The page's labels and the move list are text: for
// Chinese the machine needs a CJK font (Debian's fonts-wqy-microhei or
// fonts-noto-cjk will do; without one Chromium draws boxes). The board needs none.
//
//   node dist/lab/web/review-screenshot.js [--game test/data/games/cchess-test2.pgn]
//       [--nodes 20000] [--ply 45] [--notation chinese] [--locale zh-CN]
//       [--width 1280] [--height 800] [--phone] [--tab review] [--scene review|play|library|explorer]
//       [--out docs/images/page-zh.png]

import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { commandSpec, scriptCommandLine } from '../../toolkit/command-line.js';
import { repoPath } from '../../toolkit/files.js';
import { runMain } from '../../toolkit/script.js';
import { buildWeb } from '../../scripts/web/build.js';
import { serveWeb } from '../../scripts/web/serve.js';
import type { Page } from 'playwright-core';
import { clickSquare } from './board.js';
import { launchChromium } from './chromium.js';
import { chromiumMissing } from './isolated-site.js';

const SPEC = commandSpec({
  name: 'review-screenshot',
  usage:
    'usage: node dist/lab/web/review-screenshot.js [--game FILE] [--nodes 20000] [--ply 45]\n' +
    '           [--notation chinese|wxf|iccs|uci] [--locale zh-CN] [--width 1280] [--height 800] [--phone]\n' +
    '           [--tab moves|review|play|settings] [--scene review|play|library|explorer] [--out docs/images/page-zh.png]',
  options: {
    game: { type: 'string' },
    nodes: { type: 'string' },
    ply: { type: 'string' },
    notation: { type: 'string' },
    locale: { type: 'string' },
    width: { type: 'string' },
    height: { type: 'string' },
    phone: { type: 'boolean' },
    tab: { type: 'string' },
    scene: { type: 'string' },
    out: { type: 'string' },
  },
});

const movesListed = (page: Page): Promise<number> => page.$$eval('#moves .move[data-ply]', (m) => m.length);

/** A game against Kirin at 10+5, Red's usual development played (each move that is legal when its turn comes). */
async function playScene(page: Page): Promise<void> {
  await page.click('.tab[data-tab="play"]');
  await page.selectOption('.play-tc', '10+5');
  await page.click('.play-start');
  await page.waitForSelector('#tab-play[data-state="playing"]');
  for (const uci of ['h2e2', 'h0g2', 'i0h0', 'b0c2']) {
    const n = await movesListed(page);
    await clickSquare(page, uci.slice(0, 2));
    await clickSquare(page, uci.slice(2));
    await page
      .waitForFunction(`document.querySelectorAll('#moves .move[data-ply]').length >= ${n + 2}`, null, {
        timeout: 120_000,
      })
      .catch(() => undefined);
  }
}

async function main(argv: string[]): Promise<number> {
  const cl = scriptCommandLine(argv, SPEC);
  const game = cl.string('game', repoPath('test', 'data', 'games', 'cchess-test2.pgn'));
  const nodes = cl.integer('nodes', 20000, { min: 1 });
  const ply = cl.integer('ply', 45, { min: 0 });
  const notation = cl.string('notation', 'chinese');
  const locale = cl.string('locale', 'zh-CN');
  const width = cl.integer('width', 1280, { min: 200 });
  const height = cl.integer('height', 800, { min: 200 });
  const phone = cl.flag('phone');
  const tab = cl.string('tab', 'review');
  const scene = cl.string('scene', 'review');
  if (!['review', 'play', 'library', 'explorer'].includes(scene))
    throw new Error(`--scene ${scene}: review, play, library or explorer`);
  const out = cl.string('out', repoPath('docs', 'images', 'page-zh.png'));
  if (chromiumMissing('review-screenshot')) return 1;
  const tmp = mkdtempSync(join(tmpdir(), 'kirin-screenshot-'));
  const dist = join(tmp, 'dist');
  await buildWeb(dist);
  const { server, url } = await serveWeb({ port: 0, distDir: dist });
  const browser = await launchChromium();
  try {
    const context = await browser.newContext({
      viewport: { width, height },
      locale,
      isMobile: phone,
      hasTouch: phone,
      deviceScaleFactor: 1,
    });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    if (scene === 'explorer') {
      // The 开局库 tab after 炮二平五 马8进7 马二进三 车9平8: the masters' moves and their results.
      await page.goto(`${url}#moves=h2e2,h9g7,h0g2,i9h9`);
      await page.waitForSelector('body[data-ready="yes"]', { timeout: 30_000 });
      await page.click('.tab[data-tab="explorer"]');
      await page.waitForSelector('#tab-explorer tr.explorer-row', { timeout: 60_000 });
      await page.waitForTimeout(2000); // Kirin's analysis: its arrows and the evaluation bar
      const png = await page.screenshot();
      writeFileSync(out, png);
      process.stdout.write(`${out}: ${png.length} bytes (the explorer)\n`);
      if (errors.length > 0) process.stdout.write(`# page errors: ${errors.join('; ')}\n`);
      return 0;
    }
    await page.goto(url);
    await page.waitForSelector('body[data-ready="yes"]', { timeout: 30_000 });
    await page.click('.tab[data-tab="settings"]');
    await page.selectOption('#notation', notation);
    await page.setInputFiles('#import-file', game);
    await page.click('.tab[data-tab="moves"]');
    await page.waitForSelector('#moves .move[data-ply]');
    await page.uncheck('#analysis');
    await page.click('.tab[data-tab="review"]');
    await page.fill('#review-nodes', String(nodes));
    await page.click('#review-start');
    await page.waitForSelector('body[data-review="done"]', { timeout: 600_000 });
    await page.click(`#review-chart rect.ply[data-ply="${ply}"]`);
    if (scene === 'library') {
      // The repository's other test games, kept too.
      const dir = repoPath('test', 'data', 'games');
      const files = readdirSync(dir).filter((f) => f.endsWith('-chinese.pgn') || f === 'xiangqijs-1982.pgn');
      await page.click('.tab[data-tab="library"]');
      await page.setInputFiles(
        '.library-import input',
        files.map((f) => join(dir, f)),
      );
      await page.waitForSelector('.library-status:has-text("·")');
    }
    if (scene === 'play') await playScene(page);
    await page.click(`.tab[data-tab="${scene === 'review' ? tab : scene}"]`);
    if (tab === 'moves') await page.$eval('#moves .move.current', (e) => e.scrollIntoView({ block: 'center' }));
    await page.evaluate('window.scrollTo(0, 0)');
    await page.waitForTimeout(400); // the pieces' animation
    const png = await page.screenshot();
    writeFileSync(out, png);
    process.stdout.write(`${out}: ${png.length} bytes (${basename(game)}, ${nodes} nodes a position, ply ${ply})\n`);
    if (errors.length > 0) process.stdout.write(`# page errors: ${errors.join('; ')}\n`);
    return 0;
  } finally {
    await browser.close();
    server.close();
    rmSync(tmp, { recursive: true, force: true });
  }
}

runMain(import.meta.url, main);
