// The integer forward pass of Kirin's network written plainly, from a board:
// the definition the engine's incremental evaluator and its kernels must
// reproduce exactly (tests), and what the trainer checks its quantised
// networks with. Not used by the search.

import { INPUTS, OUTPUT_SHIFT, OUTPUT_UNIT, QA, SCALE, appendFeatures, outputBucket, pieceCount } from './arch.js';
import type { KirinNetWeights } from './format.js';

/** The feature transformer's int16 accumulator (wrapping sums) for perspective `p`. */
export function referenceAccumulator(net: KirinNetWeights, board: Uint8Array, p: number): Int16Array {
  const h = net.shape.hidden;
  const acc = new Int16Array(net.ftBias);
  const features = new Int32Array(40);
  const n = appendFeatures(board, p, features, 0);
  for (let k = 0; k < n; k++) {
    const row = features[k] * h;
    for (let j = 0; j < h; j++) acc[j] += net.ftWeights[row + j];
  }
  return acc;
}

/**
 * The output layer's raw int32 sum: over both halves, the sum of
 * (clamp(acc, 0, QA) * w * clamp(acc, 0, QA)) >> OUTPUT_SHIFT, each term exact.
 */
export function outputSum(net: KirinNetWeights, us: Int16Array, them: Int16Array, bucket: number): number {
  const h = net.shape.hidden;
  const w = net.outWeights,
    base = bucket * 2 * h;
  let s = 0;
  for (let j = 0; j < h; j++) {
    const a = us[j] < 0 ? 0 : us[j] > QA ? QA : us[j];
    const b = them[j] < 0 ? 0 : them[j] > QA ? QA : them[j];
    s = (s + ((a * w[base + j] * a) >> OUTPUT_SHIFT)) | 0;
    s = (s + ((b * w[base + h + j] * b) >> OUTPUT_SHIFT)) | 0;
  }
  return s;
}

/** The network output in internal units from the raw output sum (C-style truncation). */
export function scaleOutput(sum: number, bias: number): number {
  const t = ((sum / QA) | 0) + bias;
  return Math.trunc((t * SCALE) / OUTPUT_UNIT);
}

/** The network's evaluation of `board` for the side to move `side`, internal units (before evaluate()'s post-processing). */
export function referenceEvaluate(net: KirinNetWeights, board: Uint8Array, side: number): number {
  if (net.shape.inputs !== INPUTS) throw new RangeError('referenceEvaluate: unsupported input count');
  const us = referenceAccumulator(net, board, side),
    them = referenceAccumulator(net, board, side ^ 1);
  const bucket = outputBucket(pieceCount(board), net.shape.outputBuckets);
  return scaleOutput(outputSum(net, us, them, bucket), net.outBias[bucket]);
}
