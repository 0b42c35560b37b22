// `compiler`: what this build runs on (Pikafish prints its compiler and
// instruction sets; for Kirin that is the JavaScript runtime and WebAssembly).

import { ENGINE_NAME, engineVersion } from '../engine/version.js';

/** A minimal module using a v128 instruction: valid only where WebAssembly SIMD exists. */
const SIMD_PROBE = new Uint8Array([
  0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2, 1, 0, 10, 10, 1, 8, 0, 65, 0, 253, 15, 253, 98, 11,
]);

interface WasmApi {
  validate(bytes: Uint8Array): boolean;
}
const wasm = (globalThis as { WebAssembly?: WasmApi }).WebAssembly;

function wasmSimdAvailable(): boolean {
  try {
    return wasm !== undefined && wasm.validate(SIMD_PROBE);
  } catch {
    return false;
  }
}

/** The `compiler` lines; `evaluation` is the evaluation that plays now (Engine.evaluationName). */
export function compilerInfo(evaluation: string): string {
  const v = process.versions;
  return [
    '',
    `${ENGINE_NAME} ${engineVersion()}`,
    `Runtime                    : Node.js ${process.version} (V8 ${v.v8})`,
    `Platform                   : ${process.platform} ${process.arch}`,
    `Compiled by                : TypeScript to ES2022 modules`,
    `WebAssembly                : ${wasm !== undefined ? 'available' : 'not available'}`,
    `WebAssembly SIMD           : ${wasmSimdAvailable() ? 'available' : 'not available'}`,
    `SharedArrayBuffer/Atomics  : ${typeof SharedArrayBuffer === 'function' && typeof Atomics === 'object' ? 'available' : 'not available'}`,
    `Evaluation                 : ${evaluation}`,
    '',
  ].join('\n');
}
