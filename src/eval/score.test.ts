import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Position } from '../core/position.js';
import { VALUE_MATE } from '../core/types.js';
import { formatScore, materialCount, mateInMoves, toCp, wdl, winRateParams } from './score.js';

test('material count of the start position', () => {
  // 4 rooks, 4 knights, 4 cannons, 4 bishops, 4 advisors, 10 pawns.
  assert.equal(materialCount(new Position()), 40 + 20 + 20 + 12 + 8 + 10);
});

test('mate scores are shown in moves, positive when the side to move mates', () => {
  assert.equal(mateInMoves(VALUE_MATE - 1), 1);
  assert.equal(mateInMoves(VALUE_MATE - 3), 2);
  assert.equal(mateInMoves(-VALUE_MATE + 2), -1);
  assert.equal(mateInMoves(-VALUE_MATE), 0);
  assert.equal(formatScore(VALUE_MATE - 5, 110, 'Raw'), 'mate 3');
});

test('score types change only the display', () => {
  const m = 110;
  assert.equal(toCp(250, m, 'Raw'), 250);
  const a = winRateParams(m).a;
  assert.equal(toCp(250, m, 'PawnValueNormalized'), Math.round((100 * 250) / a));
  // A value at the model's 50% point (v = a) normalizes to 100 cp.
  assert.equal(toCp(Math.round(a), m, 'PawnValueNormalized'), 100);
  assert.equal(toCp(0, m, 'Elo'), 0);
  assert.ok(toCp(300, m, 'Elo') > 0 && toCp(-300, m, 'Elo') < 0);
  assert.equal(toCp(300, m, 'Elo'), -toCp(-300, m, 'Elo'));
});

test('wdl sums to 1000 and is symmetric', () => {
  for (const v of [-2000, -300, 0, 120, 900]) {
    const [w, d, l] = wdl(v, 80);
    assert.equal(w + d + l, 1000);
    assert.deepEqual(wdl(-v, 80), [l, d, w]);
  }
  assert.ok(wdl(900, 80)[0] > wdl(100, 80)[0]);
});
