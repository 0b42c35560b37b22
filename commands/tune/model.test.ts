import assert from 'node:assert/strict';
import { test } from 'node:test';
import { readFileSync } from 'node:fs';
import { Position } from '../../src/core/position.js';
import { RED } from '../../src/core/types.js';
import { evaluateClassical } from '../../src/eval/classical.js';
import { evaluate } from '../../src/eval/evaluate.js';
import * as CW from '../../src/eval/classical-weights.js';
import { mulberry32 } from '../../src/core/prng.js';
import { BENCH_FENS } from '../../src/protocol/benchpositions.js';
import { PAIRS, addPosition, currentWeights, freeMask, fromTheta, toTheta } from './features.js';
import { Dataset, adam, fitK, meanError, modelEval, predict, sigmoid, slope, targets } from './model.js';
import { weightsFileText } from './weights-file.js';

test('Adam on synthetic data recovers the weights that generated it', () => {
  // 6 pairs, random sparse features, labels from known weights (no noise).
  const rnd = mulberry32(7);
  const truth = new Float64Array([100, 60, -40, 80, 30, 30, 0, 120, 200, -50, 15, 15]);
  const unit = new Float64Array(6).fill(1);
  const d = new Dataset();
  for (let i = 0; i < 6000; i++) {
    for (let p = 0; p < 6; p++) {
      if (rnd() < 0.5) {
        const c = Math.floor(rnd() * 5) - 2;
        d.addEntry(p, c, c);
      }
    }
    const phase = Math.floor(rnd() * 129);
    d.endPosition(phase, 64, 0, 0, 0);
  }
  const all = Uint32Array.from({ length: d.n }, (_, i) => i);
  const k = 200;
  const target = new Float32Array(d.n);
  for (let i = 0; i < d.n; i++) target[i] = sigmoid(predict(d, i, truth, unit), k);
  const theta = new Float64Array(12);
  const before = meanError(d, all, theta, unit, k, target);
  adam(d, all, theta, unit, target, { epochs: 300, lr: 2, batch: 512, k, free: new Uint8Array(12).fill(1) });
  const after = meanError(d, all, theta, unit, k, target);
  assert.ok(after < before / 100, `error ${before} -> ${after}`);
  for (let q = 0; q < 12; q++) assert.ok(Math.abs(theta[q] - truth[q]) < 3, `weight ${q}: ${theta[q]} vs ${truth[q]}`);
});

test('K is fitted to the results: data labelled with sigmoid(eval / 300) gives K near 300', () => {
  const rnd = mulberry32(3);
  const d = new Dataset();
  const unit = new Float64Array([1]);
  const theta = new Float64Array([1, 1]);
  for (let i = 0; i < 20000; i++) {
    const e = Math.floor(rnd() * 2000) - 1000;
    d.addEntry(0, e, e);
    // Results drawn from the win probability (win 1 / loss 0).
    d.endPosition(64, 64, 0, rnd() < sigmoid(e, 300) ? 1 : 0, 0);
  }
  const all = Uint32Array.from({ length: d.n }, (_, i) => i);
  const k = fitK(d, all, theta, unit);
  assert.ok(Math.abs(k - 300) < 30, `K = ${k}`);
  const t = targets(d, 1, k);
  assert.equal(t[0], d.result[0]);
});

test('the linear model reproduces the classical evaluation at the current weights', () => {
  const d = new Dataset();
  const { theta, unit } = toTheta(currentWeights());
  let n = 0;
  for (const fen of BENCH_FENS) {
    const pos = new Position(fen);
    if (pos.inCheck()) continue;
    const v = addPosition(d, pos, 0.5, 0);
    const stm = evaluateClassical(pos);
    assert.equal(pos.side === RED ? stm : -stm, v + d.base[d.n - 1], fen);
    // Up to rounding: each scaled term and the blend truncate.
    assert.ok(Math.abs(predict(d, d.n - 1, theta, unit) - d.base[d.n - 1] - v) <= 4, fen);
    // What the search sees (evaluate(): material blend, 60-move damping) is the model times `mult`.
    const seen = evaluate(pos, 0);
    assert.ok(Math.abs(modelEval(d, d.n - 1, theta, unit) - (pos.side === RED ? seen : -seen)) <= 5, fen);
    n++;
  }
  assert.ok(n > 10);
});

test('weights survive theta and back; the weights file is what the generator writes', () => {
  const w = currentWeights();
  assert.deepEqual(fromTheta(toTheta(w).theta), w);
  assert.equal(toTheta(w).theta.length, 2 * PAIRS);
  // King material and the table terms' scales stay fixed.
  const f = freeMask();
  assert.equal(f[2 * 7], 0);
  assert.equal(f[2 * 1], 1);
  const file = readFileSync(new URL('../../../src/eval/classical-weights.ts', import.meta.url), 'utf8');
  assert.equal(weightsFileText(w, CW.WEIGHTS_NOTE), file);
});

/** A data set of one pair whose coefficient is e, labelled by sigmoid(e * w / 200) (noise free). */
function onePair(w: number, n: number, seed: number): Dataset {
  const rnd = mulberry32(seed);
  const d = new Dataset();
  for (let i = 0; i < n; i++) {
    const e = Math.floor(rnd() * 40) - 20;
    d.addEntry(0, e, e);
    d.endPosition(64, 64, 0, sigmoid(e * w, 200), 0, 1, i);
  }
  return d;
}

test('L2 regularisation holds the weights near the anchor; without it they reach the data', () => {
  const d = onePair(30, 2000, 5);
  const all = Uint32Array.from({ length: d.n }, (_, i) => i);
  const unit = new Float64Array([1]);
  const target = targets(d, 1, 200);
  const fit = (reg: number) => {
    const theta = new Float64Array([10, 10]);
    adam(d, all, theta, unit, target, {
      epochs: 400,
      lr: 1,
      batch: 256,
      k: 200,
      free: new Uint8Array([1, 1]),
      reg,
      anchor: new Float64Array([10, 10]),
      regScale: new Float64Array([1 / 100, 1 / 100]),
    });
    return theta[0];
  };
  const free = fit(0),
    held = fit(100);
  assert.ok(Math.abs(free - 30) < 1, `no reg: ${free}`);
  assert.ok(Math.abs(held - 10) < 2, `strong reg: ${held}`);
});

test('early stopping keeps the weights of the best validation epoch', () => {
  // Training data says w = 30, validation data says w = 10: starting at 10, the
  // best validation error is at the start, and the run stops after `patience` epochs.
  const tr = onePair(30, 2000, 6);
  const va = onePair(10, 500, 7);
  const d = new Dataset();
  for (const src of [tr, va]) {
    for (let i = 0; i < src.n; i++) {
      d.addEntry(0, src.cmg[src.start[i]], src.ceg[src.start[i]]);
      d.endPosition(64, 64, 0, src.result[i], 0, 1, i);
    }
  }
  const train = Uint32Array.from({ length: tr.n }, (_, i) => i);
  const val = Uint32Array.from({ length: va.n }, (_, i) => tr.n + i);
  const target = targets(d, 1, 200);
  const theta = new Float64Array([10, 10]);
  const r = adam(d, train, theta, new Float64Array([1]), target, {
    epochs: 100,
    lr: 1,
    batch: 256,
    k: 200,
    free: new Uint8Array([1, 1]),
    val,
    patience: 5,
  });
  assert.equal(r.bestEpoch, 0);
  assert.equal(r.epochs, 5);
  assert.deepEqual([...theta], [10, 10]);
});

test('slope measures how much larger one evaluation is than another', () => {
  const idx = Uint32Array.from([0, 1, 2, 3]);
  const x = [100, -200, 300, 50];
  assert.equal(
    slope(
      idx,
      (i) => x[i],
      (i) => 1.25 * x[i],
    ),
    1.25,
  );
});

test('the smoothness term straightens a jagged count-indexed table', () => {
  // No data gradient (targets equal the model's own predictions at a flat 0): only the smoothness term acts.
  const d = new Dataset();
  d.addEntry(0, 1, 1);
  d.endPosition(64, 64, 0, 0.5, 0);
  const theta = new Float64Array([0, 0, 10, 10, 50, 50, -20, -20, 30, 30, 40, 40]);
  const rough = (t: Float64Array) => {
    let s = 0;
    for (let p = 2; p < 5; p++) s += Math.abs(t[2 * p - 2] - 2 * t[2 * p] + t[2 * p + 2]);
    return s;
  };
  const before = rough(theta);
  adam(d, Uint32Array.from([0]), theta, new Float64Array(6).fill(1), targets(d, 1, 200), {
    epochs: 1000,
    lr: 1,
    batch: 1,
    k: 200,
    free: Uint8Array.from([0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1]),
    smooth: 1,
    smoothRuns: [1, 5],
  });
  assert.ok(rough(theta) < before / 20, `roughness ${before} -> ${rough(theta)}`);
});

test('tuned piece-square tables stay left-right symmetric', () => {
  const { theta } = toTheta(currentWeights());
  const rnd = mulberry32(11);
  for (let q = 0; q < theta.length; q++) theta[q] += Math.floor(rnd() * 41) - 20;
  const w = fromTheta(theta);
  for (let t = 1; t <= 7; t++) {
    for (let s = 0; s < 90; s++) {
      const m = s - (s % 9) + 8 - (s % 9);
      assert.equal(w.PST_MG[t][s], w.PST_MG[t][m]);
      assert.equal(w.PST_EG[t][s], w.PST_EG[t][m]);
    }
  }
});
