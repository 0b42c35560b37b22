// The score model: internal scores as users see them, cp (by ScoreType),
// mate in moves, and the win/draw/loss model, following Pikafish's uci.cpp.

import type { Position } from '../core/position.js';
import { ADVISOR, BISHOP, CANNON, KNIGHT, PAWN, ROOK, VALUE_MATE, VALUE_MATE_IN_MAX_PLY } from '../core/types.js';

export type ScoreType = 'Elo' | 'PawnValueNormalized' | 'Raw';
export const SCORE_TYPES: readonly ScoreType[] = ['Elo', 'PawnValueNormalized', 'Raw'];

/** Material count used by the win-rate model (Pikafish's win_rate_params). */
export function materialCount(pos: Position): number {
  const n = (t: number) => pos.pieceCount[t] + pos.pieceCount[8 | t];
  return 10 * n(ROOK) + 5 * n(KNIGHT) + 5 * n(CANNON) + 3 * n(BISHOP) + 2 * n(ADVISOR) + n(PAWN);
}

/** Parameters (a, b) of the win-rate model 1 / (1 + exp((a - v) / b)) for a material count. */
export function winRateParams(material: number): { a: number; b: number } {
  const m = Math.min(Math.max(material, 17), 110) / 65;
  const a = ((220.59891365 * m - 810.3573043) * m + 928.68185198) * m + 79.83955423;
  const b = ((61.99287416 * m - 233.72674182) * m + 325.85508322) * m - 68.72720854;
  return { a, b };
}

/** Win probability in per mille for internal value v. */
export function winRate(v: number, material: number): number {
  const { a, b } = winRateParams(material);
  return Math.floor(0.5 + 1000 / (1 + Math.exp((a - v) / b)));
}

export function wdl(v: number, material: number): [number, number, number] {
  const w = winRate(v, material);
  const l = winRate(-v, material);
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
export function toCp(v: number, material: number, type: ScoreType): number {
  switch (type) {
    case 'Raw':
      return v;
    case 'PawnValueNormalized':
      return Math.round((100 * v) / winRateParams(material).a);
    case 'Elo': {
      // Expected score (wins + half the draws) of the WDL model, as an Elo difference.
      const [w, d] = wdl(v, material);
      const e = Math.min(Math.max((w + d / 2) / 1000, 0.0005), 0.9995);
      return Math.round(-400 * Math.log10(1 / e - 1)) + 0; // + 0 turns -0 into 0
    }
  }
}

/** "cp N" or "mate N". */
export function formatScore(v: number, material: number, type: ScoreType): string {
  return isMateScore(v) ? `mate ${mateInMoves(v)}` : `cp ${toCp(v, material, type)}`;
}
