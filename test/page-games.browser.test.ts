// The page's games in headless Chromium (Debian's /usr/bin/chromium, driven
// by playwright-core; skipped where it is absent), on the real page: a game
// against Kirin at 0.1+0 ends on the player's flag with 黑胜 on time, its clocks
// beside the board, goes straight to review, is kept in the library with its
// review and survives a reload; takeback, a draw offer Kirin declines and a
// resignation; the board editor (摆棋) refuses three rooks with the rules core's
// message in the player's words and sets up the position it is given; the
// library imports many files, searches, opens a game on the board, renames,
// deletes and exports all.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import type { Page } from 'playwright-core';
import { repoRoot } from '../toolkit/files.js';
import { START_FEN } from '../src/core/fen.js';
import { Position } from '../src/core/position.js';
import { parseGames } from '../src/notation/pgn.js';
import { GAME_MESSAGES } from '../web/game/messages.js';
import { dragPiece, showTab, startGame } from './support/board.js';
import { openPage, servePage, skip, type OpenedPage } from './support/page-server.js';

const served = servePage('games');

const open = (locale = 'zh-CN'): Promise<OpenedPage> => openPage(served.browser, served.url, { locale });

const moveCount = (n: number): string => `document.querySelectorAll('#moves .move[data-ply]').length === ${n}`;
const text = async (page: Page, sel: string): Promise<string> => ((await page.textContent(sel)) ?? '').trim();
const clock = (page: Page, where: 'top' | 'bottom', attr: string): Promise<string | null> =>
  page.getAttribute(`#clock-${where} .kirin-play-clock`, attr);

test(
  'a game at 0.1+0 ends on the flag, 黑胜 on time; it is reviewed, kept in the library, and survives a reload',
  { skip, timeout: 120_000 },
  async () => {
    const { page, errors } = await open();
    try {
      // A quick review for the test: a few thousand nodes a position.
      await showTab(page, 'review');
      await page.fill('#review-nodes', '5000');
      await startGame(page, '0.1+0');
      // The clocks above and below the board: Kirin's (Black) on top, the player's (Red) below, 6 s each,
      // and none runs before Red's first move.
      assert.equal(await page.isVisible('#clock-top'), true);
      assert.equal(await clock(page, 'top', 'data-side'), 'black');
      assert.equal(await clock(page, 'bottom', 'data-side'), 'red');
      assert.equal(await clock(page, 'bottom', 'data-ms'), '6000');
      assert.equal(await clock(page, 'bottom', 'data-running'), 'no');
      const boardBox = (await page.locator('#board').boundingBox())!;
      const topBox = (await page.locator('#clock-top').boundingBox())!;
      const bottomBox = (await page.locator('#clock-bottom').boundingBox())!;
      assert.ok(topBox.y + topBox.height <= boardBox.y && bottomBox.y >= boardBox.y + boardBox.height);
      assert.match(await text(page, '#status'), /^轮到你走（红方）$/);
      // The player's move, then Kirin's; then the player lets the clock run out.
      await dragPiece(page, 'h2', 'e2');
      await page.waitForFunction(moveCount(2), null, { timeout: 20_000 });
      assert.equal(await clock(page, 'bottom', 'data-running'), 'yes');
      await page.waitForSelector('#tab-play[data-state="over"]', { state: 'attached', timeout: 20_000 });
      assert.equal(await page.getAttribute('#tab-play', 'data-result'), 'black');
      assert.equal(await page.getAttribute('#tab-play', 'data-reason'), 'flag');
      assert.equal(await text(page, '#status'), '黑胜：红方超时判负');
      assert.equal(await clock(page, 'bottom', 'data-ms'), '0');
      // Straight to review, which runs and finishes.
      assert.equal(await page.getAttribute('.tab[data-tab="review"]', 'aria-selected'), 'true');
      await page.waitForSelector('body[data-review="done"]', { timeout: 60_000 });
      assert.equal(await page.$$eval('#review-chart rect.ply', (r) => r.length), 3);
      // The game on the board is the game's record: the players, the control, the result and why.
      await page.click('#export-pgn');
      const [game] = parseGames(await page.inputValue('#pgn'));
      assert.ok(game.ok);
      assert.deepEqual(
        [
          game.value.headers.Red,
          game.value.headers.Black,
          game.value.headers.TimeControl,
          game.value.headers.Termination,
          game.value.result,
        ],
        ['棋手', 'Kirin（全力）', '6+0', 'time forfeit', '0-1'],
      );
      // Kept in the library, with its review.
      await showTab(page, 'library');
      await page.waitForSelector('.library-item .library-meta:has-text("已复盘")');
      assert.match(await text(page, '.library-item .library-meta'), /^黑胜 · .* · 1 回合 · 对局 · 已复盘$/);
      const chart = await page.innerHTML('#review-chart');

      // A reload brings the game back, at its last move, with its review.
      await page.reload();
      await page.waitForSelector('body[data-ready="yes"]');
      await page.waitForFunction(moveCount(2));
      assert.equal(await text(page, '#status'), '黑胜：红方超时判负');
      assert.equal(await page.getAttribute('body', 'data-review'), 'done');
      assert.equal(await page.innerHTML('#review-chart'), chart);
      await showTab(page, 'library');
      await page.waitForSelector('.library-item');
      assert.equal(await page.$$eval('.library-item', (i) => i.length), 1);

      // A new board, then the game opened from the library: shown with its review.
      await page.click('#new-board');
      await page.waitForFunction(moveCount(0));
      assert.equal(await page.$$eval('#review-chart rect.ply', (r) => r.length), 0);
      await showTab(page, 'library');
      await page.click('.library-item .library-open');
      await page.waitForFunction(moveCount(2));
      assert.equal(await page.getAttribute('.tab[data-tab="review"]', 'aria-selected'), 'true');
      assert.equal(await page.$$eval('#review-chart rect.ply', (r) => r.length), 3);
      assert.deepEqual(errors, []);
    } finally {
      await page.context().close();
    }
  },
);

test('takeback, a draw offer Kirin declines, and resigning (asked twice)', { skip, timeout: 90_000 }, async () => {
  const { page, errors } = await open();
  try {
    await startGame(page, '10+5');
    await dragPiece(page, 'h2', 'e2');
    await page.waitForFunction(moveCount(2), null, { timeout: 20_000 });
    await page.waitForSelector('.play-status:has-text("轮到你走（红方）")');
    // Take back: the player's move and Kirin's reply.
    await page.click('.play-takeback');
    await page.waitForFunction(moveCount(0));
    assert.equal(await text(page, '#fen'), START_FEN);
    assert.equal(await page.isDisabled('.play-takeback'), true);
    await dragPiece(page, 'b2', 'e2');
    await page.waitForFunction(moveCount(2), null, { timeout: 20_000 });
    await page.waitForSelector('.play-status:has-text("轮到你走")');
    // Kirin declines a draw this early.
    await page.click('.play-draw');
    await page.waitForSelector('.play-status:has-text("Kirin 拒绝和棋")');
    assert.equal(await page.getAttribute('#tab-play', 'data-state'), 'playing');
    // No variation may be made of a game in progress.
    await showTab(page, 'moves');
    assert.equal(await page.isDisabled('#move-delete'), true);
    await showTab(page, 'play');
    await page.click('.play-resign');
    await page.waitForSelector('.play-resign:has-text("确定认输？")');
    assert.equal(await page.getAttribute('#tab-play', 'data-state'), 'playing');
    await page.click('.play-resign');
    await page.waitForSelector('#tab-play[data-state="over"]', { state: 'attached' });
    assert.equal(await text(page, '#status'), '黑胜：红方认输');
    await showTab(page, 'play');
    assert.equal(await text(page, '.play-result-text'), '黑胜：红方认输');
    assert.deepEqual(errors, []);
  } finally {
    await page.context().close();
  }
});

/** Drags with the mouse from the centre of one element to the centre of another (or to a point). */
async function drag(page: Page, from: string, to: string | { x: number; y: number }): Promise<void> {
  const a = (await page.locator(from).boundingBox())!;
  const b = typeof to === 'string' ? (await page.locator(to).boundingBox())! : { ...to, width: 0, height: 0 };
  await page.mouse.move(a.x + a.width / 2, a.y + a.height / 2);
  await page.mouse.down();
  await page.mouse.move(a.x + a.width / 2 + 10, a.y + a.height / 2 + 10, { steps: 3 });
  await page.mouse.move(b.x + b.width / 2, b.y + b.height / 2, { steps: 5 });
  await page.mouse.up();
}

test(
  "the board editor: palette clicks and drags, three rooks refused with the core's message in words, use it",
  { skip, timeout: 60_000 },
  async () => {
    const { page, errors } = await open();
    try {
      const fen = (): Promise<string | null> => page.getAttribute('#editor', 'data-fen');
      const status = (): Promise<string> => text(page, '#editor .editor-status');
      await page.click('#setup');
      await page.waitForSelector('#editor-dialog[open]');
      assert.equal(await fen(), START_FEN);
      assert.equal(await status(), '局面合法');
      // A third red rook, by click: the rules core refuses it; its code in words, its message after them.
      await page.click('#editor .editor-palette button[data-piece="1"]');
      assert.equal(await page.getAttribute('#editor .editor-palette button[data-piece="1"]', 'aria-pressed'), 'true');
      await page.click('#editor .editor-cell[data-square="a5"]');
      assert.equal(await fen(), 'rnbakabnr/9/1c5c1/p1p1p1p1p/R8/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1');
      assert.equal(await page.getAttribute('#editor .editor-status', 'data-code'), 'fen-piece-count');
      const core = Position.fromFen((await fen())!);
      assert.ok(!core.ok);
      assert.equal(core.error.code, 'fen-piece-count');
      const reason = core.error.message.replace(/^invalid FEN "[^"]*": /, '');
      assert.match(reason, /^red has 3 rooks, at most 2 allowed$/);
      assert.equal(
        await status(),
        `局面不合法：${GAME_MESSAGES['zh-Hans']['game.error.fen-piece-count']}（${reason}）`,
      );
      assert.equal(await page.isDisabled('#editor .editor-use'), true);
      // Dragged off the board, the rook is gone and the position is legal again.
      await page.click('#editor .editor-palette button[data-tool="move"]');
      const box = (await page.locator('#editor .editor-board').boundingBox())!;
      await drag(page, '#editor .editor-cell[data-square="a5"]', { x: box.x + box.width + 40, y: box.y + 20 });
      assert.equal(await fen(), START_FEN);
      // A black pawn dragged from the palette onto e4; the red cannon moved by drag from h2 to e2.
      await drag(page, '#editor .editor-palette button[data-piece="12"]', '#editor .editor-cell[data-square="e4"]');
      await drag(page, '#editor .editor-cell[data-square="h2"]', '#editor .editor-cell[data-square="e2"]');
      assert.equal(await fen(), 'rnbakabnr/9/1c5c1/p1p1p1p1p/9/4p4/P1P1P1P1P/1C2C4/9/RNBAKABNR w - - 0 1');
      // Right-click removes; the side to move; a cleared board has no kings.
      await page.click('#editor .editor-cell[data-square="e4"]', { button: 'right' });
      await page.selectOption('#editor .editor-side', '1');
      const made = 'rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 0 1';
      assert.equal(await fen(), made);
      await page.click('#editor .editor-clear');
      assert.match(await status(), /^局面不合法：将帅的数目或位置不对（the red king is missing）$/);
      // A FEN typed in: a bad one is refused and the board stays; a good one loads.
      await page.fill('#editor .editor-fen', 'RRRk5/9/9/9/9/9/9/9/9/4K4 w');
      await page.click('#editor .editor-load');
      assert.match(await status(), /^局面不合法：某种棋子多于规定数目（red has 3 rooks, at most 2 allowed）$/);
      assert.equal(await fen(), '9/9/9/9/9/9/9/9/9/9 b - - 0 1');
      await page.fill('#editor .editor-fen', made);
      await page.click('#editor .editor-load');
      assert.equal(await fen(), made);
      // Use this position: the dialog closes and the board shows it, Black to move.
      await page.click('#editor .editor-use');
      assert.equal(await page.isHidden('#editor-dialog'), true);
      assert.equal(await text(page, '#fen'), made);
      assert.match(await text(page, '#status'), /^黑方走$/);
      assert.deepEqual(errors, []);
    } finally {
      await page.context().close();
    }
  },
);

test(
  'the library: import many files, search, open a game on the board, rename, delete, export all',
  { skip, timeout: 60_000 },
  async () => {
    const { page, errors } = await open();
    try {
      await showTab(page, 'library');
      await page.waitForSelector('.library-status:has-text("还没有棋局")');
      const games = join(repoRoot(), 'test', 'data', 'games');
      await page.setInputFiles('.library-import input', [
        join(games, 'xqdb-chinese.pgn'),
        join(games, 'hbsxcjp-01-chinese.pgn'),
      ]);
      await page.waitForSelector('#tab-library[data-games="5"]');
      assert.match(await text(page, '.library-status'), /共 5 局 · 已导入 5 局（0 局已在库中）/);
      // The same file again: nothing new.
      await page.setInputFiles('.library-import input', [join(games, 'xqdb-chinese.pgn')]);
      await page.waitForSelector('.library-status:has-text("已导入 0 局（4 局已在库中）")');
      // Search by player; open the game found: on the board, its players under the move list.
      await page.fill('.library-search', 'zhao');
      await page.waitForSelector('#tab-library[data-games="1"]');
      assert.match(await text(page, '.library-item .library-name'), /ZHAO GuoRong 对 KE YongQing/);
      await page.click('.library-item .library-open');
      await page.waitForFunction("document.querySelectorAll('#moves .move[data-ply]').length > 10");
      assert.match(await text(page, '#game-info'), /ZHAO GuoRong – KE YongQing/);
      // The result filter.
      await showTab(page, 'library');
      await page.fill('.library-search', '');
      await page.selectOption('.library-result', '1-0');
      await page.waitForFunction(`document.getElementById('tab-library').dataset.games !== '5'`);
      const redWins = Number(await page.getAttribute('#tab-library', 'data-games'));
      assert.ok(redWins >= 1 && redWins < 5, `${redWins} games won by Red`);
      await page.selectOption('.library-result', 'any');
      await page.waitForSelector('#tab-library[data-games="5"]');
      // Rename the first game, then delete it (the button asks again first).
      await page.click('.library-item >> nth=0 >> .library-rename');
      await page.fill('.library-rename-input', '我的研究');
      await page.click('.library-rename-save');
      await page.waitForSelector('.library-name:has-text("我的研究")');
      await page.fill('.library-search', '研究');
      await page.waitForSelector('#tab-library[data-games="1"]');
      await page.click('.library-item .library-delete');
      await page.waitForSelector('.library-delete:has-text("确定删除？")');
      await page.click('.library-item .library-delete');
      await page.waitForSelector('#tab-library[data-games="0"]');
      await page.fill('.library-search', '');
      await page.waitForSelector('#tab-library[data-games="4"]');
      // Export all: one PGN of the four games, in the page's notation (Chinese).
      const download = page.waitForEvent('download');
      await page.click('.library-export');
      const file = await download;
      assert.equal(file.suggestedFilename(), 'kirin-games.pgn');
      const exported = readFileSync((await file.path())!, 'utf8');
      assert.equal((exported.match(/\[Game "Chinese Chess"\]/g) ?? []).length, 4);
      assert.match(exported, /\[Format "Chinese"\]/);
      // The status follows the download (the page writes it after handing the file over).
      await page
        .waitForFunction("document.querySelector('.library-status')?.textContent?.includes('已导出 4 局')", null, {
          timeout: 10_000,
        })
        .catch(() => undefined);
      assert.match(await text(page, '.library-status'), /已导出 4 局/);
      // A game imported under the board is kept too, once.
      for (let i = 0; i < 2; i++) {
        await page.setInputFiles('#import-file', join(games, 'xiangqijs-1982.pgn'));
        await page.waitForFunction("document.querySelectorAll('#moves .move[data-ply]').length > 10");
        await showTab(page, 'library');
        await page.waitForSelector('#tab-library[data-games="5"]');
      }
      await page.waitForTimeout(500);
      assert.equal(await page.getAttribute('#tab-library', 'data-games'), '5', 'the second import kept nothing new');
      assert.deepEqual(errors, []);
    } finally {
      await page.context().close();
    }
  },
);
