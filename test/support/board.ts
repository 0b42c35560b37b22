// The page's board (chessgroundx) as a test reads and plays it: a square by its
// ICCS name (a0..i9) is a point of the board's box, the pieces are <piece>
// elements that chessgroundx keys by its own names (a1..i: for a0..i9).
// Playwright clicks, taps and drags at those points, as a player's pointer does.

import type { Page } from 'playwright-core';
import { squarePoint } from '../../lab/web/board.js';

// Where a square is, and a click on it, are the lab's too (lab/web/review-screenshot.ts).
export { clickSquare, squarePoint } from '../../lab/web/board.js';

/** Taps square `name` (a page with a touch screen). */
export async function tapSquare(page: Page, name: string): Promise<void> {
  const p = await squarePoint(page, name);
  await page.touchscreen.tap(p.x, p.y);
}

/** Drags the piece on `from` to `to` with the mouse: press, move in steps, release. */
export async function dragPiece(page: Page, from: string, to: string): Promise<void> {
  const a = await squarePoint(page, from);
  const b = await squarePoint(page, to);
  await page.mouse.move(a.x, a.y);
  await page.mouse.down();
  await page.mouse.move(a.x + (b.x - a.x) / 4, a.y + (b.y - a.y) / 4, { steps: 3 });
  await page.mouse.move(b.x, b.y, { steps: 8 });
  await page.mouse.up();
}

/** An ICCS square name for a chessgroundx key (ranks '1'..'9', ':' are 0..9). */
const squareOfKey = (key: string): string => `${key[0]}${'123456789:'.indexOf(key[1])}`;

const ROLE_NAMES: Record<string, string> = {
  'r-piece': 'rook',
  'n-piece': 'knight',
  'b-piece': 'bishop',
  'a-piece': 'advisor',
  'k-piece': 'king',
  'c-piece': 'cannon',
  'p-piece': 'pawn',
};

/** The pieces on the board shown: square name -> 'red knight', 'black pawn', ... */
export async function piecesShown(page: Page): Promise<Map<string, string>> {
  const raw: string[][] = await page.$$eval('#board cg-board piece:not(.ghost):not(.fading)', (ps) =>
    ps.map((p) => [(p as unknown as { cgKey: string }).cgKey, p.className]),
  );
  const out = new Map<string, string>();
  for (const [key, cls] of raw) {
    const classes = cls.split(/\s+/);
    const role = classes.find((c) => c.endsWith('-piece')) ?? '';
    out.set(squareOfKey(key), `${classes.includes('white') ? 'red' : 'black'} ${ROLE_NAMES[role] ?? role}`);
  }
  return out;
}

/** The squares the board offers as destinations of the piece selected. */
export async function destinationsShown(page: Page): Promise<string[]> {
  // chessgroundx draws a selection at its next frame.
  await page.evaluate('new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))');
  const keys = await page.$$eval('#board cg-board square.move-dest', (ss) =>
    ss.map((s) => (s as unknown as { cgKey: string }).cgKey),
  );
  return keys.map(squareOfKey).sort();
}

/** Shows a tab of the panel (moves, review, play, library, explorer, settings). */
export async function showTab(page: Page, name: string): Promise<void> {
  await page.click(`.tab[data-tab="${name}"]`);
}

/**
 * Starts a game against Kirin in the 对弈 tab: `control` a time control as
 * typed ('0.1+0', '10+5') or a time per move ('0.2s'), the player's side,
 * from the standard position or the one shown.
 * Returns once the game runs.
 */
export async function startGame(
  page: Page,
  control: string,
  side: 'red' | 'black' = 'red',
  from: 'start' | 'shown' = 'start',
): Promise<void> {
  await showTab(page, 'play');
  await page.selectOption('.play-from', from);
  const perMove = /^([\d.]+)s$/.exec(control);
  if (perMove) {
    await page.selectOption('.play-tc', 'movetime');
    await page.fill('.play-tc-permove', perMove[1]);
  } else {
    await page.selectOption('.play-tc', 'custom');
    await page.fill('.play-tc-custom', control);
  }
  await page.selectOption('.play-side', side);
  await page.click('.play-start');
  await page.waitForSelector('#tab-play[data-state="playing"]');
  // Red moves first from the standard start: the board takes the player's moves once it says so.
  if (side === 'red' && from === 'start') await page.waitForSelector('#board[data-movable="yes"]', { timeout: 30_000 });
}
