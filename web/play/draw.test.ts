import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CLASSICAL_WIN_RATE, Position } from '../../src/browser/index.js';
import { DRAW_MAX_CP, DRAW_MIN_PLIES, drawFacts, kirinAcceptsDraw, scoreCp } from './draw.js';

test('Kirin accepts a draw after the first moves when it is not better by more than 0.30', () => {
  const facts = (plies: number, kirinCp: number | null) => ({ plies, kirinCp, noAttackers: false });
  assert.equal(DRAW_MIN_PLIES, 20);
  assert.equal(DRAW_MAX_CP, 30);
  // Too early, whatever the score.
  assert.equal(kirinAcceptsDraw(facts(19, 0)), false);
  assert.equal(kirinAcceptsDraw(facts(0, -500)), false);
  // Even, or worse for Kirin: accepted.
  assert.equal(kirinAcceptsDraw(facts(20, 0)), true);
  assert.equal(kirinAcceptsDraw(facts(40, 30)), true);
  assert.equal(kirinAcceptsDraw(facts(40, -30)), true);
  assert.equal(kirinAcceptsDraw(facts(40, -800)), true);
  assert.equal(kirinAcceptsDraw(facts(40, -Infinity)), true);
  // Better for Kirin: declined.
  assert.equal(kirinAcceptsDraw(facts(40, 31)), false);
  assert.equal(kirinAcceptsDraw(facts(40, Infinity)), false);
  // No score to go by (a book move): declined.
  assert.equal(kirinAcceptsDraw(facts(40, null)), false);
  // Nobody can attack: accepted at once, whatever the score.
  assert.equal(kirinAcceptsDraw({ plies: 2, kirinCp: null, noAttackers: true }), true);
});

test("the facts of a position: material, and a search score in the engine's centipawns", () => {
  const bare = Position.fromFen('3ak4/4a4/9/9/9/9/9/9/4A4/3K5 w - - 0 1');
  assert.ok(bare.ok);
  assert.equal(drawFacts(bare.value, 4, null).noAttackers, true);
  assert.equal(drawFacts(new Position(), 4, null).noAttackers, false);
  // 0 is 0; a larger internal score is more centipawns; mates are infinite.
  assert.equal(scoreCp(0, 60, CLASSICAL_WIN_RATE), 0);
  const small = scoreCp(20, 60, CLASSICAL_WIN_RATE);
  const large = scoreCp(400, 60, CLASSICAL_WIN_RATE);
  assert.ok(small > 0 && large > small, `${small} ${large}`);
  assert.equal(scoreCp(-400, 60, CLASSICAL_WIN_RATE), -large);
  assert.equal(scoreCp(32000 - 5, 60, CLASSICAL_WIN_RATE), Infinity);
  assert.equal(scoreCp(-(32000 - 6), 60, CLASSICAL_WIN_RATE), -Infinity);
});
