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
function defaultProgramDirs(): string[] {
  const here = dirname(fileURLToPath(import.meta.url)); // dist/src/eval/nnue
  const root = resolve(here, '..', '..', '..', '..');
  return [join(root, 'bin'), root];
}

/** A network file as read: where it was found and its bytes. */
export interface NetworkFile {
  readonly path: string;
  readonly bytes: Uint8Array;
}

/** Why a network file could not be read. */
export type NetworkFileCode = 'not-found' | 'too-large' | 'unreadable';

/**
 * Finds `given` (candidatePaths) and reads it, refusing files over `maxBytes`.
 * The error's message starts "network file '<name>'" and says what happened.
 */
export function readNetworkFile(
  given: string,
  maxBytes: number,
  programDirs?: readonly string[],
): Result<NetworkFile, NetworkFileCode> {
  const tried = candidatePaths(given, programDirs);
  const path = tried.find((p) => existsSync(p) && statSync(p).isFile());
  if (!path) return err('not-found', `network file '${given}' was not found (looked for ${tried.join(', ')})`);
  try {
    const size = statSync(path).size;
    if (size > maxBytes)
      return err('too-large', `network file '${path}' is ${size} bytes, more than any network (${maxBytes})`);
    return ok({ path, bytes: readFileSync(path) });
  } catch (e) {
    return err('unreadable', `network file '${path}' could not be read (${(e as Error).message})`);
  }
}
