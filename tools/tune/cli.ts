// `kirin tune`: Texel tuning of the classical evaluation (docs/DATAGEN.md).
//
//   kirin tune --data FILE[,FILE...] [--epochs N] [--lr X] [--batch N] [--lambda L] [--k K]
//              [--reg R] [--smooth S] [--patience N] [--keep-scale 0|1] [--max-score S] [--validation F]
//              [--limit N] [--out FILE] [--dry-run 1]
//   kirin tune --scale-report --data FILE[,FILE...] [--limit N] [--sweep N] [--sweep-depth D]
//
// Reads `kirin datagen` files, fits K (the sigmoid scale) to the game results at
// the current weights and keeps it fixed, then runs Adam on the blended target
// with L2 regularisation toward the current weights and early stopping on the
// validation games, keeps the evaluation's overall scale, and writes the weights
// to --out (default: src/eval/classical-weights.ts of this checkout) for review.

import { writeFileSync } from 'node:fs';
import { PAWN_VALUE, Position, RED } from '../../src/dev.js';
import { decodeRecord, forEachRecord, recordPosition } from '../datagen/format.js';
import { SMOOTH_RUNS, addPosition, currentWeights, freeMask, fromTheta, regScales, toTheta } from './features.js';
import { Dataset, adam, fitK, meanError, predict, slope, spread, targets } from './model.js';
import { runScaleReport } from './scale-report.js';
import { weightsFileText } from './weights-file.js';

const USAGE = `usage: kirin tune --data FILE[,FILE...] [--epochs N] [--lr X] [--batch N] [--lambda L] [--k K]
                  [--reg R] [--smooth S] [--patience N] [--keep-scale 0|1] [--max-score S] [--validation F]
                  [--limit N] [--out FILE] [--dry-run 1]
       kirin tune --scale-report --data FILE[,FILE...] [--limit N] [--sweep N] [--sweep-depth D]
`;

function fail(msg: string): number {
  process.stderr.write(`kirin tune: ${msg}\n${USAGE}`);
  return 2;
}

export async function runTuneCli(argv: string[]): Promise<number> {
  const a = new Map<string, string>();
  // --scale-report (a flag without a value): the scale check instead of a tune.
  const scaleReport = argv.includes('--scale-report');
  if (scaleReport) argv = argv.filter((x) => x !== '--scale-report');
  for (let i = 0; i < argv.length; i++) {
    if (!argv[i].startsWith('--')) return fail(`unexpected argument "${argv[i]}"`);
    if (argv[i] === '--help') {
      process.stdout.write(USAGE);
      return 0;
    }
    const v = argv[i + 1];
    if (v === undefined) return fail(`option ${argv[i]} needs a value`);
    a.set(argv[i].slice(2), v);
    i++;
  }
  if (scaleReport) return runScaleReport(a);
  const num = (name: string, def: number, lo: number, hi: number): number => {
    const v = a.get(name);
    if (v === undefined) return def;
    const n = Number(v);
    if (!Number.isFinite(n) || n < lo || n > hi) throw new Error(`--${name} must be a number in [${lo}, ${hi}]`);
    return n;
  };
  let epochs, lr, batch, lambda, kOpt, valFrac, limit, reg, patience, keepScale, maxScore, smooth;
  try {
    epochs = Math.floor(num('epochs', 300, 0, 1e6));
    lr = num('lr', 0.1, 1e-6, 1000);
    batch = Math.floor(num('batch', 16384, 1, 1e9));
    lambda = num('lambda', 0.5, 0, 1);
    kOpt = num('k', 0, 0, 1e6);
    valFrac = num('validation', 0.1, 0, 0.9);
    limit = Math.floor(num('limit', 0, 0, 1e12));
    reg = num('reg', 3e-5, 0, 1e6);
    patience = Math.floor(num('patience', 15, 1, 1e6));
    keepScale = num('keep-scale', 1, 0, 1) === 1;
    maxScore = num('max-score', 0, 0, 32000);
    smooth = num('smooth', 1e-2, 0, 1e6);
  } catch (e) {
    return fail((e as Error).message);
  }
  const data = a.get('data');
  if (!data) return fail('--data FILE is required');
  const out = a.get('out') ?? new URL('../../../src/eval/classical-weights.ts', import.meta.url).pathname;

  // Load.
  const t0 = performance.now();
  const d = new Dataset();
  const pos = new Position(null);
  const board = new Uint8Array(90);
  let mismatch = 0,
    skipped = 0,
    game = 0;
  const theta0 = toTheta(currentWeights());
  for (const file of data.split(',')) {
    // Records of a game are written together: a new game starts where the ply
    // does not grow or the result (from Red) changes.
    let prevPly = Infinity,
      prevResult = NaN;
    game++;
    let badRecord = '';
    const r = forEachRecord(file, (buf, off) => {
      if ((limit && d.n >= limit) || badRecord) return;
      const rec = decodeRecord(buf, off, board);
      const red = rec.side === RED ? 1 : -1;
      if (rec.ply <= prevPly || rec.result * red !== prevResult) game++;
      prevPly = rec.ply;
      prevResult = rec.result * red;
      if (maxScore && Math.abs(rec.score) > maxScore) {
        skipped++;
        return;
      }
      const set = recordPosition(rec, pos);
      if (!set.ok) {
        badRecord = set.error.message;
        return;
      }
      const v = addPosition(d, pos, (rec.result * red + 1) / 2, rec.score * red, game);
      // The linear model at the current weights must reproduce the evaluation (up to rounding).
      if (Math.abs(predict(d, d.n - 1, theta0.theta, theta0.unit) - d.base[d.n - 1] - v) > 4) mismatch++;
    });
    if (!r.ok) return fail(`${file}: ${r.error.message}`);
    if (badRecord) return fail(`${file}: ${badRecord}`);
  }
  if (d.n === 0) return fail('no positions');
  process.stderr.write(
    `kirin tune: ${d.n} positions of ~${game} games${skipped ? ` (${skipped} with |score| > ${maxScore} skipped)` : ''}, ` +
      `${d.entries} feature entries, loaded in ${((performance.now() - t0) / 1000).toFixed(1)} s` +
      (mismatch ? ` (WARNING: the linear model misses the classical evaluation in ${mismatch} positions)` : '') +
      '\n',
  );

  // Split training / validation by game (positions of one game are strongly
  // correlated: a validation set of other positions of the training games
  // would reward learning the games by heart). Deterministic: a hash of the
  // game number.
  const isVal = new Uint8Array(d.n);
  let nVal = 0;
  if (valFrac > 0) {
    for (let i = 0; i < d.n; i++) {
      const h = (Math.imul(d.game[i] ^ 0x5bd1e995, 0x9e3779b1) >>> 0) / 4294967296;
      if (h < valFrac) {
        isVal[i] = 1;
        nVal++;
      }
    }
  }
  const train = new Uint32Array(d.n - nVal),
    val = new Uint32Array(nVal);
  for (let i = 0, a1 = 0, b1 = 0; i < d.n; i++) {
    if (isVal[i]) val[b1++] = i;
    else train[a1++] = i;
  }

  const w0 = currentWeights();
  const { theta, unit } = toTheta(w0);
  const anchor = theta.slice();
  const k = kOpt || fitK(d, train, theta, unit);
  const target = targets(d, lambda, k);
  const e0 = meanError(d, train, theta, unit, k, target);
  const v0 = nVal ? meanError(d, val, theta, unit, k, target) : NaN;
  process.stderr.write(
    `kirin tune: ${train.length} training, ${nVal} validation positions; K = ${k.toFixed(1)} (fixed), lambda = ${lambda}, reg = ${reg}, smooth = ${smooth}\n` +
      `kirin tune: error before: train ${e0.toFixed(6)}, validation ${v0.toFixed(6)}\n`,
  );
  const t1 = performance.now();
  const free = freeMask();
  const res = adam(d, train, theta, unit, target, {
    epochs,
    lr,
    batch,
    k,
    free,
    reg,
    anchor,
    regScale: regScales(unit),
    smooth,
    smoothRuns: SMOOTH_RUNS,
    val: nVal ? val : undefined,
    patience,
    onEpoch: (ep, te, ve) => {
      if (ep === epochs || ep % Math.max(1, Math.floor(epochs / 20)) === 0) {
        process.stderr.write(
          `epoch ${String(ep).padStart(4)}  train ${te.toFixed(6)}  validation ${ve.toFixed(6)}  (${((performance.now() - t1) / 1000).toFixed(1)} s)\n`,
        );
      }
    },
  });
  process.stderr.write(
    `kirin tune: stopped after epoch ${res.epochs}; kept the weights of epoch ${res.bestEpoch}` +
      (nVal ? ` (validation ${res.bestVal.toFixed(6)})` : '') +
      '\n',
  );

  // The evaluation's overall scale: the search's margins and the eval -> cp
  // normalisation are set for the current one. Measure it (least-squares slope
  // of the new evaluation against the current one, as the search sees them,
  // without the tempo) and, with --keep-scale 1, divide the free weights by it.
  const all = Uint32Array.from({ length: d.n }, (_, i) => i);
  const plain = (th: Float64Array) => (i: number) => d.mult[i] * (predict(d, i, th, unit) - d.base[i]);
  const before = spread(all, plain(anchor));
  const grow = slope(all, plain(anchor), plain(theta));
  const sTuned = spread(all, plain(theta));
  process.stderr.write(
    `kirin tune: scale: new eval = ${grow.toFixed(3)} x current (least squares); ` +
      `mean |eval| ${before.meanAbs.toFixed(0)} -> ${sTuned.meanAbs.toFixed(0)}, sd ${before.sd.toFixed(0)} -> ${sTuned.sd.toFixed(0)}\n`,
  );
  if (keepScale && grow > 0) {
    for (let q = 0; q < theta.length; q++) if (free[q]) theta[q] /= grow;
  }
  const w1 = fromTheta(theta);
  // Error with the rounded weights, as they will be written.
  const r1 = toTheta(w1).theta;
  const e1 = meanError(d, train, r1, unit, k, target);
  const v1 = nVal ? meanError(d, val, r1, unit, k, target) : NaN;
  const sOut = spread(all, plain(r1));
  const gOut = slope(all, plain(anchor), plain(r1));
  const kOut = fitK(d, train, r1, unit);
  // Against the game results alone (comparable between runs with different lambdas).
  const resOnly = targets(d, 1, k);
  const rv0 = nVal ? meanError(d, val, anchor, unit, k, resOnly) : NaN;
  const rv1 = nVal ? meanError(d, val, r1, unit, k, resOnly) : NaN;
  process.stderr.write(`kirin tune: validation error against results only: ${rv0.toFixed(6)} -> ${rv1.toFixed(6)}\n`);
  process.stderr.write(
    `kirin tune: written weights${keepScale ? ' (rescaled)' : ''}: scale ${gOut.toFixed(3)} x current, mean |eval| ${sOut.meanAbs.toFixed(0)}, ` +
      `sd ${sOut.sd.toFixed(0)}; K fitted at them ${kOut.toFixed(1)} (current ${k.toFixed(1)})\n` +
      `kirin tune: error after (rounded weights): train ${e1.toFixed(6)}, validation ${v1.toFixed(6)}\n`,
  );
  const mat = (mg: readonly number[], eg: readonly number[]) =>
    [1, 3, 5, 2, 6, 4]
      .map((t) => `${'xRACPNBK'[t]} ${(mg[t] / PAWN_VALUE).toFixed(2)}/${(eg[t] / PAWN_VALUE).toFixed(2)}`)
      .join(' ');
  process.stderr.write(
    `kirin tune: material (pawns of ${PAWN_VALUE}, mg/eg): before ${mat(w0.MATERIAL_MG, w0.MATERIAL_EG)}\n` +
      `kirin tune:                                 after  ${mat(w1.MATERIAL_MG, w1.MATERIAL_EG)}\n` +
      `kirin tune: term scales (64ths, mg/eg): ${w1.TERM_SCALE_MG.map((x, t) => `${x}/${w1.TERM_SCALE_EG[t]}`).join(' ')}\n`,
  );
  const note =
    `Tuned by \`kirin tune\` on ${d.n} positions (${data
      .split(',')
      .map((f) => f.split('/').pop())
      .join(', ')}): ` +
    `K ${k.toFixed(1)}, lambda ${lambda}, reg ${reg}, smooth ${smooth}, epoch ${res.bestEpoch} of ${res.epochs}, lr ${lr}, batch ${batch}, ` +
    `scale ${grow.toFixed(3)}${keepScale ? ' (rescaled to 1)' : ''};\n` +
    `error ${e0.toFixed(6)} -> ${e1.toFixed(6)} (validation ${v0.toFixed(6)} -> ${v1.toFixed(6)}).`;
  if (a.get('dry-run') === '1') return 0;
  writeFileSync(out, weightsFileText(w1, note));
  process.stderr.write(`kirin tune: wrote ${out}\n`);
  return 0;
}
