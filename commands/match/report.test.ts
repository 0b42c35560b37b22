import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseLogLine } from './report.js';

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
