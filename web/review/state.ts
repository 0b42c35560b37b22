// The last review of the game (the library's reviewGame) and what it says
// about the position shown: its index among the positions reviewed, a move's
// mark (?! ? ??), the score and the best move there. Shared by the move list,
// the evaluation bar and the board's arrow; the review room (review.ts) fills it.

import type { MoveNode, Review } from '../../src/browser/index.js';

/** The review's glyphs by class. */
export const REVIEW_GLYPHS: Readonly<Record<string, string>> = { inaccuracy: '?!', mistake: '?', blunder: '??' };

export interface ReviewState {
  /** The review and the main-line moves it reviewed (review.plies[i] is reviewed[i]); null before one. */
  done: { result: Review; reviewed: MoveNode[] } | null;
  /** A review is running. */
  running: boolean;
}

export function createReviewState(): ReviewState {
  return { done: null, running: false };
}

/** The position after `path` as a position of the review (its index), or -1 when the review does not cover it. */
export function reviewedIndex(state: ReviewState, path: readonly MoveNode[]): number {
  const r = state.done?.reviewed;
  if (!r || path.length > r.length) return -1;
  for (let i = 0; i < path.length; i++) if (path[i] !== r[i]) return -1;
  return path.length;
}
