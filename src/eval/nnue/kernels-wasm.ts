// The WebAssembly SIMD NNUE kernels: assembly/nnue-kernels.ts compiled by `npm run build`
// (asc --enable simd --importMemory --runtime stub -O3) to dist/browser/kernels.wasm,
// read through src/platform/ (node/files.ts). They work on the caller's WebAssembly.Memory in the layout of
// layout.ts and give exactly the numbers of the portable kernels.

import { err, ok, type Result } from '../../core/result.js';
import { readKernelModule } from '#platform/files';
import { wasmSimdSupported } from '../../platform/simd.js';
import type { NnueKernels } from './kernels.js';
import * as layout from './layout.js';

export type WasmKernelsErrorCode =
  'no-simd' | 'not-wasm-memory' | 'module-missing' | 'module-invalid' | 'layout-mismatch';

/** A WebAssembly.Memory, typed by what the kernels need. */
export interface WasmMemory {
  readonly buffer: ArrayBuffer | SharedArrayBuffer;
}

interface WasmApi {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: object) => { readonly exports: Record<string, unknown> };
  Memory: abstract new (...args: never[]) => WasmMemory;
}

const wasmApi = (): WasmApi | undefined => (globalThis as { WebAssembly?: WasmApi }).WebAssembly;

/** The layout constants the module was compiled with, against layout.ts. */
const LAYOUT_EXPORTS: readonly (readonly [string, number])[] = [
  ['FT_BIAS', layout.FT_BIAS],
  ['FT_WEIGHTS', layout.FT_WEIGHTS],
  ['FT_PSQT', layout.FT_PSQT],
  ['FC0_WEIGHTS', layout.FC0_WEIGHTS],
  ['FC1_BIAS', layout.FC1_BIAS],
  ['FC1_WEIGHTS', layout.FC1_WEIGHTS],
  ['FC2_BIAS', layout.FC2_BIAS],
  ['FC2_WEIGHTS', layout.FC2_WEIGHTS],
  ['STACK_BYTES', layout.STACK_BYTES],
  ['STACKS', layout.STACKS],
  ['WEIGHTS_END', layout.WEIGHTS_END],
  ['ACC_PSQT', layout.ACC_PSQT],
];

/** The compiled modules (ordinary and shared memory), kept for later instances. */
const compiled = new Map<boolean, object>();

/**
 * The WebAssembly SIMD kernels on `memory` (a WebAssembly.Memory, ordinary or
 * shared), or why they cannot run here (no SIMD support, not a WebAssembly
 * memory, the module missing, invalid or stale). `bytes` defaults to the module
 * file (readKernelModule, src/platform/) that fits the memory.
 */
export function createWasmKernels(memory: WasmMemory, bytes?: Uint8Array): Result<NnueKernels, WasmKernelsErrorCode> {
  const api = wasmApi();
  if (api === undefined || !wasmSimdSupported())
    return err('no-simd', 'this JavaScript engine has no WebAssembly SIMD');
  if (!(memory instanceof api.Memory)) return err('not-wasm-memory', 'the network memory is not a WebAssembly.Memory');
  const shared = typeof SharedArrayBuffer === 'function' && memory.buffer instanceof SharedArrayBuffer;
  let module = bytes === undefined ? compiled.get(shared) : undefined;
  if (module === undefined) {
    let source = bytes;
    if (source === undefined) {
      const read = readKernelModule(shared);
      if (!read.ok) return read;
      source = read.value;
    }
    try {
      module = new api.Module(source);
    } catch (e) {
      return err('module-invalid', `the NNUE kernel module does not compile: ${(e as Error).message}`);
    }
    if (bytes === undefined) compiled.set(shared, module);
  }
  let exports: Record<string, unknown>;
  try {
    exports = new api.Instance(module, { env: { memory } }).exports;
  } catch (e) {
    return err('module-invalid', `the NNUE kernel module does not instantiate: ${(e as Error).message}`);
  }
  const globalValue = (name: string): unknown => {
    const g = exports[name];
    return typeof g === 'object' && g !== null && 'value' in g ? g.value : undefined;
  };
  for (const [name, expected] of LAYOUT_EXPORTS) {
    const actual = globalValue(name);
    if (actual !== expected) {
      return err(
        'layout-mismatch',
        `the NNUE kernel module has ${name} = ${String(actual)}, layout.ts says ${expected}; rebuild it`,
      );
    }
  }
  const used = globalValue('SCRATCH_USED');
  if (typeof used !== 'number' || used > layout.SCRATCH_BYTES) {
    return err('layout-mismatch', 'the NNUE kernel module needs more scratch space than layout.ts gives');
  }
  const { refresh, update, propagate } = exports as unknown as Omit<NnueKernels, 'name'>;
  if (typeof refresh !== 'function' || typeof update !== 'function' || typeof propagate !== 'function') {
    return err('module-invalid', 'the NNUE kernel module lacks refresh/update/propagate');
  }
  return ok({ name: 'wasm-simd', refresh, update, propagate });
}
