// Synthetic `kirin datagen` files for the trainer's tests and benchmark: random
// games (captures preferred now and then, so that material changes), every
// position written with a score that a network can learn (the material balance
// of the side to move, with a little noise), a random legal move as the "best
// move" (so some are captures), and a game result drawn from the material at the
// end. Positions in check are written too (the trainer's filter drops them).

import { Position } from '../../src/dev.js';
import { generate } from '../../src/core/movegen.js';
import { mulberry32 } from '../../src/core/prng.js';
import { GEN_LEGAL, MAX_MOVES, PIECE_VALUE, SQUARE_NB } from '../../src/core/types.js';
import { RECORD_SIZE, encodeRecord, makeHeader } from '../datagen/format.js';

/** The synthetic score of a position: 0.5 x (own - the opponent's material), internal units. */
function syntheticScore(pos: Position): number {
  let s = 0;
  for (let sq = 0; sq < SQUARE_NB; sq++) {
    const pc = pos.board[sq];
    if (pc) s += (pc >> 3 === pos.side ? 1 : -1) * PIECE_VALUE[pc];
  }
  return Math.round(s * 0.5);
}

/** The bytes of a data file of `games` random games of at most `plies` plies. */
export function syntheticDataFile(games: number, seed: number, plies = 60): Uint8Array {
  const rnd = mulberry32(seed);
  const list = new Int32Array(MAX_MOVES);
  const chunks: Uint8Array[] = [makeHeader()];
  const pos = new Position(null);
  for (let g = 0; g < games; g++) {
    pos.setFen('rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1');
    const records: Uint8Array[] = [];
    const length = 10 + Math.floor(rnd() * (plies - 10));
    for (let ply = 0; ply < length; ply++) {
      const n = generate(pos, GEN_LEGAL, list, 0);
      if (n === 0) break;
      const best = list[Math.floor(rnd() * n)];
      const rec = new Uint8Array(RECORD_SIZE);
      const noise = Math.round((rnd() - 0.5) * 40);
      encodeRecord(rec, 0, pos, syntheticScore(pos) + noise, 0, 0, best);
      records.push(rec);
      let m = list[Math.floor(rnd() * n)];
      if (rnd() < 0.4)
        for (let i = 0; i < n; i++)
          if (pos.isCapture(list[i])) {
            m = list[i];
            break;
          }
      pos.doMove(m);
    }
    // The result for Red, drawn from the final material balance.
    const red = pos.side === 0 ? syntheticScore(pos) : -syntheticScore(pos);
    const pWin = 1 / (1 + Math.exp(-red / 150));
    const u = rnd();
    const redResult = u < pWin * 0.8 ? 1 : u > 1 - (1 - pWin) * 0.8 ? -1 : 0;
    for (const rec of records) {
      const side = rec[45];
      rec[50] = (side === 0 ? redResult : -redResult) & 0xff;
      chunks.push(rec);
    }
  }
  const out = new Uint8Array(chunks.reduce((a, c) => a + c.length, 0));
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}
