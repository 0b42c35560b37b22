// A deliberately plain scalar implementation of the NNUE kernel contract
// (src/eval/nnue/kernels.ts), written straight from the forward pass of Pikafish
// (FORMAT section 7) for checking the optimised kernels. Slow by design: one element at
// a time, no tricks. For the tests and the kernel benchmark (lab/nnue) only. Its independence from the kernels
// under test is the arithmetic; the memory layout it reads (offsets and sizes) is the shared
// contract, so it takes that from src/eval/nnue/layout.ts like they do, restating nothing.

import { type NnueKernels } from '../../src/eval/nnue/kernels.js';
import {
  ACC_PSQT,
  FC0_BIAS,
  FC0_WEIGHTS,
  FC1_BIAS,
  FC1_WEIGHTS,
  FC2_BIAS,
  FC2_WEIGHTS,
  FT_BIAS,
  FT_PSQT,
  FT_WEIGHTS,
  L1,
  L2,
  L3,
  PSQT_BUCKETS,
} from '../../src/eval/nnue/layout.js';

const wrap16 = (x: number): number => (x << 16) >> 16;
const clamp = (x: number, lo: number, hi: number): number => Math.min(hi, Math.max(lo, x));

/** The reference kernels on `buffer` (the memory's buffer; re-read after it grows). */
export function referenceKernels(memory: { readonly buffer: ArrayBufferLike }): NnueKernels {
  const view = (): DataView => new DataView(memory.buffer);

  const refresh = (acc: number, features: number, count: number): void => {
    const m = view();
    for (let j = 0; j < L1; j++) {
      let v = m.getInt16(FT_BIAS + 2 * j, true);
      for (let i = 0; i < count; i++) {
        const row = m.getInt32(features + 4 * i, true);
        v = wrap16(v + m.getInt8(FT_WEIGHTS + row * L1 + j));
      }
      m.setInt16(acc + 2 * j, v, true);
    }
    for (let k = 0; k < PSQT_BUCKETS; k++) {
      let v = 0;
      for (let i = 0; i < count; i++) {
        const row = m.getInt32(features + 4 * i, true);
        v = (v + m.getInt32(FT_PSQT + row * 4 * PSQT_BUCKETS + 4 * k, true)) | 0;
      }
      m.setInt32(acc + ACC_PSQT + 4 * k, v, true);
    }
  };

  const update = (
    dst: number,
    src: number,
    added: number,
    addedCount: number,
    removed: number,
    removedCount: number,
  ): void => {
    const m = view();
    for (let j = 0; j < L1; j++) {
      let v = m.getInt16(src + 2 * j, true);
      for (let i = 0; i < addedCount; i++) {
        v = wrap16(v + m.getInt8(FT_WEIGHTS + m.getInt32(added + 4 * i, true) * L1 + j));
      }
      for (let i = 0; i < removedCount; i++) {
        v = wrap16(v - m.getInt8(FT_WEIGHTS + m.getInt32(removed + 4 * i, true) * L1 + j));
      }
      m.setInt16(dst + 2 * j, v, true);
    }
    for (let k = 0; k < PSQT_BUCKETS; k++) {
      let v = m.getInt32(src + ACC_PSQT + 4 * k, true);
      for (let i = 0; i < addedCount; i++) {
        v = (v + m.getInt32(FT_PSQT + m.getInt32(added + 4 * i, true) * 4 * PSQT_BUCKETS + 4 * k, true)) | 0;
      }
      for (let i = 0; i < removedCount; i++) {
        v = (v - m.getInt32(FT_PSQT + m.getInt32(removed + 4 * i, true) * 4 * PSQT_BUCKETS + 4 * k, true)) | 0;
      }
      m.setInt32(dst + ACC_PSQT + 4 * k, v, true);
    }
  };

  /** An affine layer: bias (i32) + weights (i8, output-major) x input, wrapped to i32. */
  const affine = (
    m: DataView,
    stack: number,
    biasAt: number,
    weightsAt: number,
    input: number[],
    outputs: number,
  ): number[] => {
    const out: number[] = [];
    for (let o = 0; o < outputs; o++) {
      let sum = m.getInt32(stack + biasAt + 4 * o, true);
      for (let i = 0; i < input.length; i++) sum += m.getInt8(stack + weightsAt + o * input.length + i) * input[i];
      out.push(sum | 0); // |sum| < 2^53: exact before the i32 wrap
    }
    return out;
  };

  // x * x can exceed 2^53, but then the quotient is far above 127 anyway; near the
  // clip (x * x around 2^28) the double arithmetic is exact.
  const sqrClippedRelu = (x: number, shift: number): number => Math.min(127, Math.floor((x * x) / 2 ** shift));
  const clippedRelu = (x: number, shift: number): number => clamp(x >> shift, 0, 127);

  const propagate = (accUs: number, accThem: number, stack: number, _scratch: number): number => {
    const m = view();
    const transformed: number[] = [];
    for (const acc of [accUs, accThem]) {
      for (let j = 0; j < L1 / 2; j++) {
        const a = clamp(m.getInt16(acc + 2 * j, true), 0, 255);
        const b = clamp(m.getInt16(acc + 2 * (j + L1 / 2), true), 0, 255);
        transformed.push(Math.floor((a * b) / 512));
      }
    }
    const o0 = affine(m, stack, FC0_BIAS, FC0_WEIGHTS, transformed, L2);
    const x1 = [...o0.map((x) => sqrClippedRelu(x, 21)), ...o0.map((x) => clippedRelu(x, 7))];
    const o1 = affine(m, stack, FC1_BIAS, FC1_WEIGHTS, x1, L3);
    const x2 = [...x1, ...o1.map((x) => sqrClippedRelu(x, 19)), ...o1.map((x) => clippedRelu(x, 6))];
    const o2 = affine(m, stack, FC2_BIAS, FC2_WEIGHTS, x2, 1)[0];
    const fwd = (o2 + o0[L2 - 2] - o0[L2 - 1]) | 0;
    // fwd * 9600 < 2^45: exact in a double, and so is the division by 2^14.
    const positionalRaw = Math.trunc((fwd * 600 * 16) / (128 * 64 * 2));
    return Math.trunc(positionalRaw / 16);
  };

  return { name: 'scalar-reference', refresh, update, propagate };
}
