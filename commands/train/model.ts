// The float model that `kirin train` fits: arch.ts (src/eval/kirinnet) in
// floating point, and its quantisation to the engine's integers.
//
//   acc_p = ftBias + sum of the feature rows of perspective p
//   a_p   = clamp(acc_p, 0, 1)^2                               (SCReLU)
//   y     = sum_j a_us[j] w[b][j] + sum_j a_them[j] w[b][H + j] + outBias[b]
//   evaluation (internal units, before evaluate()'s post-processing) = y * SCALE
//
// The parameters live in one Float32Array, in this order: feature weights
// [INPUTS][H], feature biases [H], output weights [buckets][2H], output biases
// [buckets]. Quantised: feature weights and biases * QA, output weights * QB,
// output biases * OUTPUT_UNIT (QA * QB >> OUTPUT_SHIFT), rounded to the nearest
// integer.

import { mulberry32 } from '../../src/core/prng.js';
import {
  INPUTS,
  OUTPUT_UNIT,
  QA,
  QB,
  appendFeatures,
  outputBucket,
  pieceCount,
  screlu,
  type KirinNetShape,
} from '../../src/eval/kirinnet/arch.js';
import { type KirinNetWeights } from '../../src/eval/kirinnet/format.js';

/** Where each tensor starts in the parameter array (in floats), and the total. */
export interface ParamLayout {
  readonly shape: KirinNetShape;
  readonly ftW: number;
  readonly ftB: number;
  readonly outW: number;
  readonly outB: number;
  readonly size: number;
}

export function paramLayout(shape: KirinNetShape): ParamLayout {
  const h = shape.hidden;
  const ftB = INPUTS * h;
  const outW = ftB + h;
  const outB = outW + shape.outputBuckets * 2 * h;
  return { shape, ftW: 0, ftB, outW, outB, size: outB + shape.outputBuckets };
}

/**
 * Initial parameters from `seed`: feature weights uniform in +-0.1 (about 30
 * active rows put the accumulators in SCReLU's range), feature biases 0.25,
 * output weights uniform in +-1/sqrt(2H), output biases 0.
 */
export function initParams(l: ParamLayout, params: Float32Array, seed: number): void {
  const rnd = mulberry32(seed ^ 0x1f2e3d4c);
  const h = l.shape.hidden;
  for (let i = l.ftW; i < l.ftB; i++) params[i] = (rnd() * 2 - 1) * 0.1;
  for (let i = l.ftB; i < l.outW; i++) params[i] = 0.25;
  const r = 1 / Math.sqrt(2 * h);
  for (let i = l.outW; i < l.outB; i++) params[i] = (rnd() * 2 - 1) * r;
  for (let i = l.outB; i < l.size; i++) params[i] = 0;
}

/**
 * The float network's output y of `board` for the side to move `side`, in
 * double precision from the arch.ts feature functions: the reference the
 * training kernels and the quantised network are checked against.
 */
export function referenceForward(l: ParamLayout, params: Float32Array, board: Uint8Array, side: number): number {
  const h = l.shape.hidden;
  const features = new Int32Array(40);
  const b = outputBucket(pieceCount(board), l.shape.outputBuckets);
  let y = params[l.outB + b];
  for (let half = 0; half < 2; half++) {
    const n = appendFeatures(board, side ^ half, features, 0);
    for (let j = 0; j < h; j++) {
      let acc = params[l.ftB + j];
      for (let k = 0; k < n; k++) acc += params[l.ftW + features[k] * h + j];
      y += screlu(acc) * params[l.outW + b * 2 * h + half * h + j];
    }
  }
  return y;
}

/** The engine's integer network of float parameters (rounded to nearest; the caller clipped them). */
export function quantise(l: ParamLayout, params: Float32Array, description: string): KirinNetWeights {
  const { hidden: h, outputBuckets: nb } = l.shape;
  const ftWeights = new Int16Array(INPUTS * h),
    ftBias = new Int16Array(h),
    outWeights = new Int16Array(nb * 2 * h),
    outBias = new Int32Array(nb);
  for (let i = 0; i < ftWeights.length; i++) ftWeights[i] = Math.round(params[l.ftW + i] * QA);
  for (let i = 0; i < h; i++) ftBias[i] = Math.round(params[l.ftB + i] * QA);
  for (let i = 0; i < outWeights.length; i++) outWeights[i] = Math.round(params[l.outW + i] * QB);
  for (let i = 0; i < nb; i++) outBias[i] = Math.round(params[l.outB + i] * OUTPUT_UNIT);
  return { shape: l.shape, description, ftWeights, ftBias, outWeights, outBias };
}

/**
 * The float parameters of an engine network (quantise's inverse: every integer
 * divided by its scale), to start a run from (`kirin train --init`). The
 * layout may have more hidden units than the network (a wider run grown from a
 * narrower network): the network's units come first, and each new unit gets
 * random feature weights and initParams' bias (from `seed`) but output weights
 * of 0, so the wider network starts out evaluating exactly as the narrower
 * one and training grows the new units from there. Inputs and output buckets
 * must be the layout's.
 */
export function dequantise(l: ParamLayout, net: KirinNetWeights, seed = 1): Float32Array {
  const { hidden: h, outputBuckets: nb } = l.shape;
  const h0 = net.shape.hidden;
  if (h0 > h || net.shape.outputBuckets !== nb || net.shape.inputs !== l.shape.inputs)
    throw new Error(
      `the network is ${net.shape.inputs}x2-${h0}-${net.shape.outputBuckets} buckets, ` +
        `the run ${l.shape.inputs}x2-${h}-${nb} buckets`,
    );
  const params = new Float32Array(l.size);
  const rnd = mulberry32(seed ^ 0x5a17e3b9);
  for (let i = 0; i < l.shape.inputs; i++) {
    for (let j = 0; j < h0; j++) params[l.ftW + i * h + j] = net.ftWeights[i * h0 + j] / QA;
    for (let j = h0; j < h; j++) params[l.ftW + i * h + j] = (rnd() * 2 - 1) * 0.1;
  }
  for (let j = 0; j < h; j++) params[l.ftB + j] = j < h0 ? net.ftBias[j] / QA : 0.25;
  for (let b = 0; b < nb; b++)
    for (let half = 0; half < 2; half++)
      for (let j = 0; j < h0; j++)
        params[l.outW + b * 2 * h + half * h + j] = net.outWeights[b * 2 * h0 + half * h0 + j] / QB;
  for (let i = 0; i < nb; i++) params[l.outB + i] = net.outBias[i] / OUTPUT_UNIT;
  return params;
}
