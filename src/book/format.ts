// The file format of Kirin's opening books (`.book`, docs/BOOK.md): positions
// keyed by a 64-bit Zobrist key of their board and side to move (key.ts), each
// with its book moves and what the games behind them said. Little-endian
// throughout:
//
//   0   8 bytes  magic "KIRNBOOK"
//   8   u32      format version (1)
//   12  u32      flags (bit 0: positions are stored in their mirror-canonical form)
//   16  u32      number of entries
//   20  u32      length of the description (bytes)
//   24  u32      CRC-32 of every byte after the 32-byte header
//   28  u32      0 (reserved)
//   32  the description: UTF-8 JSON (what the book was built from and how)
//   then the entries, 24 bytes each, sorted by key and then by move:
//       u64 key, u16 move (from * 90 + to; squares rank * 9 + file, a0 = 0),
//       u16 weight, u32 games, u32 wins, u32 draws (from the side to move)
//
// Platform-neutral: Node and the browser read the same bytes.

import { crc32 } from '../core/crc32.js';
import { err, ok, type Result } from '../core/result.js';

const BOOK_MAGIC = 'KIRNBOOK';
const BOOK_VERSION = 1;
export const BOOK_HEADER_BYTES = 32;
export const BOOK_ENTRY_BYTES = 24;
/** Flag: keys and moves are those of the position or its mirror image, whichever has the smaller key (key.ts). */
export const BOOK_FLAG_MIRROR = 1;

/** One book move of one position, as stored. */
export interface BookEntry {
  /** The position's key (key.ts bookKey), unsigned 64-bit. */
  key: bigint;
  /** from * 90 + to in Kirin's squares (rank * 9 + file). */
  move: number;
  /** The builder's weight, 0..65535 (0: known but never chosen). */
  weight: number;
  games: number;
  wins: number;
  draws: number;
}

/** What a book file says about itself (the description's JSON). */
export type BookDescription = Record<string, unknown>;

export type BookLoadCode =
  | 'book-magic'
  | 'book-version'
  | 'book-truncated'
  | 'book-size'
  | 'book-checksum'
  | 'book-description'
  | 'book-order'
  | 'book-entry';

/** Writes a book file: entries are sorted here (key, then move), so equal input gives equal bytes. */
export function encodeBook(
  entries: readonly BookEntry[],
  description: BookDescription,
  flags = BOOK_FLAG_MIRROR,
): Uint8Array {
  const sorted = [...entries].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : a.move - b.move));
  const meta = new TextEncoder().encode(JSON.stringify(description));
  const bytes = new Uint8Array(BOOK_HEADER_BYTES + meta.length + BOOK_ENTRY_BYTES * sorted.length);
  const v = new DataView(bytes.buffer);
  for (let i = 0; i < 8; i++) bytes[i] = BOOK_MAGIC.charCodeAt(i);
  v.setUint32(8, BOOK_VERSION, true);
  v.setUint32(12, flags, true);
  v.setUint32(16, sorted.length, true);
  v.setUint32(20, meta.length, true);
  bytes.set(meta, BOOK_HEADER_BYTES);
  let at = BOOK_HEADER_BYTES + meta.length;
  for (const e of sorted) {
    v.setBigUint64(at, e.key, true);
    v.setUint16(at + 8, e.move, true);
    v.setUint16(at + 10, Math.min(65535, e.weight), true);
    v.setUint32(at + 12, e.games, true);
    v.setUint32(at + 16, e.wins, true);
    v.setUint32(at + 20, e.draws, true);
    at += BOOK_ENTRY_BYTES;
  }
  v.setUint32(24, crc32(bytes.subarray(BOOK_HEADER_BYTES)), true);
  return bytes;
}

/** A checked book file: its header and where its entries are. */
export interface BookFile {
  readonly flags: number;
  readonly count: number;
  readonly description: BookDescription;
  /** The file's bytes; entry i starts at entriesAt + 24 * i. */
  readonly bytes: Uint8Array;
  readonly entriesAt: number;
}

/**
 * Checks a book file's bytes: magic, version, size, checksum, description and
 * the order of the keys. Errors start with `name` and give the byte offset of
 * what is wrong.
 */
export function decodeBook(bytes: Uint8Array, name: string): Result<BookFile, BookLoadCode> {
  const fail = (code: BookLoadCode, offset: number, why: string) =>
    err(code, `${name}: damaged opening book at byte ${offset}: ${why}`);
  for (let i = 0; i < 8; i++)
    if (bytes[i] !== BOOK_MAGIC.charCodeAt(i)) {
      if (i >= bytes.length)
        return fail('book-truncated', bytes.length, `the file ends inside the header (${bytes.length} bytes)`);
      return fail('book-magic', i, `not a Kirin opening book (no ${BOOK_MAGIC} magic)`);
    }
  if (bytes.length < BOOK_HEADER_BYTES)
    return fail('book-truncated', bytes.length, `the file ends inside the ${BOOK_HEADER_BYTES}-byte header`);
  const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const version = v.getUint32(8, true);
  if (version !== BOOK_VERSION)
    return fail('book-version', 8, `format version ${version}; this engine reads version ${BOOK_VERSION}`);
  const flags = v.getUint32(12, true);
  const count = v.getUint32(16, true);
  const metaLength = v.getUint32(20, true);
  const expected = BOOK_HEADER_BYTES + metaLength + BOOK_ENTRY_BYTES * count;
  if (bytes.length < expected)
    return fail(
      'book-truncated',
      bytes.length,
      `the file ends after ${bytes.length} bytes; its header promises ${count} entries and ${expected} bytes`,
    );
  if (bytes.length > expected)
    return fail('book-size', expected, `${bytes.length - expected} bytes after the last of its ${count} entries`);
  const stored = v.getUint32(24, true);
  const actual = crc32(bytes.subarray(BOOK_HEADER_BYTES));
  if (stored !== actual)
    return fail(
      'book-checksum',
      24,
      `checksum ${actual.toString(16).padStart(8, '0')} does not match the stored ${stored.toString(16).padStart(8, '0')}`,
    );
  let description: BookDescription;
  try {
    const parsed: unknown = JSON.parse(
      new TextDecoder().decode(bytes.subarray(BOOK_HEADER_BYTES, BOOK_HEADER_BYTES + metaLength)),
    );
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error('not a JSON object');
    description = parsed as BookDescription;
  } catch (e) {
    return fail(
      'book-description',
      BOOK_HEADER_BYTES,
      `the description is not a JSON object (${(e as Error).message})`,
    );
  }
  const entriesAt = BOOK_HEADER_BYTES + metaLength;
  let prevKey = -1n;
  let prevMove = -1;
  for (let i = 0; i < count; i++) {
    const at = entriesAt + BOOK_ENTRY_BYTES * i;
    const key = v.getBigUint64(at, true);
    const move = v.getUint16(at + 8, true);
    if (key < prevKey || (key === prevKey && move <= prevMove))
      return fail('book-order', at, `entry ${i} is out of order (entries are sorted by key, then move)`);
    const games = v.getUint32(at + 12, true);
    if (v.getUint32(at + 16, true) + v.getUint32(at + 20, true) > games)
      return fail('book-entry', at + 16, `entry ${i} has more wins and draws than games`);
    prevKey = key;
    prevMove = move;
  }
  return ok({ flags, count, description, bytes, entriesAt });
}

/** Entry i of a checked book file. */
export function bookEntry(file: BookFile, i: number): BookEntry {
  const v = new DataView(file.bytes.buffer, file.bytes.byteOffset, file.bytes.byteLength);
  const at = file.entriesAt + BOOK_ENTRY_BYTES * i;
  return {
    key: v.getBigUint64(at, true),
    move: v.getUint16(at + 8, true),
    weight: v.getUint16(at + 10, true),
    games: v.getUint32(at + 12, true),
    wins: v.getUint32(at + 16, true),
    draws: v.getUint32(at + 20, true),
  };
}

/** The first entry whose key is `key` (binary search), or -1. */
export function findKey(file: BookFile, key: bigint): number {
  const v = new DataView(file.bytes.buffer, file.bytes.byteOffset, file.bytes.byteLength);
  let lo = 0;
  let hi = file.count;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (v.getBigUint64(file.entriesAt + BOOK_ENTRY_BYTES * mid, true) < key) lo = mid + 1;
    else hi = mid;
  }
  return lo < file.count && v.getBigUint64(file.entriesAt + BOOK_ENTRY_BYTES * lo, true) === key ? lo : -1;
}
