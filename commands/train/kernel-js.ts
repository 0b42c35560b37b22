// The training kernels in plain JavaScript (scalar loops over typed arrays,
// double-precision arithmetic, float32 storage): the forward pass of a staged
// shard, and the loss and gradient sums of one. assembly/train-kernels.ts is the
// same in WebAssembly SIMD (float32 arithmetic, so the two differ in the last bits).

import { WEIGHT_CLIP } from '../../src/eval/kirinnet/arch.js';
import type { MemoryLayout, Region } from './memory.js';
import { SLOTS } from './memory.js';

/** AdamW's step, the same for every parameter. */
export interface UpdateStep {
  /** Shards of the batch (gradient buffers to add). */
  readonly shards: number;
  readonly batchSize: number;
  readonly lr: number;
  readonly weightDecay: number;
  readonly beta1: number;
  readonly beta2: number;
  readonly eps: number;
  /** 1 - beta1^t and 1 - beta2^t. */
  readonly correction1: number;
  readonly correction2: number;
}

/** What the trainer needs of a kernel. */
export interface TrainKernel {
  readonly name: 'js' | 'wasm';
  /**
   * Zeroes the gradient buffer at byte offset `grad`, adds the loss gradient
   * of the `count` positions staged in `region` to it and returns the loss sum
   * (sum over positions of |sigmoid(y * coef) - target|^power).
   */
  train(region: Region, count: number, grad: number, power: number): number;
  /** Writes y of the `count` positions staged in `region` to region.y. */
  forward(region: Region, count: number): void;
  /**
   * AdamW on parameters [lo, hi): the gradient is the sum of the shard buffers
   * in shard order over the batch size; weight decay when `decay`; then
   * clipped to +-WEIGHT_CLIP when `clip`.
   */
  update(lo: number, hi: number, decay: boolean, clip: boolean, st: UpdateStep): void;
}

/** The loss of one position and its derivative by y, into out[0], out[1]. */
function lossAndSlope(y: number, coef: number, target: number, power: number, out: Float64Array): void {
  const p = 1 / (1 + Math.exp(-y * coef));
  const e = p - target;
  let loss: number, dl: number;
  if (power === 2) {
    loss = e * e;
    dl = 2 * e;
  } else {
    const a = Math.abs(e);
    loss = Math.pow(a, power);
    dl = power * Math.pow(a, power - 1) * Math.sign(e);
  }
  out[0] = loss;
  out[1] = dl * p * (1 - p) * coef;
}

export function jsKernel(buffer: SharedArrayBuffer | ArrayBuffer, layout: MemoryLayout): TrainKernel {
  const f32 = new Float32Array(buffer),
    u16 = new Uint16Array(buffer),
    i32 = new Int32Array(buffer);
  const { shape, ftB, outW, outB } = layout.params;
  const h = shape.hidden;
  const w0 = layout.weights >> 2;
  const ls = new Float64Array(2);
  const sum = new Float64Array(4096);

  /** Accumulators of staged position i into scratch (us at 0, them at h); returns y. */
  function forwardOne(r: Region, i: number): number {
    const acc = r.scratch >> 2;
    const feat = (r.feat >> 1) + i * SLOTS;
    const n = i32[(r.count >> 2) + i];
    const b = i32[(r.bucket >> 2) + i];
    let y = f32[w0 + outB + b];
    for (let half = 0; half < 2; half++) {
      const a = acc + half * h,
        f = feat + half * (SLOTS >> 1),
        w = w0 + outW + b * 2 * h + half * h;
      for (let j = 0; j < h; j++) f32[a + j] = f32[w0 + ftB + j];
      for (let k = 0; k < n; k++) {
        const row = w0 + u16[f + k] * h;
        for (let j = 0; j < h; j++) f32[a + j] += f32[row + j];
      }
      for (let j = 0; j < h; j++) {
        const x = f32[a + j];
        const c = x < 0 ? 0 : x > 1 ? 1 : x;
        y += c * c * f32[w + j];
      }
    }
    return y;
  }

  return {
    name: 'js',
    forward(r, count) {
      const yOut = r.y >> 2;
      for (let i = 0; i < count; i++) f32[yOut + i] = forwardOne(r, i);
    },
    train(r, count, grad, power) {
      const g0 = grad >> 2;
      f32.fill(0, g0, g0 + layout.params.size);
      const acc = r.scratch >> 2;
      let loss = 0;
      for (let i = 0; i < count; i++) {
        const y = forwardOne(r, i);
        lossAndSlope(y, f32[(r.coef >> 2) + i], f32[(r.target >> 2) + i], power, ls);
        loss += ls[0];
        const g = ls[1];
        const feat = (r.feat >> 1) + i * SLOTS;
        const n = i32[(r.count >> 2) + i];
        const b = i32[(r.bucket >> 2) + i];
        f32[g0 + outB + b] += g;
        for (let half = 0; half < 2; half++) {
          const a = acc + half * h,
            f = feat + half * (SLOTS >> 1),
            w = w0 + outW + b * 2 * h + half * h,
            gw = g0 + outW + b * 2 * h + half * h;
          // d loss / d acc, kept in the other half of the scratch.
          const d = acc + 2 * h;
          for (let j = 0; j < h; j++) {
            const x = f32[a + j];
            const c = x < 0 ? 0 : x > 1 ? 1 : x;
            f32[gw + j] += g * c * c;
            const dj = x < 1 ? 2 * g * c * f32[w + j] : 0;
            f32[d + j] = dj;
            f32[g0 + ftB + j] += dj;
          }
          for (let k = 0; k < n; k++) {
            const row = g0 + u16[f + k] * h;
            for (let j = 0; j < h; j++) f32[row + j] += f32[d + j];
          }
        }
      }
      return loss;
    },
    update(lo, hi, decayOn, clip, st) {
      const w0 = layout.weights >> 2,
        m0 = layout.adamM >> 2,
        v0 = layout.adamV >> 2,
        g0 = layout.grads >> 2;
      const inv = 1 / st.batchSize;
      const { lr, beta1, beta2, eps, correction1, correction2 } = st;
      const decay = decayOn ? lr * st.weightDecay : 0;
      for (let a = lo; a < hi; a += sum.length) {
        const n = Math.min(hi, a + sum.length) - a;
        for (let j = 0; j < n; j++) sum[j] = f32[g0 + a + j];
        for (let s = 1; s < st.shards; s++) {
          const g = g0 + s * layout.stride + a;
          for (let j = 0; j < n; j++) sum[j] += f32[g + j];
        }
        for (let j = 0; j < n; j++) {
          const p = a + j;
          const g = sum[j] * inv;
          const m = beta1 * f32[m0 + p] + (1 - beta1) * g;
          const v = beta2 * f32[v0 + p] + (1 - beta2) * g * g;
          f32[m0 + p] = m;
          f32[v0 + p] = v;
          let w = f32[w0 + p];
          w -= decay * w;
          w -= (lr * (m / correction1)) / (Math.sqrt(v / correction2) + eps);
          if (clip) w = w > WEIGHT_CLIP ? WEIGHT_CLIP : w < -WEIGHT_CLIP ? -WEIGHT_CLIP : w;
          f32[w0 + p] = w;
        }
      }
    },
  };
}
