// The README's picture of the page (docs/images/review.png): the page in
// headless Chromium with a game file opened, reviewed at --nodes a position,
// showing the move --ply; the top of the page (board, evaluation bar, move list,
// review chart) is saved as PNG. The move list is text: for Chinese notation the
// machine needs a CJK font (Debian's fonts-wqy-microhei will do; without one
// Chromium draws boxes). The board needs none.
//
//   node dist/tools/web/review-screenshot.js [--game test/data/games/cchess-test2.pgn]
//       [--nodes 20000] [--ply 45] [--notation chinese] [--out docs/images/review.png]

import { readFileSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { commandSpec, repoPath, runMain, scriptCommandLine } from '../lib.js';
import { chromiumMissing, openIsolatedSite } from './isolated-site.js';

const SPEC = commandSpec({
  name: 'review-screenshot',
  usage:
    'usage: node dist/tools/web/review-screenshot.js [--game FILE] [--nodes 20000] [--ply 45]\n' +
    '           [--notation chinese|wxf|iccs|uci] [--out docs/images/review.png]',
  options: {
    game: { type: 'string' },
    nodes: { type: 'string' },
    ply: { type: 'string' },
    notation: { type: 'string' },
    out: { type: 'string' },
  },
});

async function main(argv: string[]): Promise<number> {
  const cl = scriptCommandLine(argv, SPEC);
  const game = cl.string('game', repoPath('test', 'data', 'games', 'cchess-test2.pgn'));
  const nodes = cl.integer('nodes', 20000, { min: 1 });
  const ply = cl.integer('ply', 45, { min: 0 });
  const notation = cl.string('notation', 'chinese');
  const out = cl.string('out', repoPath('docs', 'images', 'review.png'));
  if (chromiumMissing('review-screenshot')) return 1;
  // The page itself, served as `npm run web` serves it (the site's blank page is replaced by web/index.html).
  const site = await openIsolatedSite('review-screenshot', 'Kirin');
  try {
    for (const f of ['index.html', 'style.css'])
      writeFileSync(join(dirname(site.dist), f), readFileSync(repoPath('web', f)));
    const { page, errors } = await site.openPage();
    await page.setViewportSize({ width: 1000, height: 1200 });
    await page.reload();
    await page.waitForSelector('body[data-ready="yes"]', { timeout: 30_000 });
    await page.selectOption('#notation', notation);
    await page.setInputFiles('#import-file', game);
    await page.waitForSelector('#moves .move[data-ply]');
    await page.uncheck('#analysis');
    await page.fill('#review-nodes', String(nodes));
    await page.click('#review-start');
    await page.waitForSelector('body[data-review="done"]', { timeout: 600_000 });
    await page.click(`#review-chart rect.ply[data-ply="${ply}"]`);
    const bottom = await page.$eval('#review-move', (e) => e.getBoundingClientRect().bottom);
    const png = await page.screenshot({ clip: { x: 0, y: 0, width: 1000, height: Math.ceil(bottom) + 16 } });
    writeFileSync(out, png);
    process.stdout.write(`${out}: ${png.length} bytes (${basename(game)}, ${nodes} nodes a position, ply ${ply})\n`);
    if (errors.length > 0) process.stdout.write(`# page errors: ${errors.join('; ')}\n`);
    return 0;
  } finally {
    await site.close();
  }
}

runMain(import.meta.url, main);
