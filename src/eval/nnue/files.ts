// The files the NNUE code reads, on Node: the compiled kernel module next to this
// file and network files found as Pikafish finds them. The one Node-specific
// piece of the evaluation (the platform seam, docs/ARCHITECTURE.md): the browser
// build (tools/web/build.ts) replaces this module by src/browser/nnue-files.ts,
// which exports the same names.

import { existsSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { err, ok, type Result } from '../../core/result.js';

/** The compiled kernel module's bytes (kernels.wasm, or kernels-shared.wasm for a shared memory). */
export function readKernelModule(shared: boolean): Result<Uint8Array, 'module-missing'> {
  const url = new URL(shared ? './kernels-shared.wasm' : './kernels.wasm', import.meta.url);
  try {
    return ok(readFileSync(url));
  } catch (e) {
    return err('module-missing', `cannot read ${url.pathname} (${(e as Error).message}); run npm run build`);
  }
}

/**
 * The bytes of Kirin's embedded network (kirin.knet, copied next to the Kirin
 * network code by the build), or null when this build has none.
 */
export function readEmbeddedNetwork(): Uint8Array | null {
  try {
    return readFileSync(new URL('../kirinnet/kirin.knet', import.meta.url));
  } catch {
    return null;
  }
}

/**
 * Where Pikafish would look for `given`: the path as given (relative to the
 * working directory), then beside the program, then in the working directory
 * under its base name. Returns the candidates in order.
 */
export function candidatePaths(given: string, programDirs: readonly string[] = defaultProgramDirs()): string[] {
  const out: string[] = [resolve(given)];
  for (const d of programDirs) out.push(isAbsolute(given) ? join(d, basename(given)) : join(d, given));
  out.push(resolve(basename(given)));
  return [...new Set(out)];
}

/** The directories "beside the program": bin/ (where kirin.js lives) and the package root. */
export function defaultProgramDirs(): string[] {
  const here = dirname(fileURLToPath(import.meta.url)); // dist/src/eval/nnue
  const root = resolve(here, '..', '..', '..', '..');
  return [join(root, 'bin'), root];
}

/** What reading a network file found. */
export type NetworkFileRead =
  | { kind: 'read'; path: string; bytes: Uint8Array }
  | { kind: 'not-found'; tried: string[] }
  | { kind: 'too-large'; path: string; size: number }
  | { kind: 'unreadable'; path: string; message: string };

/** Finds `given` (candidatePaths) and reads it, refusing files over `maxBytes`. */
export function readNetworkFile(given: string, maxBytes: number, programDirs?: readonly string[]): NetworkFileRead {
  const tried = candidatePaths(given, programDirs);
  const path = tried.find((p) => existsSync(p) && statSync(p).isFile());
  if (!path) return { kind: 'not-found', tried };
  try {
    const size = statSync(path).size;
    if (size > maxBytes) return { kind: 'too-large', path, size };
    return { kind: 'read', path, bytes: readFileSync(path) };
  } catch (e) {
    return { kind: 'unreadable', path, message: (e as Error).message };
  }
}
