// A review in words: scores as players read them and moves in a notation
// (for the chart's tooltips, the annotated PGN and the command's summary).

import { Position } from '../core/position.js';
import type { Move } from '../core/types.js';
import { parseLegalMove } from '../core/ucimove.js';
import { formatLine, type MoveStyle } from '../notation/move.js';
import type { Review, ReviewScore } from './review.js';

/** A score as players read it: +1.25 (pawns, from Red), #5 / #-3 (mate in moves), or the result. */
export function formatReviewScore(s: ReviewScore): string {
  if (s.mate !== null) {
    if (s.mate === 0) return s.value > 0 ? '1-0' : '0-1';
    return `#${s.mate}`;
  }
  const cp = s.cp ?? 0;
  return (cp > 0 ? '+' : cp < 0 ? '-' : '') + (Math.abs(cp) / 100).toFixed(2);
}

/**
 * The moves played and the best moves of a review in a notation: [played, best]
 * per ply (UCI where a move cannot be written).
 */
export function reviewMoveTexts(review: Review, style: MoveStyle = { notation: 'uci' }): [string, string | null][] {
  const text = (fen: string, uci: readonly string[]): string[] => {
    const start = Position.fromFen(fen);
    if (!start.ok) return [...uci];
    const pos = start.value.clone();
    const moves: Move[] = [];
    for (const u of uci) {
      const m = parseLegalMove(pos, u);
      if (!m.ok) return [...uci];
      moves.push(m.value);
      pos.doMove(m.value);
    }
    const line = formatLine(start.value, moves, style);
    return line.ok ? line.value : [...uci];
  };
  const played = text(review.startFen, review.moves);
  return review.plies.map((p, i) => [played[i], p.best === null ? null : text(p.fenBefore, [p.best])[0]]);
}
