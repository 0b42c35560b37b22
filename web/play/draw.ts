// Kirin's answer to a draw offer, from its own evaluation. Pure.
//
// The rule: Kirin accepts when neither side has an attacking piece left (only
// kings, advisors and bishops: nobody can win), or when at least
// DRAW_MIN_PLIES plies have been played and its last search's score for
// itself is at most DRAW_MAX_CP centipawns (+0.30): a draw is then at least
// its fair share (an even position, or one it is losing). It declines while
// it stands better, in the first moves, and when it has no score to go by (its
// last move came from the book).

import { BLACK, RED, formatScore, type Position, type WinRateModel } from '../../src/browser/index.js';
import { hasAttackers } from './end.js';

/** Plies that must be played before Kirin considers a draw on the score (ten moves each). */
export const DRAW_MIN_PLIES = 20;
/** The largest score for itself (centipawns, 100 = a pawn) at which Kirin accepts. */
export const DRAW_MAX_CP = 30;

export interface DrawOfferFacts {
  /** Plies played in the game. */
  readonly plies: number;
  /** Kirin's last search's score for itself in centipawns (±Infinity for a mate), or null when it has none. */
  readonly kirinCp: number | null;
  /** Neither side has a rook, knight, cannon or pawn. */
  readonly noAttackers: boolean;
}

/** Whether Kirin accepts a draw offered now (the rule above). */
export function kirinAcceptsDraw(f: DrawOfferFacts): boolean {
  if (f.noAttackers) return true;
  if (f.plies < DRAW_MIN_PLIES || f.kirinCp === null) return false;
  return f.kirinCp <= DRAW_MAX_CP;
}

/**
 * A search score (internal units, for the side that searched) in centipawns
 * as the engine prints them, a mate as +Infinity (it mates) or -Infinity.
 */
export function scoreCp(value: number, material: number, model: WinRateModel): number {
  const [kind, n] = formatScore(value, material, 'PawnValueNormalized', model).split(' ');
  if (kind === 'mate') return Number(n) > 0 ? Infinity : -Infinity;
  return Number(n);
}

/** The facts of a position for kirinAcceptsDraw. */
export function drawFacts(pos: Position, plies: number, kirinCp: number | null): DrawOfferFacts {
  return { plies, kirinCp, noAttackers: !hasAttackers(pos, RED) && !hasAttackers(pos, BLACK) };
}
