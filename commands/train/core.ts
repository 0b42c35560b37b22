// One thread's share of the training work (the main thread's when training on
// one thread, a worker's otherwise): stage positions into the thread's region,
// run a kernel on them, and update a slice of the parameters with AdamW. Every
// thread builds the same Core over the same shared memory and data.

import { outputBucket, type KirinNetShape } from '../../src/eval/kirinnet/arch.js';
import { tableBase, FEATURE_TABLE, type TrainDataBuffers } from './data.js';
import { jsKernel, type TrainKernel, type UpdateStep } from './kernel-js.js';

export type { UpdateStep } from './kernel-js.js';
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
  readonly power: number;
}

/** The shared memory the threads work on. */
export interface CoreShared {
  readonly memory: WasmMemory;
  readonly data: TrainDataBuffers;
  /** Per position: SCALE * post-processing factor / K (the prediction is sigmoid(y * coef)), and the target. */
  readonly coef: Float32Array;
  readonly target: Float32Array;
  /** The current epoch's order of the training positions. */
  readonly order: Uint32Array;
  /** Loss sum of each shard of the last batch. */
  readonly shardLoss: Float64Array;
  /** Outputs y of the validation positions (forward). */
  readonly validY: Float32Array;
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
      coef = this.shared.coef,
      target = this.shared.target,
      r = this.region,
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
      f32[(r.coef >> 2) + j] = coef[i];
      f32[(r.target >> 2) + j] = target[i];
    }
  }

  /** Gradients of the shards of the batch order[start .. start + size) that fall to this thread. */
  private grad(start: number, size: number): void {
    if (start < 0 || start + size > this.shared.order.length)
      throw new RangeError(`batch ${start}..${start + size} outside the ${this.shared.order.length} positions`);
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
   * AdamW on this thread's slice of the parameters (a multiple of 16 floats,
   * so that no result depends on the number of threads), cut where the kind
   * of parameter changes: weight decay on the weights, not the biases; every
   * weight and feature bias clipped to +-WEIGHT_CLIP, the output biases not.
   */
  private update(st: UpdateStep): void {
    const P = this.layout.params;
    const per = Math.ceil(P.size / this.config.threads / 16) * 16;
    const lo = Math.min(P.size, this.index * per),
      hi = Math.min(P.size, lo + per);
    const parts: [number, number, boolean, boolean][] = [
      [P.ftW, P.ftB, true, true],
      [P.ftB, P.outW, false, true],
      [P.outW, P.outB, true, true],
      [P.outB, P.size, false, false],
    ];
    for (const [a, b, decay, clip] of parts) {
      const from = Math.max(a, lo),
        to = Math.min(b, hi);
      if (from < to) this.kernel.update(from, to, decay, clip, st);
    }
  }
}
