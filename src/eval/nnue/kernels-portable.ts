// The portable NNUE kernels: plain TypeScript over typed-array views of the one
// network memory (layout.ts), with exactly the integer arithmetic of
// Pikafish's scalar paths (FORMAT in docs/NNUE.md, section 7). The
// WebAssembly SIMD kernels compute the same numbers; this path runs where
// WebAssembly SIMD is missing and serves as their reference.

import type { NnueKernels } from './kernels.js';
import {
  ACC_PSQT, FC0_BIAS, FC0_WEIGHTS, FC1_BIAS, FC1_WEIGHTS, FC2_BIAS, FC2_WEIGHTS, FT_BIAS, FT_PSQT, FT_WEIGHTS, L1, L2, L3,
  PSQT_BUCKETS,
} from './layout.js';

const HALF = L1 / 2;

export class PortableKernels implements NnueKernels {
  readonly name = 'portable';
  private readonly i8: Int8Array;
  private readonly u8: Uint8Array;
  private readonly i16: Int16Array;
  private readonly i32: Int32Array;
  // Work arrays of propagate (per instance, so per thread).
  private readonly nnz = new Int32Array(L1);
  private readonly o0 = new Int32Array(L2);
  private readonly o1 = new Int32Array(L3);
  private readonly x2 = new Int32Array(2 * L2 + 2 * L3);

  constructor(buffer: ArrayBufferLike) {
    this.i8 = new Int8Array(buffer);
    this.u8 = new Uint8Array(buffer);
    this.i16 = new Int16Array(buffer);
    this.i32 = new Int32Array(buffer);
  }

  refresh(acc: number, features: number, count: number): void {
    const i16 = this.i16, i32 = this.i32, i8 = this.i8;
    const a = acc >> 1, bias = FT_BIAS >> 1;
    for (let j = 0; j < L1; j++) i16[a + j] = i16[bias + j];
    const ps = (acc + ACC_PSQT) >> 2;
    for (let k = 0; k < PSQT_BUCKETS; k++) i32[ps + k] = 0;
    const list = features >> 2;
    for (let i = 0; i < count; i++) {
      const row = i32[list + i];
      const w = FT_WEIGHTS + row * L1;
      for (let j = 0; j < L1; j++) i16[a + j] += i8[w + j];
      const p = (FT_PSQT >> 2) + row * PSQT_BUCKETS;
      for (let k = 0; k < PSQT_BUCKETS; k++) i32[ps + k] = (i32[ps + k] + i32[p + k]) | 0;
    }
  }

  update(dst: number, src: number, added: number, addedCount: number, removed: number, removedCount: number): void {
    const i16 = this.i16, i32 = this.i32, i8 = this.i8;
    const d = dst >> 1, s = src >> 1;
    const dps = (dst + ACC_PSQT) >> 2, sps = (src + ACC_PSQT) >> 2;
    if (d !== s) {
      for (let j = 0; j < L1; j++) i16[d + j] = i16[s + j];
      for (let k = 0; k < PSQT_BUCKETS; k++) i32[dps + k] = i32[sps + k];
    }
    const add = added >> 2, rem = removed >> 2;
    for (let i = 0; i < addedCount; i++) {
      const row = i32[add + i];
      const w = FT_WEIGHTS + row * L1;
      for (let j = 0; j < L1; j++) i16[d + j] += i8[w + j];
      const p = (FT_PSQT >> 2) + row * PSQT_BUCKETS;
      for (let k = 0; k < PSQT_BUCKETS; k++) i32[dps + k] = (i32[dps + k] + i32[p + k]) | 0;
    }
    for (let i = 0; i < removedCount; i++) {
      const row = i32[rem + i];
      const w = FT_WEIGHTS + row * L1;
      for (let j = 0; j < L1; j++) i16[d + j] -= i8[w + j];
      const p = (FT_PSQT >> 2) + row * PSQT_BUCKETS;
      for (let k = 0; k < PSQT_BUCKETS; k++) i32[dps + k] = (i32[dps + k] - i32[p + k]) | 0;
    }
  }

  propagate(accUs: number, accThem: number, stack: number, scratch: number): number {
    const i16 = this.i16, i32 = this.i32, i8 = this.i8, u8 = this.u8;
    const nnz = this.nnz, o0 = this.o0, o1 = this.o1, x2 = this.x2;
    // Pairwise clipped product of the two accumulator halves, side to move first.
    let nz = 0;
    for (let p = 0; p < 2; p++) {
      const a = (p === 0 ? accUs : accThem) >> 1;
      const out = scratch + p * HALF;
      for (let j = 0; j < HALF; j++) {
        let x = i16[a + j], y = i16[a + j + HALF];
        x = x < 0 ? 0 : x > 255 ? 255 : x;
        y = y < 0 ? 0 : y > 255 ? 255 : y;
        const v = (x * y) >>> 9;
        u8[out + j] = v;
        if (v) nnz[nz++] = p * HALF + j;
      }
    }
    // fc_0 (sparse input: only non-zero inputs are visited).
    const b0 = (stack + FC0_BIAS) >> 2;
    for (let i = 0; i < L2; i++) o0[i] = i32[b0 + i];
    const w0 = stack + FC0_WEIGHTS;
    for (let n = 0; n < nz; n++) {
      const k = nnz[n];
      const v = u8[scratch + k];
      for (let i = 0, w = w0 + k; i < L2; i++, w += L1) o0[i] = (o0[i] + i8[w] * v) | 0;
    }
    // SqrClippedReLU and ClippedReLU of fc_0.
    for (let i = 0; i < L2; i++) {
      const o = o0[i];
      const sq = Math.floor((o * o) / 2097152);
      x2[i] = sq > 127 ? 127 : sq;
      const c = o >> 7;
      x2[L2 + i] = c < 0 ? 0 : c > 127 ? 127 : c;
    }
    // fc_1 over the 64 activations.
    const b1 = (stack + FC1_BIAS) >> 2, w1 = stack + FC1_WEIGHTS;
    for (let i = 0; i < L3; i++) {
      let s = i32[b1 + i];
      const row = w1 + i * 2 * L2;
      for (let k = 0; k < 2 * L2; k++) s += i8[row + k] * x2[k];
      o1[i] = s | 0;
    }
    for (let i = 0; i < L3; i++) {
      const o = o1[i];
      const sq = Math.floor((o * o) / 524288);
      x2[2 * L2 + i] = sq > 127 ? 127 : sq;
      const c = o >> 6;
      x2[2 * L2 + L3 + i] = c < 0 ? 0 : c > 127 ? 127 : c;
    }
    // fc_2 over all 128 activations, plus the skip connection.
    let out = i32[(stack + FC2_BIAS) >> 2];
    const w2 = stack + FC2_WEIGHTS;
    for (let k = 0; k < 2 * L2 + 2 * L3; k++) out += i8[w2 + k] * x2[k];
    const fwd = (out + o0[L2 - 2] - o0[L2 - 1]) | 0;
    const raw = ((fwd * 9600) / 16384) | 0;
    return (raw / 16) | 0;
  }
}
