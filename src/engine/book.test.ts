// The engine's opening book: OwnBook, BookFile, Book Depth, Book Variety, and
// the UCI protocol's `info string` for a book move.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { bookMoveCode } from '../book/book.js';
import { encodeBook, type BookEntry } from '../book/format.js';
import { bookKey } from '../book/key.js';
import { Position } from '../core/position.js';
import { moveToUci, parseSquare } from '../core/types.js';
import { playUciMoves } from '../core/ucimove.js';
import { Uci } from '../protocol/uci.js';
import { Engine } from './engine.js';

const dir = mkdtempSync(join(tmpdir(), 'kirin-book-'));
after(() => rmSync(dir, { recursive: true, force: true }));

function entry(moves: string[], uci: string, weight: number): BookEntry {
  const pos = new Position();
  assert.ok(playUciMoves(pos, moves).ok);
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

const bytes = encodeBook(
  [entry([], 'c3c4', 900), entry([], 'g0e2', 100), entry(['c3c4'], 'g6g5', 500), entry(['c3c4', 'g6g5'], 'b0c2', 5)],
  { games: 10 },
);
const file = join(dir, 'small.book');
writeFileSync(file, bytes);
const damaged = join(dir, 'damaged.book');
writeFileSync(damaged, bytes.subarray(0, bytes.length - 7));

const limits = () => ({ startTime: Date.now(), depth: 2 });

test('OwnBook is off by default: the engine searches', async () => {
  const engine = new Engine();
  try {
    assert.equal(engine.options.getBool('OwnBook'), false);
    assert.ok(engine.options.set('BookFile', file).ok);
    const r = await engine.go(limits());
    assert.ok(r.nodes > 0 && !r.book);
  } finally {
    await engine.close();
  }
});

test('with OwnBook a book move comes at once, said in a text line, with the expected reply to ponder on', async () => {
  const engine = new Engine();
  try {
    const set = engine.options.set('BookFile', file);
    assert.ok(set.ok);
    assert.equal(set.value.message, 'opening book small.book (4 entries, 10 games)');
    assert.ok(engine.options.set('OwnBook', 'true').ok);
    assert.ok(engine.options.set('Book Variety', '0').ok);
    const texts: string[] = [];
    const r = await engine.go(limits(), { text: (l) => texts.push(l) });
    assert.equal(r.book, true);
    assert.equal(r.nodes, 0);
    assert.equal(moveToUci(r.bestMove), 'c3c4');
    assert.equal(moveToUci(r.ponderMove), 'g6g5');
    assert.deepEqual(texts, ['book move c3c4 from small.book (weight 90%, 10 games, scored 60%)']);
    // Out of book: a search.
    engine.setPosition(null, ['h2e2']);
    const s = await engine.go(limits());
    assert.ok(!s.book && s.nodes > 0);
    // Variety 100 plays the lighter move too.
    engine.setPosition(null, []);
    engine.random = () => 0.95;
    assert.ok(engine.options.set('Book Variety', '100').ok);
    assert.equal(moveToUci((await engine.go(limits())).bestMove), 'g0e2');
    assert.deepEqual(
      engine.bookMoves().map((m) => m.uci),
      ['c3c4', 'g0e2'],
    );
  } finally {
    await engine.close();
  }
});

test('Book Depth, and go infinite / ponder / mate / searchmoves, leave the book alone', async () => {
  const engine = new Engine();
  try {
    assert.ok(engine.options.set('BookFile', file).ok);
    assert.ok(engine.options.set('OwnBook', 'true').ok);
    engine.setPosition(null, ['c3c4', 'g6g5']);
    assert.equal((await engine.go(limits())).book, true, 'ply 2 is within the default depth');
    assert.ok(engine.options.set('Book Depth', '1').ok);
    assert.ok(!(await engine.go(limits())).book, 'Book Depth 1: only the first move of each side');
    assert.ok(engine.options.set('Book Depth', '20').ok);
    engine.setPosition(null, []);
    const pos = engine.position();
    assert.ok(!(await engine.go({ ...limits(), mate: 1 })).book);
    const c3c4 = pos.clone();
    assert.ok(!(await engine.go({ ...limits(), searchmoves: [playedMove(c3c4, 'h2e2')] })).book);
    const pondering = engine.go({ startTime: Date.now(), ponder: true, depth: 1 });
    engine.ponderhit();
    assert.ok(!(await pondering).book);
    const infinite = engine.go({ startTime: Date.now(), infinite: true });
    setTimeout(() => engine.stop(), 50);
    assert.ok(!(await infinite).book);
  } finally {
    await engine.close();
  }
});

test('a weakened level plays less of the book: Skill Level and UCI_Elo shorten it, full strength does not', async () => {
  const engine = new Engine();
  try {
    assert.ok(engine.options.set('BookFile', file).ok);
    assert.ok(engine.options.set('OwnBook', 'true').ok);
    assert.ok(engine.options.set('Book Depth', '2').ok);
    const atPly = async (moves: string[]): Promise<boolean> => {
      engine.setPosition(null, moves);
      return (await engine.go(limits())).book === true;
    };
    // Full strength: two moves of each side from the book (ply 2 is b0c2's).
    assert.equal(await atPly(['c3c4', 'g6g5']), true);
    // Skill Level 10: floor(2 * 10 / 20) = 1 move of each side.
    assert.ok(engine.options.set('Skill Level', '10').ok);
    assert.equal(await atPly([]), true);
    assert.equal(await atPly(['c3c4']), true);
    assert.equal(await atPly(['c3c4', 'g6g5']), false, 'level 10 with Book Depth 2: out of book at ply 2');
    // Skill Level 0: no book at all, the level's own first move.
    assert.ok(engine.options.set('Skill Level', '0').ok);
    assert.equal(await atPly([]), false);
    // UCI_Elo 1280 is level 0 whatever Skill Level says; UCI_Elo 3133 (level 19.62) keeps the book's first move.
    assert.ok(engine.options.set('Skill Level', '20').ok);
    assert.ok(engine.options.set('UCI_LimitStrength', 'true').ok);
    assert.ok(engine.options.set('UCI_Elo', '1280').ok);
    assert.equal(await atPly([]), false);
    assert.ok(engine.options.set('UCI_Elo', '3133').ok);
    assert.equal(await atPly([]), true);
    assert.equal(await atPly(['c3c4', 'g6g5']), false);
    // Back to full strength: the whole Book Depth again.
    assert.ok(engine.options.set('UCI_LimitStrength', 'false').ok);
    assert.equal(await atPly(['c3c4', 'g6g5']), true);
  } finally {
    await engine.close();
  }
});

test("a weakened level picks the masters' rarer moves more often, even at Book Variety 0", async () => {
  const engine = new Engine();
  try {
    assert.ok(engine.options.set('BookFile', file).ok);
    assert.ok(engine.options.set('OwnBook', 'true').ok);
    assert.ok(engine.options.set('Book Variety', '0').ok);
    engine.setPosition(null, []);
    // c3c4 weighs 900 and g0e2 100; a draw of 0.6 falls on c3c4 by weight.
    engine.random = () => 0.6;
    assert.equal(moveToUci((await engine.go(limits())).bestMove), 'c3c4', 'full strength, Variety 0: the heaviest');
    // Level 2 (UCI_Elo 1565): weights^(2/20) = 1.97 and 1.58: 0.6 of the total lands on g0e2.
    assert.ok(engine.options.set('UCI_LimitStrength', 'true').ok);
    assert.ok(engine.options.set('UCI_Elo', '1565').ok);
    const r = await engine.go(limits());
    assert.equal(r.book, true);
    assert.equal(moveToUci(r.bestMove), 'g0e2');
  } finally {
    await engine.close();
  }
});

function playedMove(pos: Position, uci: string): number {
  const before = pos.clone();
  assert.ok(playUciMoves(before, [uci]).ok);
  return before.lastMove();
}

test('a damaged or missing BookFile is refused with its error, and the book in use stays', async () => {
  const engine = new Engine();
  try {
    assert.ok(engine.options.set('BookFile', file).ok);
    const bad = engine.options.set('BookFile', damaged);
    assert.ok(!bad.ok);
    assert.match(
      bad.error.message,
      /^BookFile: damaged\.book: damaged opening book at byte \d+: the file ends after \d+ bytes; .*; the book stays: small\.book \(4 entries, 10 games\); keeping .*small\.book$/,
    );
    const missing = engine.options.set('BookFile', join(dir, 'nothing.book'));
    assert.ok(!missing.ok);
    assert.match(missing.error.message, /book file '.*nothing\.book' was not found; the book stays: small\.book/);
    assert.equal(engine.options.getString('BookFile'), file);
    // Bytes work the same way.
    const fromBytes = engine.loadBookBytes(bytes.subarray(0, 10), 'page.book');
    assert.ok(!fromBytes.ok);
    assert.match(fromBytes.error.message, /^page\.book: damaged opening book at byte 10/);
  } finally {
    await engine.close();
  }
});

test('the default book ships with the engine (BookFile empty) and opens the game from it', async () => {
  const engine = new Engine();
  try {
    const on = engine.options.set('OwnBook', 'true');
    assert.ok(on.ok);
    assert.match(on.value.message ?? '', /^opening book kirin\.book \(\d+ entries, \d+ games\)$/);
    const moves = engine.bookMoves();
    assert.ok(moves.length >= 5, `${moves.length} book moves from the start`);
    assert.ok(moves.some((m) => m.uci === 'h2e2'));
    const r = await engine.go(limits());
    assert.ok(r.book && moves.some((m) => m.move === r.bestMove));
  } finally {
    await engine.close();
  }
});

test('UCI: the book options are listed, and a book move prints an info string before bestmove', async () => {
  const engine = new Engine();
  const lines: string[] = [];
  const uci = new Uci(engine, (l) => lines.push(l));
  try {
    await uci.command('uci');
    for (const o of [
      'option name OwnBook type check default false',
      'option name BookFile type string default <empty>',
      'option name Book Depth type spin default 20 min 0 max 200',
      'option name Book Variety type spin default 100 min 0 max 100',
    ])
      assert.ok(lines.includes(o), o);
    lines.length = 0;
    await uci.command(`setoption name BookFile value ${file}`);
    await uci.command('setoption name OwnBook value true');
    await uci.command('setoption name Book Variety value 0');
    await uci.command('position startpos');
    await uci.command('go wtime 1000 btime 1000');
    await engine.waitIdle();
    await new Promise((r) => setTimeout(r, 10));
    assert.deepEqual(lines, [
      'info string opening book small.book (4 entries, 10 games)',
      'info string opening book small.book (4 entries, 10 games)',
      'info string book move c3c4 from small.book (weight 90%, 10 games, scored 60%)',
      'bestmove c3c4 ponder g6g5',
    ]);
  } finally {
    await engine.close();
  }
});
