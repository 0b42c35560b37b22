// Practice mode's state: a puzzle solved with Kirin's defence between the
// moves, a wrong move, a hint, retry, the rating moved once per puzzle, the
// next puzzle fitted to the rating, and the progress read back.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Puzzle } from '../../src/library.js';
import { LANGUAGES } from '../i18n/catalog.js';
import { PRACTICE_MESSAGES } from './messages.js';
import { PracticeSession, readProgress } from './model.js';

const LINE: Puzzle = {
  id: 'line',
  fen: 'rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1',
  moves: ['h2h9', 'i9h9', 'b2b9'],
  themes: ['material'],
  mateIn: null,
  rating: 1200,
  source: 'made up',
};
const HARD: Puzzle = { ...LINE, id: 'hard', rating: 2400 };

test('a puzzle solved: right moves, the defence played between them, the rating up once', () => {
  const s = new PracticeSession([LINE, HARD], readProgress(null), () => 0);
  assert.equal(s.next()?.id, 'line', 'the puzzle nearest the rating of a new player (1200)');
  assert.deepEqual(s.play('h2h9'), { verdict: 'correct', defence: 'i9h9' });
  assert.deepEqual(s.played, ['h2h9', 'i9h9']);
  assert.equal(s.position()?.fen().split(' ')[0], 'rnbakabr1/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C7/9/RNBAKABNR');
  assert.deepEqual(s.play('b2b9'), { verdict: 'solved', defence: null });
  assert.equal(s.status, 'solved');
  assert.equal(s.progress.rating, 1216);
  assert.deepEqual(s.progress.solved, ['line']);
  assert.equal(s.next()?.id, 'hard', 'a solved puzzle does not come back');
  assert.equal(s.next()?.id, 'hard');
});

test('a wrong move misses it; retry plays it again without moving the rating; a hint counts as a miss', () => {
  const s = new PracticeSession([LINE], readProgress(null), () => 0);
  s.next();
  assert.deepEqual(s.play('b2b9'), { verdict: 'wrong', defence: null });
  assert.equal(s.status, 'missed');
  assert.equal(s.progress.rating, 1184);
  s.retry();
  assert.equal(s.play('h2h9').verdict, 'correct');
  assert.equal(s.play('b2b9').verdict, 'solved');
  assert.equal(s.progress.rating, 1184, 'once per puzzle');
  assert.deepEqual(s.progress, { rating: 1184, solved: [], missed: ['line'] });
  const h = new PracticeSession([LINE], readProgress(null), () => 0);
  h.next();
  assert.equal(h.hint(), 'h2');
  assert.deepEqual(h.progress.missed, ['line']);
  assert.equal(h.next(), null, 'none left');
});

test('progress read back; anything unreadable starts afresh; the messages have the same keys everywhere', () => {
  assert.deepEqual(readProgress('{"rating":1500,"solved":["a"],"missed":["b",3]}'), {
    rating: 1500,
    solved: ['a'],
    missed: ['b'],
  });
  assert.deepEqual(readProgress('{'), { rating: 1200, solved: [], missed: [] });
  assert.deepEqual(readProgress(null), { rating: 1200, solved: [], missed: [] });
  const keys = Object.keys(PRACTICE_MESSAGES.en).sort();
  for (const l of LANGUAGES) assert.deepEqual(Object.keys(PRACTICE_MESSAGES[l]).sort(), keys, l);
});
