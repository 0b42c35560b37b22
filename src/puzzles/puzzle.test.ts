// Puzzle sets: written and read back, refused with the puzzle and the fault
// named; a player's moves judged (any mate at a mate's last move); the next
// puzzle fitted to a rating; the rating after a try.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { legalMoves } from '../core/movegen.js';
import { Position } from '../core/position.js';
import { playUciMoves } from '../core/ucimove.js';
import { mulberry32 } from '../core/prng.js';
import { unwrap } from '../../test/support/fixtures.js';
import { choosePuzzle, puzzleMove, ratingAfter, readPuzzles, writePuzzles, type Puzzle } from './puzzle.js';

/** Black's king d9 alone against a rook on h7: h7d7 mates, so does h7h8 (Black has no move left). */
const MATE: Puzzle = {
  id: 'm1',
  fen: '3k5/9/7R1/9/9/9/9/9/9/4K4 w - - 0 1',
  moves: ['h7d7'],
  themes: ['mate', 'endgame'],
  mateIn: 1,
  rating: 800,
  source: 'test',
};
const MATERIAL: Puzzle = {
  id: 'r1',
  fen: 'rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1',
  moves: ['h2h9', 'i9h9', 'b2b9'],
  themes: ['material'],
  mateIn: null,
  rating: 1400,
  source: 'made up',
};

test('a set written and read back; damaged sets refused with the puzzle named', () => {
  const text = writePuzzles({ description: { name: 't' }, puzzles: [MATE, MATERIAL] });
  const set = unwrap(readPuzzles(text));
  assert.deepEqual(set.puzzles, [MATE, MATERIAL]);
  assert.equal(set.description.name, 't');
  assert.deepEqual(unwrap(readPuzzles(new TextEncoder().encode(text))).puzzles.length, 2);
  const cases: [string, RegExp][] = [
    ['{', /not a puzzle set/],
    ['{"format":"x"}', /no "format": "kirin-puzzles"/],
    ['{"format":"kirin-puzzles","version":2,"puzzles":[]}', /version 2/],
    [text.replace('"h7d7"', '"h7d8"'), /puzzle 1: move 1 \(h7d8\)/],
    [text.replace('"moves":["h7d7"]', '"moves":["h7d7","d9d8"]'), /puzzle 1: moves: an odd number/],
    [text.replace('"r1"', '"m1"'), /puzzle 2: id m1 twice/],
    [text.replace('"material"', '"fork"'), /puzzle 2: themes/],
    [text.replace('3k5/9/7R1', '3k5/9/7R'), /puzzle 1: fen/],
  ];
  for (const [bad, message] of cases) {
    const r = readPuzzles(bad);
    assert.ok(!r.ok, String(message));
    assert.equal(r.error.code, 'puzzles-format');
    assert.match(r.error.message, message);
  }
});

test("puzzleMove: the solution's moves, any mate at a mate's last move, anything else wrong", () => {
  assert.equal(puzzleMove(MATE, [], 'h7d7'), 'solved');
  assert.equal(puzzleMove(MATE, [], 'h7h8'), 'solved', 'another mate solves a mate puzzle');
  assert.equal(puzzleMove(MATE, [], 'h7h6'), 'wrong');
  assert.equal(puzzleMove(MATE, [], 'h7x9'), 'wrong');
  assert.equal(puzzleMove(MATERIAL, [], 'h2h9'), 'correct');
  assert.equal(puzzleMove(MATERIAL, ['h2h9', 'i9h9'], 'b2b9'), 'solved');
  assert.equal(puzzleMove(MATERIAL, ['h2h9', 'i9h9'], 'b2b7'), 'wrong', 'no other move at the end of a material line');
  assert.equal(puzzleMove(MATERIAL, ['h2h9'], 'i9h9'), 'wrong', "not the solver's turn");
});

test('choosePuzzle fits the rating and skips what was done; ratingAfter moves by Elo', () => {
  const set: Puzzle[] = [600, 800, 1000, 1200, 1400, 1600, 1800, 2000, 2200, 2400, 2600, 2800].map((r) => ({
    ...MATERIAL,
    id: `p${r}`,
    rating: r,
  }));
  const random = mulberry32(7);
  for (let i = 0; i < 20; i++) {
    const p = choosePuzzle(set, 1000, new Set(), random)!;
    assert.ok(Math.abs(p.rating - 1000) <= 400, String(p.rating));
  }
  const done = new Set(set.filter((p) => p.rating <= 2000).map((p) => p.id));
  assert.equal(choosePuzzle(set, 1000, done, random)!.rating >= 2200, true);
  assert.equal(choosePuzzle(set, 1000, new Set(set.map((p) => p.id)), random), null);
  assert.equal(ratingAfter(1500, 1500, true), 1516);
  assert.equal(ratingAfter(1500, 1500, false), 1484);
  assert.ok(ratingAfter(1500, 2100, true) > 1530, 'a hard puzzle solved moves the rating more');
  assert.ok(ratingAfter(1500, 900, false) < 1470, 'an easy puzzle missed costs more');
});

test("Kirin's shipped puzzles read, at least 1,000, every mate ending in mate", () => {
  const text = readFileSync(new URL('../../../src/puzzles/puzzles.json', import.meta.url));
  const set = unwrap(readPuzzles(text));
  assert.ok(set.puzzles.length >= 1000, `${set.puzzles.length} puzzles`);
  assert.equal(set.description.puzzles, set.puzzles.length);
  for (const p of set.puzzles) {
    if (p.mateIn === null) continue;
    assert.equal(p.moves.length, 2 * p.mateIn - 1, p.id);
    const pos = unwrap(Position.fromFen(p.fen));
    unwrap(playUciMoves(pos, p.moves));
    assert.equal(legalMoves(pos).length, 0, `${p.id}: the line mates`);
  }
});
