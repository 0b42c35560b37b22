// The classical evaluation's weights as a parameter vector, and positions as
// sparse feature lists over it (see model.ts).

import { RED, type Position } from '../../src/dev.js';
import { CANNON, KNIGHT, ROOK } from '../../src/core/types.js';
import {
  classicalRawTerms,
  F_NB,
  mobilityCount,
  pstIndex,
  RAW_TERMS,
  T_CANNONS,
  T_DEFENCE,
  T_KING,
  T_NB,
  TEMPO,
} from '../../src/eval/classical.js';
import { postProcessFactor } from '../../src/eval/evaluate.js';
import * as CW from '../../src/eval/classical-weights.js';
import type { Dataset } from './model.js';
import type { ClassicalWeights } from './weights-file.js';

const P_MATERIAL = 0; // 8 pairs by piece type
const P_PST = 8; // 7 * 90 pairs: (type - 1) * 90 + written index
const P_ROOK_MOB = P_PST + 7 * 90; // 18
const P_CANNON_MOB = P_ROOK_MOB + 18; // 18
const P_KNIGHT_MOB = P_CANNON_MOB + 18; // 9
const P_SCALE = P_KNIGHT_MOB + 9; // T_NB
const P_PATTERN = P_SCALE + T_NB; // F_NB
export const PAIRS = P_PATTERN + F_NB;

/**
 * Terms tuned through their scale: those with a part that is not linear in its
 * constants (the rest are tables of their own, or patterns only).
 */
function scaleTuned(t: number): boolean {
  return t === T_DEFENCE || t === T_KING || t === T_CANNONS;
}

export function currentWeights(): ClassicalWeights {
  const c = (a: readonly number[]) => a.slice();
  return {
    MATERIAL_MG: c(CW.MATERIAL_MG),
    MATERIAL_EG: c(CW.MATERIAL_EG),
    PST_MG: CW.PST_MG.map(c),
    PST_EG: CW.PST_EG.map(c),
    ROOK_MOB_MG: c(CW.ROOK_MOB_MG),
    ROOK_MOB_EG: c(CW.ROOK_MOB_EG),
    CANNON_MOB_MG: c(CW.CANNON_MOB_MG),
    CANNON_MOB_EG: c(CW.CANNON_MOB_EG),
    KNIGHT_MOB_MG: c(CW.KNIGHT_MOB_MG),
    KNIGHT_MOB_EG: c(CW.KNIGHT_MOB_EG),
    TERM_SCALE_MG: c(CW.TERM_SCALE_MG),
    TERM_SCALE_EG: c(CW.TERM_SCALE_EG),
    PATTERN_MG: c(CW.PATTERN_MG),
    PATTERN_EG: c(CW.PATTERN_EG),
  };
}

/** theta (2 * PAIRS) and the unit of each pair (1/64 for scales). */
export function toTheta(w: ClassicalWeights): { theta: Float64Array; unit: Float64Array } {
  const theta = new Float64Array(2 * PAIRS);
  const unit = new Float64Array(PAIRS).fill(1);
  const set = (p: number, mg: number, eg: number) => {
    theta[2 * p] = mg;
    theta[2 * p + 1] = eg;
  };
  for (let t = 0; t < 8; t++) set(P_MATERIAL + t, w.MATERIAL_MG[t], w.MATERIAL_EG[t]);
  for (let t = 1; t <= 7; t++) {
    for (let s = 0; s < 90; s++) set(P_PST + (t - 1) * 90 + s, w.PST_MG[t][s], w.PST_EG[t][s]);
  }
  for (let n = 0; n < 18; n++) set(P_ROOK_MOB + n, w.ROOK_MOB_MG[n], w.ROOK_MOB_EG[n]);
  for (let n = 0; n < 18; n++) set(P_CANNON_MOB + n, w.CANNON_MOB_MG[n], w.CANNON_MOB_EG[n]);
  for (let n = 0; n < 9; n++) set(P_KNIGHT_MOB + n, w.KNIGHT_MOB_MG[n], w.KNIGHT_MOB_EG[n]);
  for (let t = 0; t < T_NB; t++) {
    set(P_SCALE + t, w.TERM_SCALE_MG[t], w.TERM_SCALE_EG[t]);
    unit[P_SCALE + t] = 1 / 64;
  }
  for (let f = 0; f < F_NB; f++) set(P_PATTERN + f, w.PATTERN_MG[f], w.PATTERN_EG[f]);
  return { theta, unit };
}

/**
 * A written PST index (the evaluation's pstIndex) folded onto files a-e (files
 * f-i use the parameter of their mirror): the tables stay left-right symmetric,
 * as the evaluation must (classical.test.ts).
 */
function fold(s: number): number {
  const f = s % 9;
  return f > 4 ? s - f + 8 - f : s;
}

export function fromTheta(theta: Float64Array): ClassicalWeights {
  const r = (x: number) => Math.round(x);
  const mg = (p: number) => r(theta[2 * p]);
  const eg = (p: number) => r(theta[2 * p + 1]);
  const range = <T>(n: number, f: (i: number) => T): T[] => Array.from({ length: n }, (_, i) => f(i));
  return {
    MATERIAL_MG: range(8, (t) => mg(P_MATERIAL + t)),
    MATERIAL_EG: range(8, (t) => eg(P_MATERIAL + t)),
    PST_MG: [[] as number[], ...range(7, (t) => range(90, (s) => mg(P_PST + t * 90 + fold(s))))],
    PST_EG: [[] as number[], ...range(7, (t) => range(90, (s) => eg(P_PST + t * 90 + fold(s))))],
    ROOK_MOB_MG: range(18, (n) => mg(P_ROOK_MOB + n)),
    ROOK_MOB_EG: range(18, (n) => eg(P_ROOK_MOB + n)),
    CANNON_MOB_MG: range(18, (n) => mg(P_CANNON_MOB + n)),
    CANNON_MOB_EG: range(18, (n) => eg(P_CANNON_MOB + n)),
    KNIGHT_MOB_MG: range(9, (n) => mg(P_KNIGHT_MOB + n)),
    KNIGHT_MOB_EG: range(9, (n) => eg(P_KNIGHT_MOB + n)),
    TERM_SCALE_MG: range(T_NB, (t) => mg(P_SCALE + t)),
    TERM_SCALE_EG: range(T_NB, (t) => eg(P_SCALE + t)),
    PATTERN_MG: range(F_NB, (f) => mg(P_PATTERN + f)),
    PATTERN_EG: range(F_NB, (f) => eg(P_PATTERN + f)),
  };
}

/**
 * Scale of each parameter in the L2 term (see model.ts adam): 1/100 for values
 * in internal units (a change of 100 costs 1 * reg), 1/64 for scales in 64ths
 * (doubling a term costs 1 * reg).
 */
export function regScales(unit: Float64Array): Float64Array {
  const r = new Float64Array(2 * unit.length);
  for (let p = 0; p < unit.length; p++) r[2 * p] = r[2 * p + 1] = unit[p] === 1 ? 1 / 100 : 1 / 64;
  return r;
}

/** The count-indexed tables (mobility) as [first pair, length, ...], for the smoothness term. */
export const SMOOTH_RUNS: readonly number[] = [P_ROOK_MOB, 18, P_CANNON_MOB, 18, P_KNIGHT_MOB, 9];

/** Which parameters the tuner may move: everything with a meaning (not king material, not the table terms' scales). */
export function freeMask(): Uint8Array {
  const f = new Uint8Array(2 * PAIRS).fill(1);
  for (const t of [0, 7]) f[2 * (P_MATERIAL + t)] = f[2 * (P_MATERIAL + t) + 1] = 0;
  for (let t = 0; t < T_NB; t++) if (!scaleTuned(t)) f[2 * (P_SCALE + t)] = f[2 * (P_SCALE + t) + 1] = 0;
  return f;
}

const raw = new Int32Array(RAW_TERMS);
const acc = new Int32Array(PAIRS); // coefficient per pair for tables (same for mg and eg)

/**
 * Adds `pos` to the data set; `result` (0, 0.5, 1) and `score` from Red's side;
 * `game` numbers the game it comes from. Returns the classical evaluation from
 * Red's side (no tempo) as the engine computed it.
 */
export function addPosition(d: Dataset, pos: Position, result: number, score: number, game = 0): number {
  classicalRawTerms(pos, raw);
  acc.fill(0);
  // The table terms (material, PST, mobility) through the evaluation's own
  // indexes: each piece adds its entries, Red +1 and Black -1.
  for (let c = 0; c < 2; c++) {
    const sign = c === RED ? 1 : -1;
    for (let i = 0, n = pos.listCount[c]; i < n; i++) {
      const sq = pos.listSq[c * 16 + i];
      const t = pos.board[sq] & 7;
      acc[P_MATERIAL + t] += sign;
      acc[P_PST + (t - 1) * 90 + fold(pstIndex(c, sq))] += sign;
      if (t === ROOK) acc[P_ROOK_MOB + mobilityCount(pos, sq)] += sign;
      else if (t === CANNON) acc[P_CANNON_MOB + mobilityCount(pos, sq)] += sign;
      else if (t === KNIGHT) acc[P_KNIGHT_MOB + mobilityCount(pos, sq)] += sign;
    }
  }
  for (let p = 0; p < P_SCALE; p++) if (acc[p]) d.addEntry(p, acc[p], acc[p]);
  for (let t = 0; t < T_NB; t++) {
    if (!scaleTuned(t)) continue;
    d.addEntry(P_SCALE + t, raw[t * 2] - raw[t * 2 + 1], raw[T_NB * 2 + t * 2] - raw[T_NB * 2 + t * 2 + 1]);
  }
  for (let f = 0; f < F_NB; f++) if (raw[43 + f]) d.addEntry(P_PATTERN + f, raw[43 + f], raw[43 + f]);
  d.endPosition(raw[40], raw[41], pos.side === RED ? TEMPO : -TEMPO, result, score, postProcessFactor(pos), game);
  return raw[42];
}
