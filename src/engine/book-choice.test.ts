// The engine's opening book on its own: BookFile (and bytes), OwnBook, Book
// Depth, Book Variety, a weakened level's shorter book, and the line that says
// which move the book played. No search thread: the engine's go() plays what
// play() gives (src/engine/engine.test.ts checks that end).

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { bookMoveCode } from '../book/book.js';
import { encodeBook, type BookEntry } from '../book/format.js';
import { bookKey } from '../book/key.js';
import { Position } from '../core/position.js';
import { MOVE_NONE, moveToUci, parseSquare } from '../core/types.js';
import { playUciMoves } from '../core/ucimove.js';
import type { SearchLimits } from '../search/types.js';
import { BOOK_DEFAULTS, BookChoice } from './book-choice.js';

const dir = mkdtempSync(join(tmpdir(), 'kirin-book-'));
after(() => rmSync(dir, { recursive: true, force: true }));

function entry(moves: string[], uci: string, weight: number): BookEntry {
  const pos = at(moves);
  const { key, mirrored } = bookKey(pos);
  return {
    key,
    move: bookMoveCode(parseSquare(uci.slice(0, 2)), parseSquare(uci.slice(2)), mirrored),
    weight,
    games: 10,
    wins: 4,
    draws: 4,
  };
}

function at(moves: string[]): Position {
  const pos = new Position();
  assert.ok(playUciMoves(pos, moves).ok);
  return pos;
}

/** A small book: c3c4 (900) or g0e2 (100), then g6g5, then b0c2. */
const SMALL_BOOK = encodeBook(
  [entry([], 'c3c4', 900), entry([], 'g0e2', 100), entry(['c3c4'], 'g6g5', 500), entry(['c3c4', 'g6g5'], 'b0c2', 5)],
  { games: 10 },
);
const file = join(dir, 'small.book');
writeFileSync(file, SMALL_BOOK);
const damaged = join(dir, 'damaged.book');
writeFileSync(damaged, SMALL_BOOK.subarray(0, SMALL_BOOK.length - 7));

const go: SearchLimits = { startTime: 0, depth: 2 };
const FULL = 20;

/** A book choice playing small.book with OwnBook on. */
function small(): BookChoice {
  const book = new BookChoice();
  const set = book.setFile(file);
  assert.ok(set.ok);
  assert.equal(set.value, 'opening book small.book (4 entries, 10 games)');
  assert.ok(book.setOwnBook(true).ok);
  return book;
}

/** The move the book plays after `moves` (null: none), drawing `draw` for the random choice. */
function played(book: BookChoice, moves: string[], level = FULL, draw = 0): string | null {
  const p = book.play(at(moves), go, level, () => draw);
  return p ? moveToUci(p.move) : null;
}

test('OwnBook is off by default: the book plays nothing, though it lists its moves', () => {
  const book = new BookChoice();
  assert.equal(BOOK_DEFAULTS.ownBook, false);
  assert.ok(book.setFile(file).ok);
  assert.equal(played(book, []), null);
  assert.deepEqual(
    book.moves(new Position()).map((m) => m.uci),
    ['c3c4', 'g0e2'],
  );
  assert.equal(book.moves(at(['h2e2'])).length, 0, 'out of book');
});

test('a book move comes with the reply it expects and the line that says so', () => {
  const book = small();
  assert.ok(book.setVariety(0).ok);
  const p = book.play(new Position(), go, FULL, () => 0.99);
  assert.ok(p);
  assert.equal(moveToUci(p.move), 'c3c4');
  assert.equal(moveToUci(p.reply), 'g6g5');
  assert.equal(p.text, 'book move c3c4 from small.book (weight 90%, 10 games, scored 60%)');
  // The last book move expects no reply; after it, the book is out.
  const last = book.play(at(['c3c4', 'g6g5']), go, FULL, () => 0);
  assert.ok(last);
  assert.equal(moveToUci(last.move), 'b0c2');
  assert.equal(last.reply, MOVE_NONE);
  assert.equal(played(book, ['c3c4', 'g6g5', 'b0c2']), null);
});

test('Book Variety takes effect: 0 plays the heaviest move, 100 the lighter ones too', () => {
  const book = small();
  // A draw of 0.95 falls on g0e2 (the last tenth of the weights) once it is in the pool.
  assert.ok(book.setVariety(0).ok);
  assert.equal(played(book, [], FULL, 0.95), 'c3c4');
  assert.ok(book.setVariety(100).ok);
  assert.equal(played(book, [], FULL, 0.95), 'g0e2');
  // 85 keeps moves of at least 15% of the heaviest's weight: g0e2 (11%) is out.
  assert.ok(book.setVariety(85).ok);
  assert.equal(played(book, [], FULL, 0.95), 'c3c4');
  assert.ok(book.setVariety(90).ok);
  assert.equal(played(book, [], FULL, 0.95), 'g0e2');
});

test('Book Depth takes effect: the book plays while fewer than that many moves of each side were played', () => {
  const book = small();
  assert.equal(played(book, ['c3c4', 'g6g5']), 'b0c2', 'ply 2 is within the default depth');
  assert.ok(book.setDepth(1).ok);
  assert.equal(played(book, []), 'c3c4');
  assert.equal(played(book, ['c3c4']), 'g6g5', 'ply 1: the first move of each side');
  assert.equal(played(book, ['c3c4', 'g6g5']), null, 'Book Depth 1: out of book at ply 2');
  assert.ok(book.setDepth(0).ok);
  assert.equal(played(book, []), null, 'Book Depth 0: no book at all');
  assert.ok(book.setDepth(2).ok);
  assert.equal(played(book, ['c3c4', 'g6g5']), 'b0c2');
});

test('OwnBook off again plays nothing; on again says which book plays', () => {
  const book = small();
  assert.deepEqual(book.setOwnBook(false), { ok: true, value: undefined });
  assert.equal(played(book, []), null);
  assert.deepEqual(book.setOwnBook(true), { ok: true, value: 'opening book small.book (4 entries, 10 games)' });
  assert.equal(played(book, []), 'c3c4');
});

test('go infinite, ponder, mate and searchmoves leave the book alone', () => {
  const book = small();
  const pos = new Position();
  for (const limits of [
    { ...go, infinite: true },
    { ...go, ponder: true },
    { ...go, mate: 1 },
    { ...go, searchmoves: [at(['h2e2']).lastMove()] },
  ])
    assert.equal(
      book.play(pos, limits, FULL, () => 0),
      null,
      JSON.stringify(limits),
    );
  assert.ok(
    book.play(pos, { ...go, searchmoves: [] }, FULL, () => 0),
    'an empty searchmoves is no restriction',
  );
});

test('a weakened level plays less of the book: its share of Book Depth, none at level 0', () => {
  const book = small();
  assert.ok(book.setDepth(2).ok);
  assert.equal(played(book, ['c3c4', 'g6g5'], FULL), 'b0c2');
  // Level 10: floor(2 * 10 / 20) = 1 move of each side.
  assert.equal(played(book, [], 10), 'c3c4');
  assert.equal(played(book, ['c3c4'], 10), 'g6g5');
  assert.equal(played(book, ['c3c4', 'g6g5'], 10), null);
  assert.equal(played(book, [], 0), null);
  // Level 19.62 (UCI_Elo 3133): floor(2 * 19.62 / 20) = 1.
  assert.equal(played(book, [], 19.62), 'c3c4');
  assert.equal(played(book, ['c3c4', 'g6g5'], 19.62), null);
});

test("a weakened level picks the masters' rarer moves more often, even at Book Variety 0", () => {
  const book = small();
  assert.ok(book.setVariety(0).ok);
  // c3c4 weighs 900 and g0e2 100; a draw of 0.6 falls on c3c4 by weight.
  assert.equal(played(book, [], FULL, 0.6), 'c3c4', 'full strength, Variety 0: the heaviest');
  // Level 2: weights^(2/20) = 1.97 and 1.58: 0.6 of the total lands on g0e2.
  assert.equal(played(book, [], 2, 0.6), 'g0e2');
});

test('a damaged or missing BookFile is refused with its error, and the book in use stays', () => {
  const book = small();
  const bad = book.setFile(damaged);
  assert.ok(!bad.ok);
  assert.match(
    bad.error.message,
    /^damaged\.book: damaged opening book at byte \d+: the file ends after \d+ bytes; .*; the book stays: small\.book \(4 entries, 10 games\)$/,
  );
  const missing = book.setFile(join(dir, 'nothing.book'));
  assert.ok(!missing.ok);
  assert.match(missing.error.message, /book file '.*nothing\.book' was not found; the book stays: small\.book/);
  assert.equal(played(book, []), 'c3c4', 'small.book still plays');
  // Bytes work the same way.
  const fromBytes = book.loadBytes(SMALL_BOOK.subarray(0, 10), 'page.book');
  assert.ok(!fromBytes.ok);
  assert.match(fromBytes.error.message, /^page\.book: damaged opening book at byte 10/);
  assert.equal(book.status(), 'opening book small.book (4 entries, 10 games)');
  const good = book.loadBytes(SMALL_BOOK, 'page.book');
  assert.deepEqual(good, { ok: true, value: 'opening book page.book (4 entries, 10 games)' });
});

test('the default book ships with the engine: it plays with BookFile empty, and an empty BookFile goes back to it', () => {
  const book = new BookChoice();
  const on = book.setOwnBook(true);
  assert.ok(on.ok);
  assert.match(on.value ?? '', /^opening book kirin\.book \(\d+ entries, \d+ games\)$/);
  const moves = book.moves(new Position());
  assert.ok(moves.length >= 5, `${moves.length} book moves from the start`);
  assert.ok(moves.some((m) => m.uci === 'h2e2'));
  const m = book.play(new Position(), go, FULL, () => 0.5);
  assert.ok(m && moves.some((x) => x.move === m.move));
  assert.ok(book.setFile(file).ok);
  assert.equal(book.moves(new Position()).length, 2);
  const back = book.setFile('');
  assert.ok(back.ok);
  assert.match(back.value ?? '', /^opening book kirin\.book /);
  assert.equal(book.moves(new Position()).length, moves.length);
});
