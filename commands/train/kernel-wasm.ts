// The WebAssembly SIMD training kernels (assembly/train-kernels.ts, compiled by
// `npm run build` to train-kernels.wasm next to this module) on the training
// memory; the same contract as kernel-js.ts.

import { readFileSync } from 'node:fs';
import { wasmSimdSupported } from '../../src/platform/simd.js';
import { WEIGHT_CLIP } from '../../src/eval/kirinnet/arch.js';
import type { TrainKernel } from './kernel-js.js';
import { RESERVED_BYTES, type MemoryLayout } from './memory.js';
import { wasmApi, type WasmMemory, type WasmModule } from './wasm-api.js';

type Train = (
  feat: number,
  counts: number,
  bucket: number,
  coef: number,
  target: number,
  count: number,
  params: number,
  grad: number,
  size: number,
  scratch: number,
  h: number,
  buckets: number,
  power: number,
) => number;
type Forward = (
  feat: number,
  counts: number,
  bucket: number,
  y: number,
  count: number,
  params: number,
  scratch: number,
  h: number,
  buckets: number,
) => void;

type Update = (
  w: number,
  m: number,
  v: number,
  g: number,
  stride: number,
  shards: number,
  n: number,
  inv: number,
  lr: number,
  decay: number,
  beta1: number,
  beta2: number,
  eps: number,
  correction1: number,
  correction2: number,
  clip: number,
) => void;

let compiled: WasmModule | undefined;

/**
 * The end of the static data a module writes into its memory when it is
 * instantiated (its active data segments), or -1 when the module cannot be read.
 */
function staticDataEnd(bytes: Uint8Array): number {
  let at = 8;
  const u32 = (): number => {
    let v = 0,
      shift = 0,
      b: number;
    do {
      if (at >= bytes.length) throw new RangeError('truncated');
      b = bytes[at++];
      v += (b & 0x7f) * 2 ** shift;
      shift += 7;
    } while (b & 0x80);
    return v;
  };
  try {
    let end = 0;
    while (at < bytes.length) {
      const id = bytes[at++];
      const size = u32();
      const next = at + size;
      if (id === 11) {
        for (let n = u32(); n > 0; n--) {
          const flags = u32();
          if (flags === 1) {
            at += u32(); // passive: written only by memory.init, which the kernels do not use
            continue;
          }
          if (flags !== 0 || bytes[at++] !== 0x41) return -1;
          const offset = u32(); // i32.const of a small non-negative offset (one LEB128 byte group)
          if (bytes[at++] !== 0x0b) return -1;
          const length = u32();
          at += length;
          end = Math.max(end, offset + length);
        }
      }
      at = next;
    }
    return end;
  } catch {
    return -1;
  }
}

/** The compiled module, or why it cannot be had. */
export function trainKernelModule(): WasmModule | string {
  if (compiled) return compiled;
  if (!wasmSimdSupported()) return 'this JavaScript engine has no WebAssembly SIMD';
  let bytes: Uint8Array;
  try {
    bytes = readFileSync(new URL('./train-kernels.wasm', import.meta.url));
  } catch {
    return 'train-kernels.wasm is missing (run `npm run build`)';
  }
  const end = staticDataEnd(bytes);
  if (end < 0 || end > RESERVED_BYTES)
    return `train-kernels.wasm: static data up to byte ${end} does not fit the ${RESERVED_BYTES} bytes reserved for it`;
  const module = new wasmApi.Module(bytes);
  compiled = module;
  return module;
}

/** The WebAssembly kernels on `memory`, or why not. */
export function wasmKernel(memory: WasmMemory, layout: MemoryLayout): TrainKernel | string {
  const module = trainKernelModule();
  if (typeof module === 'string') return module;
  const instance = new wasmApi.Instance(module, { env: { memory } });
  const train = instance.exports.train as Train;
  const forward = instance.exports.forward as Forward;
  const update = instance.exports.update as Update;
  const { shape, size } = layout.params;
  const h = shape.hidden,
    nb = shape.outputBuckets;
  return {
    name: 'wasm',
    train: (r, count, grad, power) =>
      train(r.feat, r.count, r.bucket, r.coef, r.target, count, layout.weights, grad, size, r.scratch, h, nb, power),
    forward: (r, count) => forward(r.feat, r.count, r.bucket, r.y, count, layout.weights, r.scratch, h, nb),
    update: (lo, hi, decay, clip, st) =>
      update(
        layout.weights + 4 * lo,
        layout.adamM + 4 * lo,
        layout.adamV + 4 * lo,
        layout.grads + 4 * lo,
        4 * layout.stride,
        st.shards,
        hi - lo,
        1 / st.batchSize,
        st.lr,
        decay ? st.lr * st.weightDecay : 0,
        st.beta1,
        st.beta2,
        st.eps,
        st.correction1,
        st.correction2,
        clip ? WEIGHT_CLIP : 0,
      ),
  };
}
