// Game review over a real engine at low node counts: classification by side,
// accuracy, terminal positions, progress, order, cancellation and bad input.

import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { CLASSICAL_WIN_RATE } from '../eval/score.js';
import { Engine } from '../engine/engine.js';
import { classifyDrop, DEFAULT_THRESHOLDS, reviewGame, winChance, type Review, type ReviewProgress } from './review.js';

/**
 * Red develops (1. b0c2 h9g7 2. a0a1 b9c7) and then hangs a rook: 3. a1b1??, where
 * Black's cannon b7 takes it over Red's cannon b2 (nothing guards b1); Black
 * does (3... b7b1) and both play on (4. h2e2 i9h9).
 */
const HANGING_ROOK = ['b0c2', 'h9g7', 'a0a1', 'b9c7', 'a1b1', 'b7b1', 'h2e2', 'i9h9'];

const engine = new Engine();
after(() => engine.close());

test('a hanging rook is a blunder of the side that hung it, and its accuracy shows it', async () => {
  engine.setPosition(null, ['h2e2']);
  const r = await reviewGame(engine, { moves: HANGING_ROOK }, { nodes: 1000 });
  assert.ok(r.ok, r.ok ? '' : r.error.message);
  const review = r.value;
  assert.equal(review.positions.length, HANGING_ROOK.length + 1);
  assert.equal(review.plies.length, HANGING_ROOK.length);
  const blunder = review.plies[4];
  assert.equal(blunder.move, 'a1b1');
  assert.equal(blunder.side, 'red');
  assert.equal(blunder.moveNumber, 3);
  assert.equal(blunder.classification, 'blunder');
  assert.notEqual(blunder.best, 'a1b1');
  assert.ok(blunder.drop >= DEFAULT_THRESHOLDS.blunder, String(blunder.drop));
  // After it Black (a rook up) is far ahead: Red's win chance is small.
  assert.ok(blunder.scoreAfter.redWin < 0.2 && blunder.scoreAfter.cp! < -300, JSON.stringify(blunder.scoreAfter));
  // Black takes the rook, which is what the engine wants too.
  assert.equal(review.plies[5].best, 'b7b1');
  assert.equal(review.plies[5].classification, 'best');
  assert.equal(review.plies.filter((p) => p.classification === 'blunder' && p.side === 'black').length, 0);
  assert.equal(
    review.red.blunders,
    review.plies.filter((p) => p.side === 'red' && p.classification === 'blunder').length,
  );
  assert.ok(review.red.blunders >= 1);
  for (const s of [review.red, review.black]) {
    assert.equal(s.moves, 4);
    assert.ok(s.accuracy !== null && s.accuracy >= 0 && s.accuracy <= 100, String(s.accuracy));
  }
  assert.ok(review.red.accuracy! < review.black.accuracy!);
  // The plies read the positions around them; scores are from Red.
  for (const p of review.plies) {
    assert.equal(p.scoreBefore, review.positions[p.ply - 1].score);
    assert.equal(p.scoreAfter, review.positions[p.ply].score);
    const mover = (s: number): number => (p.side === 'red' ? s : 1 - s);
    assert.equal(p.winBefore, mover(p.scoreBefore.redWin));
    assert.equal(p.drop, Math.max(0, p.winBefore - p.winAfter));
    assert.ok(p.accuracy >= 0 && p.accuracy <= 100);
    assert.equal(p.bestPv[0], p.best);
  }
  assert.ok(review.positions.every((p) => p.nodes >= 1000 && p.lines.length === 1 && p.terminal === null));
  assert.equal(
    review.nodes,
    review.positions.reduce((n, p) => n + p.nodes, 0),
  );
  // The engine's own game is as it was.
  assert.deepEqual(engine.game().moves, ['h2e2']);
});

test('a mate ends the game: no search of the final position, and the mating move keeps all', async () => {
  // Red mates with a1a9 (the rook on b8 takes rank 8; d9 faces Red's king).
  const startFen = '4k4/1R7/9/9/9/9/9/9/R8/3K5 w - - 0 1';
  const r = await reviewGame(engine, { startFen, moves: ['a1a9'] }, { nodes: 500, multiPv: 2 });
  assert.ok(r.ok, r.ok ? '' : r.error.message);
  const [start, end] = r.value.positions;
  assert.equal(start.score.mate, 1, JSON.stringify(start.score));
  assert.equal(start.lines.length, 2);
  assert.equal(engine.options.getNumber('MultiPV'), 1, 'MultiPV is restored');
  assert.deepEqual(end.terminal, { result: 'red', code: 'checkmate', reason: 'checkmate' });
  assert.equal(end.nodes, 0);
  assert.deepEqual(end.lines, []);
  assert.equal(end.score.redWin, 1);
  const ply = r.value.plies[0];
  assert.equal(ply.classification, 'best');
  assert.equal(ply.winAfter, 1);
  assert.equal(ply.drop, 0);
  assert.equal(r.value.black.accuracy, null);
  // Moves after the mate are refused.
  const more = await reviewGame(engine, { startFen, moves: ['a1a9', 'e9e8'] }, { nodes: 500 });
  assert.ok(!more.ok && more.error.code === 'review-game' && /ply 2/.test(more.error.message));
});

test('progress: once per position, counting up, last position first by default, first position first forward', async () => {
  const moves = HANGING_ROOK.slice(0, 4);
  for (const order of ['backward', 'forward'] as const) {
    const seen: ReviewProgress[] = [];
    const r = await reviewGame(engine, { moves }, { nodes: 300, order, onProgress: (p) => seen.push(p) });
    assert.ok(r.ok);
    assert.deepEqual(
      seen.map((p) => p.done),
      [1, 2, 3, 4, 5],
    );
    assert.ok(seen.every((p) => p.total === 5));
    const indices = seen.map((p) => p.position.index);
    assert.deepEqual(indices, order === 'backward' ? [4, 3, 2, 1, 0] : [0, 1, 2, 3, 4]);
    assert.deepEqual(
      seen.map((p) => p.position),
      indices.map((i) => r.value.positions[i]),
    );
  }
});

test('determinism: one engine or two side by side, either order, the same scores, lines and verdicts', async () => {
  const moves = HANGING_ROOK;
  const limits = { nodes: 3000 };
  const one = await reviewGame(engine, { moves }, limits);
  assert.ok(one.ok, one.ok ? '' : one.error.message);
  // What the engine searched before does not matter: each position is searched from empty tables.
  engine.setPosition(null, ['c3c4']);
  await engine.go({ nodes: 20000, startTime: Date.now() });
  const again = await reviewGame(engine, { moves }, { ...limits, order: 'forward' });
  const second = new Engine();
  try {
    const seen: number[] = [];
    const two = await reviewGame([engine, second], { moves }, { ...limits, onProgress: (p) => seen.push(p.done) });
    assert.ok(again.ok && two.ok);
    assert.deepEqual(seen, [1, 2, 3, 4, 5, 6, 7, 8, 9]);
    const verdicts = (r: Review) =>
      r.positions.map((p) => [p.score.value, p.lines.map((l) => l.pv.join(' ')), p.nodes, p.depth]);
    assert.deepEqual(verdicts(again.value), verdicts(one.value));
    assert.deepEqual(verdicts(two.value), verdicts(one.value));
    assert.deepEqual(
      two.value.plies.map((p) => p.classification),
      one.value.plies.map((p) => p.classification),
    );
    assert.equal(two.value.red.accuracy, one.value.red.accuracy);
    assert.equal(two.value.nodes, one.value.nodes);
    // Both engines keep their own position.
    assert.deepEqual(engine.game().moves, ['c3c4']);
    assert.deepEqual(second.game().moves, []);
  } finally {
    await second.close();
  }
  const none = await reviewGame([], { moves }, limits);
  assert.ok(!none.ok && none.error.code === 'review-options');
});

test('cancellation: between positions and in the middle of a long search', async () => {
  const controller = new AbortController();
  let calls = 0;
  const r = await reviewGame(
    engine,
    { moves: HANGING_ROOK },
    {
      nodes: 300,
      signal: controller.signal,
      onProgress: () => {
        if (++calls === 2) controller.abort();
      },
    },
  );
  assert.ok(!r.ok && r.error.code === 'cancelled');
  assert.equal(calls, 2);
  // A search that would take minutes ends when the signal fires.
  const slow = new AbortController();
  const started = Date.now();
  setTimeout(() => slow.abort(), 200);
  const s = await reviewGame(engine, { moves: HANGING_ROOK }, { depth: 200, signal: slow.signal });
  assert.ok(!s.ok && s.error.code === 'cancelled');
  assert.ok(Date.now() - started < 10000, `${Date.now() - started} ms`);
  assert.equal(engine.searching(), false);
  // Aborted before it starts: nothing is searched.
  const none = await reviewGame(engine, { moves: HANGING_ROOK }, { nodes: 300, signal: AbortSignal.abort() });
  assert.ok(!none.ok && none.error.code === 'cancelled');
});

test('bad input is an error that names it', async () => {
  const cases: [Parameters<typeof reviewGame>[1], Parameters<typeof reviewGame>[2], string, RegExp][] = [
    [{ moves: ['h2e2'] }, {}, 'review-options', /no limit/],
    [{ moves: ['h2e2'] }, { nodes: 0 }, 'review-options', /nodes 0/],
    [{ moves: ['h2e2'] }, { movetime: 1.5 }, 'review-options', /movetime 1.5/],
    [{ moves: ['h2e2'] }, { nodes: 10, multiPv: 0 }, 'review-options', /multiPv 0/],
    [
      { moves: ['h2e2'] },
      { nodes: 10, thresholds: { inaccuracy: 0.3, mistake: 0.2, blunder: 0.4 } },
      'review-options',
      /thresholds/,
    ],
    [{ moves: ['h2e2', 'h2e2'] }, { nodes: 10 }, 'review-game', /ply 2/],
    [{ startFen: 'xyz', moves: [] }, { nodes: 10 }, 'review-game', /start FEN/],
  ];
  for (const [game, options, code, message] of cases) {
    const r = await reviewGame(engine, game, options);
    assert.ok(!r.ok, JSON.stringify(options));
    assert.equal(r.error.code, code);
    assert.match(r.error.message, message);
  }
});

test('winChance: the WDL expected score, even at 0, certain for mates; classifyDrop by the thresholds', () => {
  assert.ok(Math.abs(winChance(0, 60, CLASSICAL_WIN_RATE) - 0.5) < 1e-12);
  assert.ok(Math.abs(winChance(150, 60, CLASSICAL_WIN_RATE) + winChance(-150, 60, CLASSICAL_WIN_RATE) - 1) < 1e-12);
  assert.ok(winChance(150, 60, CLASSICAL_WIN_RATE) > winChance(100, 60, CLASSICAL_WIN_RATE));
  assert.equal(winChance(31990, 60, CLASSICAL_WIN_RATE), 1);
  assert.equal(winChance(-31990, 60, CLASSICAL_WIN_RATE), 0);
  assert.equal(classifyDrop(0.049), 'good');
  assert.equal(classifyDrop(0.05), 'inaccuracy');
  assert.equal(classifyDrop(0.1), 'mistake');
  assert.equal(classifyDrop(0.2), 'blunder');
  assert.equal(classifyDrop(0.2, { inaccuracy: 0.1, mistake: 0.3, blunder: 0.5 }), 'inaccuracy');
});
