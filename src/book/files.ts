// The files the opening book code reads, on Node: the default book shipped
// beside this module (kirin.book, put there by the build) and book files named
// by the BookFile option. The platform seam (docs/ARCHITECTURE.md): the browser
// build replaces this module by src/browser/book-files.ts, which exports the
// same names.

import { readFileSync, statSync } from 'node:fs';
import { err, ok, type Result } from '../core/result.js';

/** Why a book file could not be read. */
export type BookFileCode = 'book-not-found' | 'book-unreadable';

/** Book files larger than this are refused unread (the default book is well under 1 MB). */
const MAX_BOOK_BYTES = 256 << 20;

/** The bytes of Kirin's default book (kirin.book beside this module), or null when this build has none. */
export function readEmbeddedBook(): Uint8Array | null {
  try {
    return readFileSync(new URL('./kirin.book', import.meta.url));
  } catch {
    return null;
  }
}

/** A book file's bytes; the error names the file and what went wrong. */
export function readBookFile(path: string): Result<Uint8Array, BookFileCode> {
  let size: number;
  try {
    const st = statSync(path);
    if (!st.isFile()) return err('book-not-found', `book file '${path}' is not a file`);
    size = st.size;
  } catch {
    return err('book-not-found', `book file '${path}' was not found`);
  }
  if (size > MAX_BOOK_BYTES)
    return err('book-unreadable', `book file '${path}' is ${size} bytes, more than a book may be (${MAX_BOOK_BYTES})`);
  try {
    return ok(readFileSync(path));
  } catch (e) {
    return err('book-unreadable', `book file '${path}' could not be read (${(e as Error).message})`);
  }
}
