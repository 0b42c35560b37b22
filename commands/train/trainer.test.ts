import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { INPUTS } from '../../src/eval/kirinnet/arch.js';
import {
  decodeCheckpoint,
  encodeCheckpoint,
  identityDifferences,
  type Checkpoint,
  type RunIdentity,
} from './checkpoint.js';
import { DEFAULT_FILTER, fitK, loadTrainData } from './data.js';
import { syntheticDataFile } from './synthetic.js';
import { epochOrder, learningRate, train, type EpochStats, type TrainConfig } from './trainer.js';
import { unwrap } from '../../test/support/fixtures.js';

const dir = mkdtempSync(join(tmpdir(), 'kirin-train-loop-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const dataPath = join(dir, 'd.bin');
writeFileSync(dataPath, syntheticDataFile(400, 17));
const data = loadTrainData([dataPath], DEFAULT_FILTER, 0.15);
const k = fitK(data, data.train);

const config: TrainConfig = {
  shape: { inputs: INPUTS, hidden: 32, outputBuckets: 2 },
  epochs: 6,
  batch: 1200,
  lr: 0.01,
  schedule: 'cosine',
  lrEnd: 0.05,
  stepEpochs: 2,
  gamma: 0.5,
  warmup: 3,
  weightDecay: 0.01,
  lambda: 0.2,
  power: 2,
  k,
  seed: 3,
  kernel: 'wasm',
};

test('the data set is large enough for the tests below (several shards per batch)', () => {
  assert.ok(data.train.length > 5 * config.batch, `${data.train.length} training positions`);
  assert.ok(data.valid.length > 1000);
});

test('training lowers the training and the validation loss', async () => {
  for (const kernel of ['wasm', 'js'] as const) {
    const r = unwrap(await train(data, { ...config, kernel }, { threads: 1 }));
    const h = r.history;
    assert.equal(h.length, config.epochs);
    assert.ok(h[h.length - 1].train < 0.5 * h[0].train, `${kernel}: train ${h[0].train} -> ${h[h.length - 1].train}`);
    assert.ok(h[h.length - 1].valid < 0.7 * h[0].valid, `${kernel}: valid ${h[0].valid} -> ${h[h.length - 1].valid}`);
  }
});

test('a run is deterministic: same seed, same parameters, whatever the number of threads', async () => {
  const a = unwrap(await train(data, config, { threads: 1 }));
  const b = unwrap(await train(data, config, { threads: 2 }));
  const c = unwrap(await train(data, { ...config, seed: 4 }, { threads: 1 }));
  assert.deepEqual(b.params, a.params);
  assert.deepEqual(
    b.history.map((s) => [s.train, s.valid]),
    a.history.map((s) => [s.train, s.valid]),
  );
  assert.notDeepEqual(c.params, a.params);
});

test('resuming a checkpoint gives the uninterrupted run', async () => {
  const cfg = { ...config, epochs: 4 };
  const whole = unwrap(await train(data, cfg, { threads: 2 }));
  let saved: Uint8Array | undefined;
  const identity: RunIdentity = { config: cfg, dataOptions: { ...DEFAULT_FILTER }, files: data.files };
  const first = unwrap(
    await train(data, cfg, {
      threads: 1,
      stopAfter: 2,
      onEpoch: (_, state) => {
        saved = encodeCheckpoint(identity, state);
      },
    }),
  );
  assert.equal(first.epochsDone, 2);
  assert.notDeepEqual(first.params, whole.params);
  const { identity: id, checkpoint } = unwrap(decodeCheckpoint(saved!, 'ckpt'));
  assert.deepEqual(identityDifferences(id, identity), []);
  const rest = unwrap(await train(data, cfg, { threads: 2, resume: checkpoint }));
  assert.equal(rest.epochsDone, 4);
  assert.deepEqual(rest.params, whole.params);
  const noTime = (h: readonly EpochStats[]) => h.map((s) => ({ ...s, seconds: 0 }));
  assert.deepEqual(noTime(rest.history), noTime(whole.history));
});

test('a checkpoint is checked: damage, another run', () => {
  const state: Checkpoint = {
    epochsDone: 1,
    step: 10,
    history: [],
    params: Float32Array.from([1, 2, 3]),
    adamM: Float32Array.from([4, 5, 6]),
    adamV: Float32Array.from([7, 8, 9]),
  };
  const identity: RunIdentity = { config, dataOptions: { ...DEFAULT_FILTER }, files: data.files };
  const bytes = encodeCheckpoint(identity, state);
  const back = decodeCheckpoint(bytes, 'c');
  assert.ok(back.ok);
  assert.deepEqual(back.value.checkpoint, state);
  const damaged = bytes.slice();
  damaged[damaged.length - 10] ^= 1;
  const refused = (b: Uint8Array, why: RegExp): void => {
    const r = decodeCheckpoint(b, 'c');
    assert.ok(!r.ok && r.error.code === 'checkpoint', String(why));
    assert.match(r.error.message, why);
  };
  refused(damaged, /^c: damaged checkpoint/);
  refused(bytes.subarray(0, 30), /damaged|too short/);
  refused(new TextEncoder().encode('KIRINNET0000000000000000'), /no KIRINCKP/);
  const other: RunIdentity = {
    ...identity,
    config: { ...config, lr: 0.02 },
    files: [{ records: 5, hash: 1 }],
  };
  const diff = identityDifferences(identity, other);
  assert.equal(diff.length, 2);
  assert.match(diff[0], /^lr: 0.01 in the checkpoint, 0.02 now$/);
  assert.match(diff[1], /^data files: /);
});

test('learning-rate schedules and epoch orders', () => {
  const perEpoch = 10;
  const c = { ...config, epochs: 5, warmup: 4, lr: 1, lrEnd: 0.1 };
  assert.equal(learningRate(c, 0, perEpoch), 0.25);
  assert.equal(learningRate(c, 3, perEpoch), learningRate({ ...c, warmup: 0 }, 3, perEpoch));
  assert.ok(Math.abs(learningRate(c, 25, perEpoch) - 0.55) < 1e-12);
  assert.ok(Math.abs(learningRate(c, 50, perEpoch) - 0.1) < 1e-12);
  const s = { ...c, schedule: 'step' as const, warmup: 0, stepEpochs: 2, gamma: 0.5 };
  assert.deepEqual(
    [0, 19, 20, 39, 40].map((t) => learningRate(s, t, perEpoch)),
    [1, 1, 0.5, 0.5, 0.25],
  );
  const base = Uint32Array.from({ length: 1000 }, (_, i) => i * 3);
  const a = new Uint32Array(1000),
    b = new Uint32Array(1000),
    e = new Uint32Array(1000);
  epochOrder(base, 1, 0, a);
  epochOrder(base, 1, 0, b);
  epochOrder(base, 1, 1, e);
  assert.deepEqual(a, b);
  assert.notDeepEqual(a, e);
  assert.deepEqual(
    Array.from(a).sort((x, y) => x - y),
    Array.from(base),
  );
  assert.notDeepEqual(a, base);
});
