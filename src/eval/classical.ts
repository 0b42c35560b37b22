// Classical (hand-written) xiangqi evaluation.
//
// A tapered evaluation: every term has a middlegame and an endgame value per
// color, blended by a phase taken from the rooks, knights and cannons left.
// Terms (one row each in the trace):
//   Material    piece values (knights gain and cannons lose as the board empties)
//   Defence     advisors and bishops are worth what the enemy can attack with
//               (advisors against rooks and knights, bishops against cannons and
//               knights); missing advisors against two rooks (缺士怕双车), missing
//               bishops against cannons (缺象怕炮); knight + cannon together
//   PST         piece-square tables (pawns gain value across the river and near
//               the palace, knights near the enemy palace corners (卧槽, 挂角) and
//               bad on their own palace centre (窝心马), rooks on the rib files and
//               the enemy's second rank, king on its home square)
//   Mobility    rooks, knights (legs blocked), cannons
//   King safety attacks on the palace squares by rooks, knights, cannons and
//               crossed pawns against the advisors and bishops left; open king file
//   Cannons     hollow cannon (空头炮), central cannon with screens (incl. the
//               pinned palace-centre knight 窝心马), bottom cannon (沉底炮),
//               iron bolt (铁门栓: central cannon + rook on the palace door)
//   Pins        pieces pinned against the king by rooks and cannons, and
//               discovered-check batteries
//   Rooks       rook whose way forward is not blocked by its own pieces
//   Knights     trapped knights (no decent square), knights guarding each other
//   Structure   connected bishops/advisors, king in the palace centre with both
//               advisors, connected crossed pawns
// followed by an endgame scale factor (lone cannon, pawnless knight against
// defenders, no attackers at all) and a small tempo bonus for the side to move.
//
// Everything on the evaluation path works on typed arrays with int32
// arithmetic and allocates nothing. Ideas from the literature (ElephantEye's
// advisor-shape and pin terms, the palace-attack model of the blog in
// docs/seeds 001) were read for the facts; tables and code here are our own.

import {
  BISHOP_EYE,
  BISHOP_TO,
  FILE_MOVES,
  FILE_ROOK_CAP,
  KING_TO,
  KNIGHT_LEG,
  KNIGHT_TO,
  PALACE,
  PAWN_TO,
  RANK_MOVES,
  RANK_ROOK_CAP,
  popcount,
} from '../core/attacks.js';
import type { Position } from '../core/position.js';
import {
  ADVISOR,
  BISHOP,
  BLACK,
  CANNON,
  FILE_OF,
  KING,
  KNIGHT,
  PAWN,
  PAWN_VALUE,
  RANK_OF,
  RED,
  ROOK,
  SQUARE_NB,
} from '../core/types.js';
import * as W from './classical-weights.js';

// ---- Terms and accumulators ---------------------------------------------------

export const T_MATERIAL = 0;
export const T_DEFENCE = 1;
const T_PST = 2;
const T_MOBILITY = 3;
export const T_KING = 4;
export const T_CANNONS = 5;
export const T_PINS = 6;
// 7 Rooks, 8 Knights, 9 Structure: the pattern terms (PATTERN_TERM)
export const T_NB = 10;
export const TERM_NAMES: readonly string[] = [
  'Material',
  'Defence',
  'PST',
  'Mobility',
  'King safety',
  'Cannons',
  'Pins',
  'Rooks',
  'Knights',
  'Structure',
];

/** Phase 0 (endgame) .. PHASE_MAX (middlegame). */
const PHASE_MAX = 128;
/** Major material (rooks, knights, cannons of both sides) at which the phase is full midgame / endgame. */
const MM_MIDGAME = 10000;
const MM_ENDGAME = 2600;

export const TEMPO = 20;

/**
 * A weight per term in 64ths (index T_*; 64: the term as written, 0: off).
 * The engine evaluates with AS_WRITTEN; experiments pass their own
 * (lab/eval/selfplay: one side with a term changed).
 */
export type TermWeights = Readonly<ArrayLike<number>>;

/** Every term as written. */
export const AS_WRITTEN: TermWeights = Object.freeze(new Array<number>(T_NB).fill(64));

// ---- Piece values (mg, eg) ------------------------------------------------------

const VAL_MG = Int32Array.from(W.MATERIAL_MG);
const VAL_EG = Int32Array.from(W.MATERIAL_EG);

// ---- Board helpers -------------------------------------------------------------

/** Square seen from the other side (rank mirrored). */
const FLIP = new Uint8Array(SQUARE_NB);
for (let s = 0; s < SQUARE_NB; s++) FLIP[s] = (9 - RANK_OF[s]) * 9 + FILE_OF[s];

/** Bits strictly between positions a and b on a line: BETWEEN[a * 10 + b]. */
const BETWEEN = new Int32Array(100);
for (let a = 0; a < 10; a++) {
  for (let b = 0; b < 10; b++) {
    let m = 0;
    for (let i = Math.min(a, b) + 1; i < Math.max(a, b); i++) m |= 1 << i;
    BETWEEN[a * 10 + b] = m;
  }
}

/** Squares a cannon attacks along a line (after the screen, up to and including the next piece). */
function buildCannonAttacks(len: number): Uint16Array {
  const size = 1 << len;
  const t = new Uint16Array(len * size);
  for (let p = 0; p < len; p++) {
    for (let occ = 0; occ < size; occ++) {
      let m = 0;
      for (const dir of [1, -1]) {
        let i = p + dir;
        while (i >= 0 && i < len && !(occ & (1 << i))) i += dir;
        if (i < 0 || i >= len) continue;
        i += dir; // past the screen
        while (i >= 0 && i < len) {
          m |= 1 << i;
          if (occ & (1 << i)) break;
          i += dir;
        }
      }
      t[p * size + occ] = m;
    }
  }
  return t;
}
/** Index: file * 512 + rank occupancy (bits are files). */
const RANK_CANNON_ATK = buildCannonAttacks(9);
/** Index: rank * 1024 + file occupancy (bits are ranks). */
const FILE_CANNON_ATK = buildCannonAttacks(10);

/** Lowest palace rank of each color's palace. */
const PALACE_BASE = new Int32Array([0, 7]);
/** Bit of a palace square inside its palace's 9-bit mask ((rank - base) * 3 + file - 3), 0 elsewhere. */
const PAL_BIT = new Int32Array(SQUARE_NB);
for (let s = 0; s < SQUARE_NB; s++) {
  const p = PALACE[s];
  if (p) PAL_BIT[s] = 1 << ((RANK_OF[s] - PALACE_BASE[p - 1]) * 3 + FILE_OF[s] - 3);
}
/** Palace mask of the squares on palace file (f - 3) whose rank bits (relative to the palace base) are given. */
const FILE_PAL = new Int32Array(3 * 8);
for (let f = 0; f < 3; f++) {
  for (let rb = 0; rb < 8; rb++) {
    let m = 0;
    for (let j = 0; j < 3; j++) if (rb & (1 << j)) m |= 1 << (j * 3 + f);
    FILE_PAL[f * 8 + rb] = m;
  }
}
/** King zone: the king's square and the palace squares next to it (palace mask). */
const KING_ZONE = new Int32Array(SQUARE_NB);
for (let s = 0; s < SQUARE_NB; s++) {
  if (!PALACE[s]) continue;
  let m = PAL_BIT[s];
  for (let k = 0; k < 4; k++) {
    const t = KING_TO[s * 4 + k];
    if (t >= 0) m |= PAL_BIT[t];
  }
  KING_ZONE[s] = m;
}
/** 1 on the edge of the board (poor knight destinations). */
const EDGE = new Uint8Array(SQUARE_NB);
for (let s = 0; s < SQUARE_NB; s++) {
  const f = FILE_OF[s],
    r = RANK_OF[s];
  EDGE[s] = f === 0 || f === 8 || r === 0 || r === 9 ? 1 : 0;
}

// ---- Piece-square tables ----------------------------------------------------------
// Written from Red's side: the first row is rank 9 (Black's back rank), the last
// row rank 0 (Red's back rank); black pieces use the rank-mirrored square.

function table(rows: readonly number[]): Int16Array {
  if (rows.length !== 90) throw new Error('piece-square table needs 90 entries');
  const t = new Int16Array(SQUARE_NB);
  for (let row = 0; row < 10; row++) {
    for (let f = 0; f < 9; f++) t[(9 - row) * 9 + f] = rows[row * 9 + f];
  }
  return t;
}

const ROOK_MG = table(W.PST_MG[ROOK]);
const ROOK_EG = table(W.PST_EG[ROOK]);
const KNIGHT_MG = table(W.PST_MG[KNIGHT]);
const KNIGHT_EG = table(W.PST_EG[KNIGHT]);
const CANNON_MG = table(W.PST_MG[CANNON]);
const CANNON_EG = table(W.PST_EG[CANNON]);
const PAWN_MG = table(W.PST_MG[PAWN]);
const PAWN_EG = table(W.PST_EG[PAWN]);
const ADVISOR_MG = table(W.PST_MG[ADVISOR]);
const ADVISOR_EG = table(W.PST_EG[ADVISOR]);
const BISHOP_MG = table(W.PST_MG[BISHOP]);
const BISHOP_EG = table(W.PST_EG[BISHOP]);
const KING_MG = table(W.PST_MG[KING]);
const KING_EG = table(W.PST_EG[KING]);

// ---- Packed scores ----------------------------------------------------------------
// Hot tables hold a middlegame and an endgame value in one int32, mg * 65536 + eg,
// so one load and one addition serve both halves (sums stay well inside 16 bits).

function packScore(mg: number, eg: number): number {
  return (mg * 65536 + eg) | 0;
}
function mgOf(s: number): number {
  return (s + 0x8000) >> 16;
}
function egOf(s: number): number {
  return (s << 16) >> 16;
}

/** PST per piece code and square, black tables pre-mirrored: [piece * 90 + sq], packed (mg, eg). */
const PST = new Int32Array(16 * SQUARE_NB);
{
  const mg: Array<Int16Array | null> = [null, ROOK_MG, ADVISOR_MG, CANNON_MG, PAWN_MG, KNIGHT_MG, BISHOP_MG, KING_MG];
  const eg: Array<Int16Array | null> = [null, ROOK_EG, ADVISOR_EG, CANNON_EG, PAWN_EG, KNIGHT_EG, BISHOP_EG, KING_EG];
  for (let t = 1; t <= 7; t++) {
    for (let s = 0; s < SQUARE_NB; s++) {
      PST[t * SQUARE_NB + s] = packScore(mg[t]![s], eg[t]![s]);
      PST[(8 | t) * SQUARE_NB + s] = packScore(mg[t]![FLIP[s]], eg[t]![FLIP[s]]);
    }
  }
}

// ---- Mobility tables ------------------------------------------------------------

// Packed (mg, eg) by number of squares (rooks and cannons concave: the first
// free squares matter most, a trapped rook is a disaster).
const ROOK_MOB = new Int32Array(18);
const CANNON_MOB = new Int32Array(18);
for (let n = 0; n < 18; n++) {
  ROOK_MOB[n] = packScore(W.ROOK_MOB_MG[n], W.ROOK_MOB_EG[n]);
  CANNON_MOB[n] = packScore(W.CANNON_MOB_MG[n], W.CANNON_MOB_EG[n]);
}
const KNIGHT_MOB = new Int32Array(9);
for (let n = 0; n < 9; n++) KNIGHT_MOB[n] = packScore(W.KNIGHT_MOB_MG[n], W.KNIGHT_MOB_EG[n]);

/** Scale of each whole term in 64ths (middlegame, endgame), from the weights file. */
const SCALE_MG = Int32Array.from(W.TERM_SCALE_MG);
const SCALE_EG = Int32Array.from(W.TERM_SCALE_EG);

// ---- Weights of the other terms -------------------------------------------------

/** King-safety weight of an attacker that reaches the enemy palace, by piece type. */
const ATTACK_WEIGHT = new Int32Array([0, 36, 0, 26, 14, 30, 0, 0]);

// Patterns: constants of the pattern terms that enter the evaluation linearly
// (a count times a middlegame and an endgame value), each a weight of its own in
// the weights file (PATTERN_MG, PATTERN_EG) so that the tuner fits them one by
// one. The evaluation counts each pattern per color (`feat`) and adds the
// values at the end. What is not linear in its constants (the defence formula,
// the king-danger curve, hollow and bottom cannons) stays in the term and is
// tuned through the term's scale.
const F_ROOK_FREE = 0; // Rooks: the way forward is not blocked by an own piece
const F_KNIGHT_LINK = 1; // Knights: knights guarding each other (连环马)
const F_KNIGHT_TRAPPED = 2; // Knights: no decent square
const F_KNIGHT_CORNERED = 3; // Knights: one decent square, on its own side of the river
const F_PAWNS_CONNECTED = 4; // Structure: crossed pawns side by side
const F_BISHOPS_CONNECTED = 5; // Structure: bishops defending each other
const F_KING_CENTRE = 6; // Structure: king on the palace centre with both advisors
const F_KING_HOME = 7; // Structure: king at home with both advisors in shape
const F_NO_ADVISOR_VS_ROOKS = 8; // Defence: per missing advisor against two rooks (缺士怕双车)
const F_NO_BISHOP_VS_CANNON = 9; // Defence: per missing bishop and enemy cannon (缺象怕炮)
const F_KNIGHT_CANNON = 10; // Defence: knight and cannon together
const F_OPEN_KING_FILE = 11; // King safety: per rook, nothing in front of the enemy king
const F_CENTRAL_SCREENS = 12; // Cannons: central cannon with two screens
const F_PINNED_CENTRE_KNIGHT = 13; // Cannons: palace-centre knight pinned by a central cannon
const F_IRON_BOLT_1 = 14; // Cannons: iron bolt (铁门栓), one palace door
const F_IRON_BOLT_2 = 15; // Cannons: iron bolt, both palace doors
const F_ROOK_DISCOVERY = 16; // Pins: own piece between a rook and the enemy king
const F_CANNON_DISCOVERY = 17; // Pins: own far screen of a cannon with an enemy near screen
const F_ROOK_PIN = 17; // + type (1..6): enemy piece pinned by a rook, by its type
const F_SCREEN_PIN = 23; // + type (1..6): enemy screen of a cannon on the king's file, by its type
export const F_NB = 30;
/** Name of each pattern (the weights file's comments). */
export const PATTERN_NAMES: readonly string[] = [
  'rook: way forward free',
  'knights: guarding each other',
  'knight: trapped',
  'knight: one square, own side',
  'structure: crossed pawns side by side',
  'structure: bishops connected',
  'structure: king on palace centre, two advisors',
  'structure: king at home, advisors in shape',
  'defence: missing advisor vs two rooks',
  'defence: missing bishop per enemy cannon',
  'defence: knight and cannon',
  'king safety: open king file, per rook',
  'cannons: central cannon, two screens',
  'cannons: pinned palace-centre knight',
  'cannons: iron bolt, one door',
  'cannons: iron bolt, two doors',
  'pins: rook discovery',
  'pins: cannon discovery',
  'pins: rook pins a rook',
  'pins: rook pins an advisor',
  'pins: rook pins a cannon',
  'pins: rook pins a pawn',
  'pins: rook pins a knight',
  'pins: rook pins a bishop',
  'pins: cannon screen is a rook',
  'pins: cannon screen is an advisor',
  'pins: cannon screen is a cannon',
  'pins: cannon screen is a pawn',
  'pins: cannon screen is a knight',
  'pins: cannon screen is a bishop',
];
/** Term of each pattern. */
const PATTERN_TERM = Int32Array.from([
  7,
  8,
  8,
  8,
  9,
  9,
  9,
  9,
  1,
  1,
  1,
  4,
  5,
  5,
  5,
  5,
  6,
  6,
  ...new Array<number>(12).fill(6),
]);
const PAT_MG = Int32Array.from(W.PATTERN_MG);
const PAT_EG = Int32Array.from(W.PATTERN_EG);

// ---- One evaluation's terms -------------------------------------------------------
//
// computeTerms fills the terms in one pass over each colour's pieces
// (pieceTerms: a function per piece kind, each adding its piece's share of the
// piece terms - PST, Mobility, Rooks, Knights, Cannons, Pins - and what the king
// attack and the structure need), then the terms that look at a side as a whole
// (materialTerm, defenceTerm, kingSafetyTerm, structureTerm), the patterns'
// values and the blend. One pass, not one per term: ten passes over the pieces
// made the evaluation 2.4 times slower. mobilityCount and pstIndex are the
// tables' indexes that the tuner (commands/tune) reads too.

// The state of one evaluation, reused from evaluation to evaluation (nothing
// allocates; each search thread has its own module instance). Module-level
// constant arrays on purpose: held in an object the evaluation ran about 15%
// slower. computeTerms fills them; classicalTerms, classicalRawTerms and the
// trace read them.

/** Middlegame / endgame value per term and colour ([term * 2 + colour]), patterns included. */
const MG = new Int32Array(T_NB * 2);
const EG = new Int32Array(T_NB * 2);
/** The patterns' share of MG / EG per term and colour (the rest is what the term's scale applies to). */
const PMG = new Int32Array(T_NB * 2);
const PEG = new Int32Array(T_NB * 2);
/** Pattern counts: [pattern * 2 + colour], kept only while countPatterns is set (classicalRawTerms). */
const FEAT = new Int32Array(F_NB * 2);
let countPatterns = false;
/** The last evaluation: phase (0 endgame .. 128), middlegame and endgame sums, tapered sum, scale factor (0..64). */
const LAST = new Int32Array(5);
// Per colour, gathered by the pass over its pieces for the side terms:
/** Enemy palace squares attacked (palace mask), attacked twice, attacked by rooks; attackers and their weight. */
const PAL_ATT = new Int32Array(2);
const PAL_ATT2 = new Int32Array(2);
const ROOK_PAL = new Int32Array(2);
const ATTACKERS = new Int32Array(2);
const ATTACK_SUM = new Int32Array(2);
/** Crossed pawns. */
const CROSSED = new Int32Array(2);
/** 1 when a cannon bears on the enemy king's file (hollow, or through two screens on the centre file). */
const CENTRAL = new Int32Array(2);
/** Advisor and bishop squares (the first two of each are read) and their counts. */
const ADVISOR_SQ = new Int32Array(4);
const BISHOP_SQ = new Int32Array(4);
const ADVISORS = new Int32Array(2);
const BISHOPS = new Int32Array(2);

/**
 * Counts pattern f n times for colour c and adds its value (n times the
 * pattern's weights) to its term's pattern share at once.
 */
function addPattern(f: number, c: number, n: number): void {
  if (countPatterns) FEAT[f * 2 + c] += n;
  const i = PATTERN_TERM[f] * 2 + c;
  PMG[i] += n * PAT_MG[f];
  PEG[i] += n * PAT_EG[f];
}

/** Empties the state for a new evaluation. */
function clearTerms(): void {
  for (let i = 0; i < T_NB * 2; i++) MG[i] = EG[i] = PMG[i] = PEG[i] = 0;
  if (countPatterns) for (let i = 0; i < F_NB * 2; i++) FEAT[i] = 0;
  for (let c = 0; c < 2; c++) {
    PAL_ATT[c] = PAL_ATT2[c] = ROOK_PAL[c] = ATTACKERS[c] = ATTACK_SUM[c] = 0;
    CROSSED[c] = CENTRAL[c] = ADVISORS[c] = BISHOPS[c] = 0;
  }
}

/** Phase 0 (endgame) .. 128 (middlegame) of a position. */
function phaseOf(pos: Position): number {
  const mm = pos.majorMaterial[0] + pos.majorMaterial[1];
  return mm >= MM_MIDGAME
    ? PHASE_MAX
    : mm <= MM_ENDGAME
      ? 0
      : (((mm - MM_ENDGAME) * PHASE_MAX) / (MM_MIDGAME - MM_ENDGAME)) | 0;
}

/**
 * The index into the mobility table of the piece on `sq` (a rook's or cannon's
 * squares along its lines, a knight's free squares: not blocked at the leg, not
 * an own piece); 0 for the other pieces. The evaluation's and the tuner's.
 */
export function mobilityCount(pos: Position, sq: number): number {
  const board = pos.board;
  const pc = board[sq];
  const type = pc & 7;
  if (type === ROOK || type === CANNON) {
    const f = FILE_OF[sq],
      r = RANK_OF[sq];
    return lineMobility((f << 9) | pos.rankOcc[r], (r << 10) | pos.fileOcc[f]);
  }
  if (type !== KNIGHT) return 0;
  return knightScan(board, sq, pc >> 3) & 15;
}

/** A rook's or cannon's squares along its rank (index ri) and file (index fi): its mobility count. */
function lineMobility(ri: number, fi: number): number {
  return popcount(RANK_MOVES[ri]) + popcount(FILE_MOVES[fi]);
}

/**
 * What a knight of colour c on `sq` reaches (legs not blocked), packed: bits 0-3
 * its free squares (not an own piece: its mobility), 4-7 those off the board's
 * edge, 8-11 own knights it guards, 12-20 the enemy palace squares (palace mask).
 */
function knightScan(board: Uint8Array, sq: number, c: number): number {
  const ownKnight = (c << 3) | KNIGHT;
  const enemyPalace = (c ^ 1) + 1;
  let squares = 0,
    good = 0,
    links = 0,
    m = 0;
  for (let k = sq * 8, end = k + 8; k < end; k++) {
    const to = KNIGHT_TO[k];
    if (to < 0) break;
    if (board[KNIGHT_LEG[k]]) continue;
    const tp = board[to];
    if (PALACE[to] === enemyPalace) m |= PAL_BIT[to];
    if (tp !== 0 && tp >> 3 === c) {
      if (tp === ownKnight) links++;
      continue;
    }
    squares++;
    if (!EDGE[to]) good++;
  }
  return squares | (good << 4) | (links << 8) | (m << 12);
}

/**
 * The index of `sq` in a piece-square table as the weights file writes it (the
 * first row is the far rank, seen from colour c's side): what the evaluation and
 * the tuner read for a piece of colour c on `sq`.
 */
export function pstIndex(c: number, sq: number): number {
  const s = c === RED ? sq : FLIP[sq];
  return (9 - RANK_OF[s]) * 9 + FILE_OF[s];
}

/** Records palace attacks (mask `m`) by a piece of colour c of type `type`. */
function addPalaceAttack(c: number, m: number, type: number): void {
  if (m === 0) return;
  PAL_ATT2[c] |= PAL_ATT[c] & m;
  PAL_ATT[c] |= m;
  ATTACKERS[c]++;
  ATTACK_SUM[c] += ATTACK_WEIGHT[type];
}

/** A rook of colour c on `sq`: palace attacks, the way forward (Rooks), pins and batteries (Pins); its mobility (packed). */
function rookTerms(pos: Position, c: number, sq: number): number {
  const board = pos.board;
  const e = c ^ 1;
  const pb = PALACE_BASE[e];
  const ksq = pos.kingSq[e];
  const f = FILE_OF[sq],
    r = RANK_OF[sq];
  const ri = (f << 9) | pos.rankOcc[r];
  const fi = (r << 10) | pos.fileOcc[f];
  let m = 0;
  if ((f - 3) >>> 0 <= 2) m |= FILE_PAL[(f - 3) * 8 + (((FILE_MOVES[fi] | FILE_ROOK_CAP[fi]) >> pb) & 7)];
  if ((r - pb) >>> 0 <= 2) m |= (((RANK_MOVES[ri] | RANK_ROOK_CAP[ri]) >> 3) & 7) << ((r - pb) * 3);
  addPalaceAttack(c, m, ROOK);
  ROOK_PAL[c] |= m;
  // Way forward not blocked by an own piece.
  const caps = FILE_ROOK_CAP[fi];
  const ahead = c === RED ? caps & ~((2 << r) - 1) : caps & ((1 << r) - 1);
  if (ahead === 0 || board[(31 - Math.clz32(ahead)) * 9 + f] >> 3 !== c) addPattern(F_ROOK_FREE, c, 1);
  // Pins against the enemy king: exactly one piece between.
  const kf = FILE_OF[ksq],
    kr = RANK_OF[ksq];
  let between = -1;
  if (f === kf) {
    const btw = pos.fileOcc[f] & BETWEEN[r * 10 + kr];
    if (popcount(btw) === 1) between = (31 - Math.clz32(btw)) * 9 + f;
  } else if (r === kr) {
    const btw = pos.rankOcc[r] & BETWEEN[f * 10 + kf];
    if (popcount(btw) === 1) between = r * 9 + 31 - Math.clz32(btw);
  }
  if (between >= 0) {
    const pc = board[between];
    if (pc >> 3 !== c) addPattern(F_ROOK_PIN + (pc & 7), c, 1);
    // Own piece in between: moving it gives a discovered check.
    else if ((pc & 7) !== PAWN) addPattern(F_ROOK_DISCOVERY, c, 1);
  }
  return ROOK_MOB[lineMobility(ri, fi)];
}

/**
 * A cannon of colour c on `sq`: palace attacks; on the enemy king's file the
 * hollow cannon (空头炮), the central cannon with two screens (with the pinned
 * palace-centre knight 窝心马) (Cannons) and the pinned screens and batteries
 * (Pins); on its back rank the bottom cannon (沉底炮) (Cannons). Its mobility (packed).
 */
function cannonTerms(pos: Position, c: number, sq: number): number {
  const board = pos.board;
  const e = c ^ 1;
  const pb = PALACE_BASE[e];
  const ksq = pos.kingSq[e];
  const f = FILE_OF[sq],
    r = RANK_OF[sq],
    kf = FILE_OF[ksq],
    kr = RANK_OF[ksq];
  const ri = (f << 9) | pos.rankOcc[r];
  const fi = (r << 10) | pos.fileOcc[f];
  let m = 0;
  if ((f - 3) >>> 0 <= 2) m |= FILE_PAL[(f - 3) * 8 + ((FILE_CANNON_ATK[fi] >> pb) & 7)];
  if ((r - pb) >>> 0 <= 2) m |= ((RANK_CANNON_ATK[ri] >> 3) & 7) << ((r - pb) * 3);
  addPalaceAttack(c, m, CANNON);
  if (f === kf) {
    const btw = pos.fileOcc[f] & BETWEEN[r * 10 + kr];
    const n = popcount(btw);
    if (n === 0) {
      // Hollow cannon: no piece may step in between (it would be a screen).
      const eHome = e === RED ? 4 : 85;
      const majors = pos.pieceCount[(c << 3) | ROOK] + pos.pieceCount[(c << 3) | KNIGHT];
      let bonus = f === 4 ? 120 : 40;
      if (ksq === eHome) bonus += 40;
      bonus = (bonus * (2 + (majors > 2 ? 2 : majors))) >> 2;
      MG[T_CANNONS * 2 + c] += bonus;
      EG[T_CANNONS * 2 + c] += (bonus * LAST[0]) >> 8;
      CENTRAL[c] = 1;
    } else if (n === 2) {
      const lo = 31 - Math.clz32(btw & -btw),
        hi = 31 - Math.clz32(btw);
      const nearSq = (kr > r ? hi : lo) * 9 + f, // next to the king's side
        farSq = (kr > r ? lo : hi) * 9 + f;
      const np = board[nearSq],
        fp = board[farSq];
      if (f === 4) {
        CENTRAL[c] = 1;
        addPattern(F_CENTRAL_SCREENS, c, 1);
        // Knight on the palace centre pinned by a central cannon (炮镇窝心马).
        if (nearSq === (e === RED ? 13 : 76) && np === ((e << 3) | KNIGHT)) addPattern(F_PINNED_CENTRE_KNIGHT, c, 1);
      }
      // Both screens are tied to the line; enemy ones are pinned, an own one gives discovered check.
      if (np >> 3 === e) {
        addPattern(F_SCREEN_PIN + (np & 7), c, 1);
        if (fp >> 3 === c && (fp & 7) !== PAWN) addPattern(F_CANNON_DISCOVERY, c, 1);
      }
      if (fp >> 3 === e) addPattern(F_SCREEN_PIN + (fp & 7), c, 1);
    }
  } else if (r === kr && r === (e === RED ? 0 : 9) && (pos.rankOcc[r] & BETWEEN[f * 10 + kf]) === 0) {
    // Bottom cannon: on the enemy king's back rank with a clear line.
    const bonus = 45 + 35 * pos.pieceCount[(c << 3) | ROOK];
    MG[T_CANNONS * 2 + c] += bonus;
    EG[T_CANNONS * 2 + c] += bonus >> 1;
  }
  return CANNON_MOB[lineMobility(ri, fi)];
}

/** A knight of colour c on `sq` (its knightScan): palace attacks, knights guarding each other (连环马), trapped knights (Knights). */
function knightTerms(scan: number, c: number, sq: number): void {
  const good = (scan >> 4) & 15,
    links = (scan >> 8) & 15,
    m = scan >>> 12;
  if (links) addPattern(F_KNIGHT_LINK, c, 1);
  // Trapped: no decent square to go to (one is not enough deep in the enemy camp).
  if (good === 0) addPattern(F_KNIGHT_TRAPPED, c, 1);
  else if (good === 1 && (RANK_OF[sq] >= 5 ? 1 : 0) !== c) addPattern(F_KNIGHT_CORNERED, c, 1);
  addPalaceAttack(c, m, KNIGHT);
}

/** A pawn of colour c on `sq`: once across the river, palace attacks and connected pawns (Structure). */
function pawnTerms(pos: Position, c: number, sq: number): void {
  if ((RANK_OF[sq] >= 5 ? 1 : 0) === c) return;
  CROSSED[c]++;
  const enemyPalace = (c ^ 1) + 1;
  let m = 0;
  for (let k = c * 270 + sq * 3, end = k + 3; k < end; k++) {
    const to = PAWN_TO[k];
    if (to < 0) break;
    if (PALACE[to] === enemyPalace) m |= PAL_BIT[to];
  }
  addPalaceAttack(c, m, PAWN);
  // Connected with a pawn on the right (each pair counted once).
  if (FILE_OF[sq] < 8 && pos.board[sq + 1] === ((c << 3) | PAWN)) addPattern(F_PAWNS_CONNECTED, c, 1);
}

/** The pass over colour c's pieces: PST and Mobility, and each piece kind's terms. */
function pieceTerms(pos: Position, c: number): void {
  const board = pos.board;
  let pst = 0,
    mob = 0; // packed (mg, eg)
  for (let i = 0, base = c * 16, n = pos.listCount[c]; i < n; i++) {
    const sq = pos.listSq[base + i];
    const pc = board[sq];
    pst += PST[pc * SQUARE_NB + sq];
    switch (pc & 7) {
      case ROOK:
        mob += rookTerms(pos, c, sq);
        break;
      case CANNON:
        mob += cannonTerms(pos, c, sq);
        break;
      case KNIGHT: {
        const scan = knightScan(board, sq, c); // mobilityCount's count, and the knight's terms
        mob += KNIGHT_MOB[scan & 15];
        knightTerms(scan, c, sq);
        break;
      }
      case PAWN:
        pawnTerms(pos, c, sq);
        break;
      case ADVISOR:
        ADVISOR_SQ[c * 2 + (ADVISORS[c]++ & 1)] = sq;
        break;
      case BISHOP:
        BISHOP_SQ[c * 2 + (BISHOPS[c]++ & 1)] = sq;
        break;
      default:
        break;
    }
  }
  MG[T_PST * 2 + c] += mgOf(pst);
  EG[T_PST * 2 + c] += egOf(pst);
  MG[T_MOBILITY * 2 + c] += mgOf(mob);
  EG[T_MOBILITY * 2 + c] += egOf(mob);
}

/** Material: piece values by type. */
function materialTerm(pos: Position, c: number): void {
  const cnt = pos.pieceCount;
  const o = c << 3;
  let mg = 0,
    eg = 0;
  for (let type = 1; type < 7; type++) {
    const k = cnt[o | type];
    mg += k * VAL_MG[type];
    eg += k * VAL_EG[type];
  }
  MG[T_MATERIAL * 2 + c] += mg;
  EG[T_MATERIAL * 2 + c] += eg;
}

/**
 * Defence: advisors and bishops are worth what the enemy can attack with
 * (advisors against rooks and knights, bishops against cannons and knights);
 * missing defenders against two rooks or cannons; knight and cannon together.
 * Needs the enemy's crossed pawns (its pass over its pieces).
 */
function defenceTerm(pos: Position, c: number): void {
  const cnt = pos.pieceCount;
  const o = c << 3,
    eo = (c ^ 1) << 3;
  // Enemy attacking potential 0..8 against each kind of defender.
  const eR = cnt[eo | ROOK],
    eN = cnt[eo | KNIGHT],
    eC = cnt[eo | CANNON],
    eP = CROSSED[c ^ 1];
  let attA = 2 * eR + 2 * eN + eC + (eP >> 1);
  let attB = eR + eN + 2 * eC + (eP >> 1);
  if (attA > 8) attA = 8;
  if (attB > 8) attB = 8;
  const adv = cnt[o | ADVISOR],
    bis = cnt[o | BISHOP];
  MG[T_DEFENCE * 2 + c] += (adv * 70 * attA + bis * 55 * attB) >> 3;
  EG[T_DEFENCE * 2 + c] += (adv * 50 * attA + bis * 40 * attB) >> 3;
  // Missing advisors fear two rooks (缺士怕双车); missing bishops fear cannons (缺象怕炮).
  if (adv < 2 && eR === 2) addPattern(F_NO_ADVISOR_VS_ROOKS, c, 2 - adv);
  if (bis < 2 && eC > 0) addPattern(F_NO_BISHOP_VS_CANNON, c, (2 - bis) * eC);
  // Rook with knight and cannon beats the one-sided pairs in the middlegame.
  if (cnt[o | KNIGHT] > 0 && cnt[o | CANNON] > 0) addPattern(F_KNIGHT_CANNON, c, 1);
}

/**
 * King safety: colour c's attacks on the enemy palace (gathered by the pass over
 * its pieces) against the advisors and bishops left; open king file; the iron
 * bolt (铁门栓: central cannon + rook on the palace door, a Cannons pattern).
 */
function kingSafetyTerm(pos: Position, c: number): void {
  const e = c ^ 1;
  const eo = e << 3;
  const eksq = pos.kingSq[e];
  const m = PAL_ATT[c];
  const danger =
    ATTACK_SUM[c] +
    9 * popcount(m) +
    14 * popcount(PAL_ATT2[c]) +
    22 * popcount(m & KING_ZONE[eksq]) -
    24 * pos.pieceCount[eo | ADVISOR] -
    12 * pos.pieceCount[eo | BISHOP];
  if (ATTACKERS[c] >= 2 && danger > 0) {
    let pen = (danger * danger) >> 7;
    if (pen > 900) pen = 900;
    MG[T_KING * 2 + c] += pen;
    EG[T_KING * 2 + c] += pen >> 1;
  } else if (danger > 0) {
    MG[T_KING * 2 + c] += danger >> 2;
  }
  // Open king file: nothing in front of the enemy king on its file.
  const rooks = pos.pieceCount[(c << 3) | ROOK];
  const kf = FILE_OF[eksq],
    kr = RANK_OF[eksq];
  if (rooks) {
    const front = e === RED ? pos.fileOcc[kf] & ~((2 << kr) - 1) : pos.fileOcc[kf] & ((1 << kr) - 1);
    if (front === 0) addPattern(F_OPEN_KING_FILE, c, rooks);
  }
  // Iron bolt: a cannon on the king's central file and a rook on the palace door.
  if (CENTRAL[c] && kf === 4) {
    const doors = ROOK_PAL[c] & ((1 | 4) << ((kr - PALACE_BASE[e]) * 3));
    if (doors) addPattern(popcount(doors) === 2 ? F_IRON_BOLT_2 : F_IRON_BOLT_1, c, 1);
  }
}

/** Structure: bishops defending each other, the king with its advisors (crossed pawns: pawnTerms). */
function structureTerm(pos: Position, c: number): void {
  const board = pos.board;
  if (BISHOPS[c] === 2) {
    const b1 = BISHOP_SQ[c * 2],
      b2 = BISHOP_SQ[c * 2 + 1];
    for (let k = b1 * 4, end = k + 4; k < end; k++) {
      if (BISHOP_TO[k] === b2) {
        if (board[BISHOP_EYE[k]] === 0) addPattern(F_BISHOPS_CONNECTED, c, 1);
        break;
      }
    }
  }
  if (ADVISORS[c] === 2) {
    const own = pos.kingSq[c];
    const home = c === RED ? 4 : 85;
    const centre = c === RED ? 13 : 76;
    const a1 = ADVISOR_SQ[c * 2],
      a2 = ADVISOR_SQ[c * 2 + 1];
    if (own === centre) {
      addPattern(F_KING_CENTRE, c, 1);
    } else if (
      own === home &&
      (a1 === centre ||
        a2 === centre ||
        (FILE_OF[a1] + FILE_OF[a2] === 8 && RANK_OF[a1] === RANK_OF[own] && RANK_OF[a2] === RANK_OF[own]))
    ) {
      addPattern(F_KING_HOME, c, 1);
    }
  }
}

/** Adds the patterns' values (addPattern's sums) to their terms. */
function applyPatterns(): void {
  const pmg = PMG,
    peg = PEG,
    mg = MG,
    eg = EG;
  for (let i = 0; i < T_NB * 2; i++) {
    mg[i] += pmg[i];
    eg[i] += peg[i];
  }
}

/**
 * Blends the terms: each term's weight and scale (the scale applies to what is
 * not a pattern; the patterns' own weights are tuned), tapered by the phase,
 * times the endgame scale factor. The evaluation from Red's side.
 */
function blend(pos: Position, weights: TermWeights): number {
  const tmg = MG,
    teg = EG,
    pmg = PMG,
    peg = PEG;
  let mg = 0,
    eg = 0;
  for (let term = 0; term < T_NB; term++) {
    const dm = tmg[term * 2] - tmg[term * 2 + 1],
      de = teg[term * 2] - teg[term * 2 + 1];
    const w = weights[term],
      sm = SCALE_MG[term],
      se = SCALE_EG[term];
    if (w === 64 && sm === 64 && se === 64) {
      mg += dm;
      eg += de;
    } else {
      const pm = pmg[term * 2] - pmg[term * 2 + 1],
        pe = peg[term * 2] - peg[term * 2 + 1];
      mg += ((((dm - pm) * w * sm) / 4096) | 0) + (((pm * w) / 64) | 0);
      eg += ((((de - pe) * w * se) / 4096) | 0) + (((pe * w) / 64) | 0);
    }
  }
  const phase = LAST[0];
  const v = ((mg * phase + eg * (PHASE_MAX - phase)) / PHASE_MAX) | 0;
  const sf = scaleFactor(pos, v > 0 ? RED : BLACK);
  LAST[1] = mg;
  LAST[2] = eg;
  LAST[3] = v;
  LAST[4] = sf;
  return ((v * sf) / 64) | 0;
}

/** Computes every term of `pos` (the module's state) and returns the evaluation from Red's side (no tempo). */
function computeTerms(pos: Position, weights: TermWeights = AS_WRITTEN): number {
  clearTerms();
  LAST[0] = phaseOf(pos);
  pieceTerms(pos, RED);
  pieceTerms(pos, BLACK);
  for (let c = 0; c < 2; c++) {
    materialTerm(pos, c);
    defenceTerm(pos, c);
    kingSafetyTerm(pos, c);
    structureTerm(pos, c);
  }
  applyPatterns();
  return blend(pos, weights);
}

/**
 * Endgame scale factor (0..64) for the side `strong` that the score favours:
 * positions where it has too little to force mate are pulled towards a draw.
 */
function scaleFactor(pos: Position, strong: number): number {
  const cnt = pos.pieceCount;
  const o = strong << 3,
    eo = (strong ^ 1) << 3;
  const rooks = cnt[o | ROOK],
    knights = cnt[o | KNIGHT],
    cannons = cnt[o | CANNON],
    pawns = cnt[o | PAWN];
  const defenders = cnt[eo | ADVISOR] + cnt[eo | BISHOP];
  const enemyArmy = cnt[eo | ROOK] + cnt[eo | KNIGHT] + cnt[eo | CANNON] + cnt[eo | PAWN];
  if (rooks + knights + cannons === 0) {
    if (pawns === 0) return 2; // only advisors/bishops: cannot mate
    if (pawns === 1) {
      // A lone pawn that reached the back rank cannot mate; one pawn rarely beats defenders.
      let low = true;
      const base = strong * 16;
      for (let i = 0, n = pos.listCount[strong]; i < n; i++) {
        const s = pos.listSq[base + i];
        if (pos.board[s] === (o | PAWN)) low = RANK_OF[s] === (strong === RED ? 9 : 0);
      }
      if (low) return 4;
      return defenders > 0 || enemyArmy > 0 ? 16 : 48;
    }
    return 64;
  }
  if (pawns === 0 && rooks === 0) {
    if (cannons === 1 && knights === 0) {
      // A lone cannon needs screens: hopeless against defenders, slow without own advisors.
      if (defenders > 0 || enemyArmy > 0) return 8;
      return cnt[o | ADVISOR] > 0 ? 48 : 4;
    }
    if (knights === 1 && cannons === 0 && defenders >= 2) return 12;
  }
  return 64;
}

/** Static evaluation from the side to move, internal units, unclamped (not to be called in check). */
export function evaluateClassical(pos: Position, weights: TermWeights = AS_WRITTEN): number {
  const v = computeTerms(pos, weights);
  return (pos.side === RED ? v : -v) + TEMPO;
}

/**
 * Per-term contributions of the terms of `pos`, tapered, from Red's side:
 * [red, black] pairs per term (index term * 2 + color). For tests and tools.
 */
export function classicalTerms(pos: Position, weights: TermWeights = AS_WRITTEN): Int32Array {
  computeTerms(pos, weights);
  const out = new Int32Array(T_NB * 2);
  for (let i = 0; i < T_NB * 2; i++) out[i] = tapered(MG[i], EG[i], LAST[0], weights[i >> 1]);
  return out;
}

/** Length of classicalRawTerms' output. */
export const RAW_TERMS = 43 + F_NB;

/**
 * The raw terms of the evaluation of `pos` for the tuner: out[0..19] middlegame
 * and out[20..39] endgame values per term and color (index term * 2 + color,
 * before term weights and scales, without the patterns), out[40] the phase
 * (0..128), out[41] the scale factor (0..64), out[42] the evaluation from Red's
 * side (no tempo) and out[43 + f] the count of pattern f, Red's minus Black's.
 */
export function classicalRawTerms(pos: Position, out: Int32Array): void {
  countPatterns = true;
  const v = computeTerms(pos);
  countPatterns = false;
  for (let i = 0; i < T_NB * 2; i++) {
    out[i] = MG[i] - PMG[i];
    out[T_NB * 2 + i] = EG[i] - PEG[i];
  }
  out[40] = LAST[0];
  out[41] = LAST[4];
  out[42] = v;
  for (let f = 0; f < F_NB; f++) out[43 + f] = FEAT[f * 2] - FEAT[f * 2 + 1];
}

// ---- Trace ----------------------------------------------------------------------------

/** A value in pawns, two decimals, padded to 7 characters (the trace's column). */
export function pawns(v: number): string {
  const s = (v / PAWN_VALUE).toFixed(2);
  return (v >= 0 ? ' ' + s : s).padStart(7);
}

function tapered(mg: number, eg: number, phase: number, w = 64): number {
  if (w !== 64) {
    mg = ((mg * w) / 64) | 0;
    eg = ((eg * w) / 64) | 0;
  }
  return ((mg * phase + eg * (PHASE_MAX - phase)) / PHASE_MAX) | 0;
}

/**
 * A table of the evaluation terms: per term the Red, Black and Total (Red minus
 * Black) contributions in pawns, then the blended total, the scale factor and
 * the classical evaluation from the side to move and from Red's side.
 * evaluate.ts traceClassical adds the final evaluation. Not for a side in check.
 */
export function classicalTermTable(pos: Position): string {
  const classical = evaluateClassical(pos);
  const phase = LAST[0];
  const lines: string[] = [];
  lines.push('      Term    |   Red   |  Black  |  Total');
  lines.push('--------------+---------+---------+---------');
  for (let term = 0; term < T_NB; term++) {
    const r = tapered(MG[term * 2], EG[term * 2], phase);
    const b = tapered(MG[term * 2 + 1], EG[term * 2 + 1], phase);
    const tot = tapered(MG[term * 2] - MG[term * 2 + 1], EG[term * 2] - EG[term * 2 + 1], phase);
    lines.push(`${TERM_NAMES[term].padStart(13)} | ${pawns(r)} | ${pawns(b)} | ${pawns(tot)}`);
  }
  lines.push('--------------+---------+---------+---------');
  lines.push(`${'Total'.padStart(13)} |         |         | ${pawns(LAST[3])}`);
  lines.push('');
  lines.push(
    `Phase ${phase}/${PHASE_MAX} (middlegame ${pawns(LAST[1]).trim()}, endgame ${pawns(LAST[2]).trim()}), scale factor ${LAST[4]}/64, tempo ${TEMPO}`,
  );
  lines.push(`Classical evaluation ${classical} (side to move, internal units)`);
  const redClassical = pos.side === RED ? classical : -classical;
  lines.push(`Classical evaluation ${pawns(redClassical).trim()} (red side)`);
  return lines.join('\n');
}
