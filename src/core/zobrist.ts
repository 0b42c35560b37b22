// Zobrist hashing keys. A position key is 64 bits kept as two int32 halves
// (lo, hi) so that no BigInt ever appears in a hot path. They are Pikafish's
// keys (its PRNG seeded 1070372, pieces in their enum order, squares a0..i9,
// then the side to move), so `d` prints the Key native Pikafish prints.

import { Xorshift64Star } from './prng.js';
import { PIECE_NB, SQUARE_NB } from './types.js';

/** PSQ_LO[piece * 90 + sq], PSQ_HI likewise; zero for the two empty codes (0 and 8). */
export const PSQ_LO = new Int32Array(PIECE_NB * SQUARE_NB);
export const PSQ_HI = new Int32Array(PIECE_NB * SQUARE_NB);
export let SIDE_LO = 0;
export let SIDE_HI = 0;

{
  const rng = new Xorshift64Star(1070372);
  for (let pc = 1; pc < PIECE_NB; pc++) {
    if (pc === 8) continue;
    for (let s = 0; s < SQUARE_NB; s++) {
      rng.next();
      PSQ_LO[pc * SQUARE_NB + s] = rng.lo;
      PSQ_HI[pc * SQUARE_NB + s] = rng.hi;
    }
  }
  rng.next();
  SIDE_LO = rng.lo;
  SIDE_HI = rng.hi;
}

/** Formats a key as 16 hex digits, as Pikafish's `d` does. */
export function keyToHex(lo: number, hi: number): string {
  return (
    (hi >>> 0).toString(16).toUpperCase().padStart(8, '0') + (lo >>> 0).toString(16).toUpperCase().padStart(8, '0')
  );
}
