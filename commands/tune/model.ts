// Texel tuning of the classical evaluation as a model linear in its weights.
//
// Parameters come in (middlegame, endgame) pairs: theta[2p] and theta[2p + 1].
// A position is a sparse list of (pair, mg coefficient, eg coefficient); its
// evaluation from Red's side is
//   E = (phase * sum(theta_mg * c_mg * unit) + (128 - phase) * sum(theta_eg * c_eg * unit)) / 128 * sf / 64
//       + tempo (for the side to move)
// with phase and the scale factor sf taken from the evaluation at the starting
// weights. Material, piece-square and mobility tables are features of their own
// (piece counts, occupied squares, squares reachable); the other terms (defence,
// king safety, cannon patterns, pins, rooks, knights, structure) enter through
// a scale per term (unit 1/64) whose coefficient is the term's raw value.
//
// The search sees evaluate(), not the classical evaluation: evaluate.ts scales
// it by (17380 + major material) / 20582 and damps it as the 60-move counter
// grows. The search scores in the data are on that scale, so the model's value
// is multiplied by the same per-position factor (`mult`) before it is compared
// with a score or turned into a win probability (modelEval). Without it the
// search-score half of the target pulls the raw evaluation up by ~1.4 in the
// middlegame (and down in the endgame), and evaluate() then scales it again.

import { goldenSectionMinimum } from './minimize.js';

/** Positions with their sparse features and targets. */
export class Dataset {
  n = 0;
  entries = 0;
  phase = new Uint8Array(1024);
  sf = new Uint8Array(1024);
  /** Constant part of the evaluation from Red's side (the tempo). */
  base = new Float32Array(1024);
  /** Game result from Red's side: 0, 0.5, 1. */
  result = new Float32Array(1024);
  /** Search score from Red's side, internal units. */
  score = new Float32Array(1024);
  /** evaluate()'s factor on the classical evaluation: material blend and 60-move damping. */
  mult = new Float32Array(1024);
  /** Game number of the position (positions of one game are not split between training and validation). */
  game = new Uint32Array(1024);
  start = new Uint32Array(1025);
  pair = new Uint16Array(16384);
  cmg = new Int16Array(16384);
  ceg = new Int16Array(16384);

  private growPositions(): void {
    const m = this.phase.length * 2;
    const g = <T extends Uint8Array | Float32Array | Uint32Array>(a: T, len: number): T => {
      const b = new (a.constructor as new (n: number) => T)(len);
      b.set(a);
      return b;
    };
    this.phase = g(this.phase, m);
    this.sf = g(this.sf, m);
    this.base = g(this.base, m);
    this.result = g(this.result, m);
    this.score = g(this.score, m);
    this.mult = g(this.mult, m);
    this.game = g(this.game, m);
    this.start = g(this.start, m + 1);
  }

  addEntry(pair: number, cmg: number, ceg: number): void {
    if (cmg === 0 && ceg === 0) return;
    if (this.entries === this.pair.length) {
      const m = this.pair.length * 2;
      const p = new Uint16Array(m);
      p.set(this.pair);
      this.pair = p;
      const a = new Int16Array(m);
      a.set(this.cmg);
      this.cmg = a;
      const b = new Int16Array(m);
      b.set(this.ceg);
      this.ceg = b;
    }
    this.pair[this.entries] = pair;
    this.cmg[this.entries] = cmg < -32767 ? -32767 : cmg > 32767 ? 32767 : cmg;
    this.ceg[this.entries] = ceg < -32767 ? -32767 : ceg > 32767 ? 32767 : ceg;
    this.entries++;
  }

  /** Ends the position whose entries were just added (`mult` 1 and game 0 unless given). */
  endPosition(phase: number, sf: number, base: number, result: number, score: number, mult = 1, game = 0): void {
    if (this.n + 1 >= this.phase.length) this.growPositions();
    const i = this.n++;
    this.mult[i] = mult;
    this.game[i] = game;
    this.phase[i] = phase;
    this.sf[i] = sf;
    this.base[i] = base;
    this.result[i] = result;
    this.score[i] = score;
    this.start[i + 1] = this.entries;
  }
}

/** Evaluation (Red's side) of position i under theta. */
export function predict(d: Dataset, i: number, theta: Float64Array, unit: Float64Array): number {
  let mg = 0,
    eg = 0;
  for (let e = d.start[i], end = d.start[i + 1]; e < end; e++) {
    const p = d.pair[e];
    const u = unit[p];
    mg += theta[2 * p] * d.cmg[e] * u;
    eg += theta[2 * p + 1] * d.ceg[e] * u;
  }
  const ph = d.phase[i];
  return (((mg * ph + eg * (128 - ph)) / 128) * d.sf[i]) / 64 + d.base[i];
}

/** What the search sees of position i under theta (Red's side): the model times evaluate()'s factor. */
export function modelEval(d: Dataset, i: number, theta: Float64Array, unit: Float64Array): number {
  return d.mult[i] * predict(d, i, theta, unit);
}

export function sigmoid(x: number, k: number): number {
  return 1 / (1 + Math.exp(-x / k));
}

/** Targets: lambda * result + (1 - lambda) * sigmoid(score / k). */
export function targets(d: Dataset, lambda: number, k: number): Float32Array {
  const t = new Float32Array(d.n);
  for (let i = 0; i < d.n; i++) t[i] = lambda * d.result[i] + (1 - lambda) * sigmoid(d.score[i], k);
  return t;
}

/** Mean squared error of sigmoid(eval / k) against `target` over positions `idx`. */
export function meanError(
  d: Dataset,
  idx: Uint32Array,
  theta: Float64Array,
  unit: Float64Array,
  k: number,
  target: Float32Array,
): number {
  let s = 0;
  for (let j = 0; j < idx.length; j++) {
    const i = idx[j];
    const e = sigmoid(modelEval(d, i, theta, unit), k) - target[i];
    s += e * e;
  }
  return idx.length ? s / idx.length : 0;
}

/** The K (sigmoid scale) minimising the error against game results, by golden-section search. */
export function fitK(d: Dataset, idx: Uint32Array, theta: Float64Array, unit: Float64Array): number {
  const res = new Float32Array(d.n);
  for (let i = 0; i < d.n; i++) res[i] = d.result[i];
  // Evaluations do not change while K is fitted: compute them once.
  const ev = new Float64Array(idx.length);
  for (let j = 0; j < idx.length; j++) ev[j] = modelEval(d, idx[j], theta, unit);
  const err = (k: number): number => {
    let s = 0;
    for (let j = 0; j < idx.length; j++) {
      const e = sigmoid(ev[j], k) - res[idx[j]];
      s += e * e;
    }
    return s / Math.max(1, idx.length);
  };
  return goldenSectionMinimum(err, 10, 5000, 60);
}

export interface AdamOptions {
  epochs: number;
  lr: number;
  batch: number;
  k: number;
  /** Which parameters may move (1) or stay (0). */
  free: Uint8Array;
  /**
   * L2 regularisation toward `anchor`: the loss gains reg * sum(((theta - anchor) * regScale)^2),
   * regScale per parameter (e.g. 1/100 for values in internal units, 1/64 for scales in 64ths).
   */
  reg?: number;
  anchor?: Float64Array;
  regScale?: Float64Array;
  /**
   * Smoothness of tables indexed by a count (mobility): the loss gains
   * smooth * sum(((w[n-1] - 2 w[n] + w[n+1]) / 100)^2) over each run of pairs
   * [first, first + length) in `smoothRuns` (pairs as [first, length, ...]), mg and eg apart.
   */
  smooth?: number;
  smoothRuns?: readonly number[];
  /** Early stopping: the validation positions, their targets, and the epochs without improvement allowed. */
  val?: Uint32Array;
  patience?: number;
  /** Called after each epoch with the training error (data term only) and the validation error (NaN without). */
  onEpoch?: (epoch: number, trainError: number, valError: number) => void;
  seed?: number;
}

export interface AdamResult {
  /** The epoch whose weights were kept (the best validation error; the last epoch without validation). */
  bestEpoch: number;
  bestVal: number;
  /** The epoch at which the run stopped. */
  epochs: number;
}

/**
 * Adam on the mean squared error (plus the L2 term), mini-batches over a shuffled
 * `idx`; theta is updated in place. With validation positions the weights of the
 * epoch with the lowest validation error are kept, and the run stops after
 * `patience` epochs without a new best.
 */
export function adam(
  d: Dataset,
  idx: Uint32Array,
  theta: Float64Array,
  unit: Float64Array,
  target: Float32Array,
  o: AdamOptions,
): AdamResult {
  const np = theta.length;
  const m = new Float64Array(np),
    v = new Float64Array(np),
    g = new Float64Array(np);
  const b1 = 0.9,
    b2 = 0.999,
    eps = 1e-8;
  const reg = o.reg ?? 0;
  const anchor = o.anchor ?? theta.slice();
  const regScale = o.regScale ?? new Float64Array(np).fill(1);
  const best = theta.slice();
  let bestVal = Infinity,
    bestEpoch = 0,
    epoch = 0;
  const patience = o.patience ?? Infinity;
  let t = 0;
  let seed = (o.seed ?? 1) >>> 0;
  const rnd = (): number => {
    seed = (seed + 0x6d2b79f5) | 0;
    let x = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
  const order = Uint32Array.from(idx);
  if (o.val && o.val.length) {
    bestVal = meanError(d, o.val, theta, unit, o.k, target);
  }
  for (epoch = 1; epoch <= o.epochs; epoch++) {
    for (let i = order.length - 1; i > 0; i--) {
      const j = Math.floor(rnd() * (i + 1));
      const x = order[i];
      order[i] = order[j];
      order[j] = x;
    }
    let sum = 0;
    for (let bs = 0; bs < order.length; bs += o.batch) {
      const be = Math.min(order.length, bs + o.batch);
      g.fill(0);
      for (let j = bs; j < be; j++) {
        const i = order[j];
        const p = sigmoid(modelEval(d, i, theta, unit), o.k);
        const diff = p - target[i];
        sum += diff * diff;
        // dL/dE for this position, times dE/d(mg sum) and dE/d(eg sum).
        const gE = (2 * diff * p * (1 - p)) / o.k;
        const s = (gE * d.mult[i] * d.sf[i]) / 64 / 128;
        const gm = s * d.phase[i],
          ge = s * (128 - d.phase[i]);
        for (let e = d.start[i], end = d.start[i + 1]; e < end; e++) {
          const q = d.pair[e];
          const u = unit[q];
          g[2 * q] += gm * d.cmg[e] * u;
          g[2 * q + 1] += ge * d.ceg[e] * u;
        }
      }
      t++;
      const n = be - bs;
      const c1 = 1 - Math.pow(b1, t),
        c2 = 1 - Math.pow(b2, t);
      for (let q = 0; q < np; q++) g[q] /= n;
      const sm = o.smooth ?? 0;
      if (sm && o.smoothRuns) {
        for (let r = 0; r < o.smoothRuns.length; r += 2) {
          const first: number = o.smoothRuns[r],
            len: number = o.smoothRuns[r + 1];
          for (let h = 0; h < 2; h++) {
            for (let p: number = first + 1; p < first + len - 1; p++) {
              const a = 2 * (p - 1) + h,
                b = 2 * p + h,
                c = 2 * (p + 1) + h;
              const dd = ((2 * sm) / 1e4) * (theta[a] - 2 * theta[b] + theta[c]);
              g[a] += dd;
              g[b] -= 2 * dd;
              g[c] += dd;
            }
          }
        }
      }
      for (let q = 0; q < np; q++) {
        if (!o.free[q]) continue;
        let gq = g[q];
        if (reg) {
          const rs = regScale[q];
          gq += 2 * reg * (theta[q] - anchor[q]) * rs * rs;
        }
        if (gq === 0 && m[q] === 0) continue;
        m[q] = b1 * m[q] + (1 - b1) * gq;
        v[q] = b2 * v[q] + (1 - b2) * gq * gq;
        theta[q] -= (o.lr * (m[q] / c1)) / (Math.sqrt(v[q] / c2) + eps);
      }
    }
    const ve = o.val && o.val.length ? meanError(d, o.val, theta, unit, o.k, target) : NaN;
    o.onEpoch?.(epoch, sum / Math.max(1, order.length), ve);
    if (!Number.isNaN(ve)) {
      if (ve < bestVal) {
        bestVal = ve;
        bestEpoch = epoch;
        best.set(theta);
      } else if (epoch - bestEpoch >= patience) break;
    }
  }
  const ran = Math.min(epoch, o.epochs);
  if (o.val && o.val.length) theta.set(best);
  else bestEpoch = ran;
  return { bestEpoch, bestVal, epochs: ran };
}

/** Least-squares slope b of y = b * x over positions `idx` (how much bigger one evaluation is than another). */
export function slope(idx: Uint32Array, x: (i: number) => number, y: (i: number) => number): number {
  let sxy = 0,
    sxx = 0;
  for (let j = 0; j < idx.length; j++) {
    const i = idx[j];
    const a = x(i);
    sxy += a * y(i);
    sxx += a * a;
  }
  return sxx ? sxy / sxx : 1;
}

/** Mean, mean absolute value and standard deviation of f over positions `idx`. */
export function spread(idx: Uint32Array, f: (i: number) => number): { mean: number; meanAbs: number; sd: number } {
  let s = 0,
    s2 = 0,
    sa = 0;
  for (let j = 0; j < idx.length; j++) {
    const v = f(idx[j]);
    s += v;
    s2 += v * v;
    sa += Math.abs(v);
  }
  const n = Math.max(1, idx.length);
  return { mean: s / n, meanAbs: sa / n, sd: Math.sqrt(Math.max(0, s2 / n - (s / n) ** 2)) };
}
