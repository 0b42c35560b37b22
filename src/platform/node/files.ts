// The files the evaluation reads, on Node: the compiled kernel modules, the
// zstd decoder and the embedded network, which the build puts in dist/browser/
// (assembly/build.js: the package ships each once, there, beside the browser
// build's kirin.js), and network files found as Pikafish finds them. The one Node-specific
// piece of the evaluation (the platform seam, docs/ARCHITECTURE.md): the product
// imports it as #platform/files, which the browser build resolves to its twin
// src/platform/browser/files.ts (package.json "imports").

import { closeSync, existsSync, openSync, readFileSync, readSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { err, ok, type Result } from '../../core/result.js';
import type { NetworkFileCode, OpenedNetworkFile } from '../seam.js';

/** The compiled kernel module's bytes (kernels.wasm, or kernels-shared.wasm for a shared memory). */
export function readKernelModule(shared: boolean): Result<Uint8Array, 'module-missing'> {
  const url = new URL(
    shared ? '../../../browser/kernels-shared.wasm' : '../../../browser/kernels.wasm',
    import.meta.url,
  );
  try {
    return ok(readFileSync(url));
  } catch (e) {
    return err('module-missing', `cannot read ${url.pathname} (${(e as Error).message}); run npm run build`);
  }
}

/** The WebAssembly zstd decoder's module (zstd.wasm, in dist/browser/; src/eval/nnue/zstd-wasm.ts drives it). */
export async function loadZstdModule(): Promise<Uint8Array> {
  return readFile(new URL('../../../browser/zstd.wasm', import.meta.url));
}

/**
 * The bytes of Kirin's embedded network (kirin.knet, copied into dist/browser/
 * by the build), or null when this build has none.
 */
export function readEmbeddedNetwork(): Uint8Array | null {
  try {
    return readFileSync(new URL('../../../browser/kirin.knet', import.meta.url));
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
  const here = dirname(fileURLToPath(import.meta.url)); // dist/src/platform/node
  const root = resolve(here, '..', '..', '..', '..');
  return [join(root, 'bin'), root];
}

/** Bytes read ahead from a network file to tell its format (KIRINNET magic, zstd frame header, Pikafish header). */
const HEAD_BYTES = 64;
/** The pieces a network file is read in (one buffer, reused). */
const PIECE_BYTES = 1 << 20;

/**
 * Finds `given` (candidatePaths), refusing files over `maxBytes`, and reads its
 * first bytes. The error's message starts "network file '<name>'" and says
 * what happened.
 */
export function openNetworkFile(
  given: string,
  maxBytes: number,
  programDirs?: readonly string[],
): Result<OpenedNetworkFile, NetworkFileCode> {
  const tried = candidatePaths(given, programDirs);
  const path = tried.find((p) => existsSync(p) && statSync(p).isFile());
  if (!path) return err('not-found', `network file '${given}' was not found (looked for ${tried.join(', ')})`);
  const unreadable = (e: unknown) =>
    err('unreadable', `network file '${path}' could not be read (${(e as Error).message})`);
  let size: number;
  let head: Uint8Array;
  try {
    size = statSync(path).size;
    if (size > maxBytes)
      return err('too-large', `network file '${path}' is ${size} bytes, more than any network (${maxBytes})`);
    const fd = openSync(path, 'r');
    try {
      const buf = new Uint8Array(Math.min(size, HEAD_BYTES));
      head = buf.subarray(0, readSync(fd, buf, 0, buf.length, 0));
    } finally {
      closeSync(fd);
    }
  } catch (e) {
    return unreadable(e);
  }
  return ok({
    path,
    size,
    head,
    readAll() {
      try {
        return ok(readFileSync(path));
      } catch (e) {
        return unreadable(e);
      }
    },
    *pieces() {
      const fd = openSync(path, 'r');
      try {
        const buf = new Uint8Array(Math.min(PIECE_BYTES, Math.max(1, size)));
        for (;;) {
          const n = readSync(fd, buf, 0, buf.length, null);
          if (n <= 0) return;
          yield buf.subarray(0, n);
        }
      } finally {
        closeSync(fd);
      }
    },
  });
}
