// Arithmetic of the strength scale measurement (lab/strength/elo-scale.ts):
// the players, the pairs that meet, the rating fit from pairwise Elo
// differences, the slope of measured against nominal ratings, and calibration
// points (UCI_Elo -> skill level) that make the measured scale follow the
// nominal one.

import { err, ok, type Result } from '../../src/dev.js';
import { eloEstimate, pentanomial, trinomial } from '../../commands/match/elo.js';

/** A setting of the engine: `UCI_Elo`, a raw `Skill Level`, or full strength. */
export type Setting = { kind: 'elo'; elo: number } | { kind: 'level'; level: number } | { kind: 'full' };

/** "1500" (UCI_Elo), "L7" (Skill Level 7) or "full". */
export function parseSetting(text: string): Setting | null {
  const t = text.trim().toLowerCase();
  if (t === 'full') return { kind: 'full' };
  let m = /^l(\d{1,2})$/.exec(t);
  if (m && Number(m[1]) <= 20) return { kind: 'level', level: Number(m[1]) };
  m = /^(\d{4})$/.exec(t);
  if (m) return { kind: 'elo', elo: Number(m[1]) };
  return null;
}

export function settingLabel(s: Setting): string {
  return s.kind === 'full' ? 'full' : s.kind === 'level' ? `L${s.level}` : String(s.elo);
}

/** UCI options that select the setting. */
export function settingOptions(s: Setting): Array<[string, string]> {
  if (s.kind === 'full')
    return [
      ['UCI_LimitStrength', 'false'],
      ['Skill Level', '20'],
    ];
  if (s.kind === 'level')
    return [
      ['UCI_LimitStrength', 'false'],
      ['Skill Level', String(s.level)],
    ];
  return [
    ['UCI_LimitStrength', 'true'],
    ['UCI_Elo', String(s.elo)],
  ];
}

/**
 * The pairs of player indices that meet: "chain" (each with the next), "all",
 * or a list such as "1500-1800,2400-full" (labels as given in the player list).
 */
export function parsePairs(spec: string, labels: readonly string[]): [number, number][] | null {
  const n = labels.length;
  const out: [number, number][] = [];
  if (spec === 'chain') for (let i = 0; i + 1 < n; i++) out.push([i, i + 1]);
  else if (spec === 'all') for (let i = 0; i < n; i++) for (let j = i + 1; j < n; j++) out.push([i, j]);
  else
    for (const p of spec.split(',')) {
      const [a, b] = p.split('-').map((x) => labels.indexOf(x.trim().toLowerCase()));
      if (a === undefined || b === undefined || a < 0 || b < 0 || a === b) return null;
      out.push([a, b]);
    }
  return out.length ? out : null;
}

/** One match: player a against player b, Elo of a minus b with its 95% half-width. */
export interface PairResult {
  a: number;
  b: number;
  elo: number;
  error: number;
}

/**
 * Ratings from pairwise differences by weighted least squares (weight 1 /
 * error^2), with player `anchorIdx` fixed at `anchor`. Differences must be
 * finite (clamp clean sweeps before). The error 'fit-disconnected' when the
 * pairs do not connect all players.
 */
export function fitRatings(
  n: number,
  results: readonly PairResult[],
  anchorIdx: number,
  anchor: number,
): Result<number[], 'fit-disconnected'> {
  const free = [...Array(n).keys()].filter((i) => i !== anchorIdx);
  const col = new Map(free.map((p, k) => [p, k]));
  const m = free.length;
  const A = Array.from({ length: m }, () => new Array<number>(m).fill(0));
  const y = new Array<number>(m).fill(0);
  for (const r of results) {
    const w = 1 / Math.max(1, r.error) ** 2;
    const terms: [number, number][] = [
      [r.a, 1],
      [r.b, -1],
    ];
    let rhs = r.elo;
    for (const [i, c] of terms) if (i === anchorIdx) rhs -= c * anchor;
    for (const [i, ci] of terms) {
      const ki = col.get(i);
      if (ki === undefined) continue;
      y[ki] += w * ci * rhs;
      for (const [j, cj] of terms) {
        const kj = col.get(j);
        if (kj !== undefined) A[ki][kj] += w * ci * cj;
      }
    }
  }
  for (let c = 0; c < m; c++) {
    let p = c;
    for (let r = c + 1; r < m; r++) if (Math.abs(A[r][c]) > Math.abs(A[p][c])) p = r;
    [A[c], A[p]] = [A[p], A[c]];
    [y[c], y[p]] = [y[p], y[c]];
    if (Math.abs(A[c][c]) < 1e-15) return err('fit-disconnected', 'the pairs do not connect every player');
    for (let r = 0; r < m; r++) {
      if (r === c) continue;
      const f = A[r][c] / A[c][c];
      for (let k = c; k < m; k++) A[r][k] -= f * A[c][k];
      y[r] -= f * y[c];
    }
  }
  const out = new Array<number>(n).fill(anchor);
  free.forEach((p, k) => (out[p] = y[k] / A[k][k]));
  return ok(out);
}

/** Least-squares slope of y against x (1.0: a step in x is the same step in y). */
export function slope(points: readonly { x: number; y: number }[]): number {
  const k = points.length;
  if (k < 2) return NaN;
  const mx = points.reduce((a, p) => a + p.x, 0) / k;
  const my = points.reduce((a, p) => a + p.y, 0) / k;
  const sxx = points.reduce((a, p) => a + (p.x - mx) ** 2, 0);
  return sxx > 0 ? points.reduce((a, p) => a + (p.x - mx) * (p.y - my), 0) / sxx : NaN;
}

/**
 * Calibration points [UCI_Elo, level] from measured ratings by level (`rows`,
 * the lowest at level 0, full strength as level 20): UCI_Elo = eloMin + the
 * rating above level 0, so that UCI_Elo differences are measured Elo
 * differences. A level that measured no stronger than a lower one is left out
 * (noise). The top point is eloMax at the level where the measured scale
 * reaches it (interpolated, towards full strength if needed, at most
 * `maxLevel`); when even full strength is not eloMax above level 0 the top is
 * [eloMax, maxLevel] and the scale is compressed there.
 *
 * With `stairs`, a measured integer level L + 1 (below 20) that follows a
 * measured level L gets its point halfway between their ratings instead of at
 * its own: the search depth is 1 + floor(level), so strength is a staircase
 * in the level, and this way each depth plays the UCI_Elo values nearest its
 * measured rating (level L from halfway below its rating to halfway above)
 * instead of the values from its rating up to the next level's, half a step
 * too high on average.
 */
export function calibrationPoints(
  rows: readonly { level: number; rating: number }[],
  eloMin: number,
  eloMax: number,
  maxLevel = 19,
  stairs = false,
): Result<[number, number][], 'fit-no-level-0'> {
  const sorted = [...rows].sort((a, b) => a.level - b.level);
  if (!sorted.length || sorted[0].level !== 0)
    return err('fit-no-level-0', 'the calibration needs a measurement at level 0');
  const mono: { level: number; elo: number }[] = [];
  for (const r of sorted) {
    const elo = eloMin + r.rating - sorted[0].rating;
    if (!mono.length || elo > mono[mono.length - 1].elo) mono.push({ level: r.level, elo });
  }
  if (stairs)
    for (let i = mono.length - 1; i > 0; i--) {
      const p = mono[i];
      if (Number.isInteger(p.level) && p.level < 20 && p.level === mono[i - 1].level + 1)
        mono[i] = { level: p.level, elo: (p.elo + mono[i - 1].elo) / 2 };
    }
  const out: [number, number][] = [];
  for (let i = 0; i < mono.length; i++) {
    const p = mono[i];
    if (p.elo < eloMax && p.level < maxLevel) {
      out.push([Math.round(p.elo), Math.round(p.level * 100) / 100]);
      continue;
    }
    // The scale reaches eloMax between the previous point and this one.
    const q = mono[i - 1];
    const level = q.level + ((p.level - q.level) * (eloMax - q.elo)) / (p.elo - q.elo);
    out.push([eloMax, Math.round(Math.min(maxLevel, level) * 100) / 100]);
    return ok(out);
  }
  out.push([eloMax, maxLevel]);
  return ok(out);
}

/**
 * Elo of the first player from one match's W/D/L and game-pair counts (0, 0.5,
 * 1, 1.5, 2 points of the first player): the pentanomial estimate when there
 * are complete pairs, else the trinomial one. A clean sweep has no finite
 * Elo: it is counted as half a game short of it (one win or loss becomes a
 * draw). An error with no finite bound is reported as 1000.
 */
export function pairEstimate(
  wins: number,
  draws: number,
  losses: number,
  pairs: readonly number[],
): { elo: number; error: number; sweep: -1 | 0 | 1 } {
  const n = wins + draws + losses;
  const sweep = wins + draws / 2 >= n - 0.25 ? 1 : losses + draws / 2 >= n - 0.25 ? -1 : 0;
  const e = sweep
    ? eloEstimate(trinomial(wins - (sweep > 0 ? 1 : 0), draws + 1, losses - (sweep < 0 ? 1 : 0)))
    : pairs.some((c) => c > 0)
      ? eloEstimate(pentanomial(pairs))
      : eloEstimate(trinomial(wins, draws, losses));
  return { elo: e.elo, error: Number.isFinite(e.error) ? e.error : 1000, sweep };
}

/** One measured pair as saved in elo-scale's JSON output (labels as in its player list). */
export interface SavedPair {
  first: string;
  second: string;
  elo: number;
  error: number;
}

/**
 * Joins the pairs of several measurements (runs of elo-scale, e.g. the weak
 * levels at one time and the strong ones at another) into one list of
 * players (labels in lower case, in the order first seen) and pair results
 * over it; a pair measured twice enters the fit twice. Null when a run has no
 * pairs.
 */
export function mergeMeasurements(runs: readonly { pairs: readonly SavedPair[] }[]): {
  labels: string[];
  results: PairResult[];
} | null {
  const labels: string[] = [];
  const index = (label: string): number => {
    const l = label.toLowerCase();
    const i = labels.indexOf(l);
    if (i >= 0) return i;
    labels.push(l);
    return labels.length - 1;
  };
  const results: PairResult[] = [];
  for (const run of runs) {
    if (!run.pairs.length) return null;
    for (const p of run.pairs) results.push({ a: index(p.first), b: index(p.second), elo: p.elo, error: p.error });
  }
  return { labels, results };
}
