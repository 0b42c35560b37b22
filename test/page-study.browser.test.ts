// The page's study rooms on the real page, in headless Chromium (Debian's
// /usr/bin/chromium, driven by playwright-core; skipped where it is absent):
// 开局库 shows the masters' moves with red / draw / black bars for the start
// position, fetched when the tab is first opened, a click plays the move on the
// board and the panel follows, a notable game opens on the board and is kept in
// the library; 练习 shows a puzzle on the board, takes its solution played on
// the board with Kirin's defence between the moves, says so, keeps the
// progress, and the next puzzle comes; a wrong move is put back, and another
// game opened ends practice (the board is the player's again); a perpetual
// chase played on the board ends the game with the referee's ruling in words,
// and 谁应变着？ asks for it, a ruling asked for is drawn again when the rule set
// changes in the settings, and ChineseRule judges mate threats; a Big5 file is read with the automatic encoding
// (and refused when GBK is chosen), and a variation with an illegal move is left
// out and said.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import type { Page } from 'playwright-core';
import { repoRoot } from '../toolkit/files.js';
import { clickSquare, showTab } from './support/board.js';
import { openPage, servePage, skip, type OpenedPage } from './support/page-server.js';

const served = servePage('study');

const open = (address: string, locale: string): Promise<OpenedPage> => openPage(served.browser, address, { locale });

const listedUci = (page: Page): Promise<string[]> =>
  page.$$eval('#moves .move[data-ply]', (els) => els.map((e) => e.getAttribute('data-uci') ?? ''));
/** A FEN's board and side (the counters aside). */
const placement = (fen: string): string => fen.split(' ').slice(0, 2).join(' ');
const boardFen = async (page: Page): Promise<string> => (await page.getAttribute('#board', 'data-fen')) ?? '';

/** Plays a move (UCI) on the board by clicking its two squares. */
async function clickMove(page: Page, uci: string): Promise<void> {
  await clickSquare(page, uci.slice(0, 2));
  await clickSquare(page, uci.slice(2, 4));
}

test(
  '开局库: W/D/L for the start position, fetched when the tab opens; a click plays the move; a notable game opens',
  { skip, timeout: 90_000 },
  async () => {
    const { page, errors, requested } = await open(served.url, 'zh-CN');
    try {
      await new Promise((r) => setTimeout(r, 500));
      assert.ok(!requested.some((p) => p.endsWith('/masters.explorer')), 'not fetched with the page');
      await showTab(page, 'explorer');
      await page.waitForSelector('#tab-explorer tr.explorer-row', { timeout: 60_000 });
      assert.ok(
        requested.some((p) => p.endsWith('/masters.explorer')),
        'fetched when the tab opened',
      );
      const rows = await page.$$eval('#tab-explorer tr.explorer-row', (trs) =>
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
      assert.equal(await page.textContent('#tab-explorer .explorer-games'), '27927 局');
      // A click plays the move on the board: the game's move list, and the explorer follows.
      await page.click('#tab-explorer tr.explorer-row >> nth=0');
      await page.waitForFunction("document.querySelectorAll('#moves .move[data-ply]').length === 1");
      assert.deepEqual(await listedUci(page), ['h2e2']);
      await page.waitForSelector('#tab-explorer tr.explorer-row[data-uci="h9g7"]');
      assert.equal(await page.textContent('#tab-explorer tr.explorer-row >> nth=0 >> .explorer-move'), '马8进7');
      // Stepping back on the board shows the start position's moves again.
      await page.keyboard.press('ArrowLeft');
      await page.waitForFunction(
        "document.querySelector('#tab-explorer tr.explorer-row')?.getAttribute('data-uci') === 'h2e2'",
      );
      await page.keyboard.press('ArrowRight');
      await page.waitForSelector('#tab-explorer tr.explorer-row[data-uci="h9g7"]');
      // A notable game opens on the board, at the position the explorer showed, and is kept in the library.
      const fenBefore = await boardFen(page);
      await page.click('#tab-explorer li.explorer-game >> nth=0');
      await page.waitForFunction("document.querySelectorAll('#moves .move[data-ply]').length > 10", null, {
        timeout: 10_000,
      });
      assert.equal(await boardFen(page), fenBefore, 'the game is shown at the position the explorer showed');
      await showTab(page, 'library');
      await page.waitForSelector('.library-item', { timeout: 10_000 });
      assert.equal(await page.locator('.library-item').count(), 1);
      assert.deepEqual(errors, []);
    } finally {
      await page.context().close();
    }
  },
);

test(
  '练习: a puzzle solved on the board with Kirin defending, the next comes; a wrong move is put back',
  { skip, timeout: 90_000 },
  async () => {
    const puzzles = (
      JSON.parse(readFileSync(join(repoRoot(), 'src', 'puzzles', 'puzzles.json'), 'utf8')) as {
        puzzles: { fen: string; moves: string[] }[];
      }
    ).puzzles;
    const { page, errors, requested } = await open(served.url, 'en-US');
    try {
      // A move on the analysis board first: practice takes the board over, and gives it back.
      await clickMove(page, 'h2e2');
      await page.waitForFunction("document.querySelectorAll('#moves .move[data-ply]').length === 1");
      assert.ok(!requested.some((p) => p.endsWith('/puzzles.json')), 'not fetched with the page');
      await showTab(page, 'practice');
      await page.waitForSelector('#tab-practice .practice-task', { timeout: 60_000 });
      const first = await boardFen(page);
      const puzzle = puzzles.find((p) => placement(p.fen) === placement(first));
      assert.ok(puzzle, `the board shows a puzzle: ${first}`);
      assert.deepEqual(await listedUci(page), [], "the puzzle is the board's game");
      assert.equal(await page.isDisabled('#analysis'), true, 'no analysis while practising');
      for (let k = 0; k < puzzle.moves.length; k += 2) {
        await clickMove(page, puzzle.moves[k]);
        // The move, then Kirin's defence (the line's next move), are the game's moves.
        const expected = puzzle.moves.slice(0, Math.min(k + 2, puzzle.moves.length));
        await page.waitForFunction(
          `[...document.querySelectorAll('#moves .move[data-ply]')].map((e) => e.getAttribute('data-uci')).join() === ${JSON.stringify(expected.join())}`,
          null,
          { timeout: 10_000 },
        );
      }
      assert.equal(await page.textContent('#tab-practice .practice-status'), 'Solved!');
      const progress = JSON.parse((await page.evaluate("localStorage.getItem('kirin.practice')")) as string) as {
        rating: number;
        solved: string[];
      };
      assert.equal(progress.solved.length, 1);
      const solved = await boardFen(page);
      await page.click('#tab-practice button:has-text("Next puzzle")');
      await page.waitForFunction(`document.querySelector('#board').dataset.fen !== ${JSON.stringify(solved)}`);
      const second = await boardFen(page);
      const next = puzzles.find((p) => placement(p.fen) === placement(second));
      assert.ok(next, `the next puzzle: ${second}`);
      // A hint circles the piece to move.
      await page.click('#tab-practice button:has-text("Hint")');
      await page.waitForSelector('#board .cg-shapes circle');
      // A wrong move (a legal one that is not the solution) is put back and said.
      const wrong = (await page.evaluate(
        `import('./dist/kirin.js').then(({ Position, legalMoves, moveToUci }) => {
           const p = Position.fromFen(${JSON.stringify(second)}).value;
           return legalMoves(p).map(moveToUci).find((u) => u !== ${JSON.stringify(next.moves[0])});
         })`,
      )) as string;
      await clickMove(page, wrong);
      await page.waitForFunction(
        "document.querySelector('#tab-practice .practice-status')?.textContent.startsWith('Not that')",
      );
      assert.equal(await boardFen(page), second, 'the wrong move is put back');
      assert.deepEqual(await listedUci(page), []);
      // Retry, then another game opened (新局) ends practice: the board is the player's again, analysis too.
      await page.click('#tab-practice button:has-text("Retry")');
      await page.click('#new-board');
      await clickMove(page, 'b2e2');
      await page.waitForFunction("document.querySelectorAll('#moves .move[data-ply]').length === 1");
      assert.deepEqual(await listedUci(page), ['b2e2']);
      assert.equal(await page.isDisabled('#analysis'), false);
      assert.deepEqual(errors, []);
    } finally {
      await page.context().close();
    }
  },
);

test(
  'the referee: the ruling asked for is drawn again under the rules chosen; ChineseRule judges mate threats',
  { skip, timeout: 60_000 },
  async () => {
    // The Chinese rule book's 图7: the cannon threatens mate on every move (杀), the black rook only blocks.
    const fen = '2bak1c2/4aRN1r/4b4/9/9/9/3pp4/2n1B4/9/2B1K3C w - - 0 1';
    const { page, errors } = await open(`${served.url}#fen=${encodeURIComponent(fen)}&moves=i0h0,i8h8,h0i0`, 'zh-CN');
    try {
      await clickMove(page, 'h8i8');
      // The move ends the game by its ruling (AsianRule, the page's default) before the player steps back.
      await page.waitForFunction("document.querySelector('#status')?.textContent === '对局结束：红胜（长捉）'");
      // One move back the line shown repeats: ask under AsianRule.
      await page.keyboard.press('ArrowLeft');
      await page.waitForSelector('#referee-ask:not([hidden])');
      await page.click('#referee-ask');
      await page.waitForSelector('#referee:not([hidden])');
      assert.equal(await page.textContent('#referee h4'), '裁判（亚洲规则）');
      const spans = (): Promise<(string | null)[]> => page.$$eval('#referee span', (s) => s.map((e) => e.textContent));
      // AsianRule sees the black rook's blocks as chases of the cannon, and no mate threat.
      assert.ok(
        (await spans()).includes('黑方必须变着：长捉判负；黑方若继续重复，判红方胜。'),
        (await spans()).join('\n'),
      );
      // The rule set chosen in the settings: the same line's ruling, drawn again, with the mate threats
      // the page's one Mate Threat Depth (the referee's, 4) finds.
      await showTab(page, 'settings');
      await page.selectOption('#rule', 'ChineseRule');
      await page.waitForFunction("document.querySelector('#referee h4')?.textContent === '裁判（中国规则）'");
      assert.equal(await page.isHidden('#referee'), false);
      const ruling = await spans();
      assert.ok(ruling.includes('红方炮一平二叫杀。'), ruling.join('\n'));
      assert.ok(ruling.includes('红方必须变着：长杀判负；红方若继续重复，判黑方胜。'), ruling.join('\n'));
      assert.deepEqual(errors, []);
    } finally {
      await page.context().close();
    }
  },
);

test(
  'the referee: a perpetual chase played on the board ends the game with its ruling; 谁应变着？ judges the line shown',
  { skip, timeout: 60_000 },
  async () => {
    // A rook chases a knight back and forth (AsianRule, the page's default: red must change).
    const fen = '4k4/9/6n2/9/9/9/9/7R1/9/3K5 w - - 0 1';
    const { page, errors } = await open(`${served.url}#fen=${encodeURIComponent(fen)}&moves=h2g2,g7h9,g2h2`, 'zh-CN');
    try {
      assert.equal(await page.isHidden('#referee'), true, 'nothing to rule on yet');
      await clickMove(page, 'h9g7');
      await page.waitForSelector('#referee:not([hidden])');
      assert.equal(await page.textContent('#status'), '对局结束：黑胜（长捉）');
      const ruling = await page.$$eval('#referee span', (s) => s.map((e) => e.textContent));
      assert.deepEqual(ruling, [
        '第 1 至 4 着回到开始的局面，4 着一个循环：',
        '红方车二平三捉黑马（g7），用红车（g2）。',
        '黑方马7退8是闲着。',
        '红方车三平二捉黑马（h9），用红车（h2）。',
        '黑方马8进7是闲着。',
        '红方每着都捉子。',
        '黑方只走闲着。',
        '红方必须变着：长捉判负；红方若继续重复，判黑方胜。',
        '规则在第 4 着后结束对局：黑胜（长捉）。',
      ]);
      assert.match((await page.textContent('#referee h4')) ?? '', /^裁判（亚洲规则）$/);
      // One move back the game goes on; the line shown still repeats, and the player may ask.
      await page.keyboard.press('ArrowLeft');
      await page.waitForSelector('#referee', { state: 'hidden' });
      assert.equal(await page.isVisible('#referee-ask'), true);
      await page.click('#referee-ask');
      await page.waitForSelector('#referee:not([hidden])');
      assert.ok(
        (await page.$$eval('#referee span', (s) => s.map((e) => e.textContent))).includes(
          '红方必须变着：长捉判负；红方若继续重复，判黑方胜。',
        ),
      );
      // At the start of a line that does not repeat there is nothing to ask.
      await page.click('#new-board');
      await page.waitForSelector('#referee-ask', { state: 'hidden' });
      assert.equal(await page.isHidden('#referee'), true);
      assert.deepEqual(errors, []);
    } finally {
      await page.context().close();
    }
  },
);

test(
  'game files: a Big5 file read with the automatic encoding, refused in GBK; a broken variation left out and said',
  { skip, timeout: 60_000 },
  async () => {
    const big5 = join(repoRoot(), 'test', 'data', 'games', 'ccpd-big5.pgn');
    const { page, errors } = await open(served.url, 'zh-CN');
    try {
      assert.equal(await page.inputValue('#import-encoding'), 'auto');
      await page.setInputFiles('#import-file', big5);
      await page.waitForFunction("document.querySelectorAll('#moves .move[data-ply]').length > 20");
      assert.deepEqual((await listedUci(page)).slice(0, 4), ['h2e2', 'h9g7', 'h0g2', 'i9h9']);
      assert.match((await page.textContent('#import-note')) ?? '', /ccpd-big5\.pgn：按 Big5 读入/);
      assert.match((await page.textContent('#game-info')) ?? '', /张雄飞|張雄飛/);
      assert.equal(await page.textContent('#import-error'), '');
      // Read as GBK the moves are not moves: the game is refused, and the board keeps the one it shows.
      await page.selectOption('#import-encoding', 'gb18030');
      await page.setInputFiles('#import-file', big5);
      await page.waitForFunction("document.querySelector('#import-error').textContent !== ''");
      assert.match((await page.textContent('#import-error')) ?? '', /ccpd-big5\.pgn：1 局中有 1 局无法读取/);
      assert.ok((await listedUci(page)).length > 20, 'the game shown stays');
      // A variation with an illegal move is left out, said with the reader's words; the game is kept.
      await page.fill('#pgn', '1. h2e2 h9g7 (1... h7e7 2. h0g2 i9i1) 2. h0g2 *');
      await page.click('#import-text');
      await page.waitForFunction("document.querySelector('#import-note').textContent.includes('略去了 1 个')");
      assert.match((await page.textContent('#import-note')) ?? '', /dropped the variation at move 1 \(Black\)/);
      assert.deepEqual(await listedUci(page), ['h2e2', 'h9g7', 'h0g2']);
      assert.deepEqual(errors, []);
    } finally {
      await page.context().close();
    }
  },
);
