// The play room's panel (web/play) in headless Chromium, mounted on a harness
// page (test/support/room-harness.ts) whose "board" is a Position the test
// plays moves on at once, faster than a player could on the page: Kirin,
// answering with the clock's times in its `go`, does not lose on time at a fast
// control. The game on the page itself (a flag, takeback, draw offer,
// resignation, review, the library) is test/page-games.browser.test.ts's.
// Skipped where /usr/bin/chromium is absent.

import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { after, before, test } from 'node:test';
import type { Page } from 'playwright-core';
import { CHROMIUM } from '../lab/web/chromium.js';
import { openRoomSite, type RoomSite } from './support/room-harness.js';

const skip = existsSync(CHROMIUM) ? false : `${CHROMIUM} is absent (Debian package chromium): browser test skipped`;

const ENTRY = `
import { Engine, Position, legalMoves, moveToUci, parseLegalMove, type Move } from '../src/browser/index.js';
import { mountPlayPanel } from './play/panel.js';
import { PLAY_MESSAGES } from './play/messages.js';
const t = (key: string, params: Record<string, string | number> = {}) =>
  (PLAY_MESSAGES['zh-Hans'][key] ?? key).replace(/\\{(\\w+)\\}/g, (_: string, n: string) => String(params[n]));
const engine = new Engine({ warmup: true });
let pos = new Position();
const moves: Move[] = [];
const log = { shown: [] as string[], over: [] as unknown[], reviewed: 0, sounds: [] as string[], takenBack: 0 };
const panel = mountPlayPanel(document.getElementById('root')!, {
  engine,
  t,
  ruleConfig: () => engine.ruleConfig(),
  startGame(fen: string) {
    const p = Position.fromFen(fen);
    if (!p.ok) throw new Error(p.error.message);
    pos = p.value;
    moves.length = 0;
  },
  showMove(m: Move) {
    pos.doMove(m);
    moves.push(m);
    log.shown.push(moveToUci(m));
  },
  takeBack(n: number) {
    for (let i = 0; i < n; i++) pos.undoMove(moves.pop()!);
    log.takenBack += n;
  },
  gameOver(game, end) {
    let last = game.children[0];
    while (last?.children[0]) last = last.children[0];
    log.over.push({ result: game.result, headers: game.headers, comment: last?.comment ?? '', end });
  },
  review() {
    log.reviewed++;
  },
  sound(e: string) {
    log.sounds.push(e);
  },
});
/** The player's move on the board (UCI): true when the panel took it. */
function play(uci: string): boolean {
  const m = parseLegalMove(pos, uci);
  if (!m.ok || !panel.playerMove(m.value)) return false;
  pos.doMove(m.value);
  moves.push(m.value);
  return true;
}
/** The player moves at once, whenever it is the player's turn, with the first legal move. */
function autoplay(): void {
  setInterval(() => {
    if (!panel.playerToMove()) return;
    const m = legalMoves(pos)[0];
    if (m !== undefined) play(moveToUci(m));
  }, 5);
}
Object.assign(window, { panel, engine, log, play, autoplay, fen: () => pos.fen(), harnessReady: true });
`;

let site: RoomSite | undefined;
before(async () => {
  if (!skip) site = await openRoomSite(ENTRY);
});
after(async () => {
  await site?.close();
});

async function startGame(page: Page, control: string, side = 'red'): Promise<void> {
  await page.selectOption('.play-tc', 'custom');
  await page.fill('.play-tc-custom', control);
  await page.selectOption('.play-side', side);
  await page.click('.play-start');
  await page.waitForSelector('#root[data-state="playing"]');
}

test('Kirin plays with the clock and does not lose on time at a fast control', { skip, timeout: 90_000 }, async () => {
  const { page, errors } = await site!.open();
  await page.waitForFunction('window.engine !== undefined');
  await page.evaluate('window.engine.ready()');
  // 12 seconds each, Kirin as Red; the player answers at once.
  await startGame(page, '0.2+0', 'black');
  await page.evaluate('window.autoplay()');
  await page.waitForFunction(
    'document.getElementById("root").dataset.state === "over" || window.log.shown.length >= 25',
    undefined,
    {
      timeout: 60_000,
    },
  );
  const state = await page.getAttribute('#root', 'data-state');
  const reason = await page.getAttribute('#root', 'data-reason');
  const kirinLeft = Number(await page.getAttribute('.play-clocks .kirin-play-clock[data-side="red"]', 'data-ms'));
  const shown = (await page.evaluate('window.log.shown.length')) as number;
  process.stdout.write(`# Kirin's moves ${shown}, its clock ${kirinLeft} ms, state ${state} ${reason ?? ''}\n`);
  assert.ok(shown >= 5, `${shown} moves of Kirin`);
  if (state === 'over') assert.notEqual(await page.getAttribute('#root', 'data-result'), 'black', `ended: ${reason}`);
  assert.ok(kirinLeft > 0, `Kirin has ${kirinLeft} ms left`);
  assert.ok(kirinLeft < 12_000, 'Kirin spent time thinking');
  assert.deepEqual(errors, []);
  await page.context().close();
});
