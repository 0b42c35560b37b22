import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { OpeningBook, Position, mulberry32, playUciMoves } from '../../src/dev.js';
import { repoPath } from '../lib.js';
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
  assert.match(r.problems[0], /^x\.pgn game 4: /);
  // Big5 (traditional characters), named by --encoding.
  const big5 = new Uint8Array([0xac, 0xb6, 0xa4, 0x47, 0xa5, 0xad, 0xa4, 0xad]); // 炮二平五
  const b = readBookGames(new Uint8Array([...new TextEncoder().encode('1. '), ...big5, 0x20, 0x2a]), 'y.pgn', 'big5');
  assert.deepEqual(b.problems, []);
  assert.deepEqual(b.games[0].moves, ['h2e2']);
});

const dir = mkdtempSync(join(tmpdir(), 'kirin-book-cli-'));
after(() => rmSync(dir, { recursive: true, force: true }));

test('kirin book build and probe', () => {
  const pgn = join(dir, 'games.pgn');
  writeFileSync(pgn, '[Result "1-0"]\n1. h2e2 h9g7 2. h0g2 1-0\n\n[Result "0-1"]\n1. c3c4 g6g5 0-1\n');
  const out = join(dir, 'x.book');
  const kirin = (...args: string[]) =>
    spawnSync(process.execPath, [repoPath('bin', 'kirin.js'), 'book', ...args], { encoding: 'utf8' });
  const b = kirin('build', '--out', out, '--min-games', '1', '--min-score', '0', pgn);
  assert.equal(b.status, 0, b.stderr);
  assert.match(
    b.stdout,
    /x\.book: \d+ bytes, 5 moves in 4 positions, from 2 games \(1 files, 2 games read, 0 duplicates, 0 problems\)/,
  );
  const p = kirin('probe', '--book', out, 'h2e2');
  assert.equal(p.status, 0, p.stderr);
  assert.deepEqual(p.stdout.trim().split('\n'), [
    'book: x.book (5 entries, 2 games)',
    'position: rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1',
    'opening: B00 中炮局',
    'move  weight   games    wins   draws  losses  score',
    'h9g7    0.0%       1       0       0       1   0.0%',
  ]);
  const fen = kirin('probe', '--book', out, '4k4/9/9/9/9/9/9/9/9/3K5', 'w', '-', '-', '0', '1');
  assert.equal(fen.status, 0, fen.stderr);
  assert.match(fen.stdout, /no book moves/);
  const bad = kirin('probe', '--book', join(dir, 'games.pgn'));
  assert.equal(bad.status, 2);
  assert.match(bad.stderr, /games\.pgn: damaged opening book at byte 0: not a Kirin opening book/);
  const missing = kirin('build', pgn);
  assert.equal(missing.status, 2);
  assert.match(missing.stderr, /--out FILE is required/);
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
