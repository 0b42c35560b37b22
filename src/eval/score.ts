// The score model: internal scores as users see them, cp (by ScoreType),
// mate in moves, and the win/draw/loss model, following Pikafish's uci.cpp.
// The model's parameters depend on the evaluation: Pikafish's for a network,
// Kirin's own for the classical evaluation (CLASSICAL_WIN_RATE).

import type { Position } from '../core/position.js';
import { ADVISOR, BISHOP, CANNON, KNIGHT, PAWN, ROOK, VALUE_MATE, VALUE_MATE_IN_MAX_PLY } from '../core/types.js';

export type ScoreType = 'Elo' | 'PawnValueNormalized' | 'Raw';
export const SCORE_TYPES: readonly ScoreType[] = ['Elo', 'PawnValueNormalized', 'Raw'];

/** Material count used by the win-rate model (Pikafish's win_rate_params). */
export function materialCount(pos: Position): number {
  const n = (t: number) => pos.pieceCount[t] + pos.pieceCount[8 | t];
  return 10 * n(ROOK) + 5 * n(KNIGHT) + 5 * n(CANNON) + 3 * n(BISHOP) + 2 * n(ADVISOR) + n(PAWN);
}

/**
 * A win-rate model: P(win) = 1 / (1 + exp((a - v) / b)) for an internal value v
 * from the side to move, with a and b cubic polynomials (coefficients highest
 * power first) in m = clamp(material, 17, 110) / 65, as Pikafish's
 * win_rate_params. `a` is the value at which the side to move wins half its
 * games: what `cp 100` means (PawnValueNormalized).
 */
export interface WinRateModel {
  readonly name: string;
  readonly as: readonly number[];
  readonly bs: readonly number[];
}

/** Pikafish's model, fitted for its network (uci.cpp); used with a network loaded. */
export const PIKAFISH_WIN_RATE: WinRateModel = Object.freeze({
  name: 'Pikafish',
  as: Object.freeze([220.59891365, -810.3573043, 928.68185198, 79.83955423]),
  bs: Object.freeze([61.99287416, -233.72674182, 325.85508322, -68.72720854]),
});

/**
 * The model of the classical evaluation (src/eval/classical-weights.ts), fitted by
 * `kirin tune --scale-report` to the game results of Kirin's own self-play at the
 * committed weights' evaluation (dg-g2 at 1000 nodes + dg-g3 at 2500 nodes, 721k
 * positions, session 7; docs/DATAGEN.md); used when no network is loaded.
 */
export const CLASSICAL_WIN_RATE: WinRateModel = Object.freeze({
  name: 'classical',
  as: Object.freeze([90.50360487, 78.49433826, -814.51334927, 969.21751858]),
  bs: Object.freeze([-180.3200364, 432.1635425, -9.69720052, 172.963754]),
});

/** Parameters (a, b) of the win-rate model 1 / (1 + exp((a - v) / b)) for a material count. */
export function winRateParams(material: number, model: WinRateModel = PIKAFISH_WIN_RATE): { a: number; b: number } {
  const m = Math.min(Math.max(material, 17), 110) / 65;
  const p = model.as,
    q = model.bs;
  const a = ((p[0] * m + p[1]) * m + p[2]) * m + p[3];
  const b = ((q[0] * m + q[1]) * m + q[2]) * m + q[3];
  return { a, b };
}

/** Win probability in per mille for internal value v. */
export function winRate(v: number, material: number, model: WinRateModel = PIKAFISH_WIN_RATE): number {
  const { a, b } = winRateParams(material, model);
  return Math.floor(0.5 + 1000 / (1 + Math.exp((a - v) / b)));
}

export function wdl(v: number, material: number, model: WinRateModel = PIKAFISH_WIN_RATE): [number, number, number] {
  const w = winRate(v, material, model);
  const l = winRate(-v, material, model);
  return [w, 1000 - w - l, l];
}

export function isMateScore(v: number): boolean {
  return Math.abs(v) >= VALUE_MATE_IN_MAX_PLY;
}

/** Moves to mate as UCI counts them (positive: side to move mates). */
export function mateInMoves(v: number): number {
  const plies = v > 0 ? VALUE_MATE - v : -VALUE_MATE - v;
  return Math.trunc((plies > 0 ? plies + 1 : plies) / 2);
}

/** Centipawn-like number for a non-mate internal value, by score type. */
export function toCp(v: number, material: number, type: ScoreType, model: WinRateModel = PIKAFISH_WIN_RATE): number {
  switch (type) {
    case 'Raw':
      return v;
    case 'PawnValueNormalized':
      return Math.round((100 * v) / winRateParams(material, model).a);
    case 'Elo': {
      // Expected score (wins + half the draws) of the WDL model, as an Elo difference.
      const [w, d] = wdl(v, material, model);
      const e = Math.min(Math.max((w + d / 2) / 1000, 0.0005), 0.9995);
      return Math.round(-400 * Math.log10(1 / e - 1)) + 0; // + 0 turns -0 into 0
    }
  }
}

/** "cp N" or "mate N". */
export function formatScore(
  v: number,
  material: number,
  type: ScoreType,
  model: WinRateModel = PIKAFISH_WIN_RATE,
): string {
  return isMateScore(v) ? `mate ${mateInMoves(v)}` : `cp ${toCp(v, material, type, model)}`;
}
