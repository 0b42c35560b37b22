// The browser implementation of #platform/files (package.json "imports": the
// "browser" condition; on Node it is src/platform/node/files.ts). A page has no file system: the kernel
// module is fetched from its URL (assets.ts) by the search worker
// (thread-host.ts) and by kirin.js itself, and handed over with
// provideKernelModule(); networks come as bytes (Engine.loadNetworkBytes, e.g.
// from a URL or a file picker), so a network *file* is never found.

import { err, ok, type Result } from '../../core/result.js';
import type { NetworkFileCode, OpenedNetworkFile } from '../seam.js';
import { fetchBytes } from './web.js';

const modules = new Map<boolean, Uint8Array>();

/** Gives the kernel module's bytes (kernels.wasm, or kernels-shared.wasm when `shared`). */
export function provideKernelModule(shared: boolean, bytes: Uint8Array): void {
  modules.set(shared, bytes);
}

/** Where the two kernel modules are (URLs; src/platform/browser/assets.ts). */
export interface KernelUrls {
  kernels: string;
  kernelsShared: string;
}

/**
 * Fetches the kernel module that fits this context's network memory (a shared
 * WebAssembly.Memory where SharedArrayBuffer exists: kernelsShared, else
 * kernels). Resolves with null, or with why it was not fetched or failed: the
 * portable kernels then play (same numbers, slower). Callers fetch nothing
 * where WebAssembly SIMD is missing (wasmSimdSupported).
 */
export async function fetchKernelModule(urls: KernelUrls): Promise<string | null> {
  const shared = typeof SharedArrayBuffer === 'function';
  try {
    provideKernelModule(shared, await fetchBytes(shared ? urls.kernelsShared : urls.kernels));
    return null;
  } catch (e) {
    return `NNUE kernels not loaded: ${(e as Error).message}`;
  }
}

export function readKernelModule(shared: boolean): Result<Uint8Array, 'module-missing'> {
  const bytes = modules.get(shared);
  if (bytes) return ok(bytes);
  return err(
    'module-missing',
    `the ${shared ? 'shared-memory ' : ''}NNUE kernel module was not fetched here (the portable kernels run)`,
  );
}

let zstdModuleUrl: string | null = null;

/**
 * Says where the WebAssembly zstd decoder's module is (kirin.js gives its
 * zstd.wasm from assets.ts when it is imported; the search thread, which looks
 * nothing up relative to itself, never unpacks a network).
 */
export function provideZstdModuleUrl(url: string): void {
  zstdModuleUrl = url;
}

/** The WebAssembly zstd decoder's module, fetched from where provideZstdModuleUrl said. */
export function loadZstdModule(): Promise<Uint8Array> {
  if (zstdModuleUrl === null) return Promise.reject(new Error('the zstd decoder module has no URL here'));
  return fetchBytes(zstdModuleUrl);
}

let embeddedNetwork: Uint8Array | null = null;

/**
 * Fetches Kirin's embedded network (kirin.knet) from `url` (its line in
 * assets.ts, once the build has the file). Resolves with null, or with why it
 * failed: the classical evaluation then plays unless a network is loaded.
 */
export async function fetchEmbeddedNetwork(url: string): Promise<string | null> {
  try {
    embeddedNetwork = await fetchBytes(url);
    return null;
  } catch (e) {
    return `embedded network not loaded: ${(e as Error).message}`;
  }
}

/** The embedded network's bytes, once fetched (fetchEmbeddedNetwork), else null. */
export function readEmbeddedNetwork(): Uint8Array | null {
  return embeddedNetwork;
}

export function candidatePaths(given: string): string[] {
  return [given];
}

export function openNetworkFile(
  given: string,
  _maxBytes: number,
  _programDirs?: readonly string[],
): Result<OpenedNetworkFile, NetworkFileCode> {
  return err(
    'not-found',
    `network file '${given}' was not found (a browser has no files: load a network from a URL or a file)`,
  );
}
