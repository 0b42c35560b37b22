// `kirin tune`: Texel tuning of the classical evaluation (docs/DATAGEN.md).
//
//   kirin tune --data FILE[,FILE...] [--epochs N] [--lr X] [--batch N] [--lambda L]
//              [--k K] [--validation F] [--limit N] [--out FILE] [--dry-run 1]
//
// Reads `kirin datagen` files, fits K (the sigmoid scale) to the game results,
// then runs Adam on the blended target and writes the weights to --out
// (default: src/eval/classical-weights.ts of this checkout) for review.

import { writeFileSync } from 'node:fs';
import { Position } from '../../src/core/position.js';
import { RED } from '../../src/core/types.js';
import { decodeRecord, forEachRecord, recordPosition } from '../datagen/format.js';
import { addPosition, currentWeights, freeMask, fromTheta, toTheta } from './features.js';
import { Dataset, adam, fitK, meanError, predict, targets } from './model.js';
import { weightsFileText } from './weights-file.js';

const USAGE = `usage: kirin tune --data FILE[,FILE...] [--epochs N] [--lr X] [--batch N] [--lambda L]
                  [--k K] [--validation F] [--limit N] [--out FILE] [--dry-run 1]
`;

function fail(msg: string): number {
  process.stderr.write(`kirin tune: ${msg}\n${USAGE}`);
  return 2;
}

export async function runTuneCli(argv: string[]): Promise<number> {
  const a = new Map<string, string>();
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
  const num = (name: string, def: number, lo: number, hi: number): number => {
    const v = a.get(name);
    if (v === undefined) return def;
    const n = Number(v);
    if (!Number.isFinite(n) || n < lo || n > hi) throw new Error(`--${name} must be a number in [${lo}, ${hi}]`);
    return n;
  };
  let epochs, lr, batch, lambda, kOpt, valFrac, limit;
  try {
    epochs = Math.floor(num('epochs', 30, 0, 1e6));
    lr = num('lr', 0.5, 1e-6, 1000);
    batch = Math.floor(num('batch', 16384, 1, 1e9));
    lambda = num('lambda', 0.5, 0, 1);
    kOpt = num('k', 0, 0, 1e6);
    valFrac = num('validation', 0.1, 0, 0.9);
    limit = Math.floor(num('limit', 0, 0, 1e12));
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
  let mismatch = 0;
  const theta0 = toTheta(currentWeights());
  for (const file of data.split(',')) {
    const r = forEachRecord(file, (buf, off) => {
      if (limit && d.n >= limit) return;
      const rec = decodeRecord(buf, off, board);
      recordPosition(rec, pos);
      const red = rec.side === RED ? 1 : -1;
      const v = addPosition(d, pos, (rec.result * red + 1) / 2, rec.score * red);
      // The linear model at the current weights must reproduce the evaluation (up to rounding).
      if (Math.abs(predict(d, d.n - 1, theta0.theta, theta0.unit) - d.base[d.n - 1] - v) > 2) mismatch++;
    });
    if (!r.ok) return fail(`${file}: ${r.error.message}`);
  }
  if (d.n === 0) return fail('no positions');
  process.stderr.write(
    `kirin tune: ${d.n} positions, ${d.entries} feature entries, loaded in ${((performance.now() - t0) / 1000).toFixed(1)} s` +
      (mismatch ? ` (WARNING: the linear model misses the classical evaluation in ${mismatch} positions)` : '') +
      '\n',
  );

  // Split training / validation (every k-th position, deterministic).
  const nVal = Math.floor(d.n * valFrac);
  const step = nVal ? d.n / nVal : Infinity;
  const isVal = new Uint8Array(d.n);
  for (let j = 0; j < nVal; j++) isVal[Math.floor(j * step)] = 1;
  const train = new Uint32Array(d.n - nVal),
    val = new Uint32Array(nVal);
  for (let i = 0, a1 = 0, b1 = 0; i < d.n; i++) {
    if (isVal[i]) val[b1++] = i;
    else train[a1++] = i;
  }

  const w0 = currentWeights();
  const { theta, unit } = toTheta(w0);
  const k = kOpt || fitK(d, train, theta, unit);
  const target = targets(d, lambda, k);
  const e0 = meanError(d, train, theta, unit, k, target);
  const v0 = nVal ? meanError(d, val, theta, unit, k, target) : NaN;
  process.stderr.write(
    `kirin tune: K = ${k.toFixed(1)}, lambda = ${lambda}; error before: train ${e0.toFixed(6)}, validation ${v0.toFixed(6)}\n`,
  );
  const t1 = performance.now();
  adam(d, train, theta, unit, target, {
    epochs,
    lr,
    batch,
    k,
    free: freeMask(),
    onEpoch: (ep, te) => {
      if (ep === epochs || ep % Math.max(1, Math.floor(epochs / 20)) === 0) {
        const ve = nVal ? meanError(d, val, theta, unit, k, target) : NaN;
        process.stderr.write(
          `epoch ${String(ep).padStart(4)}  train ${te.toFixed(6)}  validation ${ve.toFixed(6)}  (${((performance.now() - t1) / 1000).toFixed(1)} s)\n`,
        );
      }
    },
  });
  const w1 = fromTheta(theta);
  // Error with the rounded weights, as they will be written.
  const r1 = toTheta(w1).theta;
  const e1 = meanError(d, train, r1, unit, k, target);
  const v1 = nVal ? meanError(d, val, r1, unit, k, target) : NaN;
  process.stderr.write(
    `kirin tune: error after (rounded weights): train ${e1.toFixed(6)}, validation ${v1.toFixed(6)}\n`,
  );
  const note =
    `Tuned by \`kirin tune\` on ${d.n} positions (${data
      .split(',')
      .map((f) => f.split('/').pop())
      .join(', ')}): ` +
    `K ${k.toFixed(1)}, lambda ${lambda}, ${epochs} epochs, lr ${lr}, batch ${batch};\n` +
    `error ${e0.toFixed(6)} -> ${e1.toFixed(6)} (validation ${v0.toFixed(6)} -> ${v1.toFixed(6)}).`;
  if (a.get('dry-run') === '1') return 0;
  writeFileSync(out, weightsFileText(w1, note));
  process.stderr.write(`kirin tune: wrote ${out}\n`);
  return 0;
}
