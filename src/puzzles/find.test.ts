// The puzzle checker on known positions: a mate in 2 from a master game (its
// mate checked here by brute force, independently of the search) is found with
// its line; positions where two moves win are rejected, as is the start
// position (nothing wins); the scan of a game finds the moment it was lost.

import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { legalMoves } from '../core/movegen.js';
import { Position } from '../core/position.js';
import { moveToUci } from '../core/types.js';
import { unwrap } from '../../test/support/fixtures.js';
import { Engine } from '../engine/engine.js';
import { findPuzzle, scanGame } from './find.js';
import { puzzleMove, type Puzzle } from './puzzle.js';

const engine = new Engine();
after(() => engine.close());

/**
 * 張佳瑜 - 許銀川, 2005 煙臺 simultaneous display, move 31 (Red to move): 1. 馬六進七
 * (d5c7) 將5平4 2. 車四平六 mates.
 */
const MATE_IN_2 = '5Rb2/4kc3/4rcN2/p7p/3N5/4r4/P3C1p1P/4B4/9/3AKAB2 w - - 0 31';

/** The side to move has no legal move: it has lost (mate or stalemate). */
function lost(pos: Position): boolean {
  return legalMoves(pos).length === 0;
}

/** Whether the side to move mates within `moves` moves whatever the defence (a brute-force search). */
function matesIn(pos: Position, moves: number): boolean {
  for (const m of legalMoves(pos)) {
    pos.doMove(m);
    let forced = lost(pos);
    if (!forced && moves > 1) {
      forced = true;
      for (const reply of legalMoves(pos)) {
        pos.doMove(reply);
        const ok = matesIn(pos, moves - 1);
        pos.undoMove(reply);
        if (!ok) {
          forced = false;
          break;
        }
      }
    }
    pos.undoMove(m);
    if (forced) return true;
  }
  return false;
}

test('a mate in 2 from a master game: found, with its only first move and the best defence', async () => {
  const pos = unwrap(Position.fromFen(MATE_IN_2));
  // The oracle: no mate in 1, a mate in 2, and only d5c7 starts one.
  assert.equal(matesIn(pos, 1), false);
  assert.equal(matesIn(pos, 2), true);
  const starts = legalMoves(pos).filter((m) => {
    pos.doMove(m);
    const forced =
      !lost(pos) &&
      legalMoves(pos).every((r) => {
        pos.doMove(r);
        const ok = matesIn(pos, 1);
        pos.undoMove(r);
        return ok;
      });
    pos.undoMove(m);
    return forced;
  });
  assert.deepEqual(starts.map(moveToUci), ['d5c7']);

  const r = await findPuzzle(engine, MATE_IN_2, { verifyNodes: 30000 });
  assert.ok(r.ok, r.ok ? '' : `${r.error.code}: ${r.error.message}`);
  const p = r.value;
  assert.equal(p.mateIn, 2);
  assert.deepEqual(p.themes, ['mate']);
  assert.equal(p.moves.length, 3);
  assert.equal(p.moves[0], 'd5c7');
  // The line ends in mate.
  const end = unwrap(Position.fromFen(MATE_IN_2));
  for (const m of p.moves) end.doMove(legalMoves(end).find((x) => moveToUci(x) === m)!);
  assert.ok(lost(end));
  assert.ok(p.rating >= 800 && p.rating <= 2800, String(p.rating));
  // The page's judge: the first move right, a wrong one wrong, the mate solves.
  const puzzle: Puzzle = { ...p, id: 'x', source: 'test' };
  assert.equal(puzzleMove(puzzle, [], 'd5c7'), 'correct');
  assert.equal(puzzleMove(puzzle, [], 'f9f8'), 'wrong');
  assert.equal(puzzleMove(puzzle, p.moves.slice(0, 2), p.moves[2]), 'solved');
});

test('two winning moves are rejected: two mates in 1, two ways to take a rook', async () => {
  // Black's king d9 alone: 車三平六 (h7d7) and 車三進一 mate.
  const twoMates = await findPuzzle(engine, '3k5/9/7R1/9/9/9/9/9/9/4K4 w - - 0 1', { verifyNodes: 20000 });
  assert.ok(!twoMates.ok);
  assert.equal(twoMates.error.code, 'two-winning-moves');
  // Both rooks take the black rook on e5.
  const twoCaptures = await findPuzzle(engine, '3k5/9/9/9/R3r3R/9/9/9/9/4K4 w - - 0 1', { verifyNodes: 20000 });
  assert.ok(!twoCaptures.ok);
  assert.equal(twoCaptures.error.code, 'two-winning-moves');
  const start = await findPuzzle(engine, new Position().fen(), { verifyNodes: 5000 });
  assert.ok(!start.ok);
  assert.equal(start.error.code, 'not-winning');
  const forced = await findPuzzle(engine, '4k4/9/9/9/9/9/9/4r4/9/3K5 w - - 0 1', { verifyNodes: 1000 });
  assert.ok(!forced.ok);
  assert.equal(forced.error.code, 'only-move');
});

test('scanGame: the moment a game was lost is a candidate, with the mate it allowed', async () => {
  // The master game's last moves from its move-31 position: Red mates.
  const c = await scanGame(engine, { fen: MATE_IN_2, moves: ['d5c7', 'e8d8', 'f9d9'] }, { nodes: 3000 });
  assert.deepEqual(
    c.map((x) => x.ply),
    [0],
    'the first position (a set-up position clearly won) is the one candidate: the mate seen there',
  );
  assert.equal(c[0].fen, unwrap(Position.fromFen(MATE_IN_2)).fen());
});
