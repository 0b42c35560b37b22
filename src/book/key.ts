// The key a book stores a position under: a 64-bit Zobrist key of the board
// and the side to move, from the book's own table (fixed by the format, not
// shared with the search's keys, which may change): xorshift64* seeded with
// BOOK_KEY_SEED gives, in order, one number per piece (red rook, advisor,
// cannon, pawn, knight, bishop, king, then black's) per square a0..i9, then
// one for Black to move. docs/BOOK.md.

import type { Position } from '../core/position.js';
import { Xorshift64Star } from '../core/prng.js';
import { BLACK, colorOf, typeOf } from '../core/types.js';

const BOOK_KEY_SEED = 20261205;

/** [lo, hi] int32 halves per (piece index 0..13) * 90 + square; the side key last. */
const TABLE = (() => {
  const rng = new Xorshift64Star(BOOK_KEY_SEED);
  const t = new Int32Array(2 * (14 * 90 + 1));
  for (let i = 0; i < 14 * 90 + 1; i++) {
    rng.next();
    t[2 * i] = rng.lo;
    t[2 * i + 1] = rng.hi;
  }
  return t;
})();
const SIDE = 14 * 90;

/** A square seen in the mirror (files a..i reversed). */
export function mirrorSquare(sq: number): number {
  return sq - (sq % 9) + (8 - (sq % 9));
}

/**
 * The position's book key, and whether it is the key of its mirror image: with
 * `mirrorCanonical` a position and its mirror share the smaller of their two
 * keys (a symmetric position keeps its own), so that a line learned on one wing
 * serves the other.
 */
export function bookKey(pos: Position, mirrorCanonical = true): { key: bigint; mirrored: boolean } {
  let lo = 0;
  let hi = 0;
  let mlo = 0;
  let mhi = 0;
  for (let sq = 0; sq < 90; sq++) {
    const pc = pos.pieceOn(sq);
    if (pc === 0) continue;
    const base = (colorOf(pc) * 7 + typeOf(pc) - 1) * 90;
    lo ^= TABLE[2 * (base + sq)];
    hi ^= TABLE[2 * (base + sq) + 1];
    const m = mirrorSquare(sq);
    mlo ^= TABLE[2 * (base + m)];
    mhi ^= TABLE[2 * (base + m) + 1];
  }
  if (pos.sideToMove === BLACK) {
    lo ^= TABLE[2 * SIDE];
    hi ^= TABLE[2 * SIDE + 1];
    mlo ^= TABLE[2 * SIDE];
    mhi ^= TABLE[2 * SIDE + 1];
  }
  const key = (BigInt(hi >>> 0) << 32n) | BigInt(lo >>> 0);
  if (!mirrorCanonical) return { key, mirrored: false };
  const mkey = (BigInt(mhi >>> 0) << 32n) | BigInt(mlo >>> 0);
  return mkey < key ? { key: mkey, mirrored: true } : { key, mirrored: false };
}
