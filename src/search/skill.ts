// Strength limitation: Skill Level / UCI_LimitStrength / UCI_Elo, in the
// Stockfish manner. A weakened engine searches at least 4 PV lines and, once
// the iteration at depth 1 + level is done, picks among them with a handicap:
// each line's score gets a push that grows with its distance to the best
// line and a random part, both larger at lower levels. The search ends with
// that pick (deeper iterations could not change it), so a level plays at its
// depth whatever the clock, and promptly.
//
// UCI_Elo is mapped to a (fractional) level through calibration points,
// piecewise linear between them (docs/STRENGTH.md: how they were measured).

import type { Prng } from '../core/prng.js';
import { MOVE_NONE, PAWN_VALUE, type Move } from '../core/types.js';

export const ELO_MIN = 1280;
export const ELO_MAX = 3133;

/** [UCI_Elo, level] pairs, increasing in both; the first is ELO_MIN, the last ELO_MAX. */
export const ELO_CALIBRATION: readonly (readonly [number, number])[] = [
  [1280, 0],
  [1374, 1],
  [1565, 2],
  [1732, 3],
  [1861, 4],
  [2009, 5],
  [2210, 6],
  [2579, 8],
  [2614, 13],
  [2809, 19],
  [3133, 19.62],
];

/** Skill level (fractional, 0 up to the last calibration level) equivalent to an Elo rating. */
export function eloToLevel(elo: number): number {
  const pts = ELO_CALIBRATION;
  if (!(elo > pts[0][0])) return pts[0][1];
  if (elo >= pts[pts.length - 1][0]) return pts[pts.length - 1][1];
  let i = 1;
  while (pts[i][0] < elo) i++;
  const [e0, l0] = pts[i - 1],
    [e1, l1] = pts[i];
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
