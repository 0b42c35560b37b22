import assert from 'node:assert/strict';
import { test } from 'node:test';
import { BLACK, RED } from '../../src/browser/index.js';
import { GameClock } from './clock.js';

/** A clock on a hand-moved time. */
function handClock(base: number, inc: number): { clock: GameClock; advance: (ms: number) => void } {
  let now = 1_000_000;
  return { clock: new GameClock(base, inc, () => now), advance: (ms) => (now += ms) };
}

test('only the running side loses time; a press adds the increment and starts the other clock', () => {
  const { clock, advance } = handClock(60_000, 2000);
  assert.equal(clock.running(), null);
  advance(5000);
  assert.equal(clock.remaining(RED), 60_000, 'nothing runs before start');
  clock.start(RED);
  advance(3000);
  assert.equal(clock.remaining(RED), 57_000);
  assert.equal(clock.remaining(BLACK), 60_000);
  assert.equal(clock.press(), 3000);
  assert.equal(clock.remaining(RED), 59_000, '57 s + 2 s increment');
  assert.equal(clock.running(), BLACK);
  advance(10_000);
  assert.equal(clock.remaining(BLACK), 50_000);
  assert.equal(clock.remainingAtTurnStart(BLACK), 60_000, 'what a GUI sends at the start of the turn');
  assert.equal(clock.turnStart(), 1_000_000 + 5000 + 3000);
  clock.press();
  assert.equal(clock.remaining(BLACK), 52_000);
  assert.equal(clock.running(), RED);
});

test('pause stops the running clock and resume goes on with the same side', () => {
  const { clock, advance } = handClock(30_000, 0);
  clock.start(BLACK);
  advance(1000);
  clock.pause();
  assert.equal(clock.running(), null);
  assert.equal(clock.paused(), true);
  advance(60_000);
  assert.equal(clock.remaining(BLACK), 29_000, 'no time lost while paused');
  assert.equal(clock.flagged(), null);
  assert.equal(clock.press(), 0, 'a press does nothing while paused');
  clock.resume();
  assert.equal(clock.running(), BLACK);
  advance(500);
  assert.equal(clock.remaining(BLACK), 28_500);
});

test('the flag falls for the running side at zero, and a stopped clock keeps its times', () => {
  const { clock, advance } = handClock(1000, 0);
  clock.start(RED);
  advance(999);
  assert.equal(clock.flagged(), null);
  advance(1);
  assert.equal(clock.flagged(), RED);
  advance(50);
  assert.equal(clock.remaining(RED), -50);
  clock.stop();
  advance(10_000);
  assert.equal(clock.remaining(RED), -50);
  assert.equal(clock.flagged(), RED, 'a stopped clock at zero still says who flagged');
  assert.equal(clock.running(), null);
});

test('an increment keeps a side in the game: 1 s + 1 s with moves under a second never flags', () => {
  const { clock, advance } = handClock(1000, 1000);
  clock.start(RED);
  for (let i = 0; i < 20; i++) {
    advance(900);
    assert.equal(clock.flagged(), null, `move ${i}`);
    clock.press();
  }
  assert.ok(clock.remaining(RED) > 0 && clock.remaining(BLACK) > 0);
});
