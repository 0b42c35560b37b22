// The browser implementation of #platform/book-files (package.json "imports":
// the "browser" condition; on Node it is src/platform/node/book-files.ts). A page has no file system: the default
// book (kirin.book beside kirin.js, assets.ts) is fetched when kirin.js is
// imported; other books come as bytes (Engine.loadBookBytes), so a book *file*
// is never found.

import { err, type Result } from '../../core/result.js';
import type { BookFileCode } from '../seam.js';
import { fetchBytes } from './web.js';

let embeddedBook: Uint8Array | null = null;

/**
 * Fetches Kirin's default book from `url` (its line in assets.ts). Resolves
 * with null, or with why it failed: the engine then has no default book.
 */
export async function fetchEmbeddedBook(url: string): Promise<string | null> {
  try {
    embeddedBook = await fetchBytes(url);
    return null;
  } catch (e) {
    return `default opening book not loaded: ${(e as Error).message}`;
  }
}

/** The default book's bytes, once fetched (fetchEmbeddedBook), else null. */
export function readEmbeddedBook(): Uint8Array | null {
  return embeddedBook;
}

export function readBookFile(path: string): Result<Uint8Array, BookFileCode> {
  return err(
    'book-not-found',
    `book file '${path}' was not found (a browser has no files: load a book from bytes with Engine.loadBookBytes)`,
  );
}
