// The check that a quantised network computes what the float one does: on a
// sample of positions, the engine's integer forward pass (referenceEvaluate)
// against the float model in double precision, both in internal units.

import { SCALE } from '../../src/eval/kirinnet/arch.js';
import { type KirinNetWeights } from '../../src/eval/kirinnet/format.js';
import { referenceEvaluate } from '../../src/eval/kirinnet/reference.js';
import { positionBoard, type TrainDataBuffers } from './data.js';
import { referenceForward, type ParamLayout } from './model.js';

/**
 * Above these (internal units, PawnValue = 144) the quantised network is
 * refused. Rounding to QA and QB gives a noise of about 5 units on average
 * for trained networks (it grows with the weights and H); a mistake in the
 * format's layout gives differences of the size of the evaluations themselves.
 */
const MAX_MEAN_DIFF = 32;
const MAX_DIFF = 256;

export interface QuantCheck {
  readonly positions: number;
  readonly meanAbs: number;
  readonly maxAbs: number;
  /** Mean |float evaluation| over the sample, for scale. */
  readonly meanAbsEval: number;
  /** Why the network is refused, or null. */
  readonly problem: string | null;
}

/** Compares on up to `sample` positions spread evenly over the validation positions (the training ones without). */
export function quantisationCheck(
  layout: ParamLayout,
  params: Float32Array,
  net: KirinNetWeights,
  data: TrainDataBuffers,
  sample = 4096,
): QuantCheck {
  const list = data.valid.length > 0 ? data.valid : data.train;
  const n = Math.min(sample, list.length);
  const board = new Uint8Array(90);
  let sum = 0,
    max = 0,
    evals = 0;
  for (let j = 0; j < n; j++) {
    const i = list[Math.floor((j * list.length) / n)];
    positionBoard(data, i, board);
    const side = data.flags[i] & 1;
    const float = referenceForward(layout, params, board, side) * SCALE;
    const q = referenceEvaluate(net, board, side);
    const d = Math.abs(q - float);
    sum += d;
    if (d > max) max = d;
    evals += Math.abs(float);
  }
  const meanAbs = n ? sum / n : 0;
  const problem = !Number.isFinite(sum)
    ? 'the float network gives values that are not finite'
    : meanAbs > MAX_MEAN_DIFF
      ? `mean difference ${meanAbs.toFixed(2)} above ${MAX_MEAN_DIFF}`
      : max > MAX_DIFF
        ? `largest difference ${max.toFixed(2)} above ${MAX_DIFF}`
        : null;
  return { positions: n, meanAbs, maxAbs: max, meanAbsEval: n ? evals / n : 0, problem };
}
