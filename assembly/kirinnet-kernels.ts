// Kernels of Kirin's own network (src/eval/kirinnet), AssemblyScript with 128-bit
// SIMD. Compiled into the same module as nnue-kernels.ts (assembly/build.js
// passes both files to asc), so one .wasm file serves both networks. The contract
// is src/eval/kirinnet/kernels.ts; the arithmetic is reference.ts's: i16 wrapping
// accumulators of i16 feature rows, and an output sum of
// (clamp(acc, 0, 255) * w * clamp(acc, 0, 255)) >> 8 in i32.
//
// Every pointer is a byte offset into the imported memory; `h` (the hidden size)
// is a multiple of 16. Accumulators are processed in tiles of 64 lanes (8 vectors
// in locals), then of 16 lanes for what is left.

/** acc = bias + the rows (i16[h] each, row r at weights + r * 2h) listed at `features` (i32[count]). */
export function kn_refresh(acc: usize, bias: usize, weights: usize, features: usize, count: i32, h: i32): void {
  kn_sum(acc, bias, weights, features, count, 0, 0, h);
}

/** dst = src + the rows listed at `added` - the rows listed at `removed`; dst may equal src. */
export function kn_update(
  dst: usize,
  src: usize,
  weights: usize,
  added: usize,
  addedCount: i32,
  removed: usize,
  removedCount: i32,
  h: i32,
): void {
  kn_sum(dst, src, weights, added, addedCount, removed, removedCount, h);
}

// @ts-ignore: decorator
@inline
function kn_sum(
  dst: usize,
  src: usize,
  weights: usize,
  added: usize,
  addedCount: i32,
  removed: usize,
  removedCount: i32,
  h: i32,
): void {
  const row = <usize>h << 1;
  const addEnd = added + (<usize>addedCount << 2);
  const remEnd = removed + (<usize>removedCount << 2);
  const lanes = <usize>h;
  let t: usize = 0;
  for (; t + 64 <= lanes; t += 64) {
    const s = src + 2 * t;
    let a0 = v128.load(s, 0);
    let a1 = v128.load(s, 16);
    let a2 = v128.load(s, 32);
    let a3 = v128.load(s, 48);
    let a4 = v128.load(s, 64);
    let a5 = v128.load(s, 80);
    let a6 = v128.load(s, 96);
    let a7 = v128.load(s, 112);
    for (let f = added; f < addEnd; f += 4) {
      const w = weights + <usize>load<i32>(f) * row + 2 * t;
      a0 = i16x8.add(a0, v128.load(w, 0));
      a1 = i16x8.add(a1, v128.load(w, 16));
      a2 = i16x8.add(a2, v128.load(w, 32));
      a3 = i16x8.add(a3, v128.load(w, 48));
      a4 = i16x8.add(a4, v128.load(w, 64));
      a5 = i16x8.add(a5, v128.load(w, 80));
      a6 = i16x8.add(a6, v128.load(w, 96));
      a7 = i16x8.add(a7, v128.load(w, 112));
    }
    for (let f = removed; f < remEnd; f += 4) {
      const w = weights + <usize>load<i32>(f) * row + 2 * t;
      a0 = i16x8.sub(a0, v128.load(w, 0));
      a1 = i16x8.sub(a1, v128.load(w, 16));
      a2 = i16x8.sub(a2, v128.load(w, 32));
      a3 = i16x8.sub(a3, v128.load(w, 48));
      a4 = i16x8.sub(a4, v128.load(w, 64));
      a5 = i16x8.sub(a5, v128.load(w, 80));
      a6 = i16x8.sub(a6, v128.load(w, 96));
      a7 = i16x8.sub(a7, v128.load(w, 112));
    }
    const d = dst + 2 * t;
    v128.store(d, a0, 0);
    v128.store(d, a1, 16);
    v128.store(d, a2, 32);
    v128.store(d, a3, 48);
    v128.store(d, a4, 64);
    v128.store(d, a5, 80);
    v128.store(d, a6, 96);
    v128.store(d, a7, 112);
  }
  for (; t < lanes; t += 16) {
    const s = src + 2 * t;
    let a0 = v128.load(s, 0);
    let a1 = v128.load(s, 16);
    for (let f = added; f < addEnd; f += 4) {
      const w = weights + <usize>load<i32>(f) * row + 2 * t;
      a0 = i16x8.add(a0, v128.load(w, 0));
      a1 = i16x8.add(a1, v128.load(w, 16));
    }
    for (let f = removed; f < remEnd; f += 4) {
      const w = weights + <usize>load<i32>(f) * row + 2 * t;
      a0 = i16x8.sub(a0, v128.load(w, 0));
      a1 = i16x8.sub(a1, v128.load(w, 16));
    }
    const d = dst + 2 * t;
    v128.store(d, a0, 0);
    v128.store(d, a1, 16);
  }
}

/**
 * The output layer's raw sum for the accumulators `us` and `them` (i16[h] each) and
 * the bucket's weights at `weights` (i16[2h], the side to move's half first): the
 * sum of (clamp(x, 0, 255) * w * clamp(x, 0, 255)) >> 8, each term exact in i32
 * (|w| <= 512, so a term is at most 255 * 512 * 255), the sum in i32.
 */
export function kn_output(us: usize, them: usize, weights: usize, h: i32): i32 {
  const zero = i16x8.splat(0);
  const qa = i16x8.splat(255);
  let s = i32x4.splat(0);
  const bytes = <usize>h << 1;
  for (let j: usize = 0; j < bytes; j += 16) {
    const a = i16x8.min_s(i16x8.max_s(v128.load(us + j), zero), qa);
    const wa = v128.load(weights + j);
    const b = i16x8.min_s(i16x8.max_s(v128.load(them + j), zero), qa);
    const wb = v128.load(weights + bytes + j);
    s = i32x4.add(s, i32x4.shr_s(i32x4.mul(i32x4.extmul_low_i16x8_s(a, wa), i32x4.extend_low_i16x8_s(a)), 8));
    s = i32x4.add(s, i32x4.shr_s(i32x4.mul(i32x4.extmul_high_i16x8_s(a, wa), i32x4.extend_high_i16x8_s(a)), 8));
    s = i32x4.add(s, i32x4.shr_s(i32x4.mul(i32x4.extmul_low_i16x8_s(b, wb), i32x4.extend_low_i16x8_s(b)), 8));
    s = i32x4.add(s, i32x4.shr_s(i32x4.mul(i32x4.extmul_high_i16x8_s(b, wb), i32x4.extend_high_i16x8_s(b)), 8));
  }
  return (
    i32x4.extract_lane(s, 0) + i32x4.extract_lane(s, 1) + i32x4.extract_lane(s, 2) + i32x4.extract_lane(s, 3)
  );
}
