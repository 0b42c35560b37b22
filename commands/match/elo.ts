// Elo arithmetic for match results: the logistic Elo model, score statistics
// from the trinomial (per game: loss/draw/win) or pentanomial (per game pair
// with colors swapped: 0, 0.5, 1, 1.5, 2 points) distribution, 95% error bars
// and the likelihood of superiority.

/** Expected score for an Elo difference under the logistic model. */
export function scoreFromElo(elo: number): number {
  return 1 / (1 + Math.pow(10, -elo / 400));
}

/** Elo difference for an expected score (±Infinity at 0 and 1). */
export function eloFromScore(score: number): number {
  if (score <= 0) return -Infinity;
  if (score >= 1) return Infinity;
  return -400 * Math.log10(1 / score - 1) + 0; // + 0 turns -0 into 0
}

/** Inverse of the standard normal CDF (Acklam's rational approximation: about 1e-9 in the centre, 1e-5 in the tails). */
export function normalQuantile(p: number): number {
  if (p <= 0) return -Infinity;
  if (p >= 1) return Infinity;
  const a = [
    -3.969683028665376e1, 2.209460984245205e2, -2.759285104469687e2, 1.38357751867269e2, -3.066479806614716e1,
    2.506628277459239,
  ];
  const b = [
    -5.447609879822406e1, 1.615858368580409e2, -1.556989798598866e2, 6.680131188771972e1, -1.328068155288572e1,
  ];
  const c = [
    -7.784894002430293e-3, -3.223964580411365e-1, -2.400758277161838, -2.549671010584268, 4.374664141464968,
    2.938163982698783,
  ];
  const d = [7.784695709041462e-3, 3.224671290700398e-1, 2.445134137142996, 3.754408661907416];
  const plow = 0.02425;
  let x: number;
  if (p < plow) {
    const q = Math.sqrt(-2 * Math.log(p));
    x =
      (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) /
      ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
  } else if (p <= 1 - plow) {
    const q = p - 0.5;
    const r = q * q;
    x =
      ((((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q) /
      (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1);
  } else {
    const q = Math.sqrt(-2 * Math.log(1 - p));
    x =
      -(((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) /
      ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
  }
  return x;
}

/** Complementary error function (Numerical Recipes erfcc, relative error < 1.2e-7). */
function erfc(x: number): number {
  const z = Math.abs(x);
  const t = 1 / (1 + 0.5 * z);
  const r =
    t *
    Math.exp(
      -z * z -
        1.26551223 +
        t *
          (1.00002368 +
            t *
              (0.37409196 +
                t *
                  (0.09678418 +
                    t *
                      (-0.18628806 +
                        t *
                          (0.27886807 + t * (-1.13520398 + t * (1.48851587 + t * (-0.82215223 + t * 0.17087277)))))))),
    );
  return x >= 0 ? r : 2 - r;
}

/** Standard normal CDF. */
export function normalCdf(x: number): number {
  return 0.5 * erfc(-x / Math.SQRT2);
}

/**
 * A discrete score distribution: `counts[i]` observations of score `scores[i]`
 * (scores in [0, 1]). Trinomial: scores [0, 0.5, 1] with counts [L, D, W];
 * pentanomial: scores [0, 0.25, 0.5, 0.75, 1] with the pair counts.
 */
export interface ScoreDistribution {
  scores: readonly number[];
  counts: readonly number[];
}

const TRINOMIAL_SCORES: readonly number[] = [0, 0.5, 1];
const PENTANOMIAL_SCORES: readonly number[] = [0, 0.25, 0.5, 0.75, 1];

export function trinomial(wins: number, draws: number, losses: number): ScoreDistribution {
  return { scores: TRINOMIAL_SCORES, counts: [losses, draws, wins] };
}

/** `pairs[k]` = number of game pairs in which the engine scored k/2 points (k = 0..4, i.e. 0, 0.5, ..., 2 points). */
export function pentanomial(pairs: readonly number[]): ScoreDistribution {
  if (pairs.length !== 5) throw new Error('pentanomial: need 5 pair counts');
  return { scores: PENTANOMIAL_SCORES, counts: pairs.slice() };
}

export interface ScoreStats {
  /** Number of observations (games or pairs). */
  n: number;
  mean: number;
  /** Variance of one observation. */
  variance: number;
}

export function scoreStats(dist: ScoreDistribution): ScoreStats {
  let n = 0,
    sum = 0;
  for (let i = 0; i < dist.counts.length; i++) {
    n += dist.counts[i];
    sum += dist.counts[i] * dist.scores[i];
  }
  if (n === 0) return { n: 0, mean: 0.5, variance: 0 };
  const mean = sum / n;
  let v = 0;
  for (let i = 0; i < dist.counts.length; i++) v += dist.counts[i] * (dist.scores[i] - mean) ** 2;
  return { n, mean, variance: v / n };
}

export interface EloEstimate {
  /** Elo difference (logistic). */
  elo: number;
  /** Half-width of the 95% interval in Elo (the interval is mapped from score to Elo, so it is approximate when asymmetric). */
  error: number;
  /** 95% interval in Elo. */
  lower: number;
  upper: number;
  /** Mean score per game. */
  score: number;
  /** Likelihood of superiority, 0..1. */
  los: number;
}

/** Elo with a 95% confidence interval from a trinomial or pentanomial distribution. */
export function eloEstimate(dist: ScoreDistribution, confidence = 0.95): EloEstimate {
  const s = scoreStats(dist);
  if (s.n === 0) return { elo: 0, error: 0, lower: 0, upper: 0, score: 0.5, los: 0.5 };
  const stderr = Math.sqrt(s.variance / s.n);
  const z = normalQuantile(1 - (1 - confidence) / 2);
  const elo = eloFromScore(s.mean);
  const lower = eloFromScore(s.mean - z * stderr);
  const upper = eloFromScore(s.mean + z * stderr);
  const los = stderr > 0 ? normalCdf((s.mean - 0.5) / stderr) : s.mean > 0.5 ? 1 : s.mean < 0.5 ? 0 : 0.5;
  return { elo, error: (upper - lower) / 2, lower, upper, score: s.mean, los };
}

/** "+12.3 +/- 20.1" style text; infinite values print as +inf/-inf. */
export function formatElo(e: EloEstimate): string {
  const f = (x: number): string => (Number.isFinite(x) ? (x >= 0 ? '+' : '') + x.toFixed(1) : x > 0 ? '+inf' : '-inf');
  const err = Number.isFinite(e.error) ? e.error.toFixed(1) : 'inf';
  return `${f(e.elo)} +/- ${err}`;
}
