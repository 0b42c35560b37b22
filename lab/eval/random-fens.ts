// Positions from random games, for the measuring tools (evaluation and NNUE speed)
// and the tests (which import it through test/support/fixtures.ts).

import { Position } from '../../src/dev.js';
import { generate } from '../../src/core/movegen.js';
import { mulberry32 } from '../../src/core/prng.js';
import { GEN_LEGAL, MAX_MOVES } from '../../src/core/types.js';

/**
 * FENs of positions (side to move not in check) from random games (mulberry32):
 * captures are preferred half the time so that material gets traded and endgames
 * show up too.
 */
export function randomFens(count: number, seed = 1, maxPlies = 160): string[] {
  const rand = mulberry32(seed);
  const out: string[] = [];
  const list = new Int32Array(MAX_MOVES);
  const pos = new Position();
  while (out.length < count) {
    pos.setFen('rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1');
    const plies = 10 + Math.floor(rand() * maxPlies);
    for (let ply = 0; ply < plies && out.length < count; ply++) {
      const n = generate(pos, GEN_LEGAL, list, 0);
      if (n === 0) break;
      let m = list[Math.floor(rand() * n)];
      if (rand() < 0.5) {
        for (let i = 0; i < n; i++) {
          if (pos.isCapture(list[i])) {
            m = list[i];
            break;
          }
        }
      }
      pos.doMove(m);
      if (!pos.inCheck() && rand() < 0.15) out.push(pos.fen());
    }
  }
  return out;
}
