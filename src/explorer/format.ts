// The file format of Kirin's opening explorer (`.explorer`, docs/EXPLORER.md):
// for each position reached often enough in a collection of games, how many
// games reached it and how they ended, each move played there often enough
// with its games and results, and a few notable games that reached it (players,
// event, year, result and moves, so that a page can open one). Little-endian;
// numbers in the body are unsigned LEB128 varints (7 bits a byte, low first):
//
//   0   8 bytes  magic "KIRNEXPL"
//   8   u32      format version (1)
//   12  u32      flags (0)
//   16  u32      positions
//   20  u32      move entries (all positions together)
//   24  u32      games (notable games kept)
//   28  u32      strings
//   32  u32      length of the description (bytes)
//   36  u32      length of the body after the description (bytes)
//   40  u32      CRC-32 of every byte after the 48-byte header
//   44  u32      0 (reserved)
//   48  the description: UTF-8 JSON (what it was built from and how)
//   then the body:
//     the index: per position, sorted by key, u32 key high half, u32 key low
//       half, u32 offset of its record in the records
//     the records' length (u32), then the records: per position varint games,
//       red wins, draws, number of moves; per move varint move (from * 90 +
//       to, squares rank * 9 + file), games, red wins, draws (moves by games,
//       most first); varint number of notable games, each a varint game number
//     the strings: per string a varint length and its UTF-8 bytes
//     the games' offsets (u32 each, into the games' bytes), the games' length
//       (u32), then per game: varint Red, Black, Event (string number + 1, 0
//       for none), varint year (0 unknown), u8 result (0 *, 1 1-0, 2 0-1,
//       3 1/2-1/2), varint start (string number + 1 of its FEN, 0 for the
//       standard start), varint plies, varint length of the moves (bytes), then
//       the moves as a bit stream (low bit of each byte first): per ply the
//       move's place among the legal moves of the position sorted by from and
//       to squares, in as many bits as that number of moves needs (ceil(log2
//       n): 6 bits for 33 to 64 legal moves, none for a forced move)
//
// Keys are the opening book's Zobrist keys (src/book/key.ts) of the exact
// position (not mirror-canonical: an explorer shows the moves as played).
// Platform-neutral: Node and the browser read the same bytes.

import { crc32 } from '../book/format.js';
import { err, ok, type Result } from '../core/result.js';

const EXPLORER_MAGIC = 'KIRNEXPL';
const EXPLORER_VERSION = 1;
const EXPLORER_HEADER_BYTES = 48;
const INDEX_BYTES = 12;

export type ExplorerLoadCode =
  | 'explorer-magic'
  | 'explorer-version'
  | 'explorer-truncated'
  | 'explorer-size'
  | 'explorer-checksum'
  | 'explorer-description'
  | 'explorer-order'
  | 'explorer-entry';

/** A move of a position as counted: its code (from * 90 + to) and the games that played it. */
interface ExplorerTally {
  readonly games: number;
  readonly redWins: number;
  readonly draws: number;
}

/** One position of the file, as the builder gives it to the writer. */
export interface ExplorerRecord extends ExplorerTally {
  /** The position's key (src/book/key.ts, not mirrored), unsigned 64-bit. */
  readonly key: bigint;
  /** Its moves (code, tally), in the order they are stored (most games first). */
  readonly moves: readonly (ExplorerTally & { readonly code: number })[];
  /** Numbers of its notable games (into `games`). */
  readonly notable: readonly number[];
}

/** A game kept in the file (a notable game of some position). */
export interface ExplorerGameRecord {
  readonly red: number;
  readonly black: number;
  readonly event: number;
  readonly year: number;
  readonly result: number;
  /** String number + 1 of the start FEN; 0 for the standard start. */
  readonly start: number;
  /** Plies. */
  readonly plies: number;
  /** Each ply's place among the legal moves sorted by from and to, packed (packPlies). */
  readonly moves: Uint8Array;
}

/** The bits a ply's place takes when the position has `n` legal moves: ceil(log2 n). */
export function plyBits(n: number): number {
  let bits = 0;
  while (1 << bits < n) bits++;
  return bits;
}

/** Packs plies' places into a bit stream, each in `widths[i]` bits (low bits first). */
export function packPlies(places: readonly number[], widths: readonly number[]): Uint8Array {
  const total = widths.reduce((a, b) => a + b, 0);
  const out = new Uint8Array(Math.ceil(total / 8));
  let bit = 0;
  places.forEach((v, i) => {
    for (let k = 0; k < widths[i]; k++, bit++) if ((v >> k) & 1) out[bit >> 3] |= 1 << (bit & 7);
  });
  return out;
}

/** Reads packed plies one by one: `next(width)` gives the next place. */
export class PlyReader {
  private bit = 0;
  constructor(private readonly bytes: Uint8Array) {}
  /** The next place, `width` bits wide; null past the end. */
  next(width: number): number | null {
    if (this.bit + width > this.bytes.length * 8) return null;
    let v = 0;
    for (let k = 0; k < width; k++, this.bit++) if ((this.bytes[this.bit >> 3] >> (this.bit & 7)) & 1) v |= 1 << k;
    return v;
  }
}

/** Growable bytes with varint writing. */
class Writer {
  bytes = new Uint8Array(1 << 16);
  length = 0;
  private room(n: number): void {
    if (this.length + n <= this.bytes.length) return;
    const grown = new Uint8Array(Math.max(this.bytes.length * 2, this.length + n));
    grown.set(this.bytes.subarray(0, this.length));
    this.bytes = grown;
  }
  byte(b: number): void {
    this.room(1);
    this.bytes[this.length++] = b;
  }
  varint(n: number): void {
    let v = n;
    while (v >= 0x80) {
      this.byte((v & 0x7f) | 0x80);
      v = Math.floor(v / 128);
    }
    this.byte(v);
  }
  u32(n: number): void {
    this.room(4);
    new DataView(this.bytes.buffer).setUint32(this.length, n >>> 0, true);
    this.length += 4;
  }
  raw(b: Uint8Array): void {
    this.room(b.length);
    this.bytes.set(b, this.length);
    this.length += b.length;
  }
  done(): Uint8Array {
    return this.bytes.slice(0, this.length);
  }
}

/** Writes an explorer file; `records` are sorted here by key, so equal input gives equal bytes. */
export function encodeExplorer(
  records: readonly ExplorerRecord[],
  games: readonly ExplorerGameRecord[],
  strings: readonly string[],
  description: Record<string, unknown>,
): Uint8Array {
  const sorted = [...records].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  const recordBytes = new Writer();
  const offsets: number[] = [];
  let moveCount = 0;
  for (const r of sorted) {
    offsets.push(recordBytes.length);
    for (const n of [r.games, r.redWins, r.draws, r.moves.length]) recordBytes.varint(n);
    for (const m of r.moves) for (const n of [m.code, m.games, m.redWins, m.draws]) recordBytes.varint(n);
    moveCount += r.moves.length;
    recordBytes.varint(r.notable.length);
    for (const g of r.notable) recordBytes.varint(g);
  }
  const body = new Writer();
  for (let i = 0; i < sorted.length; i++) {
    body.u32(Number(sorted[i].key >> 32n));
    body.u32(Number(sorted[i].key & 0xffffffffn));
    body.u32(offsets[i]);
  }
  body.u32(recordBytes.length);
  body.raw(recordBytes.done());
  const utf8 = new TextEncoder();
  for (const s of strings) {
    const b = utf8.encode(s);
    body.varint(b.length);
    body.raw(b);
  }
  const gameBytes = new Writer();
  const gameOffsets: number[] = [];
  for (const g of games) {
    gameOffsets.push(gameBytes.length);
    for (const n of [g.red, g.black, g.event, g.year]) gameBytes.varint(n);
    gameBytes.byte(g.result);
    gameBytes.varint(g.start);
    gameBytes.varint(g.plies);
    gameBytes.varint(g.moves.length);
    gameBytes.raw(g.moves);
  }
  for (const o of gameOffsets) body.u32(o);
  body.u32(gameBytes.length);
  body.raw(gameBytes.done());

  const meta = utf8.encode(JSON.stringify(description));
  const bodyBytes = body.done();
  const bytes = new Uint8Array(EXPLORER_HEADER_BYTES + meta.length + bodyBytes.length);
  const v = new DataView(bytes.buffer);
  for (let i = 0; i < 8; i++) bytes[i] = EXPLORER_MAGIC.charCodeAt(i);
  v.setUint32(8, EXPLORER_VERSION, true);
  v.setUint32(12, 0, true);
  v.setUint32(16, sorted.length, true);
  v.setUint32(20, moveCount, true);
  v.setUint32(24, games.length, true);
  v.setUint32(28, strings.length, true);
  v.setUint32(32, meta.length, true);
  v.setUint32(36, bodyBytes.length, true);
  bytes.set(meta, EXPLORER_HEADER_BYTES);
  bytes.set(bodyBytes, EXPLORER_HEADER_BYTES + meta.length);
  v.setUint32(40, crc32(bytes, EXPLORER_HEADER_BYTES), true);
  return bytes;
}

/** A checked explorer file: its counts, description and where its sections are. */
export interface ExplorerFile {
  readonly positions: number;
  readonly moves: number;
  readonly games: number;
  readonly description: Record<string, unknown>;
  readonly strings: readonly string[];
  readonly bytes: Uint8Array;
  readonly view: DataView;
  /** Where the index, the records, the game offsets and the games start. */
  readonly indexAt: number;
  readonly recordsAt: number;
  readonly recordsLength: number;
  readonly gameOffsetsAt: number;
  readonly gamesAt: number;
  readonly gamesLength: number;
}

/** Reads a varint at `at` within [at, end); null when it runs past the end. */
function readVarint(bytes: Uint8Array, at: number, end: number): { value: number; next: number } | null {
  let value = 0;
  let scale = 1;
  for (let i = at; i < end && i < at + 8; i++) {
    const b = bytes[i];
    value += (b & 0x7f) * scale;
    if (b < 0x80) return { value, next: i + 1 };
    scale *= 128;
  }
  return null;
}

/**
 * Checks an explorer file's bytes: magic, version, the sizes the header
 * promises, the checksum, the description, the strings, the order of the keys
 * and that every offset lies inside its section. Errors start with `name` and
 * give the byte offset of what is wrong.
 */
export function decodeExplorer(bytes: Uint8Array, name: string): Result<ExplorerFile, ExplorerLoadCode> {
  const fail = (code: ExplorerLoadCode, offset: number, why: string) =>
    err(code, `${name}: damaged explorer file at byte ${offset}: ${why}`);
  for (let i = 0; i < 8; i++)
    if (bytes[i] !== EXPLORER_MAGIC.charCodeAt(i)) {
      if (i >= bytes.length)
        return fail('explorer-truncated', bytes.length, `the file ends inside the header (${bytes.length} bytes)`);
      return fail('explorer-magic', i, `not a Kirin explorer file (no ${EXPLORER_MAGIC} magic)`);
    }
  if (bytes.length < EXPLORER_HEADER_BYTES)
    return fail('explorer-truncated', bytes.length, `the file ends inside the ${EXPLORER_HEADER_BYTES}-byte header`);
  const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const version = v.getUint32(8, true);
  if (version !== EXPLORER_VERSION)
    return fail('explorer-version', 8, `format version ${version}; this Kirin reads version ${EXPLORER_VERSION}`);
  const positions = v.getUint32(16, true);
  const moves = v.getUint32(20, true);
  const games = v.getUint32(24, true);
  const stringCount = v.getUint32(28, true);
  const metaLength = v.getUint32(32, true);
  const bodyLength = v.getUint32(36, true);
  const expected = EXPLORER_HEADER_BYTES + metaLength + bodyLength;
  if (bytes.length < expected)
    return fail(
      'explorer-truncated',
      bytes.length,
      `the file ends after ${bytes.length} bytes; its header promises ${expected}`,
    );
  if (bytes.length > expected)
    return fail('explorer-size', expected, `${bytes.length - expected} bytes after the end its header gives`);
  const stored = v.getUint32(40, true);
  const actual = crc32(bytes, EXPLORER_HEADER_BYTES);
  if (stored !== actual)
    return fail(
      'explorer-checksum',
      40,
      `checksum ${actual.toString(16).padStart(8, '0')} does not match the stored ${stored.toString(16).padStart(8, '0')}`,
    );
  let description: Record<string, unknown>;
  try {
    const parsed: unknown = JSON.parse(
      new TextDecoder().decode(bytes.subarray(EXPLORER_HEADER_BYTES, EXPLORER_HEADER_BYTES + metaLength)),
    );
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error('not a JSON object');
    description = parsed as Record<string, unknown>;
  } catch (e) {
    return fail(
      'explorer-description',
      EXPLORER_HEADER_BYTES,
      `the description is not a JSON object (${(e as Error).message})`,
    );
  }
  const end = expected;
  const indexAt = EXPLORER_HEADER_BYTES + metaLength;
  let at = indexAt + INDEX_BYTES * positions;
  if (at + 4 > end) return fail('explorer-truncated', end, `the index of ${positions} positions runs past the end`);
  const recordsLength = v.getUint32(at, true);
  const recordsAt = at + 4;
  at = recordsAt + recordsLength;
  if (at > end) return fail('explorer-truncated', recordsAt, `the records (${recordsLength} bytes) run past the end`);
  let prevHi = -1;
  let prevLo = -1;
  for (let i = 0; i < positions; i++) {
    const p = indexAt + INDEX_BYTES * i;
    const hi = v.getUint32(p, true);
    const lo = v.getUint32(p + 4, true);
    if (hi < prevHi || (hi === prevHi && lo <= prevLo))
      return fail('explorer-order', p, `position ${i} is out of order (positions are sorted by key)`);
    if (v.getUint32(p + 8, true) >= recordsLength)
      return fail('explorer-entry', p + 8, `position ${i}'s record lies outside the records`);
    prevHi = hi;
    prevLo = lo;
  }
  const strings: string[] = [];
  const utf8 = new TextDecoder();
  for (let i = 0; i < stringCount; i++) {
    const len = readVarint(bytes, at, end);
    if (len === null || len.next + len.value > end)
      return fail('explorer-truncated', at, `string ${i} runs past the end`);
    strings.push(utf8.decode(bytes.subarray(len.next, len.next + len.value)));
    at = len.next + len.value;
  }
  const gameOffsetsAt = at;
  at += 4 * games;
  if (at + 4 > end) return fail('explorer-truncated', gameOffsetsAt, `the offsets of ${games} games run past the end`);
  const gamesLength = v.getUint32(at, true);
  const gamesAt = at + 4;
  if (gamesAt + gamesLength !== end)
    return fail('explorer-size', gamesAt, `the games take ${gamesLength} bytes; ${end - gamesAt} are left`);
  for (let i = 0; i < games; i++)
    if (v.getUint32(gameOffsetsAt + 4 * i, true) >= gamesLength)
      return fail('explorer-entry', gameOffsetsAt + 4 * i, `game ${i} lies outside the games`);
  return ok({
    positions,
    moves,
    games,
    description,
    strings,
    bytes,
    view: v,
    indexAt,
    recordsAt,
    recordsLength,
    gameOffsetsAt,
    gamesAt,
    gamesLength,
  });
}

/** The index of the position with this key (binary search over the index), or -1. */
export function findPosition(file: ExplorerFile, key: bigint): number {
  const hi = Number(key >> 32n);
  const lo = Number(key & 0xffffffffn);
  let a = 0;
  let b = file.positions;
  while (a < b) {
    const mid = (a + b) >>> 1;
    const p = file.indexAt + INDEX_BYTES * mid;
    const h = file.view.getUint32(p, true);
    const l = file.view.getUint32(p + 4, true);
    if (h < hi || (h === hi && l < lo)) a = mid + 1;
    else b = mid;
  }
  if (a >= file.positions) return -1;
  const p = file.indexAt + INDEX_BYTES * a;
  return file.view.getUint32(p, true) === hi && file.view.getUint32(p + 4, true) === lo ? a : -1;
}

/** The record of position `i`, read (null when damaged: a varint past the records' end). */
export function readRecord(file: ExplorerFile, i: number): Omit<ExplorerRecord, 'key'> | null {
  const end = file.recordsAt + file.recordsLength;
  let at = file.recordsAt + file.view.getUint32(file.indexAt + INDEX_BYTES * i + 8, true);
  const next = (): number | null => {
    const r = readVarint(file.bytes, at, end);
    if (r === null) return null;
    at = r.next;
    return r.value;
  };
  const head = [next(), next(), next(), next()];
  if (head.some((x) => x === null)) return null;
  const [games, redWins, draws, count] = head as number[];
  const moves: (ExplorerTally & { code: number })[] = [];
  for (let k = 0; k < count; k++) {
    const m = [next(), next(), next(), next()];
    if (m.some((x) => x === null)) return null;
    moves.push({ code: m[0]!, games: m[1]!, redWins: m[2]!, draws: m[3]! });
  }
  const n = next();
  if (n === null) return null;
  const notable: number[] = [];
  for (let k = 0; k < n; k++) {
    const g = next();
    if (g === null || g >= file.games) return null;
    notable.push(g);
  }
  return { games, redWins, draws, moves, notable };
}

/** Game `i` of the file (null when damaged). */
export function readGameRecord(file: ExplorerFile, i: number): ExplorerGameRecord | null {
  const end = file.gamesAt + file.gamesLength;
  let at = file.gamesAt + file.view.getUint32(file.gameOffsetsAt + 4 * i, true);
  const next = (): number | null => {
    const r = readVarint(file.bytes, at, end);
    if (r === null) return null;
    at = r.next;
    return r.value;
  };
  const [red, black, event, year] = [next(), next(), next(), next()];
  if (red === null || black === null || event === null || year === null || at >= end) return null;
  const result = file.bytes[at++];
  const start = next();
  const plies = next();
  const length = next();
  if (start === null || plies === null || length === null || at + length > end) return null;
  return { red, black, event, year, result, start, plies, moves: file.bytes.subarray(at, at + length) };
}
