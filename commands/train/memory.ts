// The training memory of `kirin train`: one shared WebAssembly.Memory holding
// the parameters, Adam's moments, one gradient buffer per shard of a batch and
// one staging region per thread. Both kernels (JavaScript and WebAssembly
// SIMD) work on it; the worker threads share it.
//
// A batch is cut into shards of SHARD positions. Each shard's gradient is summed
// by one thread into its own buffer, and the update adds the shard buffers in
// shard order: the result does not depend on how many threads ran, only on
// the seed, the data and the kernel.

import { MAX_HIDDEN } from '../../src/eval/kirinnet/arch.js';
import type { ParamLayout } from './model.js';
import { wasmApi, type WasmMemory } from './wasm-api.js';

/**
 * Bytes at the start of the memory left to the WebAssembly module's own static
 * data (AssemblyScript places Math's tables there when it is instantiated;
 * kernel-wasm.ts checks that they fit).
 */
export const RESERVED_BYTES = 65536;

/** Positions per shard (the unit of work of a thread). */
export const SHARD = 1024;
/** Feature slots per position in a staging region: the side to move's 32, then the other's 32 (uint16). */
export const SLOTS = 64;

/** Byte offsets of one thread's staging region. */
export interface Region {
  /** uint16[SHARD][SLOTS]: feature indices. */
  readonly feat: number;
  /** int32[SHARD]: pieces (active features per perspective). */
  readonly count: number;
  /** int32[SHARD]: output bucket. */
  readonly bucket: number;
  /** float32[SHARD]: SCALE * post-processing factor / K (the prediction is sigmoid(y * coef)). */
  readonly coef: number;
  /** float32[SHARD]: the target in [0, 1]. */
  readonly target: number;
  /** float32[SHARD]: the forward kernel's outputs y. */
  readonly y: number;
  /** float32[4 * MAX_HIDDEN]: the kernels' scratch (accumulators). */
  readonly scratch: number;
}

const REGION_BYTES = SHARD * SLOTS * 2 + 5 * SHARD * 4 + 4 * MAX_HIDDEN * 4;

/** Byte offsets in the training memory. */
export interface MemoryLayout {
  readonly params: ParamLayout;
  /** Floats per parameter-sized buffer (the parameter count rounded up to 16). */
  readonly stride: number;
  readonly weights: number;
  readonly adamM: number;
  readonly adamV: number;
  /** Gradient buffer of shard s: grads + s * stride * 4. */
  readonly grads: number;
  readonly shards: number;
  readonly regions: readonly Region[];
  readonly bytes: number;
}

const align = (n: number) => Math.ceil(n / 64) * 64;

export function memoryLayout(params: ParamLayout, batch: number, threads: number): MemoryLayout {
  const stride = Math.ceil(params.size / 16) * 16;
  const shards = Math.ceil(batch / SHARD);
  let at = RESERVED_BYTES;
  const take = (bytes: number) => {
    const o = at;
    at = align(at + bytes);
    return o;
  };
  const weights = take(stride * 4),
    adamM = take(stride * 4),
    adamV = take(stride * 4),
    grads = take(shards * stride * 4);
  const regions: Region[] = [];
  for (let t = 0; t < threads; t++) {
    const base = take(REGION_BYTES);
    const feat = base,
      count = feat + SHARD * SLOTS * 2,
      bucket = count + SHARD * 4,
      coef = bucket + SHARD * 4,
      target = coef + SHARD * 4,
      y = target + SHARD * 4,
      scratch = y + SHARD * 4;
    regions.push({ feat, count, bucket, coef, target, y, scratch });
  }
  return { params, stride, weights, adamM, adamV, grads, shards, regions, bytes: at };
}

/** A shared WebAssembly.Memory of at least `bytes` (throws a clear error past 4 GiB). */
export function createMemory(bytes: number): WasmMemory {
  const pages = Math.ceil(bytes / 65536) + 1;
  if (pages > 65536)
    throw new RangeError(
      `the training memory would need ${(bytes / 2 ** 30).toFixed(2)} GiB (more than 4 GiB): use a smaller --batch or --hidden`,
    );
  return new wasmApi.Memory({ initial: pages, maximum: pages, shared: true });
}
