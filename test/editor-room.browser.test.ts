// The board editor (web/editor) in headless Chromium, mounted on a harness
// page (test/support/room-harness.ts): pieces placed from the palette by click
// and by drag, moved and dragged off the board, three rooks refused with the
// rules core's message, clear / start / side to move, a FEN loaded and a bad
// one refused, and "use this position" handing the FEN to the page. Skipped
// where /usr/bin/chromium is absent.

import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { after, before, test } from 'node:test';
import type { Page } from 'playwright-core';
import { CHROMIUM } from '../lab/web/chromium.js';
import { Position } from '../src/core/position.js';
import { openRoomSite, type RoomSite } from './support/room-harness.js';

const skip = existsSync(CHROMIUM) ? false : `${CHROMIUM} is absent (Debian package chromium): browser test skipped`;

const ENTRY = `
import { mountEditor } from './editor/panel.js';
import { EDITOR_MESSAGES } from './editor/messages.js';
const t = (key: string, params: Record<string, string | number> = {}) =>
  (EDITOR_MESSAGES['zh-Hans'][key] ?? key).replace(/\\{(\\w+)\\}/g, (_: string, n: string) => String(params[n]));
const used: string[] = [];
const panel = mountEditor(document.getElementById('root')!, { t, usePosition: (fen: string) => used.push(fen) });
Object.assign(window, { panel, used, harnessReady: true });
`;

const START = 'rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1';

let site: RoomSite | undefined;
before(async () => {
  if (!skip) site = await openRoomSite(ENTRY);
});
after(async () => {
  await site?.close();
});

const fen = (page: Page): Promise<string | null> => page.getAttribute('#root', 'data-fen');
const status = async (page: Page): Promise<string> => (await page.textContent('.editor-status')) ?? '';

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
  'the board editor: palette clicks and drags, three rooks refused with the core message, use the position',
  { skip, timeout: 60_000 },
  async () => {
    const { page, errors } = await site!.open({ width: 900, height: 900 });
    assert.equal(await fen(page), START);
    assert.equal(await status(page), '局面合法');
    // A third red rook, by click: the rules core refuses it, in its own words.
    await page.click('.editor-palette button[data-piece="1"]');
    assert.equal(await page.getAttribute('.editor-palette button[data-piece="1"]', 'aria-pressed'), 'true');
    await page.click('.editor-cell[data-square="a5"]');
    assert.equal(await fen(page), 'rnbakabnr/9/1c5c1/p1p1p1p1p/R8/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1');
    assert.equal(await page.getAttribute('.editor-status', 'data-valid'), 'no');
    assert.equal(await page.getAttribute('.editor-status', 'data-code'), 'fen-piece-count');
    const core = Position.fromFen((await fen(page))!);
    assert.ok(!core.ok);
    assert.equal(await status(page), `局面不合法：${core.error.message.replace(/^invalid FEN "[^"]*": /, '')}`);
    assert.match(await status(page), /red has 3 rooks, at most 2 allowed/);
    assert.equal(await page.isDisabled('.editor-use'), true);
    // Dragged off the board, the rook is gone and the position is legal again.
    await page.click('.editor-palette button[data-tool="move"]');
    const box = (await page.locator('.editor-board').boundingBox())!;
    await drag(page, '.editor-cell[data-square="a5"]', { x: box.x + box.width + 200, y: box.y + 20 });
    assert.equal(await fen(page), START);
    assert.equal(await status(page), '局面合法');
    // A black pawn dragged from the palette onto e4; a red cannon moved by drag from h2 to e2.
    await drag(page, '.editor-palette button[data-piece="12"]', '.editor-cell[data-square="e4"]');
    await drag(page, '.editor-cell[data-square="h2"]', '.editor-cell[data-square="e2"]');
    assert.equal(await fen(page), 'rnbakabnr/9/1c5c1/p1p1p1p1p/9/4p4/P1P1P1P1P/1C2C4/9/RNBAKABNR w - - 0 1');
    // Right-click removes; the side to move.
    await page.click('.editor-cell[data-square="e4"]', { button: 'right' });
    await page.selectOption('.editor-side', '1');
    assert.equal(await fen(page), 'rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 0 1');
    await page.click('.editor-use');
    assert.deepEqual(await page.evaluate('window.used'), [
      'rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 0 1',
    ]);
    // Clear: no kings, refused; the start position again.
    await page.click('.editor-clear');
    assert.match(await status(page), /^局面不合法：the red king is missing$/);
    await page.click('.editor-start');
    assert.equal(await fen(page), START);
    // A FEN typed in: a legal one loads, a bad one is refused with the core's message and the board stays.
    await page.fill('.editor-fen', '3k5/9/9/9/9/9/9/9/4R4/4K4 b');
    await page.click('.editor-load');
    assert.equal(await fen(page), '3k5/9/9/9/9/9/9/9/4R4/4K4 b - - 0 1');
    await page.fill('.editor-fen', 'RRRk5/9/9/9/9/9/9/9/9/4K4 w');
    await page.click('.editor-load');
    assert.equal(await status(page), '局面不合法：red has 3 rooks, at most 2 allowed');
    assert.equal(await fen(page), '3k5/9/9/9/9/9/9/9/4R4/4K4 b - - 0 1');
    // Flipped, Black's king on d9 is drawn at the bottom.
    await page.click('.editor-flip');
    const top = await page.$eval(
      '.editor-cell[data-square="d9"]',
      (e) => (e as unknown as { style: { top: string } }).style.top,
    );
    assert.equal(top, '90%');
    assert.deepEqual(errors, []);
  },
);
