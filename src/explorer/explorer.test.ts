// The opening explorer: counts of a hand-made game set whose wins, draws and
// losses are known, transpositions, duplicates, the minimum, the notable games
// (and their moves, back from the packed plies), the same bytes in any order,
// and damaged files refused with the byte offset.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Position } from '../core/position.js';
import { moveToUci } from '../core/types.js';
import { playUciMoves } from '../core/ucimove.js';
import { unwrap } from '../../test/support/fixtures.js';
import { mainLine } from '../notation/game.js';
import { parseGames } from '../notation/pgn.js';
import { buildExplorer, explorerGame, yearOf, type ExplorerGame } from './build.js';
import { Explorer, fetchExplorer, notableGameRecord, type ExplorerPosition } from './explorer.js';
import { packPlies, plyBits, PlyReader } from './format.js';

const PGN = `
[Red "胡荣华"][Black "柳大华"][Event "全国赛"][Date "1980.11.02"][Result "1-0"]
1. h2e2 h9g7 2. h0g2 1-0

[Red "胡荣华"][Black "杨官璘"][Event "全国赛"][Date "1981"][Result "0-1"]
1. h2e2 h9g7 2. h0g2 0-1

[Red "李来群"][Black "胡荣华"][Event "友谊赛"][Date "1990"][Result "1/2-1/2"]
1. h2e2 h7e7 1/2-1/2

[Red "李来群"][Black "胡荣华"][Event "E"][Result "1-0"]
1. c3c4 1-0

[Red "胡荣华"][Black "柳大华"][Event "全国赛"][Date "1980.11.02"][Result "1-0"]
1. h2e2 h9g7 2. h0g2 1-0

[Red "C"][Black "D"][Event "E"][Date "1999"]
1. h2e2 h9g7 2. b0c2 *

[Red "E"][Black "F"][Event "E"][Date "2001"][Result "0-1"]
1. b0c2 h9g7 2. h2e2 i9h9 0-1
`;

function games(): ExplorerGame[] {
  return parseGames(PGN).map((g, i) => explorerGame(unwrap(g), `t.pgn game ${i + 1}`));
}

function at(explorer: Explorer, moves: string[]): ExplorerPosition | null {
  const pos = new Position();
  unwrap(playUciMoves(pos, moves));
  return explorer.probe(pos);
}

/** [uci, games, red wins, draws, black wins] of each move. */
function rows(p: ExplorerPosition | null): [string, number, number, number, number][] {
  assert.ok(p !== null);
  return p.moves.map((m) => [m.uci, m.games, m.redWins, m.draws, m.blackWins]);
}

test('the counts of a hand-made game set: games, red wins, draws, black wins per position and move', () => {
  const built = buildExplorer(games(), { depth: 10, minGames: 1, notable: 2, dedupe: true }, { name: 't' });
  assert.equal(built.games, 7);
  assert.equal(built.duplicates, 1, 'the repeated 胡荣华 - 柳大华 game counts once');
  assert.equal(built.counted, 6);
  assert.deepEqual(built.problems, []);
  const x = unwrap(Explorer.fromBytes(built.bytes, 'dir/t.explorer'));
  assert.equal(x.name, 't.explorer');
  assert.equal(x.description.games, 6);
  assert.equal(x.description.name, 't');
  const start = at(x, []);
  assert.ok(start !== null);
  // Six games: 1-0 twice, 0-1 twice, a draw and an unknown result (counted as a draw).
  assert.deepEqual([start.games, start.redWins, start.draws, start.blackWins], [6, 2, 2, 2]);
  assert.deepEqual(rows(start), [
    ['h2e2', 4, 1, 2, 1],
    ['b0c2', 1, 0, 0, 1],
    ['c3c4', 1, 1, 0, 0],
  ]);
  assert.deepEqual(rows(at(x, ['h2e2'])), [
    ['h9g7', 3, 1, 1, 1],
    ['h7e7', 1, 0, 1, 0],
  ]);
  // 1. h2e2 h9g7 2. b0c2 and 1. b0c2 h9g7 2. h2e2 reach the same position: a transposition counts both.
  const transposed = at(x, ['h2e2', 'h9g7', 'b0c2']);
  assert.ok(transposed !== null);
  assert.deepEqual([transposed.games, transposed.redWins, transposed.draws, transposed.blackWins], [2, 0, 1, 1]);
  assert.deepEqual(rows(transposed), [['i9h9', 1, 0, 0, 1]], 'the game that ends there reached it with no move');
  const ended = at(x, ['h2e2', 'h9g7', 'h0g2']);
  assert.deepEqual([ended?.games, ended?.redWins, ended?.blackWins, rows(ended).length], [2, 1, 1, 0]);
  assert.equal(at(x, ['h2e2', 'h9g7', 'c3c4']), null, 'a position no game reached');
  // Deeper than the depth: not counted.
  const shallow = unwrap(
    Explorer.fromBytes(buildExplorer(games(), { depth: 1, minGames: 1, notable: 1, dedupe: true }).bytes),
  );
  assert.equal(rows(at(shallow, [])).length, 3);
  assert.equal(at(shallow, ['h2e2']), null);
});

test('the minimum: positions and moves reached by fewer games are left out, the totals stay', () => {
  const x = unwrap(
    Explorer.fromBytes(buildExplorer(games(), { depth: 10, minGames: 2, notable: 1, dedupe: true }).bytes),
  );
  const start = at(x, []);
  assert.equal(start?.games, 6);
  assert.deepEqual(rows(start), [['h2e2', 4, 1, 2, 1]]);
  assert.equal(at(x, ['c3c4']), null);
  // Without dedupe the repeated game counts twice.
  const all = unwrap(
    Explorer.fromBytes(buildExplorer(games(), { depth: 10, minGames: 1, notable: 1, dedupe: false }).bytes),
  );
  assert.deepEqual(rows(at(all, [])).slice(0, 1), [['h2e2', 5, 2, 2, 1]]);
});

test('notable games: between the most prolific players, with their moves, openable as a game record', () => {
  const x = unwrap(
    Explorer.fromBytes(buildExplorer(games(), { depth: 10, minGames: 1, notable: 2, dedupe: true }).bytes),
  );
  const start = at(x, [])!;
  assert.equal(start.notable.length, 2);
  // 胡荣华 plays four games (after dedupe), 李来群 two, everyone else one: the two games between them come
  // first, the later one first (a game without a date last).
  assert.deepEqual(
    start.notable.map((g) => [g.red, g.black, g.event, g.year, g.result]),
    [
      ['李来群', '胡荣华', '友谊赛', 1990, '1/2-1/2'],
      ['李来群', '胡荣华', 'E', null, '1-0'],
    ],
  );
  assert.deepEqual(start.notable[0].moves, ['h2e2', 'h7e7']);
  const record = notableGameRecord(start.notable[0]);
  assert.deepEqual(record.headers, {
    Event: '友谊赛',
    Red: '李来群',
    Black: '胡荣华',
    Date: '1990',
    Result: '1/2-1/2',
  });
  assert.equal(record.result, '1/2-1/2');
  assert.deepEqual(mainLine(record).map(moveToUci), ['h2e2', 'h7e7']);
  assert.equal(notableGameRecord(start.notable[1]).headers.Date, undefined);
  // A position down the line shares the games already chosen: after 1. h2e2 the 1990 game comes first
  // (chosen already for the start position).
  const after = at(x, ['h2e2'])!;
  assert.equal(after.notable[0].event, '友谊赛');
  assert.equal(after.notable.length, 2);
});

test('the same games give the same bytes in any order; a game with an illegal move counts up to it', () => {
  const a = buildExplorer(games(), { depth: 10, minGames: 1, notable: 2, dedupe: true }).bytes;
  const b = buildExplorer(games().reverse(), { depth: 10, minGames: 1, notable: 2, dedupe: true }).bytes;
  assert.deepEqual(a, b);
  const bad: ExplorerGame = { ...games()[3], moves: ['c3c4', 'c3c4'], source: 'bad.pgn game 1' };
  const r = buildExplorer([bad], { depth: 10, minGames: 1, notable: 1, dedupe: true });
  assert.equal(r.problems.length, 1);
  assert.match(r.problems[0], /^bad\.pgn game 1: ply 2 \(c3c4\): /);
  assert.deepEqual(rows(at(unwrap(Explorer.fromBytes(r.bytes)), [])), [['c3c4', 1, 1, 0, 0]]);
});

test('yearOf reads the year of a PGN date', () => {
  assert.equal(yearOf('1955.5'), 1955);
  assert.equal(yearOf('2006.08.03'), 2006);
  assert.equal(yearOf('第5届(1960)'), 1960);
  assert.equal(yearOf('????.??.??'), null);
  assert.equal(yearOf(undefined), null);
});

test('packed plies: each in the bits its number of moves needs, read back', () => {
  assert.deepEqual([1, 2, 3, 33, 64, 65].map(plyBits), [0, 1, 2, 6, 6, 7]);
  const widths = [6, 0, 3, 7, 1];
  const places = [44, 0, 5, 100, 1];
  const packed = packPlies(places, widths);
  assert.equal(packed.length, 3);
  const r = new PlyReader(packed);
  assert.deepEqual(
    widths.map((w) => r.next(w)),
    places,
  );
  assert.equal(r.next(8), null);
});

test('damaged files are refused with the byte offset; fetchExplorer reads a fetched file', async () => {
  const bytes = buildExplorer(games(), { depth: 10, minGames: 1, notable: 2, dedupe: true }).bytes;
  const flipped = bytes.slice();
  flipped[flipped.length - 1] ^= 0xff;
  const cases: [Uint8Array, string, RegExp][] = [
    [
      new TextEncoder().encode('KIRNBOOK........'),
      'explorer-magic',
      /x: damaged explorer file at byte 4: not a Kirin explorer file/,
    ],
    [bytes.subarray(0, 20), 'explorer-truncated', /ends inside the 48-byte header/],
    [bytes.subarray(0, bytes.length - 3), 'explorer-truncated', /promises/],
    [new Uint8Array([...bytes, 0]), 'explorer-size', /1 bytes after the end/],
    [flipped, 'explorer-checksum', /at byte 40: checksum/],
  ];
  for (const [b, code, message] of cases) {
    const r = Explorer.fromBytes(b, 'x');
    assert.ok(!r.ok, code);
    assert.equal(r.error.code, code);
    assert.match(r.error.message, message);
  }
  const version = bytes.slice();
  version[8] = 2;
  assert.equal(unwrapError(Explorer.fromBytes(version, 'x')), 'explorer-version');
  const fetched = await fetchExplorer('https://example.org/t.explorer', () =>
    Promise.resolve({ ok: true, status: 200, arrayBuffer: () => Promise.resolve(bytes.slice().buffer) }),
  );
  assert.equal(unwrap(fetched).probe(new Position())?.games, 6);
  const missing = await fetchExplorer('https://example.org/none', () =>
    Promise.resolve({ ok: false, status: 404, arrayBuffer: () => Promise.resolve(new ArrayBuffer(0)) }),
  );
  assert.ok(!missing.ok);
  assert.equal(missing.error.message, 'explorer https://example.org/none: HTTP 404');
});

function unwrapError<T>(r: { ok: true; value: T } | { ok: false; error: { code: string } }): string {
  return r.ok ? 'ok' : r.error.code;
}
