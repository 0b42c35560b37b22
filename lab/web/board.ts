// The page's board (chessgroundx) as a program plays it: a square by its ICCS
// name (a0..i9) is a point of the board's box, as the page lays it out now.
// The lab's page scripts and the browser tests (test/support/board.ts) click
// with these.

import type { Page } from 'playwright-core';

/** The point at the centre of square `name` (a0..i9) of the board shown, as the page lays it out now. */
export async function squarePoint(page: Page, name: string): Promise<{ x: number; y: number }> {
  // The board in view first (a click on a panel below it may have scrolled it away, on a phone).
  await page.locator('#board').scrollIntoViewIfNeeded();
  // A scroll reaches chessgroundx (which then measures the board again) at the next frame: a click
  // before it would land where the board was.
  await page.evaluate('new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))');
  const box = (await page.locator('#board cg-board').boundingBox())!;
  const flipped = (await page.getAttribute('#board', 'data-flipped')) === 'yes';
  const file = name.charCodeAt(0) - 97;
  const rank = Number(name[1]);
  const col = flipped ? 8 - file : file;
  const row = flipped ? rank : 9 - rank;
  return { x: box.x + ((col + 0.5) * box.width) / 9, y: box.y + ((row + 0.5) * box.height) / 10 };
}

/** Clicks square `name` with the mouse. */
export async function clickSquare(page: Page, name: string): Promise<void> {
  const p = await squarePoint(page, name);
  await page.mouse.click(p.x, p.y);
}
