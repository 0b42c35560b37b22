// Kirin's squares (0..89: file + 9 * rank, rank 0 Red's back rank; named a0..i9
// as in ICCS) and chessgroundx's keys (files a..i, ranks '1'..'9' then ':' for
// the tenth: a1..i:).

import type { Key } from 'chessgroundx/types.js';

const CG_RANKS = '123456789:';

/** The chessgroundx key of a square. */
export function squareKey(sq: number): Key {
  return `${String.fromCharCode(97 + (sq % 9))}${CG_RANKS[(sq / 9) | 0]}` as Key;
}

/** The square of a chessgroundx key, or -1 for a key off the xiangqi board. */
export function keySquare(key: string): number {
  const file = key.charCodeAt(0) - 97;
  const rank = CG_RANKS.indexOf(key[1] ?? '');
  return key.length === 2 && file >= 0 && file < 9 && rank >= 0 ? file + 9 * rank : -1;
}
