// `kirin tune --scale-report`: the classical evaluation's scale against the
// search's constants and the eval -> cp model (docs/DATAGEN.md).
//
//   kirin tune --scale-report --data FILE[,FILE...] [--limit N] [--sweep N] [--sweep-depth D]
//
// For every position of `kirin datagen` files it recomputes evaluate() (the
// current weights, the classical evaluation: this tool loads no network) and
// its material count (score.ts), then prints:
//  1. by material bucket: Texel's K, the win-rate model (a, b) fitted by maximum
//     likelihood to the game results (a = the value at which the side to move
//     wins half its games), the value with expected score 0.75, beside
//     Pikafish's model and the classical model now in score.ts;
//  2. the win-rate polynomials fitted to the data (the form of Pikafish's
//     win_rate_params), as TypeScript for score.ts, with the log-likelihood of
//     the data under each model;
//  3. how far the data's search (its search score) moved its own static
//     evaluation (the stored one), by material bucket;
//  4. with --sweep N: N positions spread over the data searched to depth D
//     (default 8) by the current search, and the change of the score from
//     evaluate() at each completed depth, against the pruning margins of
//     src/search/search.ts at that depth.

import { statSync } from 'node:fs';
import {
  CLASSICAL_WIN_RATE,
  evaluate,
  materialCount,
  PIKAFISH_WIN_RATE,
  Position,
  winRateParams,
  type WinRateModel,
} from '../../src/dev.js';
import { VALUE_MATE_IN_MAX_PLY } from '../../src/core/types.js';
import { quietFutilityMargin, razoringMargin, reverseFutilityMargin, Searcher } from '../../src/search/search.js';
import { DEFAULT_SEARCH_OPTIONS, type SearchOptions } from '../../src/search/types.js';
import { HEADER_SIZE, RECORD_SIZE, decodeRecord, fileVersion, recordFen, recordPosition } from '../datagen/format.js';
import { forEachRecord } from '../datagen/records.js';
import {
  MODEL_MATERIAL_MAX,
  MODEL_MATERIAL_MIN,
  WdlHistogram,
  expectedScore,
  fitLogisticK,
  fitWdl,
  fitWinRatePolynomials,
  meanSd,
  quantiles,
  solveIncreasing,
  wdlNll,
  type WdlPoints,
} from './scale.js';
import { integerOption } from '../../toolkit/command-line.js';

const SCALE_USAGE = `usage: kirin tune --scale-report --data FILE[,FILE...] [--limit N] [--sweep N] [--sweep-depth D]
`;

/** Material buckets of the report (score.ts's material count; 110 = all pieces). */
const BUCKETS: readonly [number, number][] = [
  [0, 39],
  [40, 59],
  [60, 79],
  [80, 99],
  [100, 110],
];

const SEARCH_OPTIONS: SearchOptions = { ...DEFAULT_SEARCH_OPTIONS, moveOverhead: 0 };

/** Values are rounded to this many units in the histograms of the model fit (speed; far below b). */
const MATERIAL_STEP = 4;

function bucketOf(material: number): number {
  for (let i = 0; i < BUCKETS.length; i++) if (material <= BUCKETS[i][1]) return i;
  return BUCKETS.length - 1;
}

const f0 = (x: number): string => (Number.isFinite(x) ? x.toFixed(0) : '-');
const f1 = (x: number): string => (Number.isFinite(x) ? x.toFixed(1) : '-');

/** The value at which the model's expected score is 0.75. */
function v75(a: number, b: number): number {
  return solveIncreasing((v) => expectedScore(v, a, b), 0.75, 0, 20000);
}

/** Negative log-likelihood per game of the points under a model of score.ts, material by point. */
function modelNll(parts: { material: number; p: WdlPoints }[], model: WinRateModel): number {
  let s = 0,
    n = 0;
  for (const { material, p } of parts) {
    const { a, b } = winRateParams(material, model);
    let c = 0;
    for (let i = 0; i < p.v.length; i++) c += p.w[i] + p.d[i] + p.l[i];
    s += wdlNll(p, a, b) * c;
    n += c;
  }
  return n ? s / n : NaN;
}

/** `kirin tune --scale-report` with the command line as read (data, limit, sweep, sweep-depth). */
export function runScaleReport(a: {
  readonly data?: string;
  readonly limit?: string;
  readonly sweep?: string;
  readonly 'sweep-depth'?: string;
}): number {
  const fail = (msg: string): number => {
    process.stderr.write(`kirin tune --scale-report: ${msg}\n${SCALE_USAGE}`);
    return 2;
  };
  const limitOpt = integerOption(a, 'limit', 0, { min: 0, max: 1e12 });
  const sweepOpt = integerOption(a, 'sweep', 0, { min: 0, max: 1e6 });
  const depthOpt = integerOption(a, 'sweep-depth', 8, { min: 1, max: 30 });
  if (!limitOpt.ok) return fail(limitOpt.error.message);
  if (!sweepOpt.ok) return fail(sweepOpt.error.message);
  if (!depthOpt.ok) return fail(depthOpt.error.message);
  const limit = limitOpt.value,
    sweep = sweepOpt.value,
    sweepDepth = depthOpt.value;
  const data = a.data;
  if (!data) return fail('--data FILE is required');
  const files = data.split(',');
  let total = 0;
  for (const f of files) {
    try {
      // A chain file's records are counted by reading it (only the sweep needs the count).
      const v = fileVersion(f);
      if (v.ok && v.value === 2) {
        if (!sweep) continue;
        const r = forEachRecord(f, () => {});
        if (!r.ok) return fail(`${f}: ${r.error.message}`);
        total += r.value;
      } else total += Math.floor((statSync(f).size - HEADER_SIZE) / RECORD_SIZE);
    } catch (e) {
      return fail(`${f}: ${(e as Error).message}`);
    }
  }
  if (limit) total = Math.min(total, limit);
  const sweepStride = sweep ? Math.max(1, Math.floor(total / sweep)) : 0;

  // One pass: evaluate() and material of every position, its result, and the
  // data's search score against its stored static evaluation.
  const t0 = performance.now();
  const pos = new Position(null);
  const board = new Uint8Array(90);
  const byMaterial = new Map<number, WdlHistogram>();
  const bucketHist = BUCKETS.map(() => new WdlHistogram());
  const bucketMaterial = BUCKETS.map(() => 0);
  const moved = BUCKETS.map(() => [] as number[]);
  let n = 0,
    inCheck = 0;
  // Slope of the current evaluation against the stored one (the weights of the data's search).
  let sxx = 0,
    sxy = 0;
  const sweepFens: string[] = [];
  for (const file of files) {
    let badRecord = '';
    const r = forEachRecord(file, (buf, off) => {
      if ((limit && n >= limit) || badRecord) return;
      const rec = decodeRecord(buf, off, board);
      const set = recordPosition(rec, pos);
      if (!set.ok) {
        badRecord = set.error.message;
        return;
      }
      if (pos.inCheck()) {
        inCheck++;
        return;
      }
      if (sweepStride && n % sweepStride === 0 && sweepFens.length < sweep) sweepFens.push(recordFen(rec));
      n++;
      const v = evaluate(pos, 0);
      const mat = materialCount(pos);
      let h = byMaterial.get(mat);
      if (!h) byMaterial.set(mat, (h = new WdlHistogram(MATERIAL_STEP)));
      h.add(v, rec.result);
      const bi = bucketOf(mat);
      bucketHist[bi].add(v, rec.result);
      bucketMaterial[bi] += mat;
      moved[bi].push(rec.score - rec.eval);
      sxx += rec.eval * rec.eval;
      sxy += rec.eval * v;
    });
    if (!r.ok) return fail(`${file}: ${r.error.message}`);
    if (badRecord) return fail(`${file}: ${badRecord}`);
  }
  if (n === 0) return fail('no positions');
  process.stderr.write(
    `kirin tune --scale-report: ${n} positions evaluated in ${((performance.now() - t0) / 1000).toFixed(1)} s` +
      (inCheck ? ` (${inCheck} in check skipped)` : '') +
      '\n',
  );
  const out = (s: string): void => {
    process.stdout.write(s + '\n');
  };

  out(
    `Positions: ${n} (${files.map((f) => f.split('/').pop()).join(', ')}); evaluation: the classical one, current weights.`,
  );
  out(
    `Current evaluate() against the stored static evaluation (the data's weights): least-squares slope ${(sxy / sxx).toFixed(3)}.`,
  );
  out('');
  out('1. What a value means, by material (evaluate() from the side to move against the game results)');
  out('');
  out(
    '| material | positions | mean material | K | a: 50 % wins | b | v at expected score 0.75 | Pikafish a / b / v0.75 | score.ts classical a / b / v0.75 |',
  );
  out('|---|---|---|---|---|---|---|---|---|');
  BUCKETS.forEach(([lo, hi], i) => {
    const h = bucketHist[i];
    if (h.n < 50) {
      out(`| ${lo}-${hi} | ${h.n} | | | | | | | |`);
      return;
    }
    const p = h.points();
    const k = fitLogisticK(p);
    const fit = fitWdl(p);
    const mean = bucketMaterial[i] / h.n;
    const pk = winRateParams(mean, PIKAFISH_WIN_RATE);
    const cl = winRateParams(mean, CLASSICAL_WIN_RATE);
    out(
      `| ${lo}-${hi} | ${h.n} | ${f1(mean)} | ${f0(k)} | ${f0(fit.a)} | ${f0(fit.b)} | ${f0(v75(fit.a, fit.b))} | ` +
        `${f0(pk.a)} / ${f0(pk.b)} / ${f0(v75(pk.a, pk.b))} | ${f0(cl.a)} / ${f0(cl.b)} / ${f0(v75(cl.a, cl.b))} |`,
    );
  });

  out('');
  out(
    `2. Win-rate model fitted to the data: (a, b) per material count (clamped to [${MODEL_MATERIAL_MIN}, ${MODEL_MATERIAL_MAX}]), then cubics in material / 65`,
  );
  out('');
  const fit = fitWinRatePolynomials(byMaterial);
  if (!fit.ok) out(`(no fit: ${fit.error.message})`);
  const poly = fit.ok ? fit.value : null;
  if (poly) {
    out('| material | positions | a | b | cubic a | cubic b |');
    out('|---|---|---|---|---|---|');
    const fitted: WinRateModel = { name: 'fitted', as: poly.as, bs: poly.bs };
    for (const q of poly.perMaterial) {
      const c = winRateParams(q.material, fitted);
      out(`| ${q.material} | ${q.n} | ${f0(q.a)} | ${f0(q.b)} | ${f0(c.a)} | ${f0(c.b)} |`);
    }
    out('');
    const fmt = (c: number[]) => `[${c.map((x) => x.toFixed(8)).join(', ')}]`;
    out(`  as: ${fmt(poly.as)},`);
    out(`  bs: ${fmt(poly.bs)},`);
    out('');
    out(
      `  the model: ${[20, 30, 40, 50, 65, 80, 95, 110]
        .map((m) => {
          const c = winRateParams(m, fitted);
          return `${m}: a ${c.a.toFixed(1)} b ${c.b.toFixed(1)}`;
        })
        .join('; ')}`,
    );
    const parts = [...byMaterial].map(([material, h]) => ({ material, p: h.points() }));
    out('');
    out(
      `Log-likelihood per game of the results (higher is better): cubics through the fits by material ${(-poly.nllStart).toFixed(5)}, ` +
        `refined (the model above) ${(-modelNll(parts, fitted)).toFixed(5)}, ` +
        `score.ts classical ${(-modelNll(parts, CLASSICAL_WIN_RATE)).toFixed(5)}, Pikafish ${(-modelNll(parts, PIKAFISH_WIN_RATE)).toFixed(5)}`,
    );
  }

  out('');
  out('3. How far the data search moved its static evaluation: search score - stored evaluation (internal units)');
  out('');
  out('| material | positions | mean | sd | 1 % | 5 % | 25 % | 50 % | 75 % | 95 % | 99 % |');
  out('|---|---|---|---|---|---|---|---|---|---|---|');
  const qs = [0.01, 0.05, 0.25, 0.5, 0.75, 0.95, 0.99];
  const row = (label: string, s: number[]): void => {
    const { mean, sd } = meanSd(s);
    out(`| ${label} | ${s.length} | ${f0(mean)} | ${f0(sd)} | ${quantiles(s, qs).map(f0).join(' | ')} |`);
  };
  BUCKETS.forEach(([lo, hi], i) => row(`${lo}-${hi}`, moved[i]));
  row('all', moved.flat());

  if (sweepFens.length) {
    out('');
    out(
      `4. Depth sweep: ${sweepFens.length} positions searched to depth ${sweepDepth} (fresh hash each), score at depth d - evaluate()`,
    );
    out('');
    const t1 = performance.now();
    const searcher = new Searcher(16);
    const signals = new Int32Array(new SharedArrayBuffer(8));
    const deltas: number[][] = Array.from({ length: sweepDepth + 1 }, () => []);
    let nodes = 0;
    for (const fen of sweepFens) {
      const s = pos.setFen(fen);
      if (!s.ok) continue;
      const ev = evaluate(pos, 0);
      const byDepth = new Map<number, number>();
      searcher.clear();
      const res = searcher.search(pos, { depth: sweepDepth, startTime: performance.now() }, SEARCH_OPTIONS, {
        signals,
        info: (i) => {
          if (i.bound === 'exact' && i.multipv === 1) byDepth.set(i.depth, i.score);
        },
        text: () => {},
      });
      nodes += res.nodes;
      for (const [d, sc] of byDepth) {
        if (d <= sweepDepth && Math.abs(sc) < VALUE_MATE_IN_MAX_PLY) deltas[d].push(sc - ev);
      }
    }
    process.stderr.write(
      `kirin tune --scale-report: sweep ${nodes} nodes in ${((performance.now() - t1) / 1000).toFixed(1)} s\n`,
    );
    out(
      '| depth | positions | mean | sd | 1 % | 5 % | 50 % | 95 % | 99 % | reverse futility margin (no TT hit / TT hit) | share below -margin | razoring margin | share above | quiet futility margin (lmrDepth d - 1) | share above |',
    );
    out('|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|');
    const pct = (s: number[], f: (x: number) => boolean): string =>
      s.length ? `${((100 * s.filter(f).length) / s.length).toFixed(1)} %` : '-';
    for (let d = 1; d <= sweepDepth; d++) {
      const s = deltas[d];
      if (!s.length) continue;
      const { mean, sd } = meanSd(s);
      const q = quantiles(s, [0.01, 0.05, 0.5, 0.95, 0.99]).map(f0);
      // The search's margins at depth d: reverse futility not improving, opponent
      // not worsening, no correction; quiet futility once a best move exists, eval <= alpha.
      const rf0 = reverseFutilityMargin(d, false, false, false, 0),
        rf1 = reverseFutilityMargin(d, true, false, false, 0);
      const rz = razoringMargin(d);
      const qf = quietFutilityMargin(d - 1, false, false);
      out(
        `| ${d} | ${s.length} | ${f0(mean)} | ${f0(sd)} | ${q.join(' | ')} | ${rf0} / ${rf1} | ` +
          `${pct(s, (x) => x < -rf0)} / ${pct(s, (x) => x < -rf1)} | ${rz} | ${pct(s, (x) => x > rz)} | ${qf} | ${pct(s, (x) => x > qf)} |`,
      );
    }
  }
  return 0;
}
