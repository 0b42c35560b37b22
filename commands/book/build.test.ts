import assert from 'node:assert/strict';
import { test } from 'node:test';
import { OpeningBook, Position, playUciMoves } from '../../src/dev.js';
import { mulberry32 } from '../../src/core/prng.js';
import { buildBook, type BookGame } from './build.js';
import { bookVariety } from './cli.js';
import { readBookGames } from './games.js';

const game = (moves: string, result: string, source = 'test'): BookGame => ({
  fen: null,
  moves: moves.split(' '),
  result,
  source,
});

const GAMES = [
  game('h2e2 h9g7 h0g2', '1-0', 'a'),
  game('h2e2 h9g7 h0g2', '1-0', 'a copy'),
  game('h2e2 h9g7 b0c2', '0-1'),
  game('h2e2 b9c7 h0g2', '1/2-1/2'),
  game('b2e2 b9c7 b0c2', '1-0'),
  game('c3c4 g6g5', '0-1'),
  game('c3c4 c6c5', '*'),
  game('g3g4 h9g7 h2h9', '1-0', 'bad'),
];

const opts = { depth: 10, minGames: 1, minScore: 0, dedupe: true };

function probe(bytes: Uint8Array, moves: string): [string, number, number, number, number][] {
  const book = OpeningBook.fromBytes(bytes, 't.book');
  assert.ok(book.ok);
  const pos = new Position();
  if (moves !== '') assert.ok(playUciMoves(pos, moves.split(' ')).ok);
  return book.value.probe(pos).map((m) => [m.uci, m.weight, m.games, m.wins, m.draws]);
}

test("counts each position's moves with their results, merging mirror images and repeated games", () => {
  const b = buildBook(GAMES, opts, { name: 'test' });
  assert.equal(b.games, 8);
  assert.equal(b.duplicates, 1);
  assert.equal(b.counted, 7);
  assert.deepEqual(b.problems, ["bad: ply 3 (h2h9): 'h2h9' is not a legal move"]);
  // Start: h2e2 three times (1-0, 0-1, draw), b2e2 once, c3c4 twice (0-1, unknown = draw), g3g4 once.
  assert.deepEqual(probe(b.bytes, ''), [
    ['h2e2', 3, 3, 1, 1],
    ['b2e2', 2, 1, 1, 0],
    ['g3g4', 2, 1, 1, 0],
    ['c3c4', 1, 2, 0, 1],
  ]);
  // After h2e2, Black: h9g7 twice (a loss and a win for Black) and once more as the mirror
  // image of b2e2 b9c7 (a loss); b9c7 once (a draw).
  assert.deepEqual(probe(b.bytes, 'h2e2'), [
    ['h9g7', 2, 3, 1, 0],
    ['b9c7', 1, 1, 0, 1],
  ]);
  assert.deepEqual(probe(b.bytes, 'b2e2'), [
    ['b9c7', 2, 3, 1, 0],
    ['h9g7', 1, 1, 0, 1],
  ]);
  const desc = OpeningBook.fromBytes(b.bytes, 't.book');
  assert.ok(desc.ok);
  assert.deepEqual(desc.value.description, { name: 'test', games: 7, depth: 10, minGames: 1, minScore: 0 });
});

test('the same games give the same bytes, in any order; duplicates count when asked', () => {
  const a = buildBook(GAMES, opts).bytes;
  const b = buildBook([...GAMES].reverse(), opts).bytes;
  assert.deepEqual(a, b);
  const all = buildBook(GAMES, { ...opts, dedupe: false });
  assert.equal(all.duplicates, 0);
  assert.equal(probe(all.bytes, '')[0][2], 4);
});

test('--min-games, --min-score and --depth leave moves out', () => {
  const two = buildBook(GAMES, { ...opts, minGames: 2 });
  assert.deepEqual(
    probe(two.bytes, '').map((m) => m[0]),
    ['h2e2', 'c3c4'],
  );
  // c3c4 scored 25% for Red (a loss and an unknown result).
  const score = buildBook(GAMES, { ...opts, minScore: 40 });
  assert.deepEqual(
    probe(score.bytes, '').map((m) => m[0]),
    ['h2e2', 'b2e2', 'g3g4'],
  );
  const shallow = buildBook(GAMES, { ...opts, depth: 1 });
  assert.deepEqual(probe(shallow.bytes, 'h2e2'), []);
  assert.equal(probe(shallow.bytes, '').length, 4);
});

test('game files are read in any notation and encoding, main line, start position and result', () => {
  const text = [
    '[Event "one"]',
    '[Result "1-0"]',
    '',
    '1. h2e2 {a comment} h9g7 (1... b9c7 2. h0g2) 2. h0g2 1-0',
    '',
    '[Event "two"]',
    '[FEN "4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1"]',
    '1. d0d1 *',
    '',
    '[Event "three"]',
    '1. 炮二平五 马８进７ 2. 马二进三 1/2-1/2',
    '',
    '[Event "four"]',
    '1. 炮二进九 *',
  ].join('\n');
  const r = readBookGames(new TextEncoder().encode(text), 'x.pgn');
  assert.deepEqual(
    r.games.map((g) => [g.moves.join(' '), g.result, g.fen, g.source]),
    [
      [
        'h2e2 h9g7 h0g2',
        '1-0',
        'rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1',
        'x.pgn game 1',
      ],
      ['d0d1', '*', '4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1', 'x.pgn game 2'],
      [
        'h2e2 h9g7 h0g2',
        '1/2-1/2',
        'rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1',
        'x.pgn game 3',
      ],
    ],
  );
  assert.equal(r.problems.length, 1);
  assert.match(r.problems[0], /^x\.pgn: game 4 \(four\): move 1 \(Red\): /);
  // Big5 (traditional characters), named by --encoding.
  const big5 = new Uint8Array([0xac, 0xb6, 0xa4, 0x47, 0xa5, 0xad, 0xa4, 0xad]); // 炮二平五
  const b = readBookGames(new Uint8Array([...new TextEncoder().encode('1. '), ...big5, 0x20, 0x2a]), 'y.pgn', 'big5');
  assert.deepEqual(b.problems, []);
  assert.deepEqual(b.games[0].moves, ['h2e2']);
  // ... or told by what reads, without --encoding.
  const told = readBookGames(new Uint8Array([...new TextEncoder().encode('1. '), ...big5, 0x20, 0x2a]), 'y.pgn');
  assert.deepEqual(told.games[0].moves, ['h2e2']);
  // An empty file is a problem of its own.
  assert.deepEqual(readBookGames(new Uint8Array(0), 'empty.pgn'), { games: [], problems: ['no game in empty.pgn'] });
});

test("readBookGames: a kirin match game log gives Kirin's own games, its openings' FENs and moves first", () => {
  const log = [
    'game 1 | kirin vs old | 1-0 | checkmate | opening startpos | moves h2e2 h9g7 h0g2 | end rules',
    'game 2 | old vs kirin | 0-1 | time | opening c3c4 g6g5 (ECCO A10) | moves b0c2 | end time',
    'game 3 | kirin vs old | 1/2-1/2 | repetition | opening fen 4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1 moves d0d1 | moves e9f9 | end rules',
    'game 4 | old vs kirin | 1/2-1/2 | adjudication | opening fen 4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1 | moves | end adjudication',
    'game 5 | kirin vs old | 1-0 | checkmate | opening startpos | moves h2e2 炮二平五 | end rules',
    '',
  ].join('\n');
  const r = readBookGames(new TextEncoder().encode(log), 'm.log');
  assert.deepEqual(
    r.games.map((g) => [g.fen, g.moves.join(' '), g.result, g.source]),
    [
      [null, 'h2e2 h9g7 h0g2', '1-0', 'm.log game 1'],
      [null, 'c3c4 g6g5 b0c2', '0-1', 'm.log game 2'],
      ['4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1', 'd0d1 e9f9', '1/2-1/2', 'm.log game 3'],
      ['4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1', '', '1/2-1/2', 'm.log game 4'],
    ],
  );
  assert.equal(r.problems.length, 1);
  assert.match(r.problems[0], /^m\.log:5: not a game-log line/);
  // Counted like any games: the book's first move is the one Kirin played.
  const book = buildBook(r.games, opts);
  assert.deepEqual(probe(book.bytes, ''), [
    ['h2e2', 2, 1, 1, 0],
    ['c3c4', 0, 1, 0, 0],
  ]);
});

test('kirin book variety: Book Variety 0 plays one line, 100 several', () => {
  const book = OpeningBook.fromBytes(buildBook(GAMES, opts).bytes, 't.book');
  assert.ok(book.ok);
  const one = bookVariety(book.value, 30, 0, mulberry32(1));
  assert.equal(one.lines, 1);
  assert.equal(one.plies, 3);
  const many = bookVariety(book.value, 30, 100, mulberry32(1));
  assert.ok(many.lines >= 3, `${many.lines} lines`);
  assert.ok(many.openings.size >= 2);
  assert.equal(
    [...many.openings.values()].reduce((a, b) => a + b, 0),
    30,
  );
});
