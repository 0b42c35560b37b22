import assert from 'node:assert/strict';
import { test } from 'node:test';
import { join } from 'node:path';
import { Position } from '../../src/core/position.js';
import {
  loadOpenings,
  openingPosition,
  parseOpeningLine,
  parseOpenings,
  scheduleGames,
  shuffled,
  type Opening,
} from './openings.js';
import { repoRoot } from '../../toolkit/files.js';
import { unwrap } from '../../test/support/fixtures.js';

const root = repoRoot();

/** The opening of a line that must parse. */
function line(text: string, lineNo = 0): Opening {
  const r = parseOpeningLine(text, lineNo);
  assert.ok(r.ok && r.value !== null, `${text}: ${r.ok ? 'blank' : r.error.message}`);
  return r.value;
}

/** The error of a line that must be rejected. */
function rejected(text: string, lineNo = 0): { code: string; message: string } {
  const r = parseOpeningLine(text, lineNo);
  assert.ok(!r.ok, `accepted: ${text}`);
  return r.error;
}

test('move-list lines, comments and the startpos/moves keywords', () => {
  const o = line('h2e2 h9g7 h0g2   # central cannon vs horse', 3);
  assert.equal(o.fen, null);
  assert.deepEqual(o.moves, ['h2e2', 'h9g7', 'h0g2']);
  assert.equal(o.name, 'central cannon vs horse');
  assert.equal(o.line, 3);
  const p = line('startpos moves c3c4 b7c7 ; pawn opening');
  assert.deepEqual(p.moves, ['c3c4', 'b7c7']);
  assert.equal(p.name, 'pawn opening');
  assert.deepEqual(parseOpeningLine('   '), { ok: true, value: null });
  assert.deepEqual(parseOpeningLine('# only a comment'), { ok: true, value: null });
});

test('FEN lines with and without moves', () => {
  const fen = 'rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1';
  const a = line(`${fen} moves h2e2 h9g7`);
  assert.equal(a.fen, fen);
  assert.deepEqual(a.moves, ['h2e2', 'h9g7']);
  assert.equal(
    rejected(`fen 3k5/9/9/9/9/9/9/9/4R4/4K4 b h2e2`).code,
    'opening-move',
    'h2e2 is not legal in that position',
  );
  const c = line('r2ak4/9/9/9/9/9/9/9/4A4/3K1R3 b');
  assert.equal(c.fen, 'r2ak4/9/9/9/9/9/9/9/4A4/3K1R3 b');
  assert.deepEqual(c.moves, []);
  const pos = unwrap(openingPosition(a));
  assert.equal(pos.fen(), 'rnbakab1r/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR w - - 2 2');
});

test('bad lines are reported with their line numbers', () => {
  assert.match(rejected('h2e2 h2e2', 7).message, /line 7: move 2 "h2e2" is not legal/);
  assert.equal(rejected('h2e2 xx', 2).code, 'opening-syntax');
  assert.match(rejected('h2e2 xx', 2).message, /"xx" is not a move/);
  assert.equal(rejected('rnbakabnr/9/9 w', 4).code, 'opening-fen');
  assert.match(rejected('rnbakabnr/9/9 w', 4).message, /line 4: .*ranks/);
  const file = parseOpenings('h2e2\nh2e2 h2e2\nb0b0\n');
  assert.ok(!file.ok && file.error.code === 'opening-file');
  assert.match(file.ok ? '' : file.error.message, /line 2[\s\S]*line 3/);
  // A position where the side to move is already mated is not an opening.
  assert.equal(rejected('3k5/9/9/9/9/9/9/9/3R5/3RK4 b').code, 'opening-ends');
  assert.match(rejected('3k5/9/9/9/9/9/9/9/3R5/3RK4 b').message, /already ends the game \(red, checkmate\)/);
});

test('schedule: each opening twice with colors swapped, cycling through the set', () => {
  const set = unwrap(parseOpenings('h2e2\nc3c4\ng0e2\n'));
  const s = scheduleGames(set, 8);
  assert.equal(s.length, 8);
  assert.deepEqual(
    s.map((g) => g.opening.moves[0]),
    ['h2e2', 'h2e2', 'c3c4', 'c3c4', 'g0e2', 'g0e2', 'h2e2', 'h2e2'],
  );
  assert.deepEqual(
    s.map((g) => g.redEngine),
    [0, 1, 0, 1, 0, 1, 0, 1],
  );
  assert.deepEqual(
    s.map((g) => g.pair),
    [0, 0, 1, 1, 2, 2, 3, 3],
  );
  const empty = scheduleGames([], 3);
  assert.equal(empty[2].opening.name, 'startpos');
  assert.equal(empty[2].redEngine, 0);
});

test('shuffled is a seeded permutation', () => {
  const items = Array.from({ length: 20 }, (_, i) => i);
  const a = shuffled(items, 5),
    b = shuffled(items, 5),
    c = shuffled(items, 6);
  assert.deepEqual(a, b);
  assert.notDeepEqual(a, c);
  assert.deepEqual(
    a.slice().sort((x, y) => x - y),
    items,
  );
});

test('the shipped opening book: >= 100 legal, distinct openings (no transpositions) of a few plies', () => {
  const book = unwrap(loadOpenings(join(root, 'data', 'openings', 'openings.txt')));
  assert.ok(book.length >= 100, `only ${book.length} openings`);
  const keys = new Set<string>();
  for (const o of book) {
    assert.ok(o.moves.length >= 4 && o.moves.length <= 12, `${o.line}: ${o.moves.length} plies`);
    const pos: Position = unwrap(openingPosition(o));
    keys.add(pos.keyHex());
  }
  assert.equal(keys.size, book.length, 'two openings reach the same position');
  // Both sides' first moves vary (not one opening family only).
  assert.ok(new Set(book.map((o) => o.moves[0])).size >= 8);
});
