// The part of the WebAssembly JavaScript API that `kirin train` uses, typed here
// (the project compiles without the DOM library, which declares it).

/** A shared WebAssembly.Memory. */
export interface WasmMemory {
  readonly buffer: SharedArrayBuffer;
}

export type WasmModule = object;

interface WasmApi {
  Memory: new (descriptor: { initial: number; maximum: number; shared: true }) => WasmMemory;
  Module: new (bytes: Uint8Array) => WasmModule;
  Instance: new (module: WasmModule, imports: object) => { readonly exports: Record<string, unknown> };
}

export const wasmApi = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;
