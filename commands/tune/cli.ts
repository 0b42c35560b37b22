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
import { Position, RED } from '../../src/dev.js';
import { PAWN_VALUE } from '../../src/core/types.js';
import { decodeRecord, recordPosition } from '../datagen/format.js';
import { forEachRecord } from '../datagen/records.js';
import { SMOOTH_RUNS, addPosition, currentWeights, freeMask, fromTheta, regScales, toTheta } from './features.js';
import { Dataset, adam, fitK, meanError, predict, slope, spread, targets } from './model.js';
import { commandSpec, numberOption, readCommandLine, reportCommandLine } from '../../toolkit/command-line.js';
import { repoPath } from '../../toolkit/files.js';
import { runScaleReport } from './scale-report.js';
import { weightsFileText } from './weights-file.js';

const USAGE = `usage: kirin tune --data FILE[,FILE...] [--epochs N] [--lr X] [--batch N] [--lambda L] [--k K]
                  [--reg R] [--smooth S] [--patience N] [--keep-scale 0|1] [--max-score S] [--validation F]
                  [--limit N] [--out FILE] [--dry-run 1]
       kirin tune --scale-report --data FILE[,FILE...] [--limit N] [--sweep N] [--sweep-depth D]
`;

/** `kirin tune` and `kirin tune --scale-report` share one command line. */
export const TUNE_SPEC = commandSpec({
  name: 'kirin tune',
  usage: USAGE,
  options: {
    'scale-report': { type: 'boolean' },
    data: { type: 'string' },
    epochs: { type: 'string' },
    lr: { type: 'string' },
    batch: { type: 'string' },
    lambda: { type: 'string' },
    k: { type: 'string' },
    reg: { type: 'string' },
    smooth: { type: 'string' },
    patience: { type: 'string' },
    'keep-scale': { type: 'string' },
    'max-score': { type: 'string' },
    validation: { type: 'string' },
    limit: { type: 'string' },
    out: { type: 'string' },
    'dry-run': { type: 'string' },
    sweep: { type: 'string' },
    'sweep-depth': { type: 'string' },
  },
});

/** The options only --scale-report reads, and the ones only a tune reads. */
const SCALE_ONLY = ['sweep', 'sweep-depth'];
const SCALE_OPTIONS = ['scale-report', 'data', 'limit', ...SCALE_ONLY];

function fail(msg: string): number {
  process.stderr.write(`kirin tune: ${msg}\n${USAGE}`);
  return 2;
}

export async function runTuneCli(argv: string[]): Promise<number> {
  const cl = readCommandLine(argv, TUNE_SPEC);
  if (!cl.ok) return reportCommandLine(TUNE_SPEC, cl.error);
  const a = cl.value.values;
  const given = Object.keys(a);
  if (a['scale-report']) {
    const other = given.find((k) => !SCALE_OPTIONS.includes(k));
    if (other) return fail(`--${other} is not an option of --scale-report`);
    return runScaleReport(a);
  }
  const scaleOnly = given.find((k) => SCALE_ONLY.includes(k));
  if (scaleOnly) return fail(`--${scaleOnly} goes with --scale-report`);
  const nums = {
    epochs: numberOption(a, 'epochs', 300, { min: 0, max: 1e6 }),
    lr: numberOption(a, 'lr', 0.1, { min: 1e-6, max: 1000 }),
    batch: numberOption(a, 'batch', 16384, { min: 1, max: 1e9 }),
    lambda: numberOption(a, 'lambda', 0.5, { min: 0, max: 1 }),
    k: numberOption(a, 'k', 0, { min: 0, max: 1e6 }),
    validation: numberOption(a, 'validation', 0.1, { min: 0, max: 0.9 }),
    limit: numberOption(a, 'limit', 0, { min: 0, max: 1e12 }),
    reg: numberOption(a, 'reg', 3e-5, { min: 0, max: 1e6 }),
    patience: numberOption(a, 'patience', 15, { min: 1, max: 1e6 }),
    keepScale: numberOption(a, 'keep-scale', 1, { min: 0, max: 1 }),
    maxScore: numberOption(a, 'max-score', 0, { min: 0, max: 32000 }),
    smooth: numberOption(a, 'smooth', 1e-2, { min: 0, max: 1e6 }),
  };
  for (const r of Object.values(nums)) if (!r.ok) return fail(r.error.message);
  const num = (k: keyof typeof nums): number => (nums[k] as { value: number }).value;
  const epochs = Math.floor(num('epochs'));
  const lr = num('lr');
  const batch = Math.floor(num('batch'));
  const lambda = num('lambda');
  const kOpt = num('k');
  const valFrac = num('validation');
  const limit = Math.floor(num('limit'));
  const reg = num('reg');
  const patience = Math.floor(num('patience'));
  const keepScale = num('keepScale') === 1;
  const maxScore = num('maxScore');
  const smooth = num('smooth');
  const data = a.data;
  if (!data) return fail('--data FILE is required');
  const out = a.out ?? repoPath('src', 'eval', 'classical-weights.ts');

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
  if (a['dry-run'] === '1') return 0;
  writeFileSync(out, weightsFileText(w1, note));
  process.stderr.write(`kirin tune: wrote ${out}\n`);
  return 0;
}
