// Kirin training-data format version 1 (docs/DATAGEN.md): a 16-byte header,
// then fixed-size 56-byte records, little-endian. `kirin datagen` writes
// version 2 (game chains, commands/datagen/chain-codec.ts); `kirin tune`, `kirin train`
// (commands/train/data.ts) and the tools here read both, a chain file as its
// records (forEachRecord in commands/datagen/records.ts).

import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { err, ok, Position, type Result } from '../../src/dev.js';

const MAGIC = 'KIRINDG\0';
const VERSION = 1;
export const HEADER_SIZE = 16;
export const RECORD_SIZE = 56;

// Record layout (byte offsets).
export const OFF_SIDE = 45; // u8: 0 red to move, 1 black
export const OFF_SCORE = 46; // i16: search score, side to move, internal units (PAWN_VALUE = 144)
const OFF_EVAL = 48; // i16: static (classical) evaluation, side to move, internal units
export const OFF_RESULT = 50; // i8: game result for the side to move: 1 win, 0 draw, -1 loss
export const OFF_RULE60 = 51; // u8: plies since the last capture (the 60-move rule counter)
export const OFF_PLY = 52; // u16: game ply (0 = red's first move of the start position)
export const OFF_MOVE = 54; // u16: best move found by the search, from * 128 + to (0 = none)

/** One decoded record. */
export interface DataRecord {
  /** Piece codes per square (square = rank * 9 + file, rank 0 = red's back rank; code = color * 8 + type). */
  board: Uint8Array;
  side: number;
  score: number;
  eval: number;
  result: number;
  rule60: number;
  ply: number;
  move: number;
}

export function makeHeader(): Uint8Array {
  const h = new Uint8Array(HEADER_SIZE);
  for (let i = 0; i < 8; i++) h[i] = MAGIC.charCodeAt(i);
  const dv = new DataView(h.buffer);
  dv.setUint16(8, VERSION, true);
  dv.setUint16(10, RECORD_SIZE, true);
  return h;
}

/** The version of a data file's header (1: records, 2: game chains), or why it is no data file. */
export function headerVersion(h: Uint8Array): Result<number, 'datagen-format'> {
  if (h.length < HEADER_SIZE) return err('datagen-format', 'file too short for a header');
  for (let i = 0; i < 8; i++) {
    if (h[i] !== MAGIC.charCodeAt(i)) return err('datagen-format', 'not a Kirin data file (bad magic)');
  }
  const v = new DataView(h.buffer, h.byteOffset, h.byteLength).getUint16(8, true);
  if (v !== VERSION && v !== 2)
    return err('datagen-format', `unsupported data file version ${v} (this reader knows 1 and 2)`);
  return ok(v);
}

/** Checks a version-1 header. */
export function checkHeader(h: Uint8Array): Result<null, 'datagen-format'> {
  const hv = headerVersion(h);
  if (!hv.ok) return hv;
  const dv = new DataView(h.buffer, h.byteOffset, h.byteLength);
  const v = hv.value;
  if (v !== VERSION) return err('datagen-format', `a version-${v} file where version ${VERSION} is expected`);
  const rs = dv.getUint16(10, true);
  if (rs !== RECORD_SIZE) return err('datagen-format', `record size ${rs}, expected ${RECORD_SIZE}`);
  return ok(null);
}

/** Writes the position `pos` and its labels into `out` at `off`. */
export function encodeRecord(
  out: Uint8Array,
  off: number,
  pos: Position,
  score: number,
  evalv: number,
  result: number,
  move: number,
): void {
  const b = pos.board;
  for (let i = 0; i < 45; i++) out[off + i] = (b[2 * i] & 15) | ((b[2 * i + 1] & 15) << 4);
  const dv = new DataView(out.buffer, out.byteOffset + off, RECORD_SIZE);
  dv.setUint8(OFF_SIDE, pos.side);
  dv.setInt16(OFF_SCORE, clamp16(score), true);
  dv.setInt16(OFF_EVAL, clamp16(evalv), true);
  dv.setInt8(OFF_RESULT, result);
  dv.setUint8(OFF_RULE60, Math.min(255, pos.rule60Count()));
  dv.setUint16(OFF_PLY, Math.min(65535, pos.gamePly), true);
  dv.setUint16(OFF_MOVE, move & 0x3fff, true);
}

function clamp16(v: number): number {
  return v < -32767 ? -32767 : v > 32767 ? 32767 : v | 0;
}

/** Decodes the record at `off` (board into `board` when given, to avoid allocation). */
export function decodeRecord(buf: Uint8Array, off: number, board = new Uint8Array(90)): DataRecord {
  for (let i = 0; i < 45; i++) {
    const x = buf[off + i];
    board[2 * i] = x & 15;
    board[2 * i + 1] = x >> 4;
  }
  const dv = new DataView(buf.buffer, buf.byteOffset + off, RECORD_SIZE);
  return {
    board,
    side: dv.getUint8(OFF_SIDE),
    score: dv.getInt16(OFF_SCORE, true),
    eval: dv.getInt16(OFF_EVAL, true),
    result: dv.getInt8(OFF_RESULT),
    rule60: dv.getUint8(OFF_RULE60),
    ply: dv.getUint16(OFF_PLY, true),
    move: dv.getUint16(OFF_MOVE, true),
  };
}

const CHARS = ' racpnbk';

/** FEN of a decoded record (rule-60 counter and move number included). */
export function recordFen(r: DataRecord): string {
  const rows: string[] = [];
  for (let rank = 9; rank >= 0; rank--) {
    let row = '';
    let empty = 0;
    for (let f = 0; f < 9; f++) {
      const pc = r.board[rank * 9 + f];
      if (!pc) {
        empty++;
        continue;
      }
      if (empty) row += String(empty);
      empty = 0;
      const ch = CHARS[pc & 7];
      row += pc >> 3 ? ch : ch.toUpperCase();
    }
    if (empty) row += String(empty);
    rows.push(row);
  }
  return `${rows.join('/')} ${r.side ? 'b' : 'w'} - - ${r.rule60} ${(r.ply >> 1) + 1}`;
}

function moveText(m: number): string {
  if (!m) return '0000';
  const sq = (s: number) => String.fromCharCode(97 + (s % 9)) + String(Math.floor(s / 9));
  return sq(m >> 7) + sq(m & 127);
}

/** One text line per record: fen | score | eval | result | bestmove. */
export function recordText(r: DataRecord): string {
  return `${recordFen(r)} | ${r.score} | ${r.eval} | ${r.result} | ${moveText(r.move)}`;
}

/** A 53-bit dedup key from a Position's Zobrist key. */
export function dedupKey(pos: Position): number {
  return (pos.keyHi[pos.sp] & 0x1fffff) * 4294967296 + (pos.keyLo[pos.sp] >>> 0);
}

/** The version of a data file (1 or 2), or why it is none. */
export function fileVersion(path: string): Result<number, 'datagen-format'> {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (e) {
    return err('datagen-format', `cannot open (${(e as Error).message})`);
  }
  try {
    const h = new Uint8Array(HEADER_SIZE);
    const got = readSync(fd, h, 0, HEADER_SIZE, 0);
    return headerVersion(h.subarray(0, got));
  } catch (e) {
    // A folder opens on Linux and fails only here (EISDIR).
    return err('datagen-format', `cannot read (${(e as Error).message})`);
  } finally {
    closeSync(fd);
  }
}

/** Calls `each(buf, off, index)` for every whole record of a version-1 file, reading in blocks (forEachRecord in records.ts reads both formats). */
export function forEachV1Record(
  path: string,
  each: (buf: Uint8Array, off: number, index: number) => void,
): Result<number, 'datagen-format'> {
  const fd = openSync(path, 'r');
  try {
    const size = fstatSync(fd).size;
    const h = new Uint8Array(HEADER_SIZE);
    readSync(fd, h, 0, HEADER_SIZE, 0);
    const c = checkHeader(h);
    if (!c.ok) return c;
    const n = Math.floor((size - HEADER_SIZE) / RECORD_SIZE);
    const per = 16384;
    const buf = new Uint8Array(per * RECORD_SIZE);
    let index = 0;
    while (index < n) {
      const k = Math.min(per, n - index);
      readSync(fd, buf, 0, k * RECORD_SIZE, HEADER_SIZE + index * RECORD_SIZE);
      for (let i = 0; i < k; i++) each(buf, i * RECORD_SIZE, index + i);
      index += k;
    }
    return ok(n);
  } finally {
    closeSync(fd);
  }
}

/** A Position set from a decoded record (into `pos` when given), or why the record holds no valid position. */
export function recordPosition(r: DataRecord, pos = new Position(null)): Result<Position, 'record'> {
  const s = pos.setFen(recordFen(r));
  return s.ok ? s : err('record', `a record holds no valid position: ${s.error.message}`);
}
