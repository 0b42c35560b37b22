// The portable NNUE kernels: plain TypeScript over typed-array views of the one
// network memory (layout.ts), with exactly the integer arithmetic of
// Pikafish's scalar paths (FORMAT in docs/NNUE.md, section 7). The
// WebAssembly SIMD kernels compute the same numbers; this path runs where
// WebAssembly SIMD is missing and serves as their reference.

import type { NnueKernels } from './kernels.js';
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
} from './layout.js';

const HALF = L1 / 2;

export class PortableKernels implements NnueKernels {
  readonly name = 'portable';
  private readonly i8: Int8Array;
  private readonly i16: Int16Array;
  private readonly i32: Int32Array;
  // Work arrays of propagate (per instance, so per thread).
  private readonly nnz = new Int32Array(L1);
  private readonly nnzVal = new Int32Array(L1);
  private readonly o0 = new Int32Array(L2);
  private readonly o1 = new Int32Array(L3);
  private readonly x2 = new Int32Array(2 * L2 + 2 * L3);
  private readonly rowsAdded = new Int32Array(4096);
  private readonly rowsRemoved = new Int32Array(4096);

  /** fc_0 weights input-major (k * 32 + i), packed 4 per int32, per layer stack offset; built on first use. */
  private readonly fc0T = new Map<number, Int32Array>();

  private transposedFc0(stack: number): Int32Array {
    let t = this.fc0T.get(stack);
    if (t === undefined) {
      const bytes = new Int8Array(L2 * L1);
      const w0 = stack + FC0_WEIGHTS;
      for (let i = 0; i < L2; i++) for (let k = 0; k < L1; k++) bytes[k * L2 + i] = this.i8[w0 + i * L1 + k];
      t = new Int32Array(bytes.buffer);
      this.fc0T.set(stack, t);
    }
    return t;
  }

  /** Kernels over `buffer`; the weights must be in place (fc_0 weights are cached in another order). */
  constructor(buffer: ArrayBufferLike) {
    this.i8 = new Int8Array(buffer);
    this.i16 = new Int16Array(buffer);
    this.i32 = new Int32Array(buffer);
  }

  refresh(acc: number, features: number, count: number): void {
    this.accumulate(acc, FT_BIAS, false, features, count, 0, 0);
  }

  update(dst: number, src: number, added: number, addedCount: number, removed: number, removedCount: number): void {
    this.accumulate(dst, src, true, added, addedCount, removed, removedCount);
  }

  /**
   * dst = base + added rows - removed rows. `base` is an accumulator (with PSQT
   * part) or the FT biases (PSQT part zero). Works column block by column
   * block over all rows at once, reading 4 weights per 32-bit load, so each
   * accumulator entry is loaded and stored once; the i16 stores wrap as
   * Pikafish's i16 arithmetic does.
   */
  private accumulate(
    dst: number,
    base: number,
    baseHasPsqt: boolean,
    added: number,
    na: number,
    removed: number,
    nr: number,
  ): void {
    const i16 = this.i16,
      i32 = this.i32;
    const ra = this.rowsAdded,
      rr = this.rowsRemoved;
    const addList = added >> 2,
      remList = removed >> 2;
    if (na > ra.length || nr > rr.length) throw new Error('NNUE kernels: feature list too long');
    for (let i = 0; i < na; i++) ra[i] = (FT_WEIGHTS >> 2) + i32[addList + i] * (L1 >> 2);
    for (let i = 0; i < nr; i++) rr[i] = (FT_WEIGHTS >> 2) + i32[remList + i] * (L1 >> 2);
    const d = dst >> 1,
      b = base >> 1;
    for (let j = 0; j < L1 >> 2; j++) {
      const o = 4 * j;
      let a0 = i16[b + o],
        a1 = i16[b + o + 1],
        a2 = i16[b + o + 2],
        a3 = i16[b + o + 3];
      for (let i = 0; i < na; i++) {
        const x = i32[ra[i] + j];
        a0 += (x << 24) >> 24;
        a1 += (x << 16) >> 24;
        a2 += (x << 8) >> 24;
        a3 += x >> 24;
      }
      for (let i = 0; i < nr; i++) {
        const x = i32[rr[i] + j];
        a0 -= (x << 24) >> 24;
        a1 -= (x << 16) >> 24;
        a2 -= (x << 8) >> 24;
        a3 -= x >> 24;
      }
      i16[d + o] = a0;
      i16[d + o + 1] = a1;
      i16[d + o + 2] = a2;
      i16[d + o + 3] = a3;
    }
    const dps = (dst + ACC_PSQT) >> 2,
      bps = (base + ACC_PSQT) >> 2;
    for (let k = 0; k < PSQT_BUCKETS; k++) {
      let v = baseHasPsqt ? i32[bps + k] : 0;
      for (let i = 0; i < na; i++) v = (v + i32[(FT_PSQT >> 2) + i32[addList + i] * PSQT_BUCKETS + k]) | 0;
      for (let i = 0; i < nr; i++) v = (v - i32[(FT_PSQT >> 2) + i32[remList + i] * PSQT_BUCKETS + k]) | 0;
      i32[dps + k] = v;
    }
  }

  propagate(accUs: number, accThem: number, stack: number, _scratch: number): number {
    const i16 = this.i16,
      i32 = this.i32,
      i8 = this.i8;
    const nnz = this.nnz,
      o0 = this.o0,
      o1 = this.o1,
      x2 = this.x2;
    // Pairwise clipped product of the two accumulator halves, side to move
    // first. Only the non-zero outputs (about one in ten) are kept, with their
    // input index, for the sparse fc_0.
    const nnzVal = this.nnzVal;
    let nz = 0;
    for (let p = 0; p < 2; p++) {
      const a = (p === 0 ? accUs : accThem) >> 1;
      for (let j = 0; j < HALF; j++) {
        const x = i16[a + j];
        if (x <= 0) continue;
        const y = i16[a + j + HALF];
        if (y <= 0) continue;
        const v = ((x > 255 ? 255 : x) * (y > 255 ? 255 : y)) >>> 9;
        if (v) {
          nnz[nz] = p * HALF + j;
          nnzVal[nz++] = v;
        }
      }
    }
    // fc_0 (sparse input: only non-zero inputs are visited), over an
    // input-major copy of the weights so each input's 32 weights are adjacent.
    const b0 = (stack + FC0_BIAS) >> 2;
    for (let i = 0; i < L2; i++) o0[i] = i32[b0 + i];
    const t = this.transposedFc0(stack);
    for (let n = 0; n < nz; n++) {
      const v = nnzVal[n];
      for (let q = 0, w = nnz[n] * (L2 >> 2); q < L2 >> 2; q++, w++) {
        const x = t[w],
          i = 4 * q;
        o0[i] += ((x << 24) >> 24) * v;
        o0[i + 1] += ((x << 16) >> 24) * v;
        o0[i + 2] += ((x << 8) >> 24) * v;
        o0[i + 3] += (x >> 24) * v;
      }
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
    const b1 = (stack + FC1_BIAS) >> 2,
      w1 = stack + FC1_WEIGHTS;
    for (let i = 0; i < L3; i++) {
      let s = i32[b1 + i];
      const row = (w1 + i * 2 * L2) >> 2;
      for (let q = 0; q < L2 >> 1; q++) {
        const x = i32[row + q],
          k = 4 * q;
        s +=
          ((x << 24) >> 24) * x2[k] +
          ((x << 16) >> 24) * x2[k + 1] +
          ((x << 8) >> 24) * x2[k + 2] +
          (x >> 24) * x2[k + 3];
      }
      o1[i] = s;
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
