// Scores and moves of a review in words.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { VALUE_MATE } from '../core/types.js';
import type { Review } from './review.js';
import { formatReviewScore, reviewMoveTexts } from './text.js';

test('formatReviewScore: pawns from Red, mates in moves, a finished game by its result', () => {
  const s = (value: number, cp: number | null, mate: number | null) => ({ value, cp, mate, redWin: 0.5 });
  assert.equal(formatReviewScore(s(50, 125, null)), '+1.25');
  assert.equal(formatReviewScore(s(-50, -40, null)), '-0.40');
  assert.equal(formatReviewScore(s(0, 0, null)), '0.00');
  assert.equal(formatReviewScore(s(VALUE_MATE - 9, null, 5)), '#5');
  assert.equal(formatReviewScore(s(-VALUE_MATE + 6, null, -3)), '#-3');
  assert.equal(formatReviewScore(s(VALUE_MATE, null, 0)), '1-0');
  assert.equal(formatReviewScore(s(-VALUE_MATE, null, 0)), '0-1');
});

test('reviewMoveTexts: the moves played and the best moves in a notation, each from its own position', () => {
  const start = 'rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1';
  const afterH2e2 = 'rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1';
  // Only what reviewMoveTexts reads of a review.
  const review = {
    startFen: start,
    moves: ['h2e2', 'h9g7'],
    plies: [
      { fenBefore: start, best: 'b2e2' },
      { fenBefore: afterH2e2, best: null },
    ],
  } as unknown as Review;
  assert.deepEqual(reviewMoveTexts(review, { notation: 'chinese' }), [
    ['炮二平五', '炮八平五'],
    ['马8进7', null],
  ]);
  assert.deepEqual(reviewMoveTexts(review, { notation: 'wxf' }), [
    ['C2=5', 'C8=5'],
    ['H8+7', null],
  ]);
  assert.deepEqual(reviewMoveTexts(review), [
    ['h2e2', 'b2e2'],
    ['h9g7', null],
  ]);
});
