// The play room (web/play) in headless Chromium, mounted on a harness page
// (test/support/room-harness.ts) whose "board" is a Position the test plays
// moves on: a timed game at a short control ends on time with the right result
// in the player's words and goes to review; Kirin, answering with the clock's
// times in its `go`, does not lose on time at a fast control; takeback, a
// declined draw offer and a resignation. Skipped where /usr/bin/chromium is
// absent.

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

test(
  'a timed game at a short control ends on time, with the right result in the players words, and goes to review',
  { skip, timeout: 60_000 },
  async () => {
    const { page, errors } = await site!.open();
    await page.waitForFunction('window.engine !== undefined');
    await page.evaluate('window.engine.ready()');
    await startGame(page, '0.1+0'); // 6 seconds
    // Before Red's first move no clock runs.
    assert.equal(await page.getAttribute('.play-clocks .kirin-play-clock[data-side="red"]', 'data-running'), 'no');
    assert.equal(await page.evaluate('window.play("h2e2")'), true);
    await page.waitForFunction('window.log.shown.length === 1', undefined, { timeout: 15_000 });
    assert.equal(await page.getAttribute('.play-clocks .kirin-play-clock[data-side="red"]', 'data-running'), 'yes');
    // The player does not move: Red's 6 seconds run out.
    await page.waitForSelector('#root[data-state="over"]', { timeout: 20_000 });
    assert.equal(await page.getAttribute('#root', 'data-result'), 'black');
    assert.equal(await page.getAttribute('#root', 'data-reason'), 'flag');
    assert.equal(await page.textContent('.play-result-text'), '黑胜：红方超时判负');
    assert.equal(await page.getAttribute('.play-clocks .kirin-play-clock[data-side="red"]', 'data-ms'), '0');
    const over = (await page.evaluate('window.log.over')) as {
      result: string;
      headers: Record<string, string>;
      comment: string;
    }[];
    assert.equal(over.length, 1);
    assert.equal(over[0].result, '0-1');
    assert.deepEqual(
      [over[0].headers.Red, over[0].headers.Black, over[0].headers.TimeControl, over[0].headers.Termination],
      ['棋手', 'Kirin（全力）', '6+0', 'time forfeit'],
    );
    assert.equal(over[0].comment, '黑胜：红方超时判负');
    assert.deepEqual(await page.evaluate('window.log.sounds'), ['start', 'low-time', 'end']);
    // A move after the flag is refused; review hands the game over.
    assert.equal(await page.evaluate('window.play("h0g2")'), false);
    await page.click('.play-review');
    assert.equal(await page.evaluate('window.log.reviewed'), 1);
    // The engine's options are put back.
    assert.deepEqual(
      await page.evaluate(
        `['Move Overhead', 'MultiPV', 'OwnBook', 'Skill Level'].map((n) => String(window.engine.options.getString(n)))`,
      ),
      ['10', '1', 'false', '20'],
    );
    assert.deepEqual(errors, []);
    await page.context().close();
  },
);

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

test(
  'takeback, a draw offer Kirin declines early, and resigning (asked twice)',
  { skip, timeout: 60_000 },
  async () => {
    const { page, errors } = await site!.open();
    await page.waitForFunction('window.engine !== undefined');
    await startGame(page, '10+5');
    assert.equal(await page.evaluate('window.play("h2e2")'), true);
    await page.waitForFunction('window.log.shown.length === 1', undefined, { timeout: 20_000 });
    await page.waitForSelector('.play-status:has-text("轮到你走（红方）")');
    await page.click('.play-takeback');
    assert.equal(await page.evaluate('window.log.takenBack'), 2);
    assert.equal(
      await page.evaluate('window.fen()'),
      'rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1',
    );
    assert.equal(await page.isDisabled('.play-takeback'), true);
    assert.equal(await page.evaluate('window.play("b2e2")'), true);
    await page.waitForFunction('window.log.shown.length === 2', undefined, { timeout: 20_000 });
    await page.click('.play-draw');
    await page.waitForSelector('.play-status:has-text("Kirin 拒绝和棋")');
    assert.equal(await page.getAttribute('#root', 'data-state'), 'playing');
    await page.click('.play-resign');
    await page.waitForSelector('.play-resign:has-text("确定认输？")');
    assert.equal(await page.getAttribute('#root', 'data-state'), 'playing');
    await page.click('.play-resign');
    await page.waitForSelector('#root[data-state="over"]');
    assert.equal(await page.textContent('.play-result-text'), '黑胜：红方认输');
    assert.deepEqual(errors, []);
    await page.context().close();
  },
);
