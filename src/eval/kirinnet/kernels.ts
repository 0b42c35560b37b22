// The hot arithmetic of Kirin's network, twice with identical results: as
// WebAssembly SIMD (assembly/kirinnet-kernels.ts, compiled into the NNUE kernel
// module) and as portable TypeScript. Arguments are int32 byte offsets into the
// network's memory (layout below); nothing is copied between calls.

import { err, ok, type Result } from '../../core/result.js';
import { OUTPUT_SHIFT, QA } from './arch.js';
import { readKernelModule } from '#platform/files';
import { wasmSimdSupported } from '../../platform/simd.js';

export interface KirinKernels {
  /** 'wasm-simd' or 'portable'. */
  readonly name: string;
  /** acc = feature biases + the rows listed at `features` (i32[count] of input indices); i16 wrapping. */
  refresh(acc: number, features: number, count: number): void;
  /** dst = src + the rows listed at `added` - the rows listed at `removed`; `dst` may equal `src`. */
  update(dst: number, src: number, added: number, addedCount: number, removed: number, removedCount: number): void;
  /** The output layer's raw int32 sum for bucket `bucket` (reference.ts outputSum). */
  output(us: number, them: number, bucket: number): number;
}

/** Where a network's tensors live in its memory (byte offsets, 64-aligned), for hidden size `hidden`. */
export interface KirinLayout {
  readonly hidden: number;
  readonly ftWeights: number;
  readonly ftBias: number;
  readonly outWeights: number;
  /** First byte after the weights (the work slots start here). */
  readonly end: number;
}

const align64 = (n: number) => Math.ceil(n / 64) * 64;

export function kirinLayout(inputs: number, hidden: number, buckets: number): KirinLayout {
  const ftWeights = 0;
  const ftBias = align64(ftWeights + inputs * hidden * 2);
  const outWeights = align64(ftBias + hidden * 2);
  const end = align64(outWeights + buckets * 2 * hidden * 2);
  return { hidden, ftWeights, ftBias, outWeights, end };
}

/** The kernels in plain TypeScript on typed-array views of the memory. */
export class PortableKirinKernels implements KirinKernels {
  readonly name = 'portable';
  private readonly i16: Int16Array;
  private readonly i32: Int32Array;
  constructor(
    buffer: ArrayBufferLike,
    private readonly layout: KirinLayout,
  ) {
    this.i16 = new Int16Array(buffer);
    this.i32 = new Int32Array(buffer);
  }

  refresh(acc: number, features: number, count: number): void {
    const h = this.layout.hidden,
      i16 = this.i16;
    const a = acc >> 1,
      b = this.layout.ftBias >> 1;
    for (let j = 0; j < h; j++) i16[a + j] = i16[b + j];
    this.addRows(a, features >> 2, count, 1);
  }

  update(dst: number, src: number, added: number, addedCount: number, removed: number, removedCount: number): void {
    const h = this.layout.hidden,
      i16 = this.i16;
    const d = dst >> 1,
      s = src >> 1;
    if (d !== s) for (let j = 0; j < h; j++) i16[d + j] = i16[s + j];
    this.addRows(d, added >> 2, addedCount, 1);
    this.addRows(d, removed >> 2, removedCount, -1);
  }

  private addRows(a: number, list: number, count: number, sign: number): void {
    const h = this.layout.hidden,
      i16 = this.i16,
      i32 = this.i32,
      w = this.layout.ftWeights >> 1;
    for (let k = 0; k < count; k++) {
      const row = w + i32[list + k] * h;
      // The Int16Array store wraps like the SIMD lanes.
      if (sign > 0) for (let j = 0; j < h; j++) i16[a + j] += i16[row + j];
      else for (let j = 0; j < h; j++) i16[a + j] -= i16[row + j];
    }
  }

  output(us: number, them: number, bucket: number): number {
    const h = this.layout.hidden,
      i16 = this.i16;
    const u = us >> 1,
      t = them >> 1,
      w = (this.layout.outWeights >> 1) + bucket * 2 * h;
    let s = 0;
    for (let j = 0; j < h; j++) {
      let a = i16[u + j];
      a = a < 0 ? 0 : a > QA ? QA : a;
      let b = i16[t + j];
      b = b < 0 ? 0 : b > QA ? QA : b;
      s = (s + ((a * i16[w + j] * a) >> OUTPUT_SHIFT)) | 0;
      s = (s + ((b * i16[w + h + j] * b) >> OUTPUT_SHIFT)) | 0;
    }
    return s;
  }
}

export type KirinWasmCode = 'no-simd' | 'not-wasm-memory' | 'module-missing' | 'module-invalid';

interface WasmApi {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: object) => { readonly exports: Record<string, unknown> };
  Memory: abstract new (...args: never[]) => { readonly buffer: ArrayBufferLike };
}
interface KirinWasmExports {
  kn_refresh(acc: number, bias: number, weights: number, features: number, count: number, h: number): void;
  kn_update(
    dst: number,
    src: number,
    weights: number,
    added: number,
    addedCount: number,
    removed: number,
    removedCount: number,
    h: number,
  ): void;
  kn_output(us: number, them: number, weights: number, h: number): number;
}

/** The compiled kernel modules (ordinary and shared memory), kept for later instances. */
const compiled = new Map<boolean, object>();

/** The WebAssembly SIMD kernels on `memory` (a WebAssembly.Memory holding the network in `layout`). */
export function createWasmKirinKernels(
  memory: { readonly buffer: ArrayBufferLike },
  layout: KirinLayout,
): Result<KirinKernels, KirinWasmCode> {
  const api = (globalThis as { WebAssembly?: WasmApi }).WebAssembly;
  if (api === undefined || !wasmSimdSupported())
    return err('no-simd', 'this JavaScript engine has no WebAssembly SIMD');
  if (!(memory instanceof api.Memory)) return err('not-wasm-memory', 'the network memory is not a WebAssembly.Memory');
  const shared = typeof SharedArrayBuffer === 'function' && memory.buffer instanceof SharedArrayBuffer;
  let module = compiled.get(shared);
  if (module === undefined) {
    const read = readKernelModule(shared);
    if (!read.ok) return read;
    try {
      module = new api.Module(read.value);
    } catch (e) {
      return err('module-invalid', `the kernel module does not compile: ${(e as Error).message}`);
    }
    compiled.set(shared, module);
  }
  let exports: KirinWasmExports;
  try {
    exports = new api.Instance(module, { env: { memory } }).exports as unknown as KirinWasmExports;
  } catch (e) {
    return err('module-invalid', `the kernel module does not instantiate: ${(e as Error).message}`);
  }
  if (typeof exports.kn_refresh !== 'function' || typeof exports.kn_output !== 'function')
    return err('module-invalid', 'the kernel module lacks the Kirin network kernels; rebuild it (npm run build)');
  const { kn_refresh, kn_update, kn_output } = exports;
  const { hidden: h, ftWeights, ftBias, outWeights } = layout;
  const bucketBytes = 4 * h;
  return ok({
    name: 'wasm-simd',
    refresh: (acc, features, count) => kn_refresh(acc, ftBias, ftWeights, features, count, h),
    update: (dst, src, added, addedCount, removed, removedCount) =>
      kn_update(dst, src, ftWeights, added, addedCount, removed, removedCount, h),
    output: (us, them, bucket) => kn_output(us, them, outWeights + bucket * bucketBytes, h),
  });
}
