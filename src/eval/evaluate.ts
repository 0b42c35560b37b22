// evaluate(): the static evaluation used by the search. It takes the classical
// evaluation and applies Pikafish's post-processing (evaluate.cpp): the optimism
// blend weighted by the major material left, linear damping as the 60-move
// counter grows, and a clamp that keeps static scores out of the mate range.

import type { Position } from '../core/position.js';
import { RED, VALUE_MATED_IN_MAX_PLY, VALUE_MATE_IN_MAX_PLY } from '../core/types.js';
import { classicalTermTable, evaluateClassical, pawns } from './classical.js';

/**
 * The factor postProcess applies to the classical evaluation (with optimism 0,
 * before truncation and clamp): the material blend times the rule-60 damping.
 * For the tuner, which must compare the evaluation with search scores on the
 * scale the search sees.
 */
export function postProcessFactor(pos: Position): number {
  const material = pos.majorMaterial[0] + pos.majorMaterial[1];
  return ((17380 + material) / 20582) * (1 - pos.rule60Count() / 253);
}

/** Applies the blend, rule-60 damping and clamp to a raw score `e` (side to move). */
export function postProcess(pos: Position, e: number, optimism: number): number {
  const material = pos.majorMaterial[0] + pos.majorMaterial[1];
  // Products stay below 2^53 (|e|, |optimism| < 2^16, material < 2^14), so
  // double arithmetic is exact; the quotients fit in int32, so `| 0` truncates
  // towards zero like C++ integer division (and, unlike Math.trunc, never
  // yields -0, which would make V8 leave its integer fast paths).
  let v = ((e * (17380 + material) + optimism * (3061 + material)) / 20582) | 0;
  v -= ((v * pos.rule60Count()) / 253) | 0;
  if (v < VALUE_MATED_IN_MAX_PLY + 1) v = VALUE_MATED_IN_MAX_PLY + 1;
  else if (v > VALUE_MATE_IN_MAX_PLY - 1) v = VALUE_MATE_IN_MAX_PLY - 1;
  return v;
}

/**
 * Static evaluation of `pos` from the side to move, in internal units (Pikafish's
 * scale), never in the mate range. `optimism` is the search's per-side optimism
 * (0 outside a search). Must not be called when the side to move is in check.
 */
export function evaluate(pos: Position, optimism: number): number {
  return postProcess(pos, evaluateClassical(pos), optimism);
}

/**
 * The `eval` table of the classical evaluation (classicalTermTable), then the
 * final evaluation (with the post-processing above) from the side to move and
 * from Red's side.
 */
export function traceClassical(pos: Position): string {
  if (pos.inCheck()) return 'Final evaluation: none (in check)';
  const f = postProcess(pos, evaluateClassical(pos), 0);
  return [
    classicalTermTable(pos),
    `Final evaluation     ${pawns(f).trim()} (side to move, with optimism 0 and rule-60 damping)`,
    `Final evaluation     ${pawns(pos.side === RED ? f : -f).trim()} (red side)`,
  ].join('\n');
}
