// One thread's share of the training work (the main thread's when training on
// one thread, a worker's otherwise): stage positions into the thread's region,
// run a kernel on them, and update a slice of the parameters with AdamW. Every
// thread builds the same Core over the same shared memory and data.

import { SCALE, WEIGHT_CLIP, outputBucket, type KirinNetShape } from '../../src/eval/kirinnet/arch.js';
import { tableBase, FEATURE_TABLE, sigmoid, type TrainDataBuffers } from './data.js';
import { jsKernel, type TrainKernel } from './kernel-js.js';
import { wasmKernel } from './kernel-wasm.js';
import { SHARD, SLOTS, memoryLayout, type MemoryLayout, type Region } from './memory.js';
import { paramLayout } from './model.js';
import type { WasmMemory } from './wasm-api.js';

export type KernelName = 'js' | 'wasm';

/** What every thread is told once. */
export interface CoreConfig {
  readonly shape: KirinNetShape;
  readonly batch: number;
  readonly threads: number;
  readonly kernel: KernelName;
  readonly lambda: number;
  readonly k: number;
  readonly power: number;
}

/** The shared memory the threads work on. */
export interface CoreShared {
  readonly memory: WasmMemory;
  readonly data: TrainDataBuffers;
  /** The current epoch's order of the training positions. */
  readonly order: Uint32Array;
  /** Loss sum of each shard of the last batch. */
  readonly shardLoss: Float64Array;
  /** Outputs y of the validation positions (forward). */
  readonly validY: Float32Array;
}

/** AdamW's step, the same for every slice. */
export interface UpdateStep {
  /** Shards of the batch (gradient buffers to add). */
  readonly shards: number;
  readonly batchSize: number;
  readonly lr: number;
  readonly weightDecay: number;
  readonly beta1: number;
  readonly beta2: number;
  readonly eps: number;
  /** 1 - beta1^t and 1 - beta2^t. */
  readonly correction1: number;
  readonly correction2: number;
}

export type CoreOp =
  | { readonly op: 'grad'; readonly start: number; readonly size: number }
  | { readonly op: 'update'; readonly step: UpdateStep }
  | { readonly op: 'forward' };

export class Core {
  readonly layout: MemoryLayout;
  readonly kernel: TrainKernel;
  private readonly f32: Float32Array;
  private readonly u16: Uint16Array;
  private readonly i32: Int32Array;
  private readonly region: Region;
  private readonly sum = new Float64Array(4096);

  constructor(
    readonly config: CoreConfig,
    readonly shared: CoreShared,
    readonly index: number,
  ) {
    this.layout = memoryLayout(paramLayout(config.shape), config.batch, config.threads);
    const buffer = shared.memory.buffer;
    this.f32 = new Float32Array(buffer);
    this.u16 = new Uint16Array(buffer);
    this.i32 = new Int32Array(buffer);
    this.region = this.layout.regions[index];
    if (config.kernel === 'wasm') {
      const k = wasmKernel(shared.memory, this.layout);
      if (typeof k === 'string') throw new Error(`the wasm kernel is not available: ${k}`);
      this.kernel = k;
    } else this.kernel = jsKernel(buffer, this.layout);
  }

  run(op: CoreOp): void {
    if (op.op === 'grad') this.grad(op.start, op.size);
    else if (op.op === 'update') this.update(op.step);
    else this.forward();
  }

  /** Stages positions list[from .. from + count) into this thread's region. */
  private stage(list: Uint32Array, from: number, count: number): void {
    const d = this.shared.data,
      r = this.region,
      { lambda, k } = this.config,
      buckets = this.config.shape.outputBuckets;
    const f32 = this.f32,
      u16 = this.u16,
      i32 = this.i32;
    for (let j = 0; j < count; j++) {
      const i = list[from + j];
      const fl = d.flags[i],
        side = fl & 1;
      const us = tableBase(side, (fl >> 1) & 1),
        them = tableBase(side ^ 1, (fl >> 2) & 1);
      const s = d.start[i],
        n = d.start[i + 1] - s;
      const f = (r.feat >> 1) + j * SLOTS;
      for (let e = 0; e < n; e++) {
        const x = d.entries[s + e];
        u16[f + e] = FEATURE_TABLE[us + x];
        u16[f + (SLOTS >> 1) + e] = FEATURE_TABLE[them + x];
      }
      i32[(r.count >> 2) + j] = n;
      i32[(r.bucket >> 2) + j] = outputBucket(n, buckets);
      f32[(r.coef >> 2) + j] = (SCALE * d.factor[i]) / k;
      f32[(r.target >> 2) + j] = (lambda * (d.result[i] + 1)) / 2 + (1 - lambda) * sigmoid(d.score[i] / k);
    }
  }

  /** Gradients of the shards of the batch order[start .. start + size) that fall to this thread. */
  private grad(start: number, size: number): void {
    const shards = Math.ceil(size / SHARD);
    for (let s = this.index; s < shards; s += this.config.threads) {
      const from = start + s * SHARD,
        count = Math.min(SHARD, size - s * SHARD);
      this.stage(this.shared.order, from, count);
      this.shared.shardLoss[s] = this.kernel.train(
        this.region,
        count,
        this.layout.grads + s * this.layout.stride * 4,
        this.config.power,
      );
    }
  }

  /** Outputs of the validation positions, in chunks of SHARD, the chunks that fall to this thread. */
  private forward(): void {
    const list = this.shared.data.valid;
    const chunks = Math.ceil(list.length / SHARD);
    for (let c = this.index; c < chunks; c += this.config.threads) {
      const from = c * SHARD,
        count = Math.min(SHARD, list.length - from);
      this.stage(list, from, count);
      this.kernel.forward(this.region, count);
      this.shared.validY.set(this.f32.subarray(this.region.y >> 2, (this.region.y >> 2) + count), from);
    }
  }

  /**
   * AdamW on this thread's slice of the parameters: the gradient is the sum of
   * the shard buffers in shard order over the batch size; weight decay on the
   * weights (not the biases); then every weight and feature bias is clipped to
   * +-WEIGHT_CLIP.
   */
  private update(st: UpdateStep): void {
    const L = this.layout,
      P = L.params;
    const per = Math.ceil(P.size / this.config.threads / 16) * 16;
    const lo = Math.min(P.size, this.index * per),
      hi = Math.min(P.size, lo + per);
    const f32 = this.f32,
      sum = this.sum;
    const w0 = L.weights >> 2,
      m0 = L.adamM >> 2,
      v0 = L.adamV >> 2,
      g0 = L.grads >> 2;
    const inv = 1 / st.batchSize;
    const { lr, beta1, beta2, eps, correction1, correction2 } = st;
    const decay = lr * st.weightDecay;
    for (let a = lo; a < hi; a += sum.length) {
      const b = Math.min(hi, a + sum.length),
        n = b - a;
      for (let j = 0; j < n; j++) sum[j] = f32[g0 + a + j];
      for (let s = 1; s < st.shards; s++) {
        const g = g0 + s * L.stride + a;
        for (let j = 0; j < n; j++) sum[j] += f32[g + j];
      }
      for (let j = 0; j < n; j++) {
        const p = a + j;
        const g = sum[j] * inv;
        const m = beta1 * f32[m0 + p] + (1 - beta1) * g;
        const v = beta2 * f32[v0 + p] + (1 - beta2) * g * g;
        f32[m0 + p] = m;
        f32[v0 + p] = v;
        let w = f32[w0 + p];
        if (p < P.ftB || (p >= P.outW && p < P.outB)) w -= decay * w;
        w -= (lr * (m / correction1)) / (Math.sqrt(v / correction2) + eps);
        if (p < P.outB) w = w > WEIGHT_CLIP ? WEIGHT_CLIP : w < -WEIGHT_CLIP ? -WEIGHT_CLIP : w;
        f32[w0 + p] = w;
      }
    }
  }
}
