// Kirin NNUE kernels in AssemblyScript, compiled to WebAssembly with 128-bit SIMD
// (npm run build: asc --enable simd --importMemory --runtime stub -O3). The memory is
// imported (created by JavaScript) and laid out as src/eval/nnue/layout.ts describes;
// every argument is a byte offset into it. The contract is src/eval/nnue/kernels.ts
// and the arithmetic is Pikafish's (FORMAT section 7): i16 wrapping accumulators,
// i32 PSQT sums, pairwise clipped product, fc_0 1024 -> 32, SqrClippedReLU and
// ClippedReLU, fc_1 64 -> 32, fc_2 128 -> 1 and the skip connection.
//
// The layout constants are repeated here (this file is compiled separately) and
// exported as globals; kernels-wasm.ts refuses the module if they differ from
// layout.ts. No static data, no allocation, no imports besides the memory.

// ---- layout (must equal src/eval/nnue/layout.ts) ---------------------------------------

const L1: usize = 1024;
const L2: usize = 32;
const L3: usize = 32;
const PSQT_BUCKETS: usize = 16;
const LAYER_STACKS: usize = 16;
const FEATURE_ROWS: usize = 16536 + 45547;

// align(n) = ceil(n / 64) * 64
const FT_BIAS_: usize = 0;
const FT_WEIGHTS_: usize = (FT_BIAS_ + 2 * L1 + 63) & ~63;
const FT_PSQT_: usize = (FT_WEIGHTS_ + FEATURE_ROWS * L1 + 63) & ~63;
const FC0_BIAS_: usize = 0;
const FC0_WEIGHTS_: usize = FC0_BIAS_ + 4 * L2;
const FC1_BIAS_: usize = FC0_WEIGHTS_ + L2 * L1;
const FC1_WEIGHTS_: usize = FC1_BIAS_ + 4 * L3;
const FC2_BIAS_: usize = FC1_WEIGHTS_ + L3 * 2 * L2;
const FC2_WEIGHTS_: usize = FC2_BIAS_ + 16;
const STACK_BYTES_: usize = (FC2_WEIGHTS_ + 2 * L2 + 2 * L3 + 63) & ~63;
const STACKS_: usize = (FT_PSQT_ + 4 * FEATURE_ROWS * PSQT_BUCKETS + 63) & ~63;
const WEIGHTS_END_: usize = (STACKS_ + LAYER_STACKS * STACK_BYTES_ + 63) & ~63;
const ACC_PSQT_: usize = 2 * L1;

export const FT_BIAS: i32 = <i32>FT_BIAS_;
export const FT_WEIGHTS: i32 = <i32>FT_WEIGHTS_;
export const FT_PSQT: i32 = <i32>FT_PSQT_;
export const FC0_WEIGHTS: i32 = <i32>FC0_WEIGHTS_;
export const FC1_BIAS: i32 = <i32>FC1_BIAS_;
export const FC1_WEIGHTS: i32 = <i32>FC1_WEIGHTS_;
export const FC2_BIAS: i32 = <i32>FC2_BIAS_;
export const FC2_WEIGHTS: i32 = <i32>FC2_WEIGHTS_;
export const STACK_BYTES: i32 = <i32>STACK_BYTES_;
export const STACKS: i32 = <i32>STACKS_;
export const WEIGHTS_END: i32 = <i32>WEIGHTS_END_;
export const ACC_PSQT: i32 = <i32>ACC_PSQT_;

// Scratch use of propagate (SCRATCH_BYTES = 4096 in layout.ts).
const S_INPUT: usize = 0; // i16[1024]: transformed features (0..127)
const S_NNZ: usize = 2048; // i32[128]: indices of the non-zero 8-input groups
const S_O0: usize = 2560; // i32[32]: fc_0 outputs
const S_X: usize = 2688; // i16[128]: [s0, c0, s1, c1]
const S_O1: usize = 2944; // i32[32]: fc_1 outputs
export const SCRATCH_USED: i32 = 3072;

// ---- accumulators ----------------------------------------------------------------------

// The i16 part is processed in tiles of 64 lanes (8 vectors kept in locals); for
// each tile the feature rows are summed, then the tile is stored once.

/** acc = bias + rows (i16, wrapping); PSQT part = sum of PSQT rows (i32). */
export function refresh(acc: usize, features: usize, count: i32): void {
  const end = features + (<usize>count << 2);
  for (let t: usize = 0; t < L1; t += 64) {
    const b = FT_BIAS_ + 2 * t;
    let a0 = v128.load(b, 0);
    let a1 = v128.load(b, 16);
    let a2 = v128.load(b, 32);
    let a3 = v128.load(b, 48);
    let a4 = v128.load(b, 64);
    let a5 = v128.load(b, 80);
    let a6 = v128.load(b, 96);
    let a7 = v128.load(b, 112);
    for (let f = features; f < end; f += 4) {
      const w = FT_WEIGHTS_ + <usize>load<i32>(f) * L1 + t;
      a0 = i16x8.add(a0, v128.load8x8_s(w, 0));
      a1 = i16x8.add(a1, v128.load8x8_s(w, 8));
      a2 = i16x8.add(a2, v128.load8x8_s(w, 16));
      a3 = i16x8.add(a3, v128.load8x8_s(w, 24));
      a4 = i16x8.add(a4, v128.load8x8_s(w, 32));
      a5 = i16x8.add(a5, v128.load8x8_s(w, 40));
      a6 = i16x8.add(a6, v128.load8x8_s(w, 48));
      a7 = i16x8.add(a7, v128.load8x8_s(w, 56));
    }
    const d = acc + 2 * t;
    v128.store(d, a0, 0);
    v128.store(d, a1, 16);
    v128.store(d, a2, 32);
    v128.store(d, a3, 48);
    v128.store(d, a4, 64);
    v128.store(d, a5, 80);
    v128.store(d, a6, 96);
    v128.store(d, a7, 112);
  }
  let p0 = i32x4.splat(0);
  let p1 = p0;
  let p2 = p0;
  let p3 = p0;
  for (let f = features; f < end; f += 4) {
    const q = FT_PSQT_ + <usize>load<i32>(f) * (4 * PSQT_BUCKETS);
    p0 = i32x4.add(p0, v128.load(q, 0));
    p1 = i32x4.add(p1, v128.load(q, 16));
    p2 = i32x4.add(p2, v128.load(q, 32));
    p3 = i32x4.add(p3, v128.load(q, 48));
  }
  const d = acc + ACC_PSQT_;
  v128.store(d, p0, 0);
  v128.store(d, p1, 16);
  v128.store(d, p2, 32);
  v128.store(d, p3, 48);
}

/**
 * dst = src + added rows - removed rows (both parts); dst may equal src. The i16 part
 * goes in tiles of 32 lanes (4 vectors) and takes the rows two at a time: in an
 * update of a few rows spread over the whole weight table this measured 12-15%
 * faster than tiles of 64 lanes with one row at a time (8 and 16 vectors, and
 * four rows at a time, were slower still). Wrapping i16 sums, so the order of the
 * additions does not change the result.
 */
export function update(dst: usize, src: usize, added: usize, addedCount: i32, removed: usize, removedCount: i32): void {
  const addEnd = added + (<usize>addedCount << 2);
  const remEnd = removed + (<usize>removedCount << 2);
  for (let t: usize = 0; t < L1; t += 32) {
    const s = src + 2 * t;
    let a0 = v128.load(s, 0);
    let a1 = v128.load(s, 16);
    let a2 = v128.load(s, 32);
    let a3 = v128.load(s, 48);
    let a = added;
    for (; a + 4 < addEnd; a += 8) {
      const w = FT_WEIGHTS_ + <usize>load<i32>(a) * L1 + t;
      const v = FT_WEIGHTS_ + <usize>load<i32>(a, 4) * L1 + t;
      a0 = i16x8.add(a0, i16x8.add(v128.load8x8_s(w, 0), v128.load8x8_s(v, 0)));
      a1 = i16x8.add(a1, i16x8.add(v128.load8x8_s(w, 8), v128.load8x8_s(v, 8)));
      a2 = i16x8.add(a2, i16x8.add(v128.load8x8_s(w, 16), v128.load8x8_s(v, 16)));
      a3 = i16x8.add(a3, i16x8.add(v128.load8x8_s(w, 24), v128.load8x8_s(v, 24)));
    }
    if (a < addEnd) {
      const w = FT_WEIGHTS_ + <usize>load<i32>(a) * L1 + t;
      a0 = i16x8.add(a0, v128.load8x8_s(w, 0));
      a1 = i16x8.add(a1, v128.load8x8_s(w, 8));
      a2 = i16x8.add(a2, v128.load8x8_s(w, 16));
      a3 = i16x8.add(a3, v128.load8x8_s(w, 24));
    }
    let r = removed;
    for (; r + 4 < remEnd; r += 8) {
      const w = FT_WEIGHTS_ + <usize>load<i32>(r) * L1 + t;
      const v = FT_WEIGHTS_ + <usize>load<i32>(r, 4) * L1 + t;
      a0 = i16x8.sub(a0, i16x8.add(v128.load8x8_s(w, 0), v128.load8x8_s(v, 0)));
      a1 = i16x8.sub(a1, i16x8.add(v128.load8x8_s(w, 8), v128.load8x8_s(v, 8)));
      a2 = i16x8.sub(a2, i16x8.add(v128.load8x8_s(w, 16), v128.load8x8_s(v, 16)));
      a3 = i16x8.sub(a3, i16x8.add(v128.load8x8_s(w, 24), v128.load8x8_s(v, 24)));
    }
    if (r < remEnd) {
      const w = FT_WEIGHTS_ + <usize>load<i32>(r) * L1 + t;
      a0 = i16x8.sub(a0, v128.load8x8_s(w, 0));
      a1 = i16x8.sub(a1, v128.load8x8_s(w, 8));
      a2 = i16x8.sub(a2, v128.load8x8_s(w, 16));
      a3 = i16x8.sub(a3, v128.load8x8_s(w, 24));
    }
    const d = dst + 2 * t;
    v128.store(d, a0, 0);
    v128.store(d, a1, 16);
    v128.store(d, a2, 32);
    v128.store(d, a3, 48);
  }
  const s = src + ACC_PSQT_;
  let p0 = v128.load(s, 0);
  let p1 = v128.load(s, 16);
  let p2 = v128.load(s, 32);
  let p3 = v128.load(s, 48);
  for (let f = added; f < addEnd; f += 4) {
    const q = FT_PSQT_ + <usize>load<i32>(f) * (4 * PSQT_BUCKETS);
    p0 = i32x4.add(p0, v128.load(q, 0));
    p1 = i32x4.add(p1, v128.load(q, 16));
    p2 = i32x4.add(p2, v128.load(q, 32));
    p3 = i32x4.add(p3, v128.load(q, 48));
  }
  for (let f = removed; f < remEnd; f += 4) {
    const q = FT_PSQT_ + <usize>load<i32>(f) * (4 * PSQT_BUCKETS);
    p0 = i32x4.sub(p0, v128.load(q, 0));
    p1 = i32x4.sub(p1, v128.load(q, 16));
    p2 = i32x4.sub(p2, v128.load(q, 32));
    p3 = i32x4.sub(p3, v128.load(q, 48));
  }
  const d = dst + ACC_PSQT_;
  v128.store(d, p0, 0);
  v128.store(d, p1, 16);
  v128.store(d, p2, 32);
  v128.store(d, p3, 48);
}

// ---- forward pass ------------------------------------------------------------------------

/** [sum(a), sum(b), sum(c), sum(d)] of four i32x4 vectors. */
// @ts-ignore: decorator
@inline function hsum4(a: v128, b: v128, c: v128, d: v128): v128 {
  const ab = i32x4.add(v128.shuffle<i32>(a, b, 0, 1, 4, 5), v128.shuffle<i32>(a, b, 2, 3, 6, 7));
  const cd = i32x4.add(v128.shuffle<i32>(c, d, 0, 1, 4, 5), v128.shuffle<i32>(c, d, 2, 3, 6, 7));
  return i32x4.add(v128.shuffle<i32>(ab, cd, 0, 2, 4, 6), v128.shuffle<i32>(ab, cd, 1, 3, 5, 7));
}

/**
 * The pairwise clipped product of one perspective into out (i16[512]): out[j] =
 * clamp(acc[j], 0, 255) * clamp(acc[j + 512], 0, 255) >> 9. Appends the index of
 * every non-zero 8-input group (numbered from `group`) to the list at nnz; returns
 * the new list length.
 */
// @ts-ignore: decorator
@inline function pairwise(acc: usize, out: usize, group: i32, nnz: usize, n: i32): i32 {
  const zero = i16x8.splat(0);
  const max = i16x8.splat(255);
  for (let j: usize = 0; j < 2 * (L1 / 2); j += 16) {
    const a = i16x8.min_s(i16x8.max_s(v128.load(acc + j), zero), max);
    const b = i16x8.min_s(i16x8.max_s(v128.load(acc + j, 2 * (L1 / 2)), zero), max);
    // The product is at most 65025: its low 16 bits, read unsigned, are exact.
    const p = i16x8.shr_u(i16x8.mul(a, b), 9);
    v128.store(out + j, p);
    store<i32>(nnz + (<usize>n << 2), group);
    n += <i32>v128.any_true(p);
    group++;
  }
  return n;
}

/**
 * SqrClippedReLU and ClippedReLU of 8 i32 values at src into i16 at sqr and clip:
 * sqr = min(127, x * x >> sqrShift), clip = clamp(x >> clipShift, 0, 127). The square is
 * taken of x saturated to i16, as Pikafish's SIMD path does; both give 127 whenever
 * |x| > 32767.
 */
// @ts-ignore: decorator
@inline function activate8(src: usize, sqr: usize, clip: usize, sqrShift: i32, clipShift: i32): void {
  const x0 = v128.load(src, 0);
  const x1 = v128.load(src, 16);
  const lim = i32x4.splat(127);
  const zero = i32x4.splat(0);
  const w = i16x8.narrow_i32x4_s(x0, x1);
  const s0 = i32x4.min_u(i32x4.shr_u(i32x4.extmul_low_i16x8_s(w, w), sqrShift), lim);
  const s1 = i32x4.min_u(i32x4.shr_u(i32x4.extmul_high_i16x8_s(w, w), sqrShift), lim);
  v128.store(sqr, i16x8.narrow_i32x4_s(s0, s1));
  const c0 = i32x4.min_s(i32x4.max_s(i32x4.shr_s(x0, clipShift), zero), lim);
  const c1 = i32x4.min_s(i32x4.max_s(i32x4.shr_s(x1, clipShift), zero), lim);
  v128.store(clip, i16x8.narrow_i32x4_s(c0, c1));
}

/**
 * The layer stack at `stack` applied to the accumulators of the side to move and the
 * opponent; returns the positional term in internal units (Pikafish's
 * positional_raw / OutputScale, both divisions truncating).
 */
export function propagate(accUs: usize, accThem: usize, stack: usize, scratch: usize): i32 {
  const input = scratch + S_INPUT;
  const nnz = scratch + S_NNZ;
  let n = pairwise(accUs, input, 0, nnz, 0);
  n = pairwise(accThem, input + L1, <i32>(L1 / 2 / 8), nnz, n);
  const nnzEnd = nnz + (<usize>n << 2);

  // fc_0: 1024 -> 32 over the non-zero input groups, 8 output rows per pass.
  const o0 = scratch + S_O0;
  for (let o: usize = 0; o < L2; o += 8) {
    let a0 = i32x4.splat(0);
    let a1 = a0;
    let a2 = a0;
    let a3 = a0;
    let a4 = a0;
    let a5 = a0;
    let a6 = a0;
    let a7 = a0;
    const rows = stack + FC0_WEIGHTS_ + o * L1;
    for (let k = nnz; k < nnzEnd; k += 4) {
      const g = <usize>load<i32>(k);
      const x = v128.load(input + (g << 4));
      const w = rows + (g << 3);
      a0 = i32x4.add(a0, i32x4.dot_i16x8_s(x, v128.load8x8_s(w, 0)));
      a1 = i32x4.add(a1, i32x4.dot_i16x8_s(x, v128.load8x8_s(w, 1 * L1)));
      a2 = i32x4.add(a2, i32x4.dot_i16x8_s(x, v128.load8x8_s(w, 2 * L1)));
      a3 = i32x4.add(a3, i32x4.dot_i16x8_s(x, v128.load8x8_s(w, 3 * L1)));
      a4 = i32x4.add(a4, i32x4.dot_i16x8_s(x, v128.load8x8_s(w, 4 * L1)));
      a5 = i32x4.add(a5, i32x4.dot_i16x8_s(x, v128.load8x8_s(w, 5 * L1)));
      a6 = i32x4.add(a6, i32x4.dot_i16x8_s(x, v128.load8x8_s(w, 6 * L1)));
      a7 = i32x4.add(a7, i32x4.dot_i16x8_s(x, v128.load8x8_s(w, 7 * L1)));
    }
    const bias = stack + FC0_BIAS_ + 4 * o;
    v128.store(o0 + 4 * o, i32x4.add(v128.load(bias), hsum4(a0, a1, a2, a3)));
    v128.store(o0 + 4 * o, i32x4.add(v128.load(bias, 16), hsum4(a4, a5, a6, a7)), 16);
  }

  // x1 = [s0, c0]: SqrClippedReLU (shift 2 * 7 + 7 = 21) and ClippedReLU (shift 7).
  const x = scratch + S_X;
  for (let i: usize = 0; i < L2; i += 8) activate8(o0 + 4 * i, x + 2 * i, x + 2 * (L2 + i), 21, 7);

  // fc_1: 64 -> 32, 4 output rows per pass.
  const o1 = scratch + S_O1;
  const x10 = v128.load(x, 0);
  const x11 = v128.load(x, 16);
  const x12 = v128.load(x, 32);
  const x13 = v128.load(x, 48);
  const x14 = v128.load(x, 64);
  const x15 = v128.load(x, 80);
  const x16 = v128.load(x, 96);
  const x17 = v128.load(x, 112);
  for (let o: usize = 0; o < L3; o += 4) {
    const w = stack + FC1_WEIGHTS_ + o * (2 * L2);
    const r0 = rowDot64(w, x10, x11, x12, x13, x14, x15, x16, x17);
    const r1 = rowDot64(w + 2 * L2, x10, x11, x12, x13, x14, x15, x16, x17);
    const r2 = rowDot64(w + 4 * L2, x10, x11, x12, x13, x14, x15, x16, x17);
    const r3 = rowDot64(w + 6 * L2, x10, x11, x12, x13, x14, x15, x16, x17);
    v128.store(o1 + 4 * o, i32x4.add(v128.load(stack + FC1_BIAS_ + 4 * o), hsum4(r0, r1, r2, r3)));
  }

  // x2 = [s0, c0, s1, c1]: shifts 2 * 6 + 7 = 19 and 6.
  for (let i: usize = 0; i < L3; i += 8) activate8(o1 + 4 * i, x + 2 * (2 * L2 + i), x + 2 * (2 * L2 + L3 + i), 19, 6);

  // fc_2: 128 -> 1.
  const w2 = stack + FC2_WEIGHTS_;
  let s = i32x4.dot_i16x8_s(v128.load(x, 0), v128.load8x8_s(w2, 0));
  for (let k: usize = 8; k < 2 * L2 + 2 * L3; k += 8) {
    s = i32x4.add(s, i32x4.dot_i16x8_s(v128.load(x + 2 * k), v128.load8x8_s(w2 + k)));
  }
  const o2 = load<i32>(stack + FC2_BIAS_)
    + i32x4.extract_lane(s, 0) + i32x4.extract_lane(s, 1) + i32x4.extract_lane(s, 2) + i32x4.extract_lane(s, 3);

  // Skip connection and scaling: fwd * 600 * OutputScale / (128 * 64 * 2), in i64.
  const fwd = o2 + load<i32>(o0, 4 * (L2 - 2)) - load<i32>(o0, 4 * (L2 - 1));
  const positionalRaw = <i32>((<i64>fwd * 9600) / 16384);
  return positionalRaw / 16;
}

/** i32x4 partial sums of one 64-input row (i8 weights at w) against x (i16[64]). */
// @ts-ignore: decorator
@inline function rowDot64(w: usize, x0: v128, x1: v128, x2: v128, x3: v128, x4: v128, x5: v128, x6: v128, x7: v128): v128 {
  let s = i32x4.dot_i16x8_s(x0, v128.load8x8_s(w, 0));
  s = i32x4.add(s, i32x4.dot_i16x8_s(x1, v128.load8x8_s(w, 8)));
  s = i32x4.add(s, i32x4.dot_i16x8_s(x2, v128.load8x8_s(w, 16)));
  s = i32x4.add(s, i32x4.dot_i16x8_s(x3, v128.load8x8_s(w, 24)));
  s = i32x4.add(s, i32x4.dot_i16x8_s(x4, v128.load8x8_s(w, 32)));
  s = i32x4.add(s, i32x4.dot_i16x8_s(x5, v128.load8x8_s(w, 40)));
  s = i32x4.add(s, i32x4.dot_i16x8_s(x6, v128.load8x8_s(w, 48)));
  return i32x4.add(s, i32x4.dot_i16x8_s(x7, v128.load8x8_s(w, 56)));
}
