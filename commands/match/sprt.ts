// Sequential probability ratio test for engine matches: the generalized SPRT
// (GSPRT) used by fishtest and cutechess-style runners.
//
// H0: Elo = elo0, H1: Elo = elo1 (logistic Elo). For each hypothesis the
// result distribution (trinomial per game or pentanomial per game pair) is the
// maximum-likelihood distribution whose expected score equals the score of that
// Elo; the log-likelihood ratio of the observed counts under the two is the LLR.
// The test stops when LLR >= log((1 - beta) / alpha) (accept H1) or
// LLR <= log(beta / (1 - alpha)) (accept H0).

import { err, ok, type Result } from '../../src/dev.js';
import { scoreFromElo, scoreStats, type ScoreDistribution } from './elo.js';

export interface SprtParams {
  elo0: number;
  elo1: number;
  alpha: number;
  beta: number;
}

const DEFAULT_SPRT: SprtParams = Object.freeze({ elo0: 0, elo1: 10, alpha: 0.05, beta: 0.05 }) as SprtParams;

export interface SprtBounds {
  lower: number;
  upper: number;
}

export function sprtBounds(p: SprtParams): SprtBounds {
  return { lower: Math.log(p.beta / (1 - p.alpha)), upper: Math.log((1 - p.beta) / p.alpha) };
}

/** Pseudo-count given to empty categories so that the constrained MLE always exists (as fishtest does). */
const EMPTY_COUNT = 1e-3;

/**
 * The distribution closest (maximum likelihood) to the observed frequencies
 * `freq` over `scores` whose mean is `s`: p_i = freq_i / (1 + lambda (a_i - s)),
 * with lambda the root of sum freq_i (a_i - s) / (1 + lambda (a_i - s)) = 0.
 */
export function constrainedMle(scores: readonly number[], freq: readonly number[], s: number): number[] {
  let dMin = Infinity,
    dMax = -Infinity;
  for (let i = 0; i < scores.length; i++) {
    if (freq[i] <= 0) continue;
    const d = scores[i] - s;
    if (d < dMin) dMin = d;
    if (d > dMax) dMax = d;
  }
  if (!(dMin < 0 && dMax > 0)) throw new Error('constrainedMle: target score outside the support');
  // f(lambda) is strictly decreasing on (-1/dMax, -1/dMin).
  let lo = -1 / dMax,
    hi = -1 / dMin;
  const f = (lambda: number): number => {
    let sum = 0;
    for (let i = 0; i < scores.length; i++) {
      if (freq[i] <= 0) continue;
      const d = scores[i] - s;
      sum += (freq[i] * d) / (1 + lambda * d);
    }
    return sum;
  };
  for (let iter = 0; iter < 200; iter++) {
    const mid = (lo + hi) / 2;
    if (mid === lo || mid === hi) break;
    if (f(mid) > 0) lo = mid;
    else hi = mid;
  }
  const lambda = (lo + hi) / 2;
  return scores.map((a, i) => (freq[i] > 0 ? freq[i] / (1 + lambda * (a - s)) : 0));
}

/** GSPRT log-likelihood ratio of H1 (elo1) against H0 (elo0) for the observed distribution. */
export function sprtLlr(dist: ScoreDistribution, elo0: number, elo1: number): number {
  const n = dist.counts.reduce((a, b) => a + b, 0);
  if (n === 0) return 0;
  const reg = dist.counts.map((c) => (c > 0 ? c : EMPTY_COUNT));
  const total = reg.reduce((a, b) => a + b, 0);
  const freq = reg.map((c) => c / total);
  const s0 = scoreFromElo(elo0),
    s1 = scoreFromElo(elo1);
  const p0 = constrainedMle(dist.scores, freq, s0);
  const p1 = constrainedMle(dist.scores, freq, s1);
  let llr = 0;
  for (let i = 0; i < dist.counts.length; i++) {
    if (dist.counts[i] > 0) llr += dist.counts[i] * Math.log(p1[i] / p0[i]);
  }
  return llr;
}

/**
 * The usual normal approximation of the GSPRT LLR (as in cutechess-ob and
 * fastchess): N (s1 - s0) (2 mean - s0 - s1) / (2 variance). Used to cross-check.
 */
export function sprtLlrApprox(dist: ScoreDistribution, elo0: number, elo1: number): number {
  const st = scoreStats(dist);
  if (st.n === 0 || st.variance === 0) return 0;
  const s0 = scoreFromElo(elo0),
    s1 = scoreFromElo(elo1);
  return (st.n * (s1 - s0) * (2 * st.mean - s0 - s1)) / (2 * st.variance);
}

type SprtDecision = 'H0' | 'H1' | null;

export interface SprtStatus {
  llr: number;
  lower: number;
  upper: number;
  /** 'H1' (elo >= elo1 accepted, the test passed), 'H0' (elo <= elo0 accepted, failed) or null (continue). */
  decision: SprtDecision;
}

export function sprtStatus(dist: ScoreDistribution, p: SprtParams): SprtStatus {
  const { lower, upper } = sprtBounds(p);
  const llr = sprtLlr(dist, p.elo0, p.elo1);
  const decision: SprtDecision = llr >= upper ? 'H1' : llr <= lower ? 'H0' : null;
  return { llr, lower, upper, decision };
}

export function formatSprt(p: SprtParams, st: SprtStatus): string {
  const verdict = st.decision === 'H1' ? ' - H1 accepted (pass)' : st.decision === 'H0' ? ' - H0 accepted (fail)' : '';
  return (
    `SPRT elo0=${p.elo0} elo1=${p.elo1} alpha=${p.alpha} beta=${p.beta}: LLR ${st.llr.toFixed(2)} ` +
    `(${st.lower.toFixed(2)}, ${st.upper.toFixed(2)})${verdict}`
  );
}

/** Parses "elo0=0 elo1=10 alpha=0.05 beta=0.05" style key=value tokens (missing keys take the defaults). */
export type SprtErrorCode = 'sprt-syntax' | 'sprt-value' | 'sprt-bounds';

export function parseSprtParams(tokens: readonly string[]): Result<SprtParams, SprtErrorCode> {
  const p: SprtParams = { ...DEFAULT_SPRT };
  for (const t of tokens) {
    const m = /^(elo0|elo1|alpha|beta)=(-?[0-9.]+(?:e-?[0-9]+)?)$/i.exec(t);
    if (!m) return err('sprt-syntax', `bad SPRT parameter "${t}" (expected elo0=, elo1=, alpha=, beta=)`);
    const v = Number(m[2]);
    if (!Number.isFinite(v)) return err('sprt-value', `bad SPRT value in "${t}"`);
    (p as unknown as Record<string, number>)[m[1].toLowerCase()] = v;
  }
  if (!(p.elo1 > p.elo0)) return err('sprt-bounds', 'SPRT needs elo1 > elo0');
  if (!(p.alpha > 0 && p.alpha < 1 && p.beta > 0 && p.beta < 1))
    return err('sprt-bounds', 'SPRT needs 0 < alpha, beta < 1');
  return ok(p);
}
