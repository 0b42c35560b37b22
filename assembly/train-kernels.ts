// The training kernels of `kirin train` in AssemblyScript, compiled to WebAssembly
// with 128-bit SIMD (npm run build: lab/nnue/build-wasm.ts, into
// dist/commands/train/train-kernels.wasm, on a shared imported memory). The same
// computation as commands/train/kernel-js.ts in float32 arithmetic: the forward pass
// of a staged shard, and the loss and gradient sums of one. Every argument is a
// byte offset into the memory laid out by commands/train/memory.ts. No static data,
// no allocation, no imports besides the memory.

const INPUTS: usize = 1260;
/** Feature slots per staged position (uint16): the side to move's 32, then the other's. */
const SLOTS: usize = 64;

/** The network's output y of staged position i; leaves both accumulators in scratch. */
@inline
function forwardOne(
  feat: usize,
  n: i32,
  b: i32,
  params: usize,
  scratch: usize,
  h: usize,
  buckets: usize,
): f32 {
  const ftB = params + INPUTS * h * 4;
  const outW = ftB + h * 4 + <usize>b * 2 * h * 4;
  const outB = ftB + h * 4 + buckets * 2 * h * 4;
  const zero = f32x4.splat(0);
  const one = f32x4.splat(1);
  let s0 = zero,
    s1 = zero;
  for (let half: usize = 0; half < 2; half++) {
    const f = feat + half * SLOTS;
    const acc = scratch + half * h * 4;
    const w = outW + half * h * 4;
    for (let t: usize = 0; t < h; t += 16) {
      const bias = ftB + t * 4;
      let a0 = v128.load(bias, 0),
        a1 = v128.load(bias, 16),
        a2 = v128.load(bias, 32),
        a3 = v128.load(bias, 48);
      for (let k = 0; k < n; k++) {
        const row = params + (<usize>load<u16>(f + (<usize>k << 1)) * h + t) * 4;
        a0 = f32x4.add(a0, v128.load(row, 0));
        a1 = f32x4.add(a1, v128.load(row, 16));
        a2 = f32x4.add(a2, v128.load(row, 32));
        a3 = f32x4.add(a3, v128.load(row, 48));
      }
      const at = acc + t * 4;
      v128.store(at, a0, 0);
      v128.store(at, a1, 16);
      v128.store(at, a2, 32);
      v128.store(at, a3, 48);
      const c0 = f32x4.min(f32x4.max(a0, zero), one),
        c1 = f32x4.min(f32x4.max(a1, zero), one),
        c2 = f32x4.min(f32x4.max(a2, zero), one),
        c3 = f32x4.min(f32x4.max(a3, zero), one);
      const wt = w + t * 4;
      s0 = f32x4.add(s0, f32x4.mul(f32x4.mul(c0, c0), v128.load(wt, 0)));
      s1 = f32x4.add(s1, f32x4.mul(f32x4.mul(c1, c1), v128.load(wt, 16)));
      s0 = f32x4.add(s0, f32x4.mul(f32x4.mul(c2, c2), v128.load(wt, 32)));
      s1 = f32x4.add(s1, f32x4.mul(f32x4.mul(c3, c3), v128.load(wt, 48)));
    }
  }
  const s = f32x4.add(s0, s1);
  return (
    f32x4.extract_lane(s, 0) +
    f32x4.extract_lane(s, 1) +
    (f32x4.extract_lane(s, 2) + f32x4.extract_lane(s, 3)) +
    load<f32>(outB + (<usize>b << 2))
  );
}

/** Writes y of `count` staged positions to yOut. */
export function forward(
  feat: usize,
  counts: usize,
  bucketArr: usize,
  yOut: usize,
  count: i32,
  params: usize,
  scratch: usize,
  h: i32,
  buckets: i32,
): void {
  for (let i = 0; i < count; i++) {
    const o = <usize>i << 2;
    const y = forwardOne(
      feat + <usize>i * SLOTS * 2,
      load<i32>(counts + o),
      load<i32>(bucketArr + o),
      params,
      scratch,
      <usize>h,
      <usize>buckets,
    );
    store<f32>(yOut + o, y);
  }
}

/**
 * Zeroes the gradient buffer `grad` (`size` floats), adds the loss gradient of
 * `count` staged positions and returns the loss sum.
 */
export function train(
  feat: usize,
  counts: usize,
  bucketArr: usize,
  coefArr: usize,
  targetArr: usize,
  count: i32,
  params: usize,
  grad: usize,
  size: i32,
  scratch: usize,
  h: i32,
  buckets: i32,
  power: f64,
): f64 {
  const zero = f32x4.splat(0);
  const one = f32x4.splat(1);
  const hh = <usize>h;
  const end = grad + (<usize>size << 2);
  let z = grad;
  for (; z + 16 <= end; z += 16) v128.store(z, zero);
  for (; z < end; z += 4) store<f32>(z, 0);
  const ftB = INPUTS * hh * 4;
  let loss: f64 = 0;
  for (let i = 0; i < count; i++) {
    const o = <usize>i << 2;
    const fi = feat + <usize>i * SLOTS * 2;
    const n = load<i32>(counts + o);
    const b = load<i32>(bucketArr + o);
    const y = <f64>forwardOne(fi, n, b, params, scratch, hh, <usize>buckets);
    const coef = <f64>load<f32>(coefArr + o);
    const p = 1.0 / (1.0 + Math.exp(-y * coef));
    const e = p - <f64>load<f32>(targetArr + o);
    let dl: f64;
    if (power == 2.0) {
      loss += e * e;
      dl = 2.0 * e;
    } else {
      const a = Math.abs(e);
      loss += Math.pow(a, power);
      dl = e == 0.0 ? 0.0 : power * Math.pow(a, power - 1.0) * (e > 0.0 ? 1.0 : -1.0);
    }
    const g = <f32>(dl * p * (1.0 - p) * coef);
    const gv = f32x4.splat(g),
      g2 = f32x4.splat(g + g);
    const outW = ftB + hh * 4 + <usize>b * 2 * hh * 4;
    const outBg = grad + ftB + hh * 4 + <usize>buckets * 2 * hh * 4 + (<usize>b << 2);
    store<f32>(outBg, load<f32>(outBg) + g);
    for (let half: usize = 0; half < 2; half++) {
      const f = fi + half * SLOTS;
      const acc = scratch + half * hh * 4;
      const w = params + outW + half * hh * 4;
      const gw = grad + outW + half * hh * 4;
      for (let t: usize = 0; t < hh; t += 16) {
        const at = acc + t * 4;
        const x0 = v128.load(at, 0),
          x1 = v128.load(at, 16),
          x2 = v128.load(at, 32),
          x3 = v128.load(at, 48);
        const c0 = f32x4.min(f32x4.max(x0, zero), one),
          c1 = f32x4.min(f32x4.max(x1, zero), one),
          c2 = f32x4.min(f32x4.max(x2, zero), one),
          c3 = f32x4.min(f32x4.max(x3, zero), one);
        const gt = gw + t * 4;
        v128.store(gt, f32x4.add(v128.load(gt, 0), f32x4.mul(gv, f32x4.mul(c0, c0))), 0);
        v128.store(gt, f32x4.add(v128.load(gt, 16), f32x4.mul(gv, f32x4.mul(c1, c1))), 16);
        v128.store(gt, f32x4.add(v128.load(gt, 32), f32x4.mul(gv, f32x4.mul(c2, c2))), 32);
        v128.store(gt, f32x4.add(v128.load(gt, 48), f32x4.mul(gv, f32x4.mul(c3, c3))), 48);
        // d loss / d acc = 2 g c w where acc < 1 (c is 0 where acc <= 0).
        const wt = w + t * 4;
        const d0 = v128.and(f32x4.mul(f32x4.mul(g2, c0), v128.load(wt, 0)), f32x4.lt(x0, one)),
          d1 = v128.and(f32x4.mul(f32x4.mul(g2, c1), v128.load(wt, 16)), f32x4.lt(x1, one)),
          d2 = v128.and(f32x4.mul(f32x4.mul(g2, c2), v128.load(wt, 32)), f32x4.lt(x2, one)),
          d3 = v128.and(f32x4.mul(f32x4.mul(g2, c3), v128.load(wt, 48)), f32x4.lt(x3, one));
        const bt = grad + ftB + t * 4;
        v128.store(bt, f32x4.add(v128.load(bt, 0), d0), 0);
        v128.store(bt, f32x4.add(v128.load(bt, 16), d1), 16);
        v128.store(bt, f32x4.add(v128.load(bt, 32), d2), 32);
        v128.store(bt, f32x4.add(v128.load(bt, 48), d3), 48);
        for (let k = 0; k < n; k++) {
          const row = grad + (<usize>load<u16>(f + (<usize>k << 1)) * hh + t) * 4;
          v128.store(row, f32x4.add(v128.load(row, 0), d0), 0);
          v128.store(row, f32x4.add(v128.load(row, 16), d1), 16);
          v128.store(row, f32x4.add(v128.load(row, 32), d2), 32);
          v128.store(row, f32x4.add(v128.load(row, 48), d3), 48);
        }
      }
    }
  }
  return loss;
}

/**
 * AdamW on `n` parameters: w, m and v point at the first of them, g at its
 * gradient in shard buffer 0 (shard k's at g + k * stride). The gradient is the
 * sum of `shards` buffers in shard order times `inv` (1 / batch size); `decay`
 * is lr * weight decay (0 for biases); with clip > 0 the result is clipped to
 * +-clip. Float32 arithmetic, the same steps in the vector and the scalar loop.
 */
export function update(
  w: usize,
  m: usize,
  v: usize,
  g: usize,
  stride: usize,
  shards: i32,
  n: i32,
  inv: f32,
  lr: f32,
  decay: f32,
  beta1: f32,
  beta2: f32,
  eps: f32,
  correction1: f32,
  correction2: f32,
  clip: f32,
): void {
  const vInv = f32x4.splat(inv),
    vB1 = f32x4.splat(beta1),
    vB1c = f32x4.splat(1 - beta1),
    vB2 = f32x4.splat(beta2),
    vB2c = f32x4.splat(1 - beta2),
    vLr = f32x4.splat(lr),
    vDecay = f32x4.splat(decay),
    vEps = f32x4.splat(eps),
    vC1 = f32x4.splat(correction1),
    vC2 = f32x4.splat(correction2),
    vClip = f32x4.splat(clip),
    vNegClip = f32x4.splat(-clip);
  let j = 0;
  for (; j + 4 <= n; j += 4) {
    const o = <usize>j << 2;
    let s = v128.load(g + o);
    for (let k = 1; k < shards; k++) s = f32x4.add(s, v128.load(g + <usize>k * stride + o));
    const gr = f32x4.mul(s, vInv);
    const mm = f32x4.add(f32x4.mul(vB1, v128.load(m + o)), f32x4.mul(vB1c, gr));
    const vv = f32x4.add(f32x4.mul(vB2, v128.load(v + o)), f32x4.mul(vB2c, f32x4.mul(gr, gr)));
    v128.store(m + o, mm);
    v128.store(v + o, vv);
    let x = v128.load(w + o);
    x = f32x4.sub(x, f32x4.mul(vDecay, x));
    const step = f32x4.div(
      f32x4.mul(vLr, f32x4.div(mm, vC1)),
      f32x4.add(f32x4.sqrt(f32x4.div(vv, vC2)), vEps),
    );
    x = f32x4.sub(x, step);
    if (clip > 0) x = f32x4.min(f32x4.max(x, vNegClip), vClip);
    v128.store(w + o, x);
  }
  for (; j < n; j++) {
    const o = <usize>j << 2;
    let s = load<f32>(g + o);
    for (let k = 1; k < shards; k++) s += load<f32>(g + <usize>k * stride + o);
    const gr = s * inv;
    const mm = beta1 * load<f32>(m + o) + (1 - beta1) * gr;
    const vv = beta2 * load<f32>(v + o) + (1 - beta2) * (gr * gr);
    store<f32>(m + o, mm);
    store<f32>(v + o, vv);
    let x = load<f32>(w + o);
    x = x - decay * x;
    x = x - (lr * (mm / correction1)) / (Mathf.sqrt(vv / correction2) + eps);
    if (clip > 0) x = Mathf.min(Mathf.max(x, -clip), clip);
    store<f32>(w + o, x);
  }
}
