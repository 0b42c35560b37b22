// Strength limitation: Skill Level / UCI_LimitStrength / UCI_Elo, in the
// Stockfish manner. A weakened engine searches at least 4 PV lines and, once
// the iteration at depth 1 + level is done, picks among them with a handicap:
// each line's score gets a push that grows with its distance to the best
// line and a random part, both larger at lower levels.
//
// UCI_Elo is mapped to a (fractional) level through the calibration points of
// the Pikafish wiki: 1280 = level 0, 1777 = 4, 2268 = 7, 2568 = 10, 2850 = 13,
// 3133 = 19 (piecewise linear between them).

import type { Prng } from '../core/prng.js';
import { MOVE_NONE, PAWN_VALUE, type Move } from '../core/types.js';

export const ELO_MIN = 1280;
export const ELO_MAX = 3133;

const ELO_POINTS = [1280, 1777, 2268, 2568, 2850, 3133];
const LEVEL_POINTS = [0, 4, 7, 10, 13, 19];

/** Skill level (0..19, fractional) equivalent to an Elo rating. */
export function eloToLevel(elo: number): number {
  if (!(elo > ELO_MIN)) return 0;
  if (elo >= ELO_MAX) return 19;
  let i = 1;
  while (ELO_POINTS[i] < elo) i++;
  const e0 = ELO_POINTS[i - 1],
    e1 = ELO_POINTS[i];
  const l0 = LEVEL_POINTS[i - 1],
    l1 = LEVEL_POINTS[i];
  return l0 + ((l1 - l0) * (elo - e0)) / (e1 - e0);
}

/** What pickBest needs of a root move. */
export interface ScoredLine {
  score: number;
  move: Move;
}

export class Skill {
  readonly level: number;
  best: Move = MOVE_NONE;

  constructor(skillLevel: number, limitStrength: boolean, elo: number) {
    this.level = limitStrength ? eloToLevel(elo) : Math.max(0, Math.min(20, skillLevel));
  }

  enabled(): boolean {
    return this.level < 20;
  }

  timeToPick(depth: number): boolean {
    return depth === 1 + Math.floor(this.level);
  }

  /**
   * Chooses among the first `multiPV` lines (sorted best first): each line gets
   * weakness * (top - score) + delta * random(weakness), scaled by 1/128, added to
   * its score; the highest total wins (later lines win ties, as in Stockfish).
   */
  pickBest(lines: readonly ScoredLine[], multiPV: number, rng: Prng): Move {
    const n = Math.min(multiPV, lines.length);
    const top = lines[0].score;
    const delta = Math.min(top - lines[n - 1].score, PAWN_VALUE);
    const weakness = 120 - 2 * this.level;
    const wInt = Math.max(1, Math.floor(weakness));
    let maxScore = -Infinity;
    for (let i = 0; i < n; i++) {
      const push = Math.trunc((weakness * (top - lines[i].score) + delta * (rng.next() % wInt)) / 128);
      if (lines[i].score + push >= maxScore) {
        maxScore = lines[i].score + push;
        this.best = lines[i].move;
      }
    }
    return this.best;
  }
}
