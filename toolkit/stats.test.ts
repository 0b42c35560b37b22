import assert from 'node:assert/strict';
import { test } from 'node:test';
import { median } from './stats.js';

test('median of repeated measurements', () => {
  assert.equal(median([7]), 7);
  assert.equal(median([3, 1, 2]), 2);
  assert.equal(median([4, 1, 3, 2]), 2.5);
  const xs = [5, 9, 1];
  median(xs);
  assert.deepEqual(xs, [5, 9, 1], 'the list is not reordered');
});
