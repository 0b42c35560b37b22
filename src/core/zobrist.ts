// Zobrist hashing keys. A position key is 64 bits kept as two int32 halves
// (lo, hi) so that no BigInt ever appears in a hot path.

import { KeyPrng } from './prng.js';
import { PIECE_NB, SQUARE_NB } from './types.js';

/** PSQ_LO[piece * 90 + sq], PSQ_HI likewise. */
export const PSQ_LO = new Int32Array(PIECE_NB * SQUARE_NB);
export const PSQ_HI = new Int32Array(PIECE_NB * SQUARE_NB);
export let SIDE_LO = 0;
export let SIDE_HI = 0;

{
  const rng = new KeyPrng(1070372);
  for (let i = 0; i < PIECE_NB * SQUARE_NB; i++) {
    PSQ_LO[i] = rng.next();
    PSQ_HI[i] = rng.next();
  }
  // Empty-piece entries stay zero-effect: never used, but keep them 0 for safety.
  for (let s = 0; s < SQUARE_NB; s++) {
    PSQ_LO[s] = 0;
    PSQ_HI[s] = 0;
    PSQ_LO[8 * SQUARE_NB + s] = 0;
    PSQ_HI[8 * SQUARE_NB + s] = 0;
  }
  SIDE_LO = rng.next() | 1;
  SIDE_HI = rng.next();
}

/** Formats a key as 16 hex digits, as Pikafish's `d` does. */
export function keyToHex(lo: number, hi: number): string {
  return (
    (hi >>> 0).toString(16).toUpperCase().padStart(8, '0') + (lo >>> 0).toString(16).toUpperCase().padStart(8, '0')
  );
}
