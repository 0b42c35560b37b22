// The input features of Pikafish's network (docs/NNUE.md; Pikafish's
// features/half_ka_v2_hm.* and features/full_threats.*):
//
// - HalfKAv2_hm: every piece on its square, seen from a perspective (Black's
//   view flips ranks and swaps colours), mirrored left-right when the king
//   bucket says so, in one of 24 feature buckets (6 king buckets x 4 attack
//   buckets) of 689 squares each;
// - FullThreats: every (attacker, from, to, attacked) pair where a piece
//   really attacks an occupied square, indexed by an enumeration of the pairs
//   possible on an empty board, without king or attack buckets.
//
// Tables are built once when the module loads. The per-position functions
// write into caller-owned Int32Arrays and allocate nothing.

import {
  ADVISOR_TO,
  BISHOP_EYE,
  BISHOP_TO,
  FILE_CANNON_CAP,
  FILE_ROOK_CAP,
  KING_TO,
  KNIGHT_LEG,
  KNIGHT_TO,
  PAWN_TO,
  RANK_CANNON_CAP,
  RANK_ROOK_CAP,
} from '../../core/attacks.js';
import type { Position } from '../../core/position.js';
import { ADVISOR, BISHOP, CANNON, FILE_OF, KING, KNIGHT, PAWN, RANK_OF, ROOK, SQUARE_NB } from '../../core/types.js';
import { PSQ_DIMS, THREAT_DIMS } from './layout.js';

/** Squares per HalfKAv2_hm feature bucket. */
const PS_NB = 689;

/** Pikafish's AllPieces order: own R A C P N B K, then enemy r a c p n b k. */
const ALL_PIECES = [1, 2, 3, 4, 5, 6, 7, 9, 10, 11, 12, 13, 14, 15];

const inRanks = (s: number, ...ranks: number[]): boolean => ranks.includes(RANK_OF[s]);
const inFiles = (s: number, ...files: number[]): boolean => files.includes(FILE_OF[s]);
const A = 0,
  C = 2,
  D = 3,
  E = 4,
  F = 5,
  G = 6,
  I = 8;

/** ValidBB: the squares each piece can stand on in the normalised view, [pc * 90 + sq]. */
export const VALID = new Uint8Array(16 * SQUARE_NB);
for (let s = 0; s < SQUARE_NB; s++) {
  const r = RANK_OF[s];
  const set = (pc: number, on: boolean) => (VALID[pc * SQUARE_NB + s] = on ? 1 : 0);
  for (const pc of [ROOK, CANNON, KNIGHT, 8 | ROOK, 8 | CANNON, 8 | KNIGHT]) set(pc, true);
  set(ADVISOR, (inRanks(s, 0, 2) && inFiles(s, D, F)) || (r === 1 && inFiles(s, E)));
  set(8 | ADVISOR, (inRanks(s, 7, 9) && inFiles(s, D, F)) || (r === 8 && inFiles(s, E)));
  set(BISHOP, (inRanks(s, 0, 4) && inFiles(s, C, G)) || (r === 2 && inFiles(s, A, E, I)));
  set(8 | BISHOP, (inRanks(s, 5, 9) && inFiles(s, C, G)) || (r === 7 && inFiles(s, A, E, I)));
  set(PAWN, r >= 5 || (inRanks(s, 3, 4) && inFiles(s, A, C, E, G, I)));
  set(8 | PAWN, r <= 4 || (inRanks(s, 5, 6) && inFiles(s, A, C, E, G, I)));
  set(KING, r <= 2 && inFiles(s, D, E));
  set(8 | KING, r >= 7 && inFiles(s, D, E, F));
}

/** PSQOffsets[pc * 90 + sq]: the square's number within a bucket (0 for squares a piece cannot stand on, as in Pikafish). */
export const PSQ_OFFSETS = new Int32Array(16 * SQUARE_NB);
{
  let n = 0;
  for (const pc of ALL_PIECES)
    for (let s = 0; s < SQUARE_NB; s++) if (VALID[pc * SQUARE_NB + s]) PSQ_OFFSETS[pc * SQUARE_NB + s] = n++;
  if (n !== PS_NB) throw new Error(`NNUE tables: ${n} piece-square features per bucket, expected ${PS_NB}`);
}

/** IndexMap[(mirror * 2 + black) * 90 + sq]: the square as the perspective sees it. */
export const INDEX_MAP = new Uint8Array(4 * SQUARE_NB);
for (let m = 0; m < 2; m++) {
  for (let b = 0; b < 2; b++) {
    for (let s = 0; s < SQUARE_NB; s++) {
      let f = FILE_OF[s],
        r = RANK_OF[s];
      if (m) f = 8 - f;
      if (b) r = 9 - r;
      INDEX_MAP[(m * 2 + b) * SQUARE_NB + s] = r * 9 + f;
    }
  }
}

/** KingBuckets: bucket | mirror << 3 for a king on each palace square (the table is symmetric in ranks). */
export const KING_BUCKETS = new Uint8Array(SQUARE_NB);
for (let s = 0; s < SQUARE_NB; s++) {
  const f = FILE_OF[s],
    r = RANK_OF[s];
  const k = r <= 2 ? r : r >= 7 ? 9 - r : -1;
  if (k < 0 || f < D || f > F) continue;
  KING_BUCKETS[s] = f === D ? 2 * k : f === E ? 2 * k + 1 : 8 | (2 * k);
}

const VALID_PAIRS = [
  //  R  A  C  P  N  B  K  _  r  a  c  p  n  b  k
  '0000000000000000', // _
  '0111111101111110', // R
  '0111010001011100', // A
  '0111111101111110', // C
  '0001111000111110', // P
  '0111111101111110', // N
  '0101111101011100', // B
  '0000000000000000', // K
  '0000000000000000', // _
  '0111111001111111', // r
  '0101110001110101', // a
  '0111111001111111', // c
  '0011111000011110', // p
  '0111111001111111', // n
  '0101110001011111', // b
  '0001110000110110', // k
];

/** ThreatOffsets[((attacker * 90 + from) * 90 + to) * 16 + attacked], THREAT_DIMS when not a feature (after initThreatTables()). */
const THREAT_OFFSETS = new Uint16Array(16 * SQUARE_NB * SQUARE_NB * 16);
/** First threat index of each attacker piece (-1 when it has none), and counts. */
export const THREAT_FIRST = new Int32Array(16).fill(-1);
export const THREAT_COUNT = new Int32Array(16);

function emptyBoardAttacks(pc: number, from: number, out: Uint8Array): void {
  out.fill(0);
  const pt = pc & 7,
    f = FILE_OF[from],
    r = RANK_OF[from];
  switch (pt) {
    case PAWN:
      for (let i = 0; i < 3; i++) {
        const t = PAWN_TO[(pc >> 3) * 270 + from * 3 + i];
        if (t >= 0) out[t] = 1;
      }
      break;
    case ROOK:
    case CANNON:
      for (let s = 0; s < SQUARE_NB; s++) {
        if (s === from) continue;
        const d = FILE_OF[s] === f ? Math.abs(RANK_OF[s] - r) : RANK_OF[s] === r ? Math.abs(FILE_OF[s] - f) : 0;
        if (d >= (pt === ROOK ? 1 : 2)) out[s] = 1;
      }
      break;
    case KNIGHT:
      for (let i = 0; i < 8; i++) if (KNIGHT_TO[from * 8 + i] >= 0) out[KNIGHT_TO[from * 8 + i]] = 1;
      break;
    case BISHOP:
      for (let i = 0; i < 4; i++) if (BISHOP_TO[from * 4 + i] >= 0) out[BISHOP_TO[from * 4 + i]] = 1;
      break;
    case ADVISOR:
      for (let i = 0; i < 4; i++) if (ADVISOR_TO[from * 4 + i] >= 0) out[ADVISOR_TO[from * 4 + i]] = 1;
      break;
    case KING:
      for (let i = 0; i < 4; i++) if (KING_TO[from * 4 + i] >= 0) out[KING_TO[from * 4 + i]] = 1;
      break;
  }
}

let threatTablesBuilt = false;

/**
 * Builds THREAT_OFFSETS, THREAT_FIRST and THREAT_COUNT (once; about 50 ms, so
 * only when a network is used) and checks the total against Pikafish's.
 */
export function initThreatTables(): void {
  if (threatTablesBuilt) return;
  threatTablesBuilt = true;
  THREAT_OFFSETS.fill(THREAT_DIMS);
  let n = 0;
  const att = new Uint8Array(SQUARE_NB);
  for (const attacker of ALL_PIECES) {
    const pt = attacker & 7;
    const first = n;
    for (let from = 0; from < SQUARE_NB; from++) {
      if (!VALID[attacker * SQUARE_NB + from]) continue;
      emptyBoardAttacks(attacker, from, att);
      for (const attacked of ALL_PIECES) {
        if (VALID_PAIRS[attacker][attacked] !== '1') continue;
        for (let to = 0; to < SQUARE_NB; to++) {
          if (!att[to] || !VALID[attacked * SQUARE_NB + to]) continue;
          const enemy = attacker >> 3 !== attacked >> 3;
          const sameFile = FILE_OF[from] === FILE_OF[to];
          const sameRank = RANK_OF[from] === RANK_OF[to];
          const semiExcluded =
            pt === (attacked & 7) && (pt !== PAWN || (enemy && sameFile) || (!enemy && sameRank)) && pt !== KNIGHT;
          if (!semiExcluded || from > to)
            THREAT_OFFSETS[((attacker * SQUARE_NB + from) * SQUARE_NB + to) * 16 + attacked] = n++;
        }
      }
    }
    THREAT_COUNT[attacker] = n - first;
    if (n > first) THREAT_FIRST[attacker] = first;
  }
  if (n !== THREAT_DIMS) throw new Error(`NNUE tables: ${n} threat features, expected ${THREAT_DIMS}`);
}

// ---- The mid-mirror encoding (64-bit values as two 32-bit halves) ------------

/** MidMirrorEncoding[pc * 90 + sq] as unsigned 32-bit halves. */
const MID_LO = new Uint32Array(16 * SQUARE_NB);
const MID_HI = new Uint32Array(16 * SQUARE_NB);
const BALANCE_LO = 0xe989d3a7;
const BALANCE_HI = 0xa4a92a74;
{
  const shifts = [
    [0, 0],
    [44, 0],
    [60, 36],
    [47, 7],
    [53, 21],
    [50, 14],
    [57, 29],
    [0, 0],
  ];
  const mask = (1n << 64n) - 1n;
  for (let c = 0; c < 2; c++) {
    for (let pt = ROOK; pt <= KING; pt++) {
      for (let s = 0; s < SQUARE_NB; s++) {
        const f = FILE_OF[s],
          r = RANK_OF[s];
        let e = 0n;
        if (f !== E && pt !== KING) {
          const r2 = c === 0 ? r : 9 - r;
          const f2 = f < E ? f : 8 - f;
          const [s1, s2] = shifts[pt];
          e = (1n << BigInt(s1)) | (BigInt((D - f2) * 10 + r2) << BigInt(s2));
          if (f > E) e = -e & mask;
        } else if (f !== E && pt === KING) e = 1n << 63n;
        const i = ((c << 3) | pt) * SQUARE_NB + s;
        MID_LO[i] = Number(e & 0xffffffffn);
        MID_HI[i] = Number(e >> 32n);
      }
    }
  }
}

/** The negated encodings, (2^64 - e) mod 2^64, for taking a piece away. */
const NEG_LO = new Uint32Array(16 * SQUARE_NB);
const NEG_HI = new Uint32Array(16 * SQUARE_NB);
for (let i = 0; i < 16 * SQUARE_NB; i++) {
  NEG_LO[i] = (0x100000000 - MID_LO[i]) % 0x100000000;
  NEG_HI[i] = (0x100000000 - MID_HI[i] - (MID_LO[i] !== 0 ? 1 : 0)) % 0x100000000;
}

const TWO_32 = 4294967296;

/** Stores lo + hi * 2^32 wrapped to 64 bits as its two halves at out[i], out[i + 1] (0 <= lo, hi < 2^52). */
function store64(out: Float64Array, i: number, lo: number, hi: number): void {
  const carry = Math.floor(lo / TWO_32);
  out[i] = lo - carry * TWO_32;
  out[i + 1] = (hi + carry) % TWO_32;
}

/**
 * Both colours' mid-mirror encodings (Position::midEncoding in Pikafish), 64-bit
 * sums wrapping as in C++, as unsigned 32-bit halves: out[o] and out[o + 1] the low
 * and high half of White's, out[o + 2] and out[o + 3] Black's.
 */
export function midEncodings(pos: Position, out: Float64Array, o: number): void {
  for (let c = 0; c < 2; c++) {
    let lo = BALANCE_LO,
      hi = BALANCE_HI;
    const n = pos.listCount[c];
    for (let i = 0; i < n; i++) {
      const s = pos.listSq[c * 16 + i];
      const k = pos.board[s] * SQUARE_NB + s;
      lo += MID_LO[k];
      hi += MID_HI[k];
    }
    store64(out, o + 2 * c, lo, hi);
  }
}

/**
 * The encodings after a move, from those before it (src[s..s + 3]) into out[o..o + 3]:
 * piece `pc` went from `from` to `to` and took `captured` (0 for none). Equal to
 * midEncodings() of the position after the move, at the cost of three table entries.
 */
export function midEncodingsAfterMove(
  src: Float64Array,
  s: number,
  out: Float64Array,
  o: number,
  pc: number,
  from: number,
  to: number,
  captured: number,
): void {
  const c = pc >> 3,
    them = c ^ 1;
  const kt = pc * SQUARE_NB + to,
    kf = pc * SQUARE_NB + from;
  store64(out, o + 2 * c, src[s + 2 * c] + MID_LO[kt] + NEG_LO[kf], src[s + 2 * c + 1] + MID_HI[kt] + NEG_HI[kf]);
  if (captured) {
    const kc = captured * SQUARE_NB + to;
    store64(out, o + 2 * them, src[s + 2 * them] + NEG_LO[kc], src[s + 2 * them + 1] + NEG_HI[kc]);
  } else {
    out[o + 2 * them] = src[s + 2 * them];
    out[o + 2 * them + 1] = src[s + 2 * them + 1];
  }
}

/** Encoding of colour c (at m[o..o + 3]) below the balance value, as unsigned 64-bit numbers. */
function lessThanBalance(m: Float64Array, o: number, c: number): boolean {
  const lo = m[o + 2 * c],
    hi = m[o + 2 * c + 1];
  return hi < BALANCE_HI || (hi === BALANCE_HI && lo < BALANCE_LO);
}

/** HalfKAv2_hm::requires_mid_mirror for colour c, given both encodings at m[o..o + 3]. */
function requiresMidMirror(m: Float64Array, o: number, c: number): boolean {
  if (m[o + 2 * c + 1] < 2147483648 || m[o + 2 * (c ^ 1) + 1] < 2147483648) return false;
  if (lessThanBalance(m, o, c)) return true;
  return m[o + 2 * c + 1] === BALANCE_HI && m[o + 2 * c] === BALANCE_LO && lessThanBalance(m, o, c ^ 1);
}

const midScratch = new Float64Array(4);

/** The mid-mirror encoding of colour c as a BigInt (tests and diagnostics). */
export function midEncoding(pos: Position, c: number): bigint {
  midEncodings(pos, midScratch, 0);
  return (BigInt(midScratch[2 * c + 1]) << 32n) | BigInt(midScratch[2 * c]);
}

/**
 * Feature bucket (king bucket * 4 + attack bucket) and mirror flag of both
 * perspectives, written to out[0..3] = bucket0, mirror0, bucket1, mirror1. The
 * mid-mirror encodings, needed when both kings stand on the middle file, are
 * read from mid[mo..mo + 3] when given (midEncodings()), else computed.
 */
export function featureBuckets(pos: Position, out: Int32Array, mid?: Float64Array, mo = 0): void {
  const k0 = pos.kingSq[0],
    k1 = pos.kingSq[1];
  const kb0 = KING_BUCKETS[k0],
    kb1 = KING_BUCKETS[k1];
  let mid0 = false,
    mid1 = false;
  if (kb0 & 1 && kb1 & 1 && !(kb0 & 8) && !(kb1 & 8)) {
    if (mid === undefined) {
      midEncodings(pos, midScratch, 0);
      mid = midScratch;
      mo = 0;
    }
    mid0 = requiresMidMirror(mid, mo, 0);
    mid1 = requiresMidMirror(mid, mo, 1);
  }
  const pc = pos.pieceCount;
  for (let p = 0; p < 2; p++) {
    const own = p === 0 ? kb0 : kb1,
      opp = p === 0 ? kb1 : kb0;
    const bucket = own & 7;
    const mirror = own >> 3 || (bucket & 1 && (opp >> 3 || (opp & 1 && (p === 0 ? mid0 : mid1)))) ? 1 : 0;
    const cb = p << 3;
    const attack = (pc[cb | ROOK] ? 2 : 0) + (pc[cb | KNIGHT] + pc[cb | CANNON] ? 1 : 0);
    out[p * 2] = bucket * 4 + attack;
    out[p * 2 + 1] = mirror;
  }
}

/** Layer-stack (and PSQT) bucket of the position, from the side to move. */
export function layerStackBucket(pos: Position): number {
  const pc = pos.pieceCount;
  const us = pos.side << 3,
    them = us ^ 8;
  const ur = pc[us | ROOK],
    or = pc[them | ROOK];
  if (ur === or) {
    const ukc = pc[us | KNIGHT] + pc[us | CANNON],
      okc = pc[them | KNIGHT] + pc[them | CANNON];
    return ur * 4 + (ukc + okc >= 4 ? 2 : 0) + (ukc === okc ? 1 : 0);
  }
  if (ur === 2 && or === 1) return 12;
  if (ur === 1 && or === 2) return 13;
  if (ur > 0 && or === 0) return 14;
  return 15;
}

/** HalfKAv2_hm index of piece pc on square sq for perspective p. */
export function psqIndex(p: number, pc: number, sq: number, bucket: number, mirror: number): number {
  const s = INDEX_MAP[(mirror * 2 + p) * SQUARE_NB + sq];
  return PSQ_OFFSETS[(p ? pc ^ 8 : pc) * SQUARE_NB + s] + PS_NB * bucket;
}

/** Appends the active piece-square features of perspective p (feature rows) at out[n..]; returns the new end. */
export function appendPsqFeatures(
  pos: Position,
  p: number,
  bucket: number,
  mirror: number,
  out: Int32Array,
  n: number,
): number {
  const map = (mirror * 2 + p) * SQUARE_NB;
  const flip = p ? 8 : 0;
  const base = PS_NB * bucket;
  for (let c = 0; c < 2; c++) {
    const cnt = pos.listCount[c];
    for (let i = 0; i < cnt; i++) {
      const s = pos.listSq[c * 16 + i];
      out[n++] = PSQ_OFFSETS[(pos.board[s] ^ flip) * SQUARE_NB + INDEX_MAP[map + s]] + base;
    }
  }
  return n;
}

/**
 * Raw threats of the position: every piece's real attacks on occupied squares,
 * as (from << 7 | to) << 8 | attacker << 4 | attacked, written at out[n..].
 * Returns the new end. At most 4 * 32 entries are possible.
 */
export function appendRawThreats(pos: Position, out: Int32Array, n: number): number {
  for (let c = 0; c < 2; c++) {
    const cnt = pos.listCount[c];
    for (let i = 0; i < cnt; i++) n = appendPieceThreats(pos, pos.listSq[c * 16 + i], out, n);
  }
  return n;
}

/** Appends the raw threats of the piece on `from` (appendRawThreats' encoding) at out[n..]; returns the new end. */
function appendPieceThreats(pos: Position, from: number, out: Int32Array, n: number): number {
  const b = pos.board;
  const pc = b[from];
  const hi = from << 7;
  const code = pc << 4;
  switch (pc & 7) {
    case ROOK:
    case CANNON: {
      const f = FILE_OF[from],
        r = RANK_OF[from];
      const cannon = (pc & 7) === CANNON;
      let m = (cannon ? RANK_CANNON_CAP : RANK_ROOK_CAP)[(f << 9) | pos.rankOcc[r]];
      while (m) {
        const to = r * 9 + (31 - Math.clz32(m & -m));
        m &= m - 1;
        out[n++] = ((hi + to) << 8) | code | b[to];
      }
      m = (cannon ? FILE_CANNON_CAP : FILE_ROOK_CAP)[(r << 10) | pos.fileOcc[f]];
      while (m) {
        const to = (31 - Math.clz32(m & -m)) * 9 + f;
        m &= m - 1;
        out[n++] = ((hi + to) << 8) | code | b[to];
      }
      break;
    }
    case KNIGHT:
      for (let k = 0; k < 8; k++) {
        const to = KNIGHT_TO[from * 8 + k];
        if (to < 0) break;
        if (b[to] && !b[KNIGHT_LEG[from * 8 + k]]) out[n++] = ((hi + to) << 8) | code | b[to];
      }
      break;
    case BISHOP:
      for (let k = 0; k < 4; k++) {
        const to = BISHOP_TO[from * 4 + k];
        if (to < 0) break;
        if (b[to] && !b[BISHOP_EYE[from * 4 + k]]) out[n++] = ((hi + to) << 8) | code | b[to];
      }
      break;
    case ADVISOR:
    case KING: {
      const table = (pc & 7) === KING ? KING_TO : ADVISOR_TO;
      for (let k = 0; k < 4; k++) {
        const to = table[from * 4 + k];
        if (to < 0) break;
        if (b[to]) out[n++] = ((hi + to) << 8) | code | b[to];
      }
      break;
    }
    case PAWN: {
      const c = pc >> 3;
      for (let k = 0; k < 3; k++) {
        const to = PAWN_TO[c * 270 + from * 3 + k];
        if (to < 0) break;
        if (b[to]) out[n++] = ((hi + to) << 8) | code | b[to];
      }
      break;
    }
  }
  return n;
}

/**
 * NEAR[a * 90 + s]: the piece types (bit 1 << type) whose raw threats from s can
 * depend on what stands on a: a knight attacking a or with its leg on a, a
 * bishop attacking a or with its eye on a, an advisor, king or pawn next to a
 * (pawns: any side, generously), a rook or cannon on a's rank or file (whether
 * anything stands between is checked apart: BETWEEN).
 */
const NEAR = new Uint8Array(SQUARE_NB * SQUARE_NB);
/** BETWEEN[a * 90 + s]: the line bits (files on a rank, ranks on a file) strictly between a and s on a shared line. */
const BETWEEN = new Uint16Array(SQUARE_NB * SQUARE_NB);
for (let a = 0; a < SQUARE_NB; a++) {
  for (let s = 0; s < SQUARE_NB; s++) {
    if (s === a) continue;
    const df = Math.abs(FILE_OF[a] - FILE_OF[s]),
      dr = Math.abs(RANK_OF[a] - RANK_OF[s]);
    let types = 0;
    if (df === 0 || dr === 0) types |= (1 << ROOK) | (1 << CANNON);
    if (df + dr === 1) types |= (1 << KNIGHT) | (1 << KING) | (1 << PAWN);
    if (df * dr === 2) types |= 1 << KNIGHT;
    if (df === 1 && dr === 1) types |= (1 << ADVISOR) | (1 << BISHOP);
    if (df === 2 && dr === 2) types |= 1 << BISHOP;
    NEAR[a * SQUARE_NB + s] = types;
    let between = 0;
    if (dr === 0)
      for (let x = Math.min(FILE_OF[a], FILE_OF[s]) + 1; x < Math.max(FILE_OF[a], FILE_OF[s]); x++) between |= 1 << x;
    if (df === 0)
      for (let x = Math.min(RANK_OF[a], RANK_OF[s]) + 1; x < Math.max(RANK_OF[a], RANK_OF[s]); x++) between |= 1 << x;
    BETWEEN[a * SQUARE_NB + s] = between;
  }
}
const LINE_TYPES = (1 << ROOK) | (1 << CANNON);

/**
 * Whether a rook or cannon on s, on a line with square a, can change its raw
 * threats when a's contents change: nothing else than the move's squares from
 * and to stands between them (a rook), or at most one piece (a cannon: a may be
 * its screen or its target).
 */
function lineReaches(pos: Position, a: number, s: number, from: number, to: number, cannon: boolean): boolean {
  const between = BETWEEN[a * SQUARE_NB + s];
  if (between === 0) return true;
  let occ: number;
  if (RANK_OF[a] === RANK_OF[s]) {
    const r = RANK_OF[s];
    occ = pos.rankOcc[r] & between;
    if (RANK_OF[from] === r) occ &= ~(1 << FILE_OF[from]);
    if (RANK_OF[to] === r) occ &= ~(1 << FILE_OF[to]);
  } else {
    const f = FILE_OF[s];
    occ = pos.fileOcc[f] & between;
    if (FILE_OF[from] === f) occ &= ~(1 << RANK_OF[from]);
    if (FILE_OF[to] === f) occ &= ~(1 << RANK_OF[to]);
  }
  return cannon ? (occ & (occ - 1)) === 0 : occ === 0;
}

/**
 * The raw threats after a move, from those before it (Pikafish's dirty
 * threats): a move changes only the squares `from` and `to`, so the threats
 * that change are those of the pieces that attack either square, stand on it,
 * or have a line, knight leg or bishop eye through it. The rest of the
 * parent's list is kept; those pieces' threats are listed again on the new
 * board, and compared with the ones dropped.
 */
export class ThreatDelta {
  /** Threats that appeared (added) and vanished (removed), raw encoding, after update() or diff(). */
  readonly added = new Int32Array(256);
  readonly removed = new Int32Array(256);
  nAdded = 0;
  nRemoved = 0;
  private readonly touched = new Int32Array(SQUARE_NB);
  private readonly affected = new Int32Array(32);
  private readonly dropped = new Int32Array(256);
  private readonly mark = new Int32Array(SQUARE_NB << 7);
  private readonly markCode = new Uint8Array(SQUARE_NB << 7);
  private stamp = 0;

  private lineAffected(
    pos: Position,
    s: number,
    from: number,
    to: number,
    nf: number,
    nt: number,
    type: number,
  ): boolean {
    const cannon = type === CANNON;
    return (
      (nf !== 0 && lineReaches(pos, from, s, from, to, cannon)) ||
      (nt !== 0 && lineReaches(pos, to, s, from, to, cannon))
    );
  }

  /**
   * Writes the raw threats of `pos` at out[o..] from the parent's list
   * src[s0..s1) (the position before the move from -> to) and fills added /
   * removed with the difference. Returns the new end of out. `out` and `src`
   * may be the same array (distinct ranges).
   */
  update(
    pos: Position,
    from: number,
    to: number,
    src: Int32Array,
    s0: number,
    s1: number,
    out: Int32Array,
    o: number,
  ): number {
    const st = (this.stamp += 2);
    const touched = this.touched,
      affected = this.affected,
      b = pos.board;
    touched[from] = st;
    touched[to] = st;
    let na = 0;
    const fo = from * SQUARE_NB,
      tq = to * SQUARE_NB;
    for (let c = 0; c < 2; c++) {
      const cnt = pos.listCount[c];
      for (let i = 0; i < cnt; i++) {
        const s = pos.listSq[c * 16 + i];
        const type = b[s] & 7,
          bit = 1 << type,
          nf = NEAR[fo + s] & bit,
          nt = NEAR[tq + s] & bit;
        if (
          s === to ||
          ((nf | nt) !== 0 && ((bit & LINE_TYPES) === 0 || this.lineAffected(pos, s, from, to, nf, nt, type)))
        ) {
          touched[s] = st;
          affected[na++] = s;
        }
      }
    }
    // The parent's threats of untouched pieces stay; the others are dropped.
    const dropped = this.dropped;
    let nd = 0;
    for (let k = s0; k < s1; k++) {
      const t = src[k];
      if (touched[t >>> 15] === st) dropped[nd++] = t;
      else out[o++] = t;
    }
    // The touched pieces' threats now, against the dropped ones.
    const first = o;
    for (let k = 0; k < na; k++) o = appendPieceThreats(pos, affected[k], out, o);
    this.diff(dropped, 0, nd, out, first, o);
    return o;
  }

  /** Fills added / removed with the raw threats of now[n0..n1) missing from old[o0..o1), and the reverse. */
  diff(old: Int32Array, o0: number, o1: number, now: Int32Array, n0: number, n1: number): void {
    const st = (this.stamp += 2);
    const mark = this.mark,
      code = this.markCode;
    for (let k = o0; k < o1; k++) {
      const t = old[k],
        ft = t >>> 8;
      mark[ft] = st;
      code[ft] = t & 255;
    }
    let nAdd = 0;
    const added = this.added;
    for (let k = n0; k < n1; k++) {
      const t = now[k],
        ft = t >>> 8;
      if (mark[ft] === st && code[ft] === (t & 255)) mark[ft] = st + 1;
      else added[nAdd++] = t;
    }
    let nRem = 0;
    const removed = this.removed;
    for (let k = o0; k < o1; k++) if (mark[old[k] >>> 8] === st) removed[nRem++] = old[k];
    this.nAdded = nAdd;
    this.nRemoved = nRem;
  }
}

/** FullThreats index of a raw threat for perspective p (THREAT_DIMS when it is no feature). */
function threatIndex(p: number, raw: number, mirror: number): number {
  const from = raw >>> 15,
    to = (raw >>> 8) & 127;
  const map = (mirror * 2 + p) * SQUARE_NB;
  const flip = p ? 8 : 0;
  const attacker = ((raw >> 4) & 15) ^ flip,
    attacked = (raw & 15) ^ flip;
  return THREAT_OFFSETS[
    ((attacker * SQUARE_NB + INDEX_MAP[map + from]) * SQUARE_NB + INDEX_MAP[map + to]) * 16 + attacked
  ];
}

/** Appends the feature rows (PSQ_DIMS + index) of the raw threats raws[start..end) for perspective p; returns the new end. */
export function appendThreatRows(
  p: number,
  mirror: number,
  raws: Int32Array,
  start: number,
  end: number,
  out: Int32Array,
  n: number,
): number {
  for (let i = start; i < end; i++) {
    const t = threatIndex(p, raws[i], mirror);
    if (t < THREAT_DIMS) out[n++] = PSQ_DIMS + t;
  }
  return n;
}
