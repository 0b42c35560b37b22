// The fits behind `kirin tune --scale-report` (docs/DATAGEN.md): what a value
// of the evaluation means in games, on the form of Pikafish's win-rate model
// (src/eval/score.ts, Pikafish's uci.cpp win_rate_model):
//   P(win)  = 1 / (1 + exp((a - v) / b))
//   P(loss) = 1 / (1 + exp((a + v) / b))
//   P(draw) = 1 - P(win) - P(loss)
// with a and b cubic polynomials in m = clamp(material, 17, 110) / 65. `a` is
// the value at which the side to move wins half its games, shown as `cp 100`.
//
// Data are weighted points: a value v (side to move) with counts of wins,
// draws and losses at it, so that a bucket of many positions is fitted from a
// histogram.

import { err, ok, type Result } from '../../src/dev.js';
import { goldenSectionMinimum } from './minimize.js';

/** Points of one fit: value, and the wins, draws and losses of the side to move at that value. */
export interface WdlPoints {
  v: Float64Array;
  w: Float64Array;
  d: Float64Array;
  l: Float64Array;
}

/** A histogram of (value, result) pairs with values rounded to `step` units. */
export class WdlHistogram {
  private readonly map = new Map<number, [number, number, number]>();
  n = 0;
  constructor(readonly step = 1) {}

  /** `result` from the side to move: 1 win, 0 draw, -1 loss. */
  add(v: number, result: number): void {
    const key = Math.round(v / this.step);
    let c = this.map.get(key);
    if (!c) this.map.set(key, (c = [0, 0, 0]));
    c[result > 0 ? 0 : result < 0 ? 2 : 1]++;
    this.n++;
  }

  points(): WdlPoints {
    const keys = [...this.map.keys()].sort((x, y) => x - y);
    const p: WdlPoints = {
      v: new Float64Array(keys.length),
      w: new Float64Array(keys.length),
      d: new Float64Array(keys.length),
      l: new Float64Array(keys.length),
    };
    keys.forEach((k, i) => {
      const c = this.map.get(k)!;
      p.v[i] = k * this.step;
      p.w[i] = c[0];
      p.d[i] = c[1];
      p.l[i] = c[2];
    });
    return p;
  }
}

function logistic(x: number): number {
  return 1 / (1 + Math.exp(-x));
}

/** Win probability of the model at value v. */
export function winProb(v: number, a: number, b: number): number {
  return logistic((v - a) / b);
}

/** Expected score (wins + half the draws) of the model at value v. */
export function expectedScore(v: number, a: number, b: number): number {
  return (1 + winProb(v, a, b) - winProb(-v, a, b)) / 2;
}

/** Negative log-likelihood (per game) of the points under the model (a, b). */
export function wdlNll(p: WdlPoints, a: number, b: number): number {
  if (!(b > 0)) return Infinity;
  let s = 0,
    n = 0;
  for (let i = 0; i < p.v.length; i++) {
    const pw = winProb(p.v[i], a, b);
    const pl = winProb(-p.v[i], a, b);
    const pd = Math.max(1e-12, 1 - pw - pl);
    s -= p.w[i] * Math.log(Math.max(1e-12, pw)) + p.d[i] * Math.log(pd) + p.l[i] * Math.log(Math.max(1e-12, pl));
    n += p.w[i] + p.d[i] + p.l[i];
  }
  return n ? s / n : 0;
}

/** Nelder-Mead minimisation of f from x0 with initial steps `step` (small dimensions). */
function nelderMead(
  f: (x: number[]) => number,
  x0: readonly number[],
  step: readonly number[],
  iterations = 400,
  tol = 1e-10,
): { x: number[]; f: number } {
  const n = x0.length;
  let simplex: { x: number[]; f: number }[] = [{ x: [...x0], f: f([...x0]) }];
  for (let i = 0; i < n; i++) {
    const x = [...x0];
    x[i] += step[i];
    simplex.push({ x, f: f(x) });
  }
  const comb = (p: number[], q: number[], t: number): number[] => p.map((pi, i) => pi + t * (q[i] - pi));
  for (let it = 0; it < iterations; it++) {
    simplex.sort((s1, s2) => s1.f - s2.f);
    const best = simplex[0],
      worst = simplex[n];
    if (Math.abs(worst.f - best.f) <= tol * (Math.abs(best.f) + tol)) break;
    const centroid = new Array<number>(n).fill(0);
    for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) centroid[j] += simplex[i].x[j] / n;
    const xr = comb(centroid, worst.x, -1);
    const fr = f(xr);
    if (fr < best.f) {
      const xe = comb(centroid, worst.x, -2);
      const fe = f(xe);
      simplex[n] = fe < fr ? { x: xe, f: fe } : { x: xr, f: fr };
    } else if (fr < simplex[n - 1].f) {
      simplex[n] = { x: xr, f: fr };
    } else {
      const xc = fr < worst.f ? comb(centroid, xr, 0.5) : comb(centroid, worst.x, 0.5);
      const fc = f(xc);
      if (fc < Math.min(fr, worst.f)) simplex[n] = { x: xc, f: fc };
      else {
        simplex = simplex.map((s, i) => {
          if (i === 0) return s;
          const x = comb(best.x, s.x, 0.5);
          return { x, f: f(x) };
        });
      }
    }
  }
  simplex.sort((s1, s2) => s1.f - s2.f);
  return simplex[0];
}

/** Bounds of a fitted (a, b): outside them a fit has run away (results that do not depend on the value). */
const FIT_MAX = 20000;

/** Maximum-likelihood (a, b) of the win-rate model for the points (0 < a, b <= FIT_MAX). */
export function fitWdl(p: WdlPoints): { a: number; b: number; nll: number } {
  // Start from the spread of the values: a and b of the order of the mean |v|.
  let s = 0,
    n = 0;
  for (let i = 0; i < p.v.length; i++) {
    const c = p.w[i] + p.d[i] + p.l[i];
    s += Math.abs(p.v[i]) * c;
    n += c;
  }
  const m = n ? Math.max(20, s / n) : 100;
  const f = (x: number[]): number =>
    x[0] > 0 && x[0] <= FIT_MAX && x[1] > 0 && x[1] <= FIT_MAX ? wdlNll(p, x[0], x[1]) : Infinity;
  const r = nelderMead(f, [m, m / 2], [m / 2, m / 4], 1000, 1e-12);
  return { a: r.x[0], b: r.x[1], nll: r.f };
}

/**
 * Texel's K: the scale minimising the mean squared error of 1 / (1 + exp(-v / K))
 * against the expected score (win 1, draw 1/2, loss 0), by golden-section search.
 */
export function fitLogisticK(p: WdlPoints, lo = 10, hi = 5000): number {
  const err = (k: number): number => {
    let e = 0;
    for (let i = 0; i < p.v.length; i++) {
      const q = logistic(p.v[i] / k);
      e += p.w[i] * (1 - q) ** 2 + p.d[i] * (0.5 - q) ** 2 + p.l[i] * q * q;
    }
    return e;
  };
  return goldenSectionMinimum(err, lo, hi, 80);
}

/** The x in [lo, hi] with f(x) = target for an increasing f, by bisection. */
export function solveIncreasing(f: (x: number) => number, target: number, lo: number, hi: number): number {
  for (let it = 0; it < 100; it++) {
    const mid = (lo + hi) / 2;
    if (f(mid) < target) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}

/**
 * Weighted least-squares polynomial of degree `degree` through (x, y), coefficients
 * highest power first (Pikafish's order: c[0] x^3 + c[1] x^2 + c[2] x + c[3]).
 */
export function polyFit(x: readonly number[], y: readonly number[], w: readonly number[], degree = 3): number[] {
  const n = degree + 1;
  // Normal equations A c = r in powers x^0..x^degree.
  const A = Array.from({ length: n }, () => new Array<number>(n + 1).fill(0));
  for (let i = 0; i < x.length; i++) {
    const pw = [1];
    for (let k = 1; k < 2 * n; k++) pw.push(pw[k - 1] * x[i]);
    for (let r = 0; r < n; r++) {
      for (let c = 0; c < n; c++) A[r][c] += w[i] * pw[r + c];
      A[r][n] += w[i] * pw[r] * y[i];
    }
  }
  // Gaussian elimination with partial pivoting.
  for (let col = 0; col < n; col++) {
    let piv = col;
    for (let r = col + 1; r < n; r++) if (Math.abs(A[r][col]) > Math.abs(A[piv][col])) piv = r;
    [A[col], A[piv]] = [A[piv], A[col]];
    // Distinct points (callers pass one per material count) keep the system regular.
    if (Math.abs(A[col][col]) < 1e-300) throw new Error('polyFit: singular system (too few distinct points)');
    for (let r = 0; r < n; r++) {
      if (r === col) continue;
      const f = A[r][col] / A[col][col];
      for (let c = col; c <= n; c++) A[r][c] -= f * A[col][c];
    }
  }
  const low = A.map((row, i) => row[n] / A[i][i]);
  return low.reverse();
}

/** Horner evaluation of coefficients highest power first. */
export function polyEval(c: readonly number[], x: number): number {
  let s = 0;
  for (const ci of c) s = s * x + ci;
  return s;
}

/** Material clamp and anchor of the win-rate model's polynomials (Pikafish's uci.cpp). */
export const MODEL_MATERIAL_MIN = 17;
export const MODEL_MATERIAL_MAX = 110;
const MODEL_MATERIAL_ANCHOR = 65;

export interface WinRatePolynomials {
  as: number[];
  bs: number[];
  /** Per material count (clamped) that entered the first fit: count, material, fitted a, b. */
  perMaterial: { material: number; n: number; a: number; b: number }[];
  /** Negative log-likelihood per game of all the data: the cubics through the per-material fits, and refined. */
  nllStart: number;
  nll: number;
}

/** Negative log-likelihood per game of histograms by material under cubics `as`, `bs` (Pikafish's form). */
function polynomialNll(parts: readonly { material: number; p: WdlPoints }[], as: number[], bs: number[]): number {
  let s = 0,
    n = 0;
  for (const { material, p } of parts) {
    const m = Math.min(Math.max(material, MODEL_MATERIAL_MIN), MODEL_MATERIAL_MAX) / MODEL_MATERIAL_ANCHOR;
    const a = polyEval(as, m),
      b = polyEval(bs, m);
    let c = 0;
    for (let i = 0; i < p.v.length; i++) c += p.w[i] + p.d[i] + p.l[i];
    if (!c) continue;
    if (!(b > 0) || !(a > 0)) return Infinity;
    s += wdlNll(p, a, b) * c;
    n += c;
  }
  return n ? s / n : 0;
}

/**
 * Fits the model's polynomials: (a, b) by maximum likelihood for each material
 * count (counts outside [17, 110] pooled at the clamp, counts with fewer than
 * `minPositions` positions left out of this step), cubics in m = material / 65
 * through them weighted by the positions (as Stockfish's WDL_model), then the
 * eight coefficients refined together by maximum likelihood over all the data
 * (`refine`).
 */
export function fitWinRatePolynomials(
  byMaterial: Map<number, WdlHistogram>,
  minPositions = 500,
  refine = true,
): Result<WinRatePolynomials, 'fit-too-few'> {
  const pooled = new Map<number, WdlPoints[]>();
  const counts = new Map<number, number>();
  const parts: { material: number; p: WdlPoints }[] = [];
  for (const [mat, h] of byMaterial) {
    const m = Math.min(Math.max(mat, MODEL_MATERIAL_MIN), MODEL_MATERIAL_MAX);
    const p = h.points();
    parts.push({ material: m, p });
    if (!pooled.has(m)) pooled.set(m, []);
    pooled.get(m)!.push(p);
    counts.set(m, (counts.get(m) ?? 0) + h.n);
  }
  const perMaterial: WinRatePolynomials['perMaterial'] = [];
  for (const m of [...pooled.keys()].sort((x, y) => x - y)) {
    const n = counts.get(m)!;
    if (n < minPositions) continue;
    const ps = pooled.get(m)!;
    const cat = (k: keyof WdlPoints) => Float64Array.from(ps.flatMap((q) => [...q[k]]));
    const { a, b } = fitWdl({ v: cat('v'), w: cat('w'), d: cat('d'), l: cat('l') });
    // A fit at the bounds has run away: leave it out of the cubic.
    if (a < FIT_MAX * 0.99 && b < FIT_MAX * 0.99) perMaterial.push({ material: m, n, a, b });
  }
  if (perMaterial.length < 4) return err('fit-too-few', 'too few material counts with enough positions for a cubic');
  const xs = perMaterial.map((q) => q.material / MODEL_MATERIAL_ANCHOR);
  const ws = perMaterial.map((q) => q.n);
  let as = polyFit(
    xs,
    perMaterial.map((q) => q.a),
    ws,
  );
  let bs = polyFit(
    xs,
    perMaterial.map((q) => q.b),
    ws,
  );
  const nllStart = polynomialNll(parts, as, bs);
  let nll = nllStart;
  if (refine) {
    const x0 = [...as, ...bs];
    const step = x0.map((c) => Math.max(5, Math.abs(c) * 0.05));
    const r = nelderMead((x) => polynomialNll(parts, x.slice(0, 4), x.slice(4)), x0, step, 4000, 1e-13);
    if (r.f < nll) {
      as = r.x.slice(0, 4);
      bs = r.x.slice(4);
      nll = r.f;
    }
  }
  return ok({ as, bs, perMaterial, nllStart, nll });
}

/** Quantiles (q in [0, 1]) of a sample, by sorting a copy (nearest rank). */
export function quantiles(sample: Float64Array | number[], qs: readonly number[]): number[] {
  const s = Float64Array.from(sample).sort();
  if (!s.length) return qs.map(() => NaN);
  return qs.map((q) => s[Math.min(s.length - 1, Math.max(0, Math.round(q * (s.length - 1))))]);
}

/** Mean and standard deviation of a sample. */
export function meanSd(sample: Float64Array | number[]): { mean: number; sd: number } {
  let s = 0,
    s2 = 0;
  for (const x of sample) {
    s += x;
    s2 += x * x;
  }
  const n = sample.length;
  if (!n) return { mean: NaN, sd: NaN };
  const mean = s / n;
  return { mean, sd: Math.sqrt(Math.max(0, s2 / n - mean * mean)) };
}
