// Move and game accuracy (docs/REVIEW.md).

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { gameAccuracy, moveAccuracy, volatilityWeights } from './accuracy.js';

test('moveAccuracy: 100 for no loss (or a gain), falling with the drop, never below 0', () => {
  assert.ok(Math.abs(moveAccuracy(0) - 100) < 1e-3);
  assert.equal(moveAccuracy(-20), moveAccuracy(0));
  let previous = moveAccuracy(0);
  for (let d = 1; d <= 100; d++) {
    const a = moveAccuracy(d);
    assert.ok(a < previous || a === 0, `drop ${d}`);
    assert.ok(a >= 0 && a <= 100);
    previous = a;
  }
  // The published curve: a 10-point drop keeps about 64%, a 50-point drop about 8.5%.
  assert.ok(Math.abs(moveAccuracy(10) - 63.58) < 0.01, String(moveAccuracy(10)));
  assert.ok(Math.abs(moveAccuracy(50) - 8.53) < 0.01, String(moveAccuracy(50)));
  assert.equal(moveAccuracy(100), 0);
});

test('volatilityWeights: one per move, from the standard deviation of a window, clamped to [0.5, 12]', () => {
  assert.deepEqual(volatilityWeights([50]), []);
  // A flat game: every window has deviation 0, so every weight is the floor.
  assert.deepEqual(volatilityWeights([50, 50, 50, 50]), [0.5, 0.5, 0.5]);
  // Two positions per window (few moves): the weight of move i is |w[i+1] - w[i]| / 2.
  assert.deepEqual(volatilityWeights([50, 54, 54, 30, 100]), [2, 0.5, 12, 12]);
  // 40 moves: windows of 4 positions; the first two moves share the first window.
  const w = Array.from({ length: 41 }, (_, i) => (i === 20 ? 90 : 50));
  const weights = volatilityWeights(w);
  assert.equal(weights.length, 40);
  assert.equal(weights[0], weights[1]);
  assert.equal(weights[10], 0.5);
  // Moves 19..22 have position 20 in their window [i - 2, i + 1].
  for (let i = 0; i < 40; i++) assert.equal(weights[i] > 0.5, i >= 19 && i <= 22, `move ${i}`);
});

test('gameAccuracy: the mean of the weighted and the harmonic mean; a bad move in a sharp game costs more', () => {
  assert.equal(gameAccuracy([], []), null);
  assert.ok(Math.abs(gameAccuracy([80, 80, 80], [1, 5, 2])! - 80) < 1e-9);
  // Weighted (90*1 + 10*3) / 4 = 30, harmonic 2 / (1/90 + 1/10) = 18: (30 + 18) / 2.
  assert.ok(Math.abs(gameAccuracy([90, 10], [1, 3])! - 24) < 1e-9);
  assert.ok(gameAccuracy([90, 10], [1, 3])! < gameAccuracy([90, 10], [3, 1])!);
  // A 0 counts as 1 in the harmonic mean (a single 0 would make it 0).
  const a = gameAccuracy([100, 0], [1, 1])!;
  assert.ok(Math.abs(a - (50 + 2 / (1 / 100 + 1)) / 2) < 1e-9);
});
