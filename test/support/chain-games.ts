// Games for the tests of the chain format (commands/datagen/chain-codec.ts and
// the files of commands/datagen/chain.ts): seeded random games with every kind
// of label, and raw version-1 records.

import assert from 'node:assert/strict';
import { Position } from '../../src/core/position.js';
import { legalMoves } from '../../src/core/movegen.js';
import { mulberry32 } from '../../src/core/prng.js';
import { MOVE_NONE, VALUE_MATE } from '../../src/core/types.js';
import { GameBuilder, cutGame, type ChainEntry, type ChainGame } from '../../commands/datagen/chain-codec.js';
import { RECORD_SIZE } from '../../commands/datagen/format.js';

/** A random game from `fen` (null: the standard start): `plies` random moves, each position scored with probability `p`. */
export function randomGame(seed: number, plies: number, p: number, fen: string | null = null): ChainGame {
  const rnd = mulberry32(seed);
  const pos = fen ? new Position(fen) : new Position();
  const b = new GameBuilder(
    fen ? { board: pos.board.slice(), side: pos.side, rule60: pos.rule60Count(), ply: pos.gamePly } : null,
  );
  for (let i = 0; i <= plies; i++) {
    const moves = legalMoves(pos);
    if (moves.length === 0) break;
    const m = moves[Math.floor(rnd() * moves.length)];
    if (rnd() < p) {
      // Mostly the move played as best; sometimes another, none, or a code no legal move has.
      const r = rnd();
      const best = r < 0.7 ? m : r < 0.8 ? moves[0] : r < 0.9 ? MOVE_NONE : 0x3fff;
      const score = Math.floor((rnd() - 0.5) * 4000) + (r > 0.97 ? VALUE_MATE - 5 : 0);
      b.setScore(score, score + Math.floor((rnd() - 0.5) * 700), best);
    }
    if (i === plies) break;
    pos.doMove(m);
    b.play(m);
  }
  return b.finish(Math.floor(rnd() * 3) - 1);
}

/** A version-1 record kept as it is: RECORD_SIZE bytes of `fill`. */
const rawRecord = (fill: number): ChainEntry => ({
  kind: 'raw',
  record: new Uint8Array(RECORD_SIZE).fill(fill),
});

/** A position in the middle of an opening (Black to move, counter 3). */
const MID_GAME = 'r1bakab1r/9/1cn4c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C1N2/9/RNBAKAB1R b - - 3 3';

/**
 * Entries of every kind the format holds: games from the standard start and
 * from a position, raw records, a cut game, a game with no scored position,
 * and a game that goes on where the one before stopped (its start written as
 * the difference from that game's last position).
 */
export function everyKindOfEntry(): ChainEntry[] {
  const games: ChainEntry[] = [
    randomGame(1, 60, 0.8),
    randomGame(2, 0, 1),
    rawRecord(7),
    randomGame(3, 40, 0.3, MID_GAME),
    randomGame(4, 30, 1, MID_GAME),
    cutGame(randomGame(5, 50, 1), 20),
    randomGame(6, 25, 0),
  ];
  const before = randomGame(7, 12, 1, MID_GAME);
  const pos = new Position(MID_GAME);
  for (const m of before.moves) pos.doMove(m);
  games.push(before, randomGame(8, 10, 1, pos.fen()));
  return games;
}

/**
 * Asserts that `back` holds the entries of `sent` as a reader gives them back:
 * raw records byte for byte; games with their starts, results, moves and which
 * positions are scored, and the labels of the scored positions (an unscored one
 * carries none).
 */
export function assertSameEntries(back: readonly ChainEntry[], sent: readonly ChainEntry[]): void {
  assert.equal(back.length, sent.length);
  const labels = (g: ChainGame) => Array.from(g.scored, (s, j) => (s ? [g.score[j], g.eval[j], g.best[j]] : null));
  for (let i = 0; i < sent.length; i++) {
    const a = sent[i];
    const b = back[i];
    if (a.kind === 'raw' || b.kind === 'raw') {
      assert.deepEqual(b, a, `entry ${i}`);
      continue;
    }
    assert.deepEqual(
      [b.start, b.records, b.result, b.moves, b.scored],
      [a.start, a.records, a.result, a.moves, a.scored],
      `game ${i}`,
    );
    assert.deepEqual(labels(b), labels(a), `game ${i}`);
  }
}
