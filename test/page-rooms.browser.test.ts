// The page as a Chinese player meets it, in headless Chromium (Debian's
// /usr/bin/chromium, driven by playwright-core; skipped where it is absent):
// a piece dragged from h2 to e2 plays 炮二平五 and the right button draws an
// arrow; with the browser's language
// zh-CN every label shown is Chinese (every tab, the explorer and a puzzle, a game on the clock and its
// end, the library, the board editor), with en-US English, with zh-TW
// Traditional (moves too: 馬8進7), and the player's own choice of language is
// kept; a variation promoted in the move list is the main line of the PGN
// exported, and so is a comment written on a move; a move deleted from the
// right-click menu is gone from the game; a move sounds unless the sound is
// off, and the sound, the colours, the piece set and the board are kept.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Page } from 'playwright-core';
import { moveToUci } from '../src/core/types.js';
import { mainLine, type MoveNode } from '../src/notation/game.js';
import { parseGames } from '../src/notation/pgn.js';
import { ROOM_MESSAGES } from '../web/i18n/rooms.js';
import { clickSquare, dragPiece, showTab, squarePoint, startGame } from './support/board.js';
import { openPage, servePage, skip, type OpenedPage } from './support/page-server.js';

const served = servePage('rooms');

const open = (address: string, locale: string): Promise<OpenedPage> => openPage(served.browser, address, { locale });

const listedUci = (page: Page): Promise<string[]> =>
  page.$$eval('#moves .move[data-ply]', (els) => els.map((e) => e.getAttribute('data-uci') ?? ''));
const listedText = (page: Page): Promise<string[]> =>
  page.$$eval('#moves .move[data-ply]', (els) => els.map((e) => (e.firstChild?.textContent ?? '').trim()));

/** The texts of the elements shown on the page (each element's own text, without its children's). */
function shownTexts(page: Page): Promise<string[]> {
  return page.evaluate(`(() => {
    const out = [];
    for (const e of document.querySelectorAll('body *')) {
      if (!e.checkVisibility || !e.checkVisibility()) continue;
      const own = [...e.childNodes].filter((n) => n.nodeType === 3).map((n) => n.textContent).join('').trim();
      if (own) out.push(own);
      for (const a of ['title', 'placeholder', 'aria-label']) if (e.getAttribute(a)) out.push(e.getAttribute(a).trim());
    }
    return out;
  })()`);
}

/** The messages of a language that another language writes differently and that have words (not names or numbers). */
function wordsOnlyIn(lang: 'zh-Hans' | 'en', other: 'zh-Hans' | 'en'): Set<string> {
  const out = new Set<string>();
  // A text the other language writes too, for any message, is a name (FEN, PGN).
  const theirs = new Set(Object.values(ROOM_MESSAGES).flatMap((room) => Object.values(room[other])));
  for (const room of Object.values(ROOM_MESSAGES))
    for (const [key, text] of Object.entries(room[lang])) {
      const words = text.replace(/\{\w+\}/g, '').trim();
      if (text !== room[other][key] && !theirs.has(text) && /\p{L}{2}/u.test(words) && !text.includes('{'))
        out.add(text);
    }
  return out;
}

/** The texts of the options of every select shown (a choice's words are labels too). */
function optionTexts(page: Page): Promise<string[]> {
  return page.evaluate(`(() => {
    const out = [];
    for (const s of document.querySelectorAll('select'))
      if (s.checkVisibility && s.checkVisibility()) for (const o of s.options) out.push(o.textContent.trim());
    return out;
  })()`);
}

/**
 * Goes through every tab and collects what is shown: the tabs, a game against
 * Kirin (its clocks, buttons and result), the library with a game in it, and
 * the board editor's dialog.
 */
async function everyTabShown(page: Page): Promise<string[]> {
  const texts: string[] = [];
  const look = async (): Promise<void> => {
    texts.push(...(await shownTexts(page)), ...(await optionTexts(page)));
  };
  for (const tab of ['moves', 'review', 'play', 'library', 'explorer', 'practice', 'settings']) {
    await showTab(page, tab);
    // The explorer's moves and the puzzle, once fetched.
    if (tab === 'explorer') await page.waitForSelector('#tab-explorer tr.explorer-row', { timeout: 60_000 });
    if (tab === 'practice') await page.waitForSelector('#tab-practice .practice-task', { timeout: 60_000 });
    await look();
  }
  // A game on the clock, and the game over (resigned): the clocks, the buttons, the result, then its review.
  await startGame(page, '10+5');
  await look();
  await page.click('.play-resign');
  await look();
  await page.click('.play-resign');
  await page.waitForSelector('#tab-play[data-state="over"]', { state: 'attached' });
  await look();
  await showTab(page, 'play');
  await look();
  // The game is in the library now.
  await showTab(page, 'library');
  await page.waitForSelector('.library-item');
  await look();
  await page.click('.library-item .library-delete');
  await look();
  // The board editor, with a position it refuses.
  await page.click('#setup');
  await page.waitForSelector('#editor-dialog[open]');
  await look();
  await page.click('#editor .editor-clear');
  await look();
  await page.click('#editor-close');
  await showTab(page, 'moves');
  return texts;
}

test('a piece dragged from h2 to e2 plays 炮二平五', { skip, timeout: 60_000 }, async () => {
  const { page, errors } = await open(served.url, 'zh-CN');
  try {
    await dragPiece(page, 'h2', 'e2');
    await page.waitForFunction("document.querySelectorAll('#moves .move[data-ply]').length >= 1");
    assert.equal((await listedUci(page))[0], 'h2e2');
    assert.equal((await listedText(page))[0], '炮二平五');
    // The board shows the move: the last move's squares marked, the cannon on e2 (chessgroundx's e3).
    assert.deepEqual(
      (
        await page.$$eval('#board square.last-move', (s) => s.map((e) => (e as unknown as { cgKey: string }).cgKey))
      ).sort(),
      ['e3', 'h3'],
    );
    // The right button draws the player's own arrow (chessgroundx's drawable), from e2 to e6.
    const a = await squarePoint(page, 'e2');
    const b = await squarePoint(page, 'e6');
    await page.mouse.move(a.x, a.y);
    await page.mouse.down({ button: 'right' });
    await page.mouse.move(b.x, b.y, { steps: 6 });
    await page.mouse.up({ button: 'right' });
    await page.waitForFunction("document.querySelectorAll('#board .cg-shapes line').length === 1");
    assert.deepEqual(errors, []);
  } finally {
    await page.context().close();
  }
});

test(
  'zh-CN: every label shown is Chinese; en-US: English; zh-TW: Traditional; the choice is kept',
  { skip, timeout: 150_000 },
  async () => {
    const english = wordsOnlyIn('en', 'zh-Hans');
    const chinese = wordsOnlyIn('zh-Hans', 'en');
    {
      const { page, errors } = await open(`${served.url}#moves=h2e2,h9g7`, 'zh-CN');
      try {
        assert.equal(await page.evaluate('document.documentElement.lang'), 'zh-Hans');
        assert.match((await page.textContent('#status')) ?? '', /^分析：红方走$/);
        assert.deepEqual(await listedText(page), ['炮二平五', '马8进7']);
        const shown = await everyTabShown(page);
        for (const label of [
          '着法',
          '设置',
          '复盘',
          '开始对局',
          '开局库',
          '炮二平五',
          '练习',
          '提示',
          '下一题',
          '认输',
          '黑胜：红方认输',
          '棋谱库',
          '确定删除？',
          '摆棋',
        ])
          assert.ok(shown.includes(label), `${label} is shown`);
        assert.ok(
          shown.some((s) => s.startsWith('局面不合法：')),
          "the editor's refusal",
        );
        const left = shown.filter((s) => english.has(s));
        assert.deepEqual(left, [], 'no English label is shown');
        // Nor English words in a message of the page's making (names, notations and numbers aside; the
        // library's own message in brackets after the words of an error's code is its detail).
        assert.deepEqual(
          shown.filter((s) =>
            /\b(the|and|to|of|is|wins|Red|Black|move|game|Draw)\b/i.test(s.replace(/（[^）]*）/g, '')),
          ),
          [],
          'no English words are shown',
        );
        assert.deepEqual(errors, []);
      } finally {
        await page.context().close();
      }
    }
    {
      const { page, errors } = await open(`${served.url}#moves=h2e2,h9g7`, 'en-US');
      try {
        assert.equal(await page.evaluate('document.documentElement.lang'), 'en');
        assert.match((await page.textContent('#status')) ?? '', /^Analysis: Red to move$/);
        const shown = await everyTabShown(page);
        for (const label of [
          'Moves',
          'Settings',
          'Review game',
          'Resign',
          'Black wins: Red resigned',
          'Set up',
          'Openings',
          'Practice',
          'Next puzzle',
        ])
          assert.ok(shown.includes(label), `${label} is shown`);
        assert.deepEqual(
          shown.filter((s) => chinese.has(s)),
          [],
          'no Chinese label is shown',
        );
        // The player's own choice: Simplified Chinese, kept for the next visit; the result is said again in it.
        await showTab(page, 'settings');
        await page.selectOption('#language', 'zh-Hans');
        assert.equal(await page.textContent('.tab[data-tab="moves"]'), '着法');
        assert.equal(await page.textContent('#status'), '黑胜：红方认输');
        await page.reload();
        await page.waitForSelector('body[data-ready="yes"]');
        assert.equal(await page.textContent('.tab[data-tab="settings"]'), '设置');
        assert.deepEqual(errors, []);
      } finally {
        await page.context().close();
      }
    }
    {
      const { page, errors } = await open(`${served.url}#moves=h2e2,h9g7`, 'zh-TW');
      try {
        assert.equal(await page.evaluate('document.documentElement.lang'), 'zh-Hant');
        assert.equal(await page.textContent('.tab[data-tab="moves"]'), '著法');
        assert.deepEqual(await listedText(page), ['炮二平五', '馬8進7']);
        assert.deepEqual(errors, []);
      } finally {
        await page.context().close();
      }
    }
  },
);

/** The exported PGN read back: its main line in UCI, and its nodes. */
async function exported(page: Page): Promise<{ main: string[]; nodes: MoveNode[]; pgn: string }> {
  await page.click('#export-pgn');
  const pgn = await page.inputValue('#pgn');
  const [g] = parseGames(pgn);
  assert.ok(g.ok, g.ok ? '' : g.error.message);
  const nodes: MoveNode[] = [];
  for (let n = g.value.children[0]; n !== undefined; n = n.children[0]) nodes.push(n);
  return { main: mainLine(g.value).map(moveToUci), nodes, pgn };
}

test(
  'a variation promoted is the main line of the PGN; a comment written is in it; a move deleted is gone',
  { skip, timeout: 90_000 },
  async () => {
    const { page, errors } = await open(`${served.url}#moves=h2e2,h9g7,h0g2,i9h9&ply=2`, 'zh-CN');
    try {
      // A move other than the game's next one: a variation.
      await clickSquare(page, 'b0');
      await clickSquare(page, 'c2');
      await page.waitForFunction("document.querySelector('#moves .move.current')?.dataset.uci === 'b0c2'");
      assert.equal(await page.$$eval('#moves .variation .move', (m) => m.length), 1);
      assert.equal(await page.isDisabled('#move-promote'), false);
      // A comment on the move shown (the variation's move).
      await page.fill('#comment', '屏风马对中炮的另一路');
      await page.press('#comment', 'Tab');
      assert.equal(await page.textContent('#moves .variation .comment'), '屏风马对中炮的另一路');
      await page.click('#move-promote');
      assert.deepEqual(await listedUci(page), ['h2e2', 'h9g7', 'b0c2']);
      assert.equal(await page.isDisabled('#move-promote'), true, 'the move shown is on the main line now');
      let out = await exported(page);
      assert.deepEqual(out.main, ['h2e2', 'h9g7', 'b0c2']);
      assert.equal(out.nodes[2].comment, '屏风马对中炮的另一路');
      assert.deepEqual(
        out.nodes[1].children.map((n) => moveToUci(n.move)),
        ['b0c2', 'h0g2'],
        'the old main line is a variation',
      );
      // A comment on the first move, written in the box, kept across moves.
      await page.click('#moves .move[data-ply="1"]');
      await page.fill('#comment', '中炮');
      await page.press('#comment', 'Tab');
      await page.click('#moves .move[data-ply="3"]');
      assert.equal(await page.inputValue('#comment'), '屏风马对中炮的另一路');
      out = await exported(page);
      assert.equal(out.nodes[0].comment, '中炮');
      assert.match(out.pgn, /\{中炮\}/);
      // The right-click menu: delete the old main line's move (now the variation).
      await page.click('#moves .variation .move', { button: 'right' });
      assert.equal(await page.isVisible('#move-menu'), true);
      await page.click('#move-menu button[data-action="delete"]');
      assert.equal(await page.isHidden('#move-menu'), true);
      assert.equal(await page.$$eval('#moves .variation', (v) => v.length), 0);
      out = await exported(page);
      assert.deepEqual(
        out.nodes[1].children.map((n) => moveToUci(n.move)),
        ['b0c2'],
      );
      // The address follows: the line shown.
      assert.match(String(await page.evaluate('location.hash')), /moves=h2e2,h9g7(,b0c2)?/);
      // Delete from the move shown: back one move.
      await page.click('#moves .move[data-ply="3"]');
      await page.click('#move-delete');
      assert.deepEqual(await listedUci(page), ['h2e2', 'h9g7']);
      assert.equal(await page.getAttribute('#moves .move.current', 'data-ply'), '2');
      assert.deepEqual(errors, []);
    } finally {
      await page.context().close();
    }
  },
);

test(
  'a move sounds unless muted; sound, colours, pieces and board are kept across a reload',
  { skip, timeout: 90_000 },
  async () => {
    const context = await served.browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'zh-CN' });
    // Count the sounds started (Web Audio sources and oscillators), before the page's own code runs.
    await context.addInitScript(`(() => {
    window.soundsStarted = 0;
    for (const C of [AudioBufferSourceNode, OscillatorNode]) {
      const start = C.prototype.start;
      C.prototype.start = function (...a) { window.soundsStarted++; return start.apply(this, a); };
    }
  })()`);
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    try {
      await page.goto(`${served.url}#moves=`);
      await page.waitForSelector('body[data-ready="yes"]');
      const started = (): Promise<number> => page.evaluate('window.soundsStarted') as Promise<number>;
      assert.equal(await started(), 0);
      await dragPiece(page, 'h2', 'e2');
      await page.waitForFunction('window.soundsStarted > 0');
      assert.equal(await page.getAttribute('#sound-toggle', 'aria-pressed'), 'true');
      await page.click('#sound-toggle');
      assert.equal(await page.getAttribute('#sound-toggle', 'aria-pressed'), 'false');
      const before = await started();
      await dragPiece(page, 'h9', 'g7');
      await page.waitForFunction("document.querySelectorAll('#moves .move[data-ply]').length === 2");
      assert.equal(await started(), before, 'muted: no sound');
      // Dark colours, the green board, the traditional pieces: chosen, then kept.
      await page.click('#scheme-toggle');
      assert.equal(await page.getAttribute('html', 'data-theme'), 'dark');
      await showTab(page, 'settings');
      assert.equal(await page.inputValue('#piece-set'), 'simplified', 'Simplified Chinese: simplified pieces');
      await page.selectOption('#piece-set', 'traditional');
      await page.selectOption('#board-theme', 'green');
      await page.reload();
      await page.waitForSelector('body[data-ready="yes"]');
      assert.equal(await page.getAttribute('html', 'data-theme'), 'dark');
      assert.equal(await page.getAttribute('#sound-toggle', 'aria-pressed'), 'false');
      assert.equal(await page.getAttribute('#board', 'data-pieces'), 'traditional');
      assert.equal(await page.getAttribute('#board', 'data-theme'), 'green');
      assert.equal(
        await page.evaluate('getComputedStyle(document.documentElement).backgroundColor'),
        'rgb(27, 26, 23)',
        'the dark background',
      );
      assert.deepEqual(errors, []);
    } finally {
      await context.close();
    }
  },
);
