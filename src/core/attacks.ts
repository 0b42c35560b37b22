// Precomputed move and attack tables for every piece type.
//
// Rooks and cannons use ElephantEye-style line tables: each rank keeps a 9-bit
// occupancy mask and each file a 10-bit mask, and a table indexed by
// (position on the line, occupancy) gives the reachable empty squares, the first
// blocker in each direction (rook captures) and the second blocker in each
// direction (cannon captures) as bit masks along the line.

import { BLACK, FILE_OF, RANK_OF, RED, SQUARE_NB, makeSquare } from './types.js';

function onBoard(file: number, rank: number): boolean {
  return file >= 0 && file < 9 && rank >= 0 && rank < 10;
}

/** 1 for Red's palace, 2 for Black's, 0 elsewhere. */
export const PALACE = new Uint8Array(SQUARE_NB);
for (let s = 0; s < SQUARE_NB; s++) {
  const f = FILE_OF[s],
    r = RANK_OF[s];
  if (f >= 3 && f <= 5) {
    if (r <= 2) PALACE[s] = 1;
    else if (r >= 7) PALACE[s] = 2;
  }
}

/** Side of the river a square is on: 0 = Red's half (ranks 0-4), 1 = Black's half. */
function halfOf(sq: number): number {
  return RANK_OF[sq] >= 5 ? 1 : 0;
}

// ---- Knight: destinations with the leg square that must be empty -----------
export const KNIGHT_TO = new Int8Array(SQUARE_NB * 8).fill(-1);
export const KNIGHT_LEG = new Int8Array(SQUARE_NB * 8).fill(-1);
/** Squares a knight could attack `sq` from (ascending), with the leg square of that attack. */
export const KNIGHT_FROM = new Int8Array(SQUARE_NB * 8).fill(-1);
export const KNIGHT_FROM_LEG = new Int8Array(SQUARE_NB * 8).fill(-1);

const KNIGHT_STEPS: Array<[number, number]> = [
  [1, 2],
  [-1, 2],
  [1, -2],
  [-1, -2],
  [2, 1],
  [2, -1],
  [-2, 1],
  [-2, -1],
];

function knightLeg(ff: number, fr: number, df: number, dr: number): number {
  // The leg is next to the knight in the direction of the long step.
  return Math.abs(dr) === 2 ? makeSquare(ff, fr + dr / 2) : makeSquare(ff + df / 2, fr);
}

for (let s = 0; s < SQUARE_NB; s++) {
  const f = FILE_OF[s],
    r = RANK_OF[s];
  let n = 0;
  for (const [df, dr] of KNIGHT_STEPS) {
    const tf = f + df,
      tr = r + dr;
    if (!onBoard(tf, tr)) continue;
    KNIGHT_TO[s * 8 + n] = makeSquare(tf, tr);
    KNIGHT_LEG[s * 8 + n] = knightLeg(f, r, df, dr);
    n++;
  }
  n = 0;
  for (const [df, dr] of KNIGHT_STEPS) {
    // A knight on (f+df, r+dr) jumping by (-df, -dr) lands on s.
    const kf = f + df,
      kr = r + dr;
    if (!onBoard(kf, kr)) continue;
    KNIGHT_FROM[s * 8 + n] = makeSquare(kf, kr);
    KNIGHT_FROM_LEG[s * 8 + n] = knightLeg(kf, kr, -df, -dr);
    n++;
  }
  // Each square's knights in ascending square order: the exchange test takes the
  // lowest first, as Pikafish does (the other readers look for any knight).
  const order = Array.from({ length: n }, (_, i) => i).sort((x, y) => KNIGHT_FROM[s * 8 + x] - KNIGHT_FROM[s * 8 + y]);
  const from = order.map((i) => KNIGHT_FROM[s * 8 + i]);
  const legs = order.map((i) => KNIGHT_FROM_LEG[s * 8 + i]);
  KNIGHT_FROM.set(from, s * 8);
  KNIGHT_FROM_LEG.set(legs, s * 8);
}

// ---- Bishop (elephant): two diagonal steps, eye must be empty, never crosses the river
export const BISHOP_TO = new Int8Array(SQUARE_NB * 4).fill(-1);
export const BISHOP_EYE = new Int8Array(SQUARE_NB * 4).fill(-1);
// ---- Advisor: one diagonal step inside the palace
export const ADVISOR_TO = new Int8Array(SQUARE_NB * 4).fill(-1);
// ---- King: one orthogonal step inside the palace
export const KING_TO = new Int8Array(SQUARE_NB * 4).fill(-1);

const DIAGONALS: Array<[number, number]> = [
  [1, 1],
  [1, -1],
  [-1, 1],
  [-1, -1],
];
const ORTHOGONALS: Array<[number, number]> = [
  [1, 0],
  [-1, 0],
  [0, 1],
  [0, -1],
];

for (let s = 0; s < SQUARE_NB; s++) {
  const f = FILE_OF[s],
    r = RANK_OF[s];
  let nb = 0,
    na = 0,
    nk = 0;
  for (const [df, dr] of DIAGONALS) {
    const tf = f + 2 * df,
      tr = r + 2 * dr;
    if (onBoard(tf, tr) && halfOf(makeSquare(tf, tr)) === halfOf(s)) {
      BISHOP_TO[s * 4 + nb] = makeSquare(tf, tr);
      BISHOP_EYE[s * 4 + nb] = makeSquare(f + df, r + dr);
      nb++;
    }
    const af = f + df,
      ar = r + dr;
    if (PALACE[s] && onBoard(af, ar) && PALACE[makeSquare(af, ar)] === PALACE[s]) {
      ADVISOR_TO[s * 4 + na++] = makeSquare(af, ar);
    }
  }
  for (const [df, dr] of ORTHOGONALS) {
    const tf = f + df,
      tr = r + dr;
    if (PALACE[s] && onBoard(tf, tr) && PALACE[makeSquare(tf, tr)] === PALACE[s]) {
      KING_TO[s * 4 + nk++] = makeSquare(tf, tr);
    }
  }
}

// ---- Pawn: forward, and sideways once across the river -----------------------
/** PAWN_TO[color * 270 + sq * 3 + i] */
export const PAWN_TO = new Int8Array(2 * SQUARE_NB * 3).fill(-1);
for (const c of [RED, BLACK]) {
  for (let s = 0; s < SQUARE_NB; s++) {
    const f = FILE_OF[s],
      r = RANK_OF[s];
    const fwd = c === RED ? 1 : -1;
    const crossed = c === RED ? r >= 5 : r <= 4;
    let n = 0;
    const base = c * 270 + s * 3;
    if (onBoard(f, r + fwd)) PAWN_TO[base + n++] = makeSquare(f, r + fwd);
    if (crossed) {
      if (f > 0) PAWN_TO[base + n++] = makeSquare(f - 1, r);
      if (f < 8) PAWN_TO[base + n++] = makeSquare(f + 1, r);
    }
  }
}

/**
 * Puts each square's destinations in ascending square order (with their leg or
 * eye squares alongside), the order in which Pikafish's bitboards yield them:
 * move generation writes moves in that order. `stride` entries per square,
 * -1 after the last.
 */
function sortDestinations(to: Int8Array, stride: number, companion?: Int8Array): void {
  for (let base = 0; base < to.length; base += stride) {
    let n = 0;
    while (n < stride && to[base + n] >= 0) n++;
    const order = Array.from({ length: n }, (_, i) => i).sort((x, y) => to[base + x] - to[base + y]);
    const dest = order.map((i) => to[base + i]);
    if (companion)
      companion.set(
        order.map((i) => companion[base + i]),
        base,
      );
    to.set(dest, base);
  }
}
sortDestinations(KNIGHT_TO, 8, KNIGHT_LEG);
sortDestinations(BISHOP_TO, 4, BISHOP_EYE);
sortDestinations(ADVISOR_TO, 4);
sortDestinations(KING_TO, 4);
sortDestinations(PAWN_TO, 3);

// ---- Line tables for rooks and cannons ---------------------------------------
function buildLineTables(len: number) {
  const size = 1 << len;
  const moves = new Uint16Array(len * size);
  const rookCap = new Uint16Array(len * size);
  const cannonCap = new Uint16Array(len * size);
  for (let p = 0; p < len; p++) {
    for (let occ = 0; occ < size; occ++) {
      let mv = 0,
        rc = 0,
        cc = 0;
      for (const dir of [1, -1]) {
        let i = p + dir;
        while (i >= 0 && i < len && !(occ & (1 << i))) {
          mv |= 1 << i;
          i += dir;
        }
        if (i >= 0 && i < len) {
          rc |= 1 << i;
          i += dir;
          while (i >= 0 && i < len && !(occ & (1 << i))) i += dir;
          if (i >= 0 && i < len) cc |= 1 << i;
        }
      }
      moves[p * size + occ] = mv;
      rookCap[p * size + occ] = rc;
      cannonCap[p * size + occ] = cc;
    }
  }
  return { moves, rookCap, cannonCap };
}

const rankTables = buildLineTables(9);
const fileTables = buildLineTables(10);

/** Index: file * 512 + rank occupancy. Bits are files. */
export const RANK_MOVES = rankTables.moves;
export const RANK_ROOK_CAP = rankTables.rookCap;
export const RANK_CANNON_CAP = rankTables.cannonCap;
/** Index: rank * 1024 + file occupancy. Bits are ranks. */
export const FILE_MOVES = fileTables.moves;
export const FILE_ROOK_CAP = fileTables.rookCap;
export const FILE_CANNON_CAP = fileTables.cannonCap;

/** Index of the lowest set bit of a non-zero int. */
export function lsb(b: number): number {
  return 31 - Math.clz32(b & -b);
}

/** Number of set bits of an int32 (SWAR count). */
export function popcount(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return Math.imul((x + (x >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24;
}
