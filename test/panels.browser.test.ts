// The explorer panel and Practice mode (web/explorer/, web/practice/: rooms the
// page mounts) in headless Chromium, each bundled as the page's build bundles
// (scripts/web/build.ts) and mounted in a test page with a host that records
// what the panel asks of the page: the explorer shows the masters' moves with
// red / draw / black bars for the start position, a click plays the move and the
// panel follows, a notable game opens; Practice shows a puzzle, takes its
// solution with Kirin's defence between the moves, says so, and the next puzzle
// comes. Skipped where /usr/bin/chromium is absent.

import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { repoRoot } from '../commands/lib.js';
import { CHROMIUM, launchChromium } from '../lab/web/chromium.js';
import { buildBrowser } from '../scripts/web/build.js';
import { serveWeb } from '../scripts/web/serve.js';

const skip = existsSync(CHROMIUM) ? false : `${CHROMIUM} is absent (Debian package chromium): browser test skipped`;

// The test page: the library for positions, the two rooms, a host for each that records and answers.
const HTML = `<!doctype html><meta charset="utf-8"><title>panels</title>
<div id="explorer"></div><div id="practice"></div>
<script type="module">
import { Position, parseLegalMove } from '/dist/kirin.js';
import { mountExplorer } from '/dist/explorerPanel.js';
import { mountPractice } from '/dist/practicePanel.js';
window.played = []; window.opened = []; window.shown = []; window.marked = [];
let pos = new Position();
const explorer = mountExplorer(document.getElementById('explorer'), {
  position: () => pos,
  moveStyle: () => ({ notation: 'chinese' }),
  language: () => 'zh-Hans',
  play: (uci) => { window.played.push(uci); pos.doMove(parseLegalMove(pos, uci).value); explorer.update(); },
  openGame: (g) => window.opened.push(g.headers),
});
explorer.update();
window.practice = mountPractice(document.getElementById('practice'), {
  language: () => 'en',
  moveStyle: () => ({ notation: 'uci' }),
  show: (p, last) => window.shown.push({ fen: p.fen(), last }),
  highlight: (sq) => window.marked.push(sq),
  loadProgress: () => null,
  saveProgress: (t) => { window.progress = JSON.parse(t); },
});
window.ready = true;
</script>`;

let tmp = '';
let server: Server | undefined;
let url = '';
let browser: Browser | undefined;

before(async () => {
  if (skip) return;
  tmp = mkdtempSync(join(tmpdir(), 'kirin-panels-'));
  const root = repoRoot();
  await buildBrowser(join(tmp, 'dist'), {
    page: false,
    minify: false,
    entries: {
      explorerPanel: join(root, 'web', 'explorer', 'panel.ts'),
      practicePanel: join(root, 'web', 'practice', 'panel.ts'),
    },
  });
  writeFileSync(join(tmp, 'panels.html'), HTML);
  ({ server, url } = await serveWeb({ port: 0, webDir: tmp, distDir: join(tmp, 'dist') }));
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
  server?.close();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

async function open(): Promise<{ page: Page; errors: string[] }> {
  const page = await browser!.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(`${url}panels.html`);
  await page.waitForFunction('window.ready === true', null, { timeout: 60000 });
  return { page, errors };
}

test(
  'the explorer panel: the start position with W/D/L bars, a click plays the move, a notable game opens',
  { skip },
  async () => {
    const { page, errors } = await open();
    await page.waitForSelector('#explorer tr.explorer-row', { timeout: 60000 });
    const rows = await page.$$eval('#explorer tr.explorer-row', (trs) =>
      trs.map((tr) => ({
        uci: tr.getAttribute('data-uci'),
        move: tr.querySelector('.explorer-move')?.textContent,
        bars: [...tr.querySelectorAll('.explorer-track span')].map((b) =>
          parseFloat(/width:\s*([\d.]+)%/.exec(b.getAttribute('style') ?? '')?.[1] ?? 'NaN'),
        ),
      })),
    );
    assert.ok(rows.length >= 8, `${rows.length} moves`);
    assert.equal(rows[0].uci, 'h2e2');
    assert.equal(rows[0].move, '炮二平五');
    for (const r of rows) {
      assert.equal(r.bars.length, 3);
      assert.equal(
        r.bars.reduce((a, b) => a + b, 0),
        100,
        `${r.uci}: red + draw + black`,
      );
    }
    assert.equal(await page.textContent('#explorer .explorer-games'), '27927 局');
    await page.click('#explorer tr.explorer-row >> nth=0');
    assert.deepEqual(await page.evaluate('window.played'), ['h2e2']);
    await page.waitForSelector('#explorer tr.explorer-row[data-uci="h9g7"]');
    assert.equal(await page.textContent('#explorer tr.explorer-row >> nth=0 >> .explorer-move'), '马8进7');
    await page.click('#explorer li.explorer-game >> nth=0');
    const opened = (await page.evaluate('window.opened')) as Record<string, string>[];
    assert.equal(opened.length, 1);
    assert.ok(opened[0].Red !== '' && opened[0].Result !== undefined, JSON.stringify(opened[0]));
    assert.deepEqual(errors, []);
    await page.close();
  },
);

test('Practice: a puzzle solved with Kirin defending, then the next puzzle comes', { skip }, async () => {
  const { page, errors } = await open();
  await page.evaluate('window.practice.start()');
  const first = (await page.evaluate('window.shown.at(-1).fen')) as string;
  // The solution, from the set the panel fetched.
  const moves = (await page.evaluate(
    `fetch('/dist/puzzles.json').then((r) => r.json()).then((set) => set.puzzles.find((p) => p.fen === ${JSON.stringify(first)}).moves)`,
  )) as string[];
  assert.ok(moves.length % 2 === 1);
  for (let k = 0; k < moves.length; k += 2) {
    await page.evaluate(`window.practice.move(${JSON.stringify(moves[k])})`);
    const last = (await page.evaluate('window.shown.at(-1).last')) as string | null;
    // Kirin answers with the line's defence; the last move is the solver's own.
    assert.equal(last, k + 1 < moves.length ? moves[k + 1] : moves[k]);
  }
  assert.equal(await page.textContent('#practice .practice-status'), 'Solved!');
  const progress = (await page.evaluate('window.progress')) as { rating: number; solved: string[] };
  assert.equal(progress.solved.length, 1);
  assert.ok(progress.rating > 1200);
  await page.click('#practice button:has-text("Next puzzle")');
  const next = (await page.evaluate('window.shown.at(-1).fen')) as string;
  assert.notEqual(next, first);
  // A hint marks the piece to move.
  await page.click('#practice button:has-text("Hint")');
  assert.equal(((await page.evaluate('window.marked')) as string[]).length, 1);
  assert.deepEqual(errors, []);
  await page.close();
});
