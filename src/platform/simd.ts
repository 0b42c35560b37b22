// Whether this JavaScript engine runs WebAssembly with 128-bit SIMD: the
// evaluation's kernels (src/eval/nnue/kernels-wasm.ts) and the browser twins
// (which fetch the kernels only where they can run) ask the same probe.

/**
 * The smallest module using a 128-bit SIMD instruction (i8x16.splat, i8x16.popcnt):
 * it validates exactly when the engine supports WebAssembly SIMD.
 */
const SIMD_PROBE = new Uint8Array([
  0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00, 0x01, 0x05, 0x01, 0x60, 0x00, 0x01, 0x7b, 0x03, 0x02, 0x01, 0x00,
  0x0a, 0x0a, 0x01, 0x08, 0x00, 0x41, 0x00, 0xfd, 0x0f, 0xfd, 0x62, 0x0b,
]);

/** Whether this JavaScript engine runs WebAssembly with 128-bit SIMD. */
export function wasmSimdSupported(): boolean {
  try {
    const api = (globalThis as { WebAssembly?: { validate(bytes: Uint8Array): boolean } }).WebAssembly;
    return api?.validate(SIMD_PROBE) === true;
  } catch {
    return false;
  }
}
