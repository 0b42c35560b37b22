// A reviewed game as an annotated game record (src/notation/game.ts), for PGN:
// after every move of the main line its score, and at each inaccuracy, mistake
// and blunder its NAG (?! ? ??), the win chance it cost, the engine's best move
// and, as a variation, the engine's line. Before the first move a summary: the
// evaluation, the limits and each side's accuracy. Platform-neutral (the page
// writes the same PGN as `kirin review`).

import { Position } from '../core/position.js';
import { err, ok, type Result } from '../core/result.js';
import { parseLegalMove } from '../core/ucimove.js';
import { moveToUci } from '../core/types.js';
import { addMove, type Game, type MoveTree } from '../notation/game.js';
import type { MoveStyle } from '../notation/move.js';
import { formatReviewScore, reviewMoveTexts } from './text.js';
import type { Classification, Review, ReviewPly, SideSummary } from './review.js';

export interface AnnotateOptions extends MoveStyle {
  /** Plies of the engine's line added as a variation at each marked move (default 8; 0: none). */
  readonly variationPlies?: number;
  /** Who annotated, for the Annotator tag (default: no tag). */
  readonly annotator?: string;
}

/** The NAG of each marked class: $6 ?!, $2 ?, $4 ??. */
export const CLASS_NAGS: Readonly<Partial<Record<Classification, number>>> = Object.freeze({
  inaccuracy: 6,
  mistake: 2,
  blunder: 4,
});
/** NAGs $1..$6 judge a move (! ? !! ?? !? ?!): a marked move keeps none of them but the review's. */
const MOVE_NAGS = new Set([1, 2, 3, 4, 5, 6]);

function percent(x: number): string {
  return `${Math.round(100 * x)}%`;
}

function sideLine(name: string, s: SideSummary): string {
  const acc = s.accuracy === null ? 'no moves' : `accuracy ${s.accuracy.toFixed(1)}%`;
  return `${name} ${acc}, ${s.inaccuracies} inaccuracies, ${s.mistakes} mistakes, ${s.blunders} blunders`;
}

/** What the review says before the first move. */
export function reviewSummary(review: Review): string {
  const l = review.limits;
  const limit = [
    l.nodes !== undefined ? `${l.nodes} nodes` : '',
    l.movetime !== undefined ? `${l.movetime} ms` : '',
    l.depth !== undefined ? `depth ${l.depth}` : '',
  ]
    .filter((s) => s !== '')
    .join(', ');
  return `Kirin review (${review.evaluation}; ${limit} a position): ${sideLine('Red', review.red)}; ${sideLine('Black', review.black)}.`;
}

function moveComment(p: ReviewPly, best: string | null): string {
  const after = formatReviewScore(p.scoreAfter);
  const nag = CLASS_NAGS[p.classification];
  if (nag === undefined || best === null) return after;
  return (
    `${after} ${p.classification}: ${p.side === 'red' ? 'Red' : 'Black'}'s win chance ` +
    `${percent(p.winBefore)} -> ${percent(p.winAfter)}; best ${best} (${formatReviewScore(p.scoreBefore)})`
  );
}

/**
 * A copy of `game` with the review's annotations on its main line (existing
 * comments are kept, the review's text follows them). The review must be of this
 * game: the same start and main-line moves ('review-mismatch' otherwise).
 */
export function annotateGame(
  game: Game,
  review: Review,
  options: AnnotateOptions = {},
): Result<Game, 'review-mismatch'> {
  const fen = (f: string): string | null => {
    const p = Position.fromFen(f);
    return p.ok ? p.value.fen() : null;
  };
  if (fen(game.fen) === null || fen(game.fen) !== fen(review.startFen))
    return err('review-mismatch', `the review starts from ${review.startFen}, the game from ${game.fen}`);
  const out = structuredClone(game);
  const plies = options.variationPlies ?? 8;
  const texts = reviewMoveTexts(review, options);
  let parent: MoveTree = out;
  for (const p of review.plies) {
    const node = parent.children[0];
    if (node === undefined || moveToUci(node.move) !== p.move)
      return err(
        'review-mismatch',
        `ply ${p.ply}: the review has ${p.move}, the game ${node ? moveToUci(node.move) : 'no move'}`,
      );
    const text = moveComment(p, texts[p.ply - 1][1]);
    node.comment = node.comment === '' ? text : `${node.comment} ${text}`;
    const nag = CLASS_NAGS[p.classification];
    if (nag !== undefined) {
      node.nags = [...node.nags.filter((n) => !MOVE_NAGS.has(n)), nag];
      if (plies > 0 && p.bestPv.length > 0) {
        // The engine's line from the position before the move, as a variation.
        const pos = Position.fromFen(p.fenBefore);
        if (pos.ok) {
          let at: MoveTree = parent;
          for (const u of p.bestPv.slice(0, plies)) {
            const m = parseLegalMove(pos.value, u);
            if (!m.ok) break;
            at = addMove(at, m.value);
            pos.value.doMove(m.value);
          }
          const first = parent.children.find((c) => moveToUci(c.move) === p.best);
          if (first && first !== node && first.comment === '') first.comment = formatReviewScore(p.scoreBefore);
        }
      }
    }
    parent = node;
  }
  out.comment = out.comment === '' ? reviewSummary(review) : `${out.comment} ${reviewSummary(review)}`;
  if (options.annotator !== undefined) out.headers = { ...out.headers, Annotator: options.annotator };
  return ok(out);
}
