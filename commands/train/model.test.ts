import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { mulberry32 } from '../../src/core/prng.js';
import { INPUTS, OUTPUT_UNIT, QA, QB, SCALE, WEIGHT_CLIP, type KirinNetShape } from '../../src/eval/kirinnet/arch.js';
import { referenceEvaluate } from '../../src/eval/kirinnet/reference.js';
import { Core, type CoreShared, type KernelName } from './core.js';
import { DEFAULT_FILTER, loadTrainData, positionBoard, type TrainData } from './data.js';
import { jsKernel } from './kernel-js.js';
import { SLOTS, createMemory, memoryLayout } from './memory.js';
import { dequantise, initParams, paramLayout, quantise, referenceForward, type ParamLayout } from './model.js';
import { quantisationCheck } from './quantcheck.js';
import { labels, type TrainConfig } from './trainer.js';
import { syntheticDataFile } from './synthetic.js';

const dir = mkdtempSync(join(tmpdir(), 'kirin-train-model-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const dataPath = join(dir, 'd.bin');
writeFileSync(dataPath, syntheticDataFile(30, 3));
const data = loadTrainData([dataPath], DEFAULT_FILTER, 0.3);

/** A Core over `data` with parameters from `seed` (feature biases `bias`), one thread, batch `batch`. */
function setup(
  shape: KirinNetShape,
  kernel: KernelName,
  batch: number,
  seed: number,
  bias: number,
  power = 2,
  d: TrainData = data,
) {
  const pl = paramLayout(shape);
  const mem = memoryLayout(pl, batch, 1);
  const memory = createMemory(mem.bytes);
  const f32 = new Float32Array(memory.buffer);
  const params = f32.subarray(mem.weights >> 2, (mem.weights >> 2) + pl.size);
  initParams(pl, params, seed);
  params.fill(bias, pl.ftB, pl.outW);
  // Output biases and weights of some size, so that every gradient term matters.
  const rnd = mulberry32(seed);
  for (let i = pl.outB; i < pl.size; i++) params[i] = rnd() - 0.5;
  for (let i = pl.outW; i < pl.outB; i++) params[i] = (rnd() - 0.5) * 0.6;
  const shared: CoreShared = {
    memory,
    data: d,
    ...labels(d, { lambda: 0.3, k: 200 } as TrainConfig),
    order: new Uint32Array(new SharedArrayBuffer(4 * d.train.length)),
    shardLoss: new Float64Array(new SharedArrayBuffer(8 * mem.shards)),
    validY: new Float32Array(new SharedArrayBuffer(4 * Math.max(1, d.valid.length))),
  };
  shared.order.set(d.train);
  const core = new Core({ shape, batch, threads: 1, kernel, power }, shared, 0);
  return { pl, mem, f32, params, shared, core };
}

test('both kernels compute the float network of arch.ts (referenceForward)', () => {
  for (const kernel of ['js', 'wasm'] as const) {
    const { pl, params, shared, core } = setup({ inputs: INPUTS, hidden: 32, outputBuckets: 4 }, kernel, 64, 5, 0.5);
    core.run({ op: 'forward' });
    const board = new Uint8Array(90);
    let big = 0;
    for (let j = 0; j < data.valid.length; j++) {
      const i = data.valid[j];
      const want = referenceForward(pl, params, positionBoard(data, i, board), data.flags[i] & 1);
      assert.ok(Math.abs(shared.validY[j] - want) < 1e-5 * Math.max(1, Math.abs(want)), `${kernel} ${j}`);
      if (Math.abs(want) > 0.1) big++;
    }
    assert.ok(big > data.valid.length / 4);
  }
});

/** Loss sum of the staged positions with the double-precision reference network. */
function referenceLoss(
  pl: ParamLayout,
  params: Float32Array,
  f32: Float32Array,
  coefAt: number,
  targetAt: number,
  order: Uint32Array,
  n: number,
  power: number,
): number {
  const board = new Uint8Array(90);
  let loss = 0;
  for (let j = 0; j < n; j++) {
    const i = order[j];
    const y = referenceForward(pl, params, positionBoard(data, i, board), data.flags[i] & 1);
    const p = 1 / (1 + Math.exp(-y * f32[coefAt + j]));
    loss += Math.pow(Math.abs(p - f32[targetAt + j]), power);
  }
  return loss;
}

for (const kernel of ['js', 'wasm'] as const)
  for (const power of [2, 2.5])
    test(`the ${kernel} kernel's gradient equals finite differences (power ${power})`, () => {
      const n = 12;
      const shape = { inputs: INPUTS, hidden: 16, outputBuckets: 2 };
      const { pl, mem, f32, params, core } = setup(shape, kernel, n, 9, 0.55, power);
      const r = mem.regions[0];
      // The kernel's gradient of the loss sum over the batch's positions.
      core.run({ op: 'grad', start: 0, size: n });
      const grad = f32.slice(mem.grads >> 2, (mem.grads >> 2) + pl.size);
      const loss = () => referenceLoss(pl, params, f32, r.coef >> 2, r.target >> 2, core.shared.order, n, power);
      // Parameters to check: rows of features of the first positions, biases, output weights and biases.
      const u16 = new Uint16Array(f32.buffer);
      const check: number[] = [];
      for (let j = 0; j < 3; j++)
        for (let s = 0; s < 2; s++) {
          const feature = u16[(r.feat >> 1) + j * SLOTS + s * 32 + 5];
          for (const h of [0, 7, 15]) check.push(pl.ftW + feature * 16 + h);
        }
      for (const h of [0, 3, 9, 15]) check.push(pl.ftB + h);
      for (let b = 0; b < 2; b++) for (const h of [0, 5, 16, 31]) check.push(pl.outW + b * 32 + h);
      check.push(pl.outB, pl.outB + 1);
      let nonzero = 0;
      for (const p of check) {
        const x = params[p];
        params[p] = x + 1e-4;
        const up = loss(),
          dUp = params[p] - x;
        params[p] = x - 1e-4;
        const down = loss(),
          dDown = x - params[p];
        params[p] = x;
        const numeric = (up - down) / (dUp + dDown);
        const tol = (kernel === 'js' ? 1e-4 : 2e-3) * Math.max(Math.abs(numeric), 1e-2);
        assert.ok(Math.abs(grad[p] - numeric) <= tol, `param ${p}: kernel ${grad[p]}, finite differences ${numeric}`);
        if (Math.abs(numeric) > 1e-4) nonzero++;
      }
      assert.ok(nonzero > check.length / 2, `${nonzero} of ${check.length} gradients are not zero`);
      // A feature no position has (a black king's square for Red's own king kind) gets no gradient.
      const unused = pl.ftW + (6 * 90 + 89) * 16;
      assert.equal(grad[unused], 0);
    });

test('quantised on the integer grid, the engine computes the float network to truncation', () => {
  const shape = { inputs: INPUTS, hidden: 32, outputBuckets: 8 };
  const pl = paramLayout(shape);
  const params = new Float32Array(pl.size);
  const rnd = mulberry32(21);
  const int = (range: number) => Math.floor(rnd() * (2 * range + 1)) - range;
  for (let i = pl.ftW; i < pl.ftB; i++) params[i] = int(40) / QA;
  for (let i = pl.ftB; i < pl.outW; i++) params[i] = (100 + int(60)) / QA;
  for (let i = pl.outW; i < pl.outB; i++) params[i] = int(500) / QB;
  for (let i = pl.outB; i < pl.size; i++) params[i] = int(300) / OUTPUT_UNIT;
  const net = quantise(pl, params, 'grid');
  const board = new Uint8Array(90);
  let max = 0,
    sum = 0;
  for (let i = 0; i < data.count; i++) {
    positionBoard(data, i, board);
    const side = data.flags[i] & 1;
    const float = referenceForward(pl, params, board, side) * SCALE;
    const d = Math.abs(referenceEvaluate(net, board, side) - float);
    max = Math.max(max, d);
    sum += Math.abs(float);
  }
  // What the integer pass loses: each of the 2H output terms is shifted right
  // (floor: up to 1 unit of 1 / (QA * OUTPUT_UNIT)), the sum over QA and the
  // result truncated (up to 1 unit each).
  const bound = ((2 * shape.hidden) / QA + 1) * (SCALE / OUTPUT_UNIT) + 1;
  assert.ok(max <= bound, `largest difference ${max} (bound ${bound})`);
  assert.ok(max > 0.5, 'the comparison sees the truncation');
  assert.ok(sum / data.count > 100, 'evaluations of some size');
});

test('the quantisation check passes a clipped float network and refuses a wrong one', () => {
  const shape = { inputs: INPUTS, hidden: 64, outputBuckets: 8 };
  const pl = paramLayout(shape);
  const params = new Float32Array(pl.size);
  initParams(pl, params, 4);
  const rnd = mulberry32(8);
  for (let i = pl.outW; i < pl.outB; i++)
    params[i] = Math.max(-WEIGHT_CLIP, Math.min(WEIGHT_CLIP, (rnd() - 0.5) * 1.5));
  const good = quantisationCheck(pl, params, quantise(pl, params, 'x'), data);
  assert.equal(good.problem, null);
  assert.ok(good.positions === data.valid.length && good.meanAbs < 16 && good.maxAbs < 100, JSON.stringify(good));
  assert.ok(good.meanAbsEval > 50);
  const wrong = quantise(pl, params, 'x');
  for (let i = 0; i < wrong.outWeights.length; i += 2) wrong.outWeights[i] = -wrong.outWeights[i];
  assert.notEqual(quantisationCheck(pl, params, wrong, data).problem, null);
  params[pl.ftB] = NaN;
  assert.match(quantisationCheck(pl, params, quantise(pl, params, 'x'), data).problem ?? '', /not finite/);
});

test('AdamW: both kernels take the same step (decay on weights only, clipping, output biases free)', () => {
  const shape = { inputs: INPUTS, hidden: 16, outputBuckets: 2 };
  const bigPath = join(dir, 'big.bin');
  writeFileSync(bigPath, syntheticDataFile(100, 4));
  const big = loadTrainData([bigPath], DEFAULT_FILTER, 0);
  const batch = 1500; // two shards
  assert.ok(big.train.length >= batch);
  const { pl, mem, f32, params, core } = setup(shape, 'wasm', batch, 2, 0.4, 2, big);
  core.run({ op: 'grad', start: 0, size: batch });
  // A step large enough that some weights reach the clip, and an output bias beyond it.
  params[pl.outB] = 5;
  const w0 = mem.weights >> 2;
  const state = f32.slice(w0, (mem.grads >> 2) + 2 * mem.stride);
  const step = {
    shards: 2,
    batchSize: batch,
    lr: 2,
    weightDecay: 0.1,
    beta1: 0.9,
    beta2: 0.999,
    eps: 1e-8,
    correction1: 1 - 0.9,
    correction2: 1 - 0.999,
  };
  const after: Float32Array[] = [];
  for (const kernel of [core.kernel, jsKernel(f32.buffer as SharedArrayBuffer, mem)]) {
    f32.set(state, w0);
    for (const [a, b, decay, clip] of [
      [pl.ftW, pl.ftB, true, true],
      [pl.ftB, pl.outW, false, true],
      [pl.outW, pl.outB, true, true],
      [pl.outB, pl.size, false, false],
    ] as const)
      kernel.update(a, b, decay, clip, step);
    after.push(params.slice());
  }
  const [wasm, js] = after;
  for (let p = 0; p < pl.size; p++) assert.ok(Math.abs(wasm[p] - js[p]) < 1e-4, `param ${p}: ${wasm[p]} ${js[p]}`);
  // The formula, for a few parameters, in double precision from the saved state.
  const g = (p: number) => (state[(mem.grads >> 2) - w0 + p] + state[(mem.grads >> 2) - w0 + mem.stride + p]) / batch;
  let clipped = 0,
    moved = 0;
  for (let p = 0; p < pl.size; p++) {
    const w = state[p],
      m = 0.1 * g(p),
      v = 0.001 * g(p) * g(p);
    const decay = p < pl.ftB || (p >= pl.outW && p < pl.outB) ? 0.2 : 0;
    let want = w - decay * w - (2 * (m / 0.1)) / (Math.sqrt(v / 0.001) + 1e-8);
    if (p < pl.outB) {
      if (Math.abs(want) > WEIGHT_CLIP) clipped++;
      want = Math.max(-WEIGHT_CLIP, Math.min(WEIGHT_CLIP, want));
    }
    if (want !== w) moved++;
    assert.ok(Math.abs(js[p] - want) < 1e-6 * Math.max(1, Math.abs(want)), `param ${p}: ${js[p]}, formula ${want}`);
  }
  assert.ok(clipped > 0 && moved > pl.size / 2, `${clipped} clipped, ${moved} moved`);
  assert.ok(js[pl.outB] > WEIGHT_CLIP, 'output biases are not clipped');
});

test('dequantise is quantise read backwards: an engine network quantises back to itself, grows, and a smaller shape is refused', () => {
  const shape: KirinNetShape = { inputs: INPUTS, hidden: 32, outputBuckets: 3 };
  const l = paramLayout(shape);
  const params = new Float32Array(l.size);
  initParams(l, params, 11);
  for (let i = l.outB; i < l.size; i++) params[i] = (i - l.outB - 1) * 0.37;
  const net = quantise(l, params, 'n');
  const back = dequantise(l, net);
  assert.equal(back.length, l.size);
  for (let i = 0; i < l.size; i++)
    assert.ok(Math.abs(back[i] - params[i]) <= 0.5 / Math.min(QA, QB) + 1e-7, `param ${i}`);
  assert.deepEqual(quantise(l, back, 'n'), net);
  const smaller = paramLayout({ inputs: INPUTS, hidden: 16, outputBuckets: 3 });
  assert.throws(() => dequantise(smaller, net), /the network is 1260x2-32-3 buckets, the run 1260x2-16-3 buckets/);
  const buckets = paramLayout({ inputs: INPUTS, hidden: 32, outputBuckets: 4 });
  assert.throws(() => dequantise(buckets, net), /the network is 1260x2-32-3 buckets, the run 1260x2-32-4 buckets/);
  // Grown to 48 units: the old units as they were, the new ones with no output weight.
  const wide = paramLayout({ inputs: INPUTS, hidden: 48, outputBuckets: 3 });
  const grown = quantise(wide, dequantise(wide, net, 5), 'n');
  for (let i = 0; i < INPUTS; i++)
    assert.deepEqual(grown.ftWeights.subarray(i * 48, i * 48 + 32), net.ftWeights.subarray(i * 32, i * 32 + 32));
  assert.ok(grown.outWeights.every((w, k) => k % 48 < 32 || w === 0));
  assert.deepEqual(grown.outBias, net.outBias);
});
