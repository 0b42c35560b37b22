import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Position } from '../core/position.js';
import { mulberry32 } from '../core/prng.js';
import { playUciMoves } from '../core/ucimove.js';
import { moveToUci, parseSquare } from '../core/types.js';
import { OpeningBook, bookMoveCode, bookMoveOf, bookUseAtLevel } from './book.js';
import { BOOK_ENTRY_BYTES, BOOK_HEADER_BYTES, decodeBook, encodeBook, type BookEntry } from './format.js';
import { bookKey } from './key.js';

function after(moves: string): Position {
  const p = new Position();
  if (moves !== '') assert.ok(playUciMoves(p, moves.split(' ')).ok);
  return p;
}

/** A book entry for `uci` in the position after `moves`. */
function entry(moves: string, uci: string, weight: number, games = 10, wins = 5, draws = 2): BookEntry {
  const pos = after(moves);
  const { key, mirrored } = bookKey(pos);
  const from = parseSquare(uci.slice(0, 2));
  const to = parseSquare(uci.slice(2, 4));
  return { key, move: bookMoveCode(from, to, mirrored), weight, games, wins, draws };
}

const ENTRIES = [
  entry('', 'h2e2', 600, 100, 40, 30),
  entry('', 'c3c4', 300, 50, 20, 20),
  entry('', 'g0e2', 100, 20, 5, 10),
  entry('h2e2', 'h9g7', 500),
  entry('h2e2', 'b9c7', 200),
];

function book(entries = ENTRIES, description: Record<string, unknown> = { games: 170 }): OpeningBook {
  const r = OpeningBook.fromBytes(encodeBook(entries, description), '/some/dir/test.book');
  assert.ok(r.ok, r.ok ? '' : r.error.message);
  return r.value;
}

test("a book lists a position's moves by weight, with their games and results", () => {
  const b = book();
  assert.equal(b.name, 'test.book');
  assert.equal(b.size, 5);
  assert.equal(b.label(), 'test.book (5 entries, 170 games)');
  const moves = b.probe(after(''));
  assert.deepEqual(
    moves.map((m) => [m.uci, m.weight, m.games, m.wins, m.draws, m.losses]),
    [
      ['h2e2', 600, 100, 40, 30, 30],
      ['c3c4', 300, 50, 20, 20, 10],
      ['g0e2', 100, 20, 5, 10, 5],
    ],
  );
  assert.deepEqual(
    moves.map((m) => m.share),
    [0.6, 0.3, 0.1],
  );
  assert.deepEqual(b.probe(after('h2e2 h9g7')), []);
});

test('a line learned on one wing answers for the other (the mirror image)', () => {
  const b = book();
  // 炮八平五 (b2e2) is the mirror of 炮二平五: the book answers with the mirrored replies.
  assert.deepEqual(
    b.probe(after('b2e2')).map((m) => m.uci),
    ['b9c7', 'h9g7'],
  );
  const plain = bookKey(after('h2e2'));
  const mirror = bookKey(after('b2e2'));
  assert.equal(plain.key, mirror.key);
  assert.notEqual(plain.mirrored, mirror.mirrored);
  // The start position is its own mirror image: both cannon moves stay themselves.
  assert.equal(bookKey(after('')).mirrored, false);
});

test('an entry whose move is not legal in the position is skipped, never played', () => {
  // h0h9 (a rook jump) and a move from an empty square, stored for the start position.
  const start = bookKey(after(''));
  const bad: BookEntry[] = [
    { key: start.key, move: parseSquare('a0') * 90 + parseSquare('a9'), weight: 60000, games: 9, wins: 9, draws: 0 },
    { key: start.key, move: parseSquare('e5') * 90 + parseSquare('e6'), weight: 60000, games: 9, wins: 9, draws: 0 },
    { key: start.key, move: 8191, weight: 60000, games: 9, wins: 9, draws: 0 },
  ];
  const b = book([...ENTRIES, ...bad]);
  assert.deepEqual(
    b.probe(after('')).map((m) => m.uci),
    ['h2e2', 'c3c4', 'g0e2'],
  );
  assert.equal(b.choose(after(''), 0, Math.random)?.uci, 'h2e2');
});

test('Book Variety: 0 plays the heaviest move, more picks by weight among the heavier ones', () => {
  const b = book();
  const pos = after('');
  const counts = (variety: number) => {
    const rng = mulberry32(7);
    const c: Record<string, number> = {};
    for (let i = 0; i < 1000; i++) {
      const m = b.choose(pos, variety, rng);
      assert.ok(m);
      c[m.uci] = (c[m.uci] ?? 0) + 1;
    }
    return c;
  };
  assert.deepEqual(counts(0), { h2e2: 1000 });
  // 50: moves weighing at least half the heaviest (600): h2e2 and c3c4, 2:1.
  const half = counts(50);
  assert.deepEqual(Object.keys(half).sort(), ['c3c4', 'h2e2']);
  assert.ok(half.h2e2 > 600 && half.h2e2 < 730, JSON.stringify(half));
  // 100: all three, about 60/30/10.
  const all = counts(100);
  assert.deepEqual(Object.keys(all).sort(), ['c3c4', 'g0e2', 'h2e2']);
  assert.ok(all.g0e2 > 60 && all.g0e2 < 140, JSON.stringify(all));
  assert.equal(b.choose(after('h2e2 h9g7'), 100, Math.random), null);
  // A move with weight 0 is listed but never chosen.
  const zero = book([entry('', 'h2e2', 0), entry('', 'c3c4', 0)]);
  assert.equal(zero.probe(pos).length, 2);
  assert.equal(zero.choose(pos, 100, Math.random), null);
});

test('sharpness flattens the choice: 0 picks every move of the pool alike, 1 follows the weights', () => {
  const b = book();
  const pos = after('');
  const counts = (sharpness: number) => {
    const rng = mulberry32(11);
    const c: Record<string, number> = {};
    for (let i = 0; i < 3000; i++) {
      const m = b.choose(pos, 100, rng, sharpness);
      assert.ok(m);
      c[m.uci] = (c[m.uci] ?? 0) + 1;
    }
    return c;
  };
  // Weights 60/30/10: at sharpness 0 about a third each.
  const flat = counts(0);
  for (const uci of ['h2e2', 'c3c4', 'g0e2']) assert.ok(flat[uci] > 850 && flat[uci] < 1150, JSON.stringify(flat));
  const masters = counts(1);
  assert.ok(masters.g0e2 > 200 && masters.g0e2 < 400, JSON.stringify(masters));
  // Variety 0 still plays the heaviest move alone.
  assert.equal(b.choose(pos, 0, () => 0.99, 0)?.uci, 'h2e2');
});

test('bookUseAtLevel: full strength keeps the options, weaker levels a shorter and flatter book', () => {
  assert.deepEqual(bookUseAtLevel(20, 20, 100), { depth: 20, variety: 100, sharpness: 1 });
  assert.deepEqual(bookUseAtLevel(20, 7, 30), { depth: 7, variety: 30, sharpness: 1 });
  assert.deepEqual(bookUseAtLevel(0, 20, 100), { depth: 0, variety: 100, sharpness: 0 });
  assert.deepEqual(bookUseAtLevel(10, 20, 0), { depth: 10, variety: 100, sharpness: 0.5 });
  assert.deepEqual(bookUseAtLevel(19.62, 20, 100), { depth: 19, variety: 100, sharpness: 19.62 / 20 });
  assert.deepEqual(bookUseAtLevel(5, 3, 100), { depth: 0, variety: 100, sharpness: 0.25 });
  // The depth never grows as the level falls.
  for (let l = 0; l < 20; l++) assert.ok(bookUseAtLevel(l, 20, 100).depth <= bookUseAtLevel(l + 1, 20, 100).depth);
});

test('the same entries in any order make the same file', () => {
  const a = encodeBook(ENTRIES, { games: 1 });
  const b = encodeBook([...ENTRIES].reverse(), { games: 1 });
  assert.deepEqual(a, b);
  assert.equal(a.length, BOOK_HEADER_BYTES + JSON.stringify({ games: 1 }).length + BOOK_ENTRY_BYTES * ENTRIES.length);
});

test('a damaged book is refused with an error naming the byte offset', () => {
  const good = encodeBook(ENTRIES, { games: 170 });
  const damage = (f: (b: Uint8Array) => Uint8Array) => {
    const r = decodeBook(f(good.slice()), 'x.book');
    assert.ok(!r.ok);
    return [r.error.code, r.error.message];
  };
  const meta = BOOK_HEADER_BYTES + JSON.stringify({ games: 170 }).length;
  assert.deepEqual(
    damage((b) => ((b[0] = 0x4b), (b[3] = 0), b)),
    ['book-magic', 'x.book: damaged opening book at byte 3: not a Kirin opening book (no KIRNBOOK magic)'],
  );
  assert.deepEqual(
    damage((b) => b.subarray(0, 5)),
    ['book-truncated', 'x.book: damaged opening book at byte 5: the file ends inside the header (5 bytes)'],
  );
  assert.deepEqual(
    damage((b) => b.subarray(0, 20)),
    ['book-truncated', 'x.book: damaged opening book at byte 20: the file ends inside the 32-byte header'],
  );
  const [code, message] = damage((b) => b.subarray(0, meta + 30));
  assert.equal(code, 'book-truncated');
  assert.match(
    message,
    new RegExp(`at byte ${meta + 30}: the file ends after ${meta + 30} bytes; its header promises 5 entries`),
  );
  assert.deepEqual(
    damage((b) => ((b[8] = 2), b)),
    ['book-version', 'x.book: damaged opening book at byte 8: format version 2; this engine reads version 1'],
  );
  const flipped = damage((b) => ((b[meta + 30] ^= 1), b));
  assert.equal(flipped[0], 'book-checksum');
  assert.match(flipped[1], /at byte 24: checksum [0-9a-f]{8} does not match the stored [0-9a-f]{8}/);
  const longer = new Uint8Array(good.length + 3);
  longer.set(good);
  const extra = decodeBook(longer, 'x.book');
  assert.ok(!extra.ok);
  assert.equal(
    extra.error.message,
    `x.book: damaged opening book at byte ${good.length}: 3 bytes after the last of its 5 entries`,
  );
  assert.ok(!OpeningBook.fromBytes(new Uint8Array(0), 'empty.book').ok);
});

test('entries out of order or with more wins than games are refused (checksum made right)', async () => {
  const { crc32 } = await import('../core/crc32.js');
  const good = encodeBook(ENTRIES, {});
  const meta = BOOK_HEADER_BYTES + 2;
  const swap = good.slice();
  // Swap the first two entries, then fix the checksum.
  swap.set(good.subarray(meta + BOOK_ENTRY_BYTES, meta + 2 * BOOK_ENTRY_BYTES), meta);
  swap.set(good.subarray(meta, meta + BOOK_ENTRY_BYTES), meta + BOOK_ENTRY_BYTES);
  new DataView(swap.buffer).setUint32(24, crc32(swap.subarray(BOOK_HEADER_BYTES)), true);
  const r = decodeBook(swap, 'x.book');
  assert.ok(!r.ok);
  assert.equal(r.error.code, 'book-order');
  assert.match(r.error.message, new RegExp(`at byte ${meta + BOOK_ENTRY_BYTES}: entry 1 is out of order`));
  const wins = good.slice();
  new DataView(wins.buffer).setUint32(meta + 16, 1000, true);
  new DataView(wins.buffer).setUint32(24, crc32(wins.subarray(BOOK_HEADER_BYTES)), true);
  const w = decodeBook(wins, 'x.book');
  assert.ok(!w.ok);
  assert.equal(w.error.code, 'book-entry');
});

test('book keys: every piece and the side to move count, and moves keep their squares', () => {
  const a = bookKey(after('h2e2')).key;
  const b = bookKey(after('h2e2 h9g7')).key;
  const c = bookKey(after('h2e2 h9g7 h0g2')).key;
  assert.equal(new Set([a, b, c, bookKey(after('')).key]).size, 4);
  // Same board, other side to move.
  const red = Position.fromFen('4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1');
  const black = Position.fromFen('4k4/9/9/9/9/9/9/9/9/3K5 b - - 0 1');
  assert.ok(red.ok && black.ok);
  assert.notEqual(bookKey(red.value).key, bookKey(black.value).key);
  const m = bookMoveCode(parseSquare('h2'), parseSquare('e2'), true);
  assert.equal(moveToUci(bookMoveOf(m, false)), 'b2e2');
  assert.equal(moveToUci(bookMoveOf(m, true)), 'h2e2');
});
