import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loggedThinkingLines, parseLogLine } from './report.js';

const parse = (line: string) => parseLogLine(line, 'x.log:1');

test("parseLogLine: the game's start and every move, from the opening field and the moves field", () => {
  const g = parse('game 7 | A vs B | 0-1 | checkmate | opening c3c4 g6g5 (A10 仙人指路) | moves b0c2 h9g7 | end rules');
  assert.ok(g.ok);
  assert.deepEqual(g.value, {
    game: 7,
    red: 'A',
    black: 'B',
    result: 'black',
    reason: 'checkmate',
    termination: 'rules',
    fen: null,
    moves: ['c3c4', 'g6g5', 'b0c2', 'h9g7'],
    thinking: null,
  });
  const f = parse(
    'game 1 | A vs B | 1/2-1/2 | stalemate | opening fen 4k4/9/9/9/9/9/9/9/9/3K5 b - - 3 9 | moves | end rules',
  );
  assert.ok(f.ok);
  assert.equal(f.value.fen, '4k4/9/9/9/9/9/9/9/9/3K5 b - - 3 9');
  assert.deepEqual(f.value.moves, []);
  const s = parse('game 2 | A vs B | 1-0 | time | opening startpos | moves h2e2 | end time');
  assert.ok(s.ok);
  assert.equal(s.value.fen, null);
  assert.deepEqual(s.value.moves, ['h2e2']);
});

test('parseLogLine: a line whose opening or moves are not moves is refused', () => {
  for (const line of [
    'game 1 | A vs B | 1-0 | checkmate | opening startpos | moves h2e2 炮二平五 | end rules',
    'game 1 | A vs B | 1-0 | checkmate | opening fen 4k4/9 w | moves | end rules',
    'game 1 | A vs B | 1-0 | checkmate | startpos | moves h2e2 | end rules',
    'game 1 | A vs B | 1-0 | checkmate | opening startpos | h2e2 | end rules',
  ]) {
    const r = parse(line);
    assert.ok(!r.ok, line);
    assert.match(r.error.message, /^x\.log:1: not a game-log line/);
  }
});

test('parseLogLine: the thinking field before the end, one entry a game move', () => {
  const g = parse(
    'game 3 | A vs B | 1-0 | checkmate | opening h2e2 | moves h9g7 h0g2 | thinking 300/12/9800 250/0/- | end rules',
  );
  assert.ok(g.ok);
  assert.deepEqual(g.value.thinking, [
    { usedMs: 300, depth: 12, leftMs: 9800 },
    { usedMs: 250, depth: 0, leftMs: null },
  ]);
  const bad = parse('game 3 | A vs B | 1-0 | checkmate | opening h2e2 | moves h9g7 | thinking 300/x/9800 | end rules');
  assert.ok(!bad.ok);
  assert.match(bad.error.message, /^x\.log:1: thinking: "300\/x\/9800" is not USED\/DEPTH\/LEFT/);
});

test("loggedThinkingLines: each move is the mover's, after any opening and from a FEN with Black to move", () => {
  const games = [
    // Red (A) moves first after an opening of one move: the game's first move is Black's (B).
    parse(
      'game 1 | A vs B | 1-0 | x | opening h2e2 | moves h9g7 h0g2 h7h0 | thinking 100/10/900 200/20/800 300/10/600 | end rules',
    ),
    // Black to move in the FEN, no opening moves: B moves first again.
    parse(
      'game 2 | A vs B | 0-1 | x | opening fen 4k4/9/9/9/9/9/9/9/9/3K5 b - - 0 1 | moves e9f9 d0e0 | thinking 500/30/500 700/8/300 | end rules',
    ),
    // An old line without thinking is skipped.
    parse('game 3 | B vs A | 0-1 | x | opening startpos | moves h2e2 | end rules'),
  ].map((g) => {
    assert.ok(g.ok);
    return g.value;
  });
  const lines = loggedThinkingLines(games, ['A', 'B']);
  assert.deepEqual(lines, [
    'Thinking: A: 2 moves, 450 ms a move (median 450, longest 700), depth 14.0, fewest left 300 ms, largest share of the clock 70.0%',
    'Thinking: B: 3 moves, 300 ms a move (median 300, longest 500), depth 16.7, fewest left 500 ms, largest share of the clock 50.0%',
  ]);
});
