// The files the opening book code reads, on Node: the default book, which the
// build puts in dist/browser/ (kirin.book, assembly/build.js: shipped once,
// beside kirin.js), and book files named by the BookFile option. The platform
// seam (docs/ARCHITECTURE.md): the product imports it as #platform/book-files,
// which the browser build resolves to its twin src/platform/browser/book-files.ts.

import { readFileSync, statSync } from 'node:fs';
import { err, ok, type Result } from '../../core/result.js';
import type { BookFileCode } from '../seam.js';

/** Book files larger than this are refused unread (the default book is well under 1 MB). */
const MAX_BOOK_BYTES = 256 << 20;

/** The bytes of Kirin's default book (kirin.book in dist/browser/), or null when this build has none. */
export function readEmbeddedBook(): Uint8Array | null {
  try {
    return readFileSync(new URL('../../../browser/kirin.book', import.meta.url));
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
