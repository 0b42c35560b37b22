// The training loop of `kirin train`: epochs of shuffled mini-batches, AdamW
// with a learning-rate schedule, the validation loss after every epoch, a
// checkpoint after every epoch, and resumption from one. Deterministic: the
// parameters after each step depend only on the configuration (seed included),
// the data and the kernel, not on the number of threads (memory.ts).

import { err, ok, type Result } from '../../src/dev.js';
import { mulberry32 } from '../../src/core/prng.js';
import { SCALE, type KirinNetShape } from '../../src/eval/kirinnet/arch.js';
import type { CoreConfig, KernelName, UpdateStep } from './core.js';
import { sigmoid, type TrainData } from './data.js';
import { SHARD, createMemory, memoryLayout } from './memory.js';
import { initParams, paramLayout, type ParamLayout } from './model.js';
import { createPool } from './pool.js';

/** Everything that decides the result of a run (a checkpoint must match it to be resumed). */
export interface TrainConfig {
  readonly shape: KirinNetShape;
  readonly epochs: number;
  readonly batch: number;
  /** Peak learning rate. */
  readonly lr: number;
  /** cosine: from lr down to lr * lrEnd over the run; step: times gamma every stepEpochs epochs. */
  readonly schedule: 'cosine' | 'step';
  readonly lrEnd: number;
  readonly stepEpochs: number;
  readonly gamma: number;
  /** Steps of linear warm-up. */
  readonly warmup: number;
  /** AdamW's decoupled weight decay (on the weights, not the biases). */
  readonly weightDecay: number;
  readonly lambda: number;
  /** The loss is |prediction - target|^power. */
  readonly power: number;
  /** The sigmoid scale (fitted to the data before the run). */
  readonly k: number;
  readonly seed: number;
  readonly kernel: KernelName;
  /** SHA-256 (hex) of the network the run starts from (`--init`); absent: random weights from `seed`. */
  readonly init?: string;
}

const BETA1 = 0.9;
const BETA2 = 0.999;
const EPS = 1e-8;

/** One epoch's numbers. */
export interface EpochStats {
  readonly epoch: number;
  /** Mean training loss over the epoch's batches (as they were trained). */
  readonly train: number;
  /** Validation loss against the targets, and the squared error of the prediction against the game results alone. */
  readonly valid: number;
  readonly validResult: number;
  readonly lr: number;
  readonly seconds: number;
}

/** The state after an epoch: what a checkpoint holds besides the run's identity (checkpoint.ts). */
export interface Checkpoint {
  readonly epochsDone: number;
  readonly step: number;
  readonly history: readonly EpochStats[];
  readonly params: Float32Array;
  readonly adamM: Float32Array;
  readonly adamV: Float32Array;
}

export interface Progress {
  readonly epoch: number;
  readonly epochs: number;
  /** Positions of this epoch trained, of `total`. */
  readonly done: number;
  readonly total: number;
  /** Positions per second since the run (or resumption) began. */
  readonly rate: number;
  /** Mean loss of the epoch's batches so far. */
  readonly loss: number;
  /** Seconds left for the whole run (at the current rate). */
  readonly left: number;
}

export interface RunOptions {
  readonly threads: number;
  /** Continue this checkpoint's run (its configuration equals `config`: checked by the caller). */
  readonly resume?: Checkpoint;
  /** The starting parameters (a network's, dequantised: `--init`) instead of random ones from the seed. */
  readonly initial?: Float32Array;
  /** Stop after this many epochs in total (the run can be resumed later; used by tests). */
  readonly stopAfter?: number;
  readonly onProgress?: (p: Progress) => void;
  /** After every epoch, with the state to checkpoint. */
  readonly onEpoch?: (stats: EpochStats, state: Checkpoint) => void;
}

export interface TrainResult {
  readonly layout: ParamLayout;
  /** The float parameters (a copy). */
  readonly params: Float32Array;
  readonly history: readonly EpochStats[];
  readonly epochsDone: number;
}

function stepsPerEpoch(trainCount: number, batch: number): number {
  return Math.ceil(trainCount / batch);
}

/** The learning rate of step `step` (0-based). */
export function learningRate(c: TrainConfig, step: number, perEpoch: number): number {
  const warm = c.warmup > 0 ? Math.min(1, (step + 1) / c.warmup) : 1;
  let f: number;
  if (c.schedule === 'cosine') {
    const progress = Math.min(1, step / Math.max(1, c.epochs * perEpoch));
    f = c.lrEnd + (1 - c.lrEnd) * 0.5 * (1 + Math.cos(Math.PI * progress));
  } else f = Math.pow(c.gamma, Math.floor(Math.floor(step / perEpoch) / c.stepEpochs));
  return c.lr * warm * f;
}

/** The epoch's order of the training positions: a Fisher-Yates shuffle from (seed, epoch). */
export function epochOrder(train: Uint32Array, seed: number, epoch: number, out: Uint32Array): void {
  out.set(train);
  const rnd = mulberry32((Math.imul(seed, 0x9e3779b1) ^ Math.imul(epoch + 1, 0x85ebca6b)) >>> 0);
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(rnd() * (i + 1));
    const t = out[i];
    out[i] = out[j];
    out[j] = t;
  }
}

/** Why a run did not end with a network. */
export type TrainCode = 'no-positions' | 'initial-size' | 'diverged';

/**
 * Runs (or resumes) training on `data`: the trained parameters, or why there
 * are none (no training positions, starting parameters of another size, a
 * loss that is no longer finite). A training thread that fails throws.
 */
export async function train(data: TrainData, c: TrainConfig, run: RunOptions): Promise<Result<TrainResult, TrainCode>> {
  const nTrain = data.train.length;
  if (nTrain === 0) return err('no-positions', 'no training positions');
  const layout = paramLayout(c.shape);
  const threads = Math.max(1, Math.min(run.threads, Math.ceil(c.batch / SHARD)));
  const mem = memoryLayout(layout, c.batch, threads);
  const memory = createMemory(mem.bytes);
  const f32 = new Float32Array(memory.buffer);
  const P = layout.size;
  const weights = f32.subarray(mem.weights >> 2, (mem.weights >> 2) + P),
    adamM = f32.subarray(mem.adamM >> 2, (mem.adamM >> 2) + P),
    adamV = f32.subarray(mem.adamV >> 2, (mem.adamV >> 2) + P);
  let epoch = 0,
    step = 0;
  const history: EpochStats[] = [];
  if (run.resume) {
    weights.set(run.resume.params);
    adamM.set(run.resume.adamM);
    adamV.set(run.resume.adamV);
    epoch = run.resume.epochsDone;
    step = run.resume.step;
    history.push(...run.resume.history);
  } else if (run.initial) {
    if (run.initial.length !== P)
      return err('initial-size', `the starting parameters have ${run.initial.length} values, not ${P}`);
    weights.set(run.initial);
  } else initParams(layout, weights, c.seed);

  const shared = {
    memory,
    data,
    ...labels(data, c),
    order: new Uint32Array(new SharedArrayBuffer(4 * nTrain)),
    shardLoss: new Float64Array(new SharedArrayBuffer(8 * mem.shards)),
    validY: new Float32Array(new SharedArrayBuffer(4 * Math.max(1, data.valid.length))),
  };
  const coreConfig: CoreConfig = {
    shape: c.shape,
    batch: c.batch,
    threads,
    kernel: c.kernel,
    power: c.power,
  };
  const pool = await createPool(coreConfig, shared);
  const perEpoch = stepsPerEpoch(nTrain, c.batch);
  const last = Math.min(c.epochs, run.stopAfter ?? c.epochs);
  const t0 = performance.now();
  let trained = 0,
    lastReport = 0;
  try {
    for (; epoch < last; epoch++) {
      const e0 = performance.now();
      epochOrder(data.train, c.seed, epoch, shared.order);
      let lossSum = 0,
        lr = 0;
      for (let start = 0; start < nTrain; start += c.batch) {
        const size = Math.min(c.batch, nTrain - start);
        const shards = Math.ceil(size / SHARD);
        await pool.run({ op: 'grad', start, size });
        for (let s = 0; s < shards; s++) lossSum += shared.shardLoss[s];
        lr = learningRate(c, step, perEpoch);
        const t = step + 1;
        const update: UpdateStep = {
          shards,
          batchSize: size,
          lr,
          weightDecay: c.weightDecay,
          beta1: BETA1,
          beta2: BETA2,
          eps: EPS,
          correction1: 1 - Math.pow(BETA1, t),
          correction2: 1 - Math.pow(BETA2, t),
        };
        await pool.run({ op: 'update', step: update });
        step++;
        trained += size;
        const now = performance.now();
        if (run.onProgress && (now - lastReport > 1000 || start + size >= nTrain)) {
          lastReport = now;
          const rate = trained / ((now - t0) / 1000);
          const left = ((last - epoch) * nTrain - (start + size)) / rate;
          run.onProgress({
            epoch: epoch + 1,
            epochs: c.epochs,
            done: start + size,
            total: nTrain,
            rate,
            loss: lossSum / (start + size),
            left,
          });
        }
      }
      if (!Number.isFinite(lossSum))
        return err('diverged', `the training loss is not finite in epoch ${epoch + 1} (diverged: try a smaller --lr)`);
      const v = await validationLoss(pool, shared, data, c);
      const stats: EpochStats = {
        epoch: epoch + 1,
        train: lossSum / nTrain,
        valid: v.valid,
        validResult: v.result,
        lr,
        seconds: (performance.now() - e0) / 1000,
      };
      history.push(stats);
      run.onEpoch?.(stats, {
        epochsDone: epoch + 1,
        step,
        history: history.slice(),
        params: weights.slice(),
        adamM: adamM.slice(),
        adamV: adamV.slice(),
      });
    }
  } finally {
    await pool.close();
  }
  return ok({ layout, params: weights.slice(), history, epochsDone: epoch });
}

/**
 * Per position, in shared memory: the coefficient of the prediction,
 * sigmoid(y * coef) with coef = SCALE * post-processing factor / K, and the
 * target lambda * result + (1 - lambda) * sigmoid(score / K).
 */
export function labels(data: TrainData, c: TrainConfig): { coef: Float32Array; target: Float32Array } {
  const n = Math.max(1, data.count);
  const coef = new Float32Array(new SharedArrayBuffer(4 * n)),
    target = new Float32Array(new SharedArrayBuffer(4 * n));
  for (let i = 0; i < data.count; i++) {
    coef[i] = (SCALE * data.factor[i]) / c.k;
    target[i] = (c.lambda * (data.result[i] + 1)) / 2 + (1 - c.lambda) * sigmoid(data.score[i] / c.k);
  }
  return { coef, target };
}

/** The validation losses (NaN without validation positions). */
async function validationLoss(
  pool: { run: (op: { op: 'forward' }) => Promise<void> },
  shared: { validY: Float32Array; coef: Float32Array; target: Float32Array },
  data: TrainData,
  c: TrainConfig,
): Promise<{ valid: number; result: number }> {
  const n = data.valid.length;
  if (n === 0) return { valid: NaN, result: NaN };
  await pool.run({ op: 'forward' });
  let loss = 0,
    result = 0;
  for (let j = 0; j < n; j++) {
    const i = data.valid[j];
    const p = sigmoid(shared.validY[j] * shared.coef[i]);
    const r = (data.result[i] + 1) / 2;
    loss += Math.pow(Math.abs(p - shared.target[i]), c.power);
    result += (p - r) * (p - r);
  }
  return { valid: loss / n, result: result / n };
}
