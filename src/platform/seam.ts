// The platform seam's shared shapes (docs/ARCHITECTURE.md, "The platform
// seam"): the types that a Node module of src/platform/node/ and its browser
// twin in src/platform/browser/ both give or take. The product imports a
// module's values by its `#platform/NAME` name (package.json "imports": the
// Node module, or its twin under the "browser" condition) and these types from
// here, so that the types are the same whichever twin a build picks, and the
// published declarations name no `#platform/` module.

import type { Result } from '../core/result.js';

/** The engine's end of a search thread (a subset of Node's Worker) that is sent `In` and sends `Out` (#platform/search-thread). */
export interface SearchThread<In, Out> {
  postMessage(message: In): void;
  on(event: 'message', listener: (message: Out) => void): unknown;
  on(event: 'error', listener: (error: Error) => void): unknown;
  on(event: 'exit', listener: (code: number) => void): unknown;
  /** Keep the process alive while the thread works (a no-op where there is no process). */
  ref(): void;
  unref(): void;
  terminate(): Promise<unknown>;
}

/** The search thread's end of its channel to the engine (#platform/thread-host). */
export interface HostPort {
  postMessage(message: unknown): void;
  on(event: 'message', listener: (message: never) => void): unknown;
}

/**
 * A network file found and checked, not read yet (#platform/files): where it
 * is, its size and first bytes; then read whole, or piece by piece (a large
 * network read in pieces never needs a buffer of its size: the first touch of
 * fresh memory is most of a load's time on some machines).
 */
export interface OpenedNetworkFile {
  readonly path: string;
  readonly size: number;
  /** The first bytes (64 on Node: HEAD_BYTES in node/files.ts; the whole file when it is shorter). */
  readonly head: Uint8Array;
  /** The whole file. */
  readAll(): Result<Uint8Array, NetworkFileCode>;
  /**
   * The file in order, in pieces of at most 1 MB read into one reused buffer:
   * a piece is valid until the next is asked for. Throws when the file cannot
   * be read any more (the caller then reads it whole, which words the error).
   */
  pieces(): Generator<Uint8Array>;
}

/** Why a network file could not be read (#platform/files). */
export type NetworkFileCode = 'not-found' | 'too-large' | 'unreadable';

/** Why a book file could not be read (#platform/book-files). */
export type BookFileCode = 'book-not-found' | 'book-unreadable';
