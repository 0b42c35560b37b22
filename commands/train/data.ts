// The training positions of `kirin train` (docs/NETWORK.md): `kirin datagen`
// files (version 1, commands/datagen/format.ts, or chain files read as their
// records, commands/datagen/records.ts; docs/DATAGEN.md) read, checked, filtered
// and held in compact shared arrays that the worker threads read without copies.
//
// Per kept position: its pieces as entries (piece code * 90 + square, in square
// order, the order of arch.ts appendFeatures), the side to move and the two
// perspectives' mirror flags, the search score, the game result, and the factor
// of evaluate()'s post-processing (src/eval/evaluate.ts postProcessFactor: the
// material blend times the rule-60 damping), computed from the record alone.
// Games are found from the records' order (a game's records are contiguous,
// their plies increase and their result seen from Red is constant); whole games
// go to the validation split.

import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { err, ok, type Result } from '../../src/dev.js';
import { PIECE_VALUE, SQUARE_NB } from '../../src/core/types.js';
import { INPUTS, featureIndex, mirrorFor } from '../../src/eval/kirinnet/arch.js';
import {
  HEADER_SIZE,
  OFF_MOVE,
  OFF_PLY,
  OFF_RESULT,
  OFF_RULE60,
  OFF_SCORE,
  OFF_SIDE,
  RECORD_SIZE,
  checkHeader,
  fileVersion,
  makeHeader,
} from '../datagen/format.js';
import { forEachChainRecord } from '../datagen/records.js';
import { goldenSectionMinimum } from '../tune/minimize.js';

/** Which positions are kept. */
export interface DataFilter {
  /** Drop positions whose side to move is in check. */
  dropCheck: boolean;
  /** Drop positions whose recorded best move is a capture. */
  dropCaptures: boolean;
  /** Drop positions with |score| above this (internal units; mate scores are far above). */
  maxScore: number;
  /** Drop positions before this game ply. */
  minPly: number;
  /**
   * Also train on each training position's left-right mirror image (xiangqi's
   * rules are symmetric under it, so its labels hold unchanged). Validation
   * positions are never mirrored.
   */
  mirror: boolean;
}

export const DEFAULT_FILTER: DataFilter = {
  dropCheck: true,
  dropCaptures: true,
  maxScore: 3000,
  minPly: 0,
  mirror: false,
};

/** How many records each filter removed (a record counts under the first filter that removes it). */
interface FilterCounts {
  records: number;
  kept: number;
  /** Mirror images added to the training positions (not counted in `kept`). */
  mirrored: number;
  inCheck: number;
  capture: number;
  score: number;
  ply: number;
}

/** The kept positions, in shared memory (workers read them directly). */
export interface TrainData {
  readonly count: number;
  /** Entries of position i: entries[start[i] .. start[i + 1]). */
  readonly start: Uint32Array;
  /** piece code * 90 + square, squares ascending. */
  readonly entries: Uint16Array;
  /** bit 0: side to move (1 black); bit 1: the side to move's view is mirrored; bit 2: the other's. */
  readonly flags: Uint8Array;
  /** Search score, side to move, internal units. */
  readonly score: Int16Array;
  /** Game result for the side to move: 1, 0, -1. */
  readonly result: Int8Array;
  /** evaluate()'s post-processing factor of the position. */
  readonly factor: Float32Array;
  /** Indices of the training and of the validation positions (ascending). */
  readonly train: Uint32Array;
  readonly valid: Uint32Array;
  readonly games: number;
  readonly validGames: number;
  readonly counts: FilterCounts;
  /** Per file: its path, whole records and a 32-bit FNV-1a hash of its bytes. */
  readonly files: readonly { path: string; records: number; hash: number }[];
}

/** The shared buffers of a TrainData (what a worker needs to rebuild it). */
export type TrainDataBuffers = Omit<TrainData, 'files' | 'counts'>;

// ---- the position checks, from a 90-square board ------------------------------------

const MAX_OF_TYPE = [0, 2, 2, 2, 5, 2, 2, 1];

/**
 * Why a decoded board cannot be a xiangqi position (a corrupt record), or null:
 * every piece code valid, per side exactly one king and no more pieces of a type
 * than a side starts with.
 */
function boardProblem(board: Uint8Array): string | null {
  const counts = new Int32Array(16);
  for (let s = 0; s < SQUARE_NB; s++) {
    const pc = board[s];
    if (pc === 8) return `invalid piece code 8 on square ${s}`;
    counts[pc]++;
  }
  for (let c = 0; c < 2; c++) {
    if (counts[(c << 3) | 7] !== 1) return `${counts[(c << 3) | 7]} ${c ? 'black' : 'red'} kings`;
    for (let t = 1; t < 7; t++)
      if (counts[(c << 3) | t] > MAX_OF_TYPE[t]) return `${counts[(c << 3) | t]} pieces of type ${t} for one side`;
  }
  return null;
}

/**
 * Whether the king of `side` on `board` is attacked (in check): by a rook or the
 * other king along a line with nothing between, a cannon over exactly one
 * screen, a knight whose leg is free, or a pawn in front of or beside it.
 */
export function boardInCheck(board: Uint8Array, side: number): boolean {
  const own = side << 3,
    enemy = (side ^ 1) << 3;
  let k = -1;
  for (let s = 0; s < SQUARE_NB; s++)
    if (board[s] === (own | 7)) {
      k = s;
      break;
    }
  if (k < 0) return false;
  const kr = (k / 9) | 0,
    kf = k % 9;
  // Lines: rook / king at the first piece, cannon at the second.
  const dirs = [1, 0, -1, 0, 0, 1, 0, -1];
  for (let d = 0; d < 8; d += 2) {
    const dr = dirs[d],
      df = dirs[d + 1];
    let r = kr + dr,
      f = kf + df,
      seen = 0;
    while (r >= 0 && r < 10 && f >= 0 && f < 9) {
      const pc = board[r * 9 + f];
      if (pc !== 0) {
        if (seen === 0 && (pc === (enemy | 1) || pc === (enemy | 7))) return true;
        if (seen === 1) {
          if (pc === (enemy | 3)) return true;
          break;
        }
        seen++;
      }
      r += dr;
      f += df;
    }
  }
  // Knights: at (dr, df) from the king, the leg is next to the knight, one step towards the king along the long leg.
  const jumps = [2, 1, 2, -1, -2, 1, -2, -1, 1, 2, 1, -2, -1, 2, -1, -2];
  for (let j = 0; j < 16; j += 2) {
    const r = kr + jumps[j],
      f = kf + jumps[j + 1];
    if (r < 0 || r > 9 || f < 0 || f > 8 || board[r * 9 + f] !== (enemy | 5)) continue;
    const lr = Math.abs(jumps[j]) === 2 ? r - Math.sign(jumps[j]) : r;
    const lf = Math.abs(jumps[j + 1]) === 2 ? f - Math.sign(jumps[j + 1]) : f;
    if (board[lr * 9 + lf] === 0) return true;
  }
  // Pawns: an enemy pawn moves towards the king's side of the board; beside the king it has crossed the river.
  const front = side === 0 ? kr + 1 : kr - 1;
  if (front >= 0 && front <= 9 && board[front * 9 + kf] === (enemy | 4)) return true;
  if (kf > 0 && board[k - 1] === (enemy | 4)) return true;
  if (kf < 8 && board[k + 1] === (enemy | 4)) return true;
  return false;
}

/** evaluate()'s post-processing factor (postProcessFactor) from a board and the rule-60 counter. */
export function boardFactor(board: Uint8Array, rule60: number): number {
  let material = 0;
  for (let s = 0; s < SQUARE_NB; s++) {
    const t = board[s] & 7;
    if (t & 1 && t !== 7) material += PIECE_VALUE[board[s]];
  }
  return ((17380 + material) / 20582) * (1 - rule60 / 253);
}

// ---- feature lookup ------------------------------------------------------------------

/**
 * FEATURE_TABLE[((p * 2 + mirror) * 16 + piece) * 90 + sq] = arch.ts featureIndex(p, piece, sq, mirror)
 * (0 for the codes of no piece).
 */
export const FEATURE_TABLE = (() => {
  const t = new Uint16Array(4 * 16 * SQUARE_NB);
  for (let p = 0; p < 2; p++)
    for (let m = 0; m < 2; m++)
      for (let pc = 1; pc < 16; pc++) {
        if ((pc & 7) === 0) continue;
        for (let s = 0; s < SQUARE_NB; s++) t[((p * 2 + m) * 16 + pc) * SQUARE_NB + s] = featureIndex(p, pc, s, m);
      }
  for (let i = 0; i < t.length; i++) if (t[i] >= INPUTS) throw new Error('feature table out of range');
  return t;
})();

/** Offset into FEATURE_TABLE of perspective `p` with mirror flag `m`. */
export const tableBase = (p: number, m: number): number => (p * 2 + m) * 16 * SQUARE_NB;

// ---- reading ------------------------------------------------------------------------

/** A growable typed array (for building before the exact size is known). */
class Grow<T extends Uint8Array | Int8Array | Uint16Array | Int16Array | Uint32Array | Float32Array> {
  a: T;
  n = 0;
  constructor(private readonly make: (n: number) => T) {
    this.a = make(1 << 16);
  }
  push(v: number): void {
    if (this.n === this.a.length) {
      const b = this.make(this.a.length * 2);
      b.set(this.a);
      this.a = b;
    }
    this.a[this.n++] = v;
  }
  /** The contents in a SharedArrayBuffer of the exact size. */
  shared(ctor: new (b: SharedArrayBuffer) => T, bytes: number): T {
    const out = new ctor(new SharedArrayBuffer(Math.max(8, bytes * this.n)));
    out.set(this.a.subarray(0, this.n) as never);
    return out.subarray(0, this.n) as T;
  }
}

export class DataError extends Error {}

/** The 32-bit mix that decides the validation games (fixed: the split does not depend on the seed). */
function gameHash(game: number): number {
  let h = Math.imul(game ^ 0x5bd1e995, 0x9e3779b1);
  h ^= h >>> 15;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/**
 * Reads datagen files into TrainData. A file with a bad header, a partial last
 * record or a record that is no position is refused (DataError naming the file
 * and the record). `validation` is the fraction of games held out.
 */
export function loadTrainData(paths: readonly string[], filter: DataFilter, validation: number): TrainData {
  if (paths.length === 0) throw new DataError('no data files');
  const start = new Grow((n) => new Uint32Array(n));
  const entries = new Grow((n) => new Uint16Array(n));
  const flags = new Grow((n) => new Uint8Array(n));
  const score = new Grow((n) => new Int16Array(n));
  const result = new Grow((n) => new Int8Array(n));
  const factor = new Grow((n) => new Float32Array(n));
  const isValid = new Grow((n) => new Uint8Array(n));
  const counts: FilterCounts = { records: 0, kept: 0, mirrored: 0, inCheck: 0, capture: 0, score: 0, ply: 0 };
  const files: { path: string; records: number; hash: number }[] = [];
  const board = new Uint8Array(SQUARE_NB);
  let games = 0,
    validGames = 0;
  start.push(0);
  let prevPly = -1,
    prevRedResult = 2,
    inValid = false;
  /** Checks, filters and keeps the record at `off` of `buf`, record `index` of file `path`. */
  const addRecord = (buf: Uint8Array, off: number, index: number, path: string, fileOffset: number): void => {
    for (let b = 0; b < 45; b++) {
      const x = buf[off + b];
      board[2 * b] = x & 15;
      board[2 * b + 1] = x >> 4;
    }
    const side = buf[off + OFF_SIDE];
    const res = (buf[off + OFF_RESULT] << 24) >> 24;
    const ply = buf[off + OFF_PLY] | (buf[off + OFF_PLY + 1] << 8);
    const where = () => `${path}: record ${index}${fileOffset >= 0 ? ` (byte ${fileOffset})` : ''}`;
    if (side > 1) throw new DataError(`${where()}: side to move ${side} (0 or 1)`);
    if (res < -1 || res > 1) throw new DataError(`${where()}: result ${res} (-1, 0 or 1)`);
    const problem = boardProblem(board);
    if (problem) throw new DataError(`${where()}: not a position: ${problem}`);
    counts.records++;
    // A new game: the ply does not increase, or the result seen from Red changes.
    const redResult = side ? -res : res;
    if (ply <= prevPly || redResult !== prevRedResult) {
      inValid = validation > 0 && gameHash(games) < validation * 4294967296;
      games++;
      if (inValid) validGames++;
    }
    prevPly = ply;
    prevRedResult = redResult;
    const sc = ((buf[off + OFF_SCORE] | (buf[off + OFF_SCORE + 1] << 8)) << 16) >> 16;
    const move = buf[off + OFF_MOVE] | (buf[off + OFF_MOVE + 1] << 8);
    const to = move & 127;
    if (filter.dropCheck && boardInCheck(board, side)) {
      counts.inCheck++;
      return;
    }
    if (filter.dropCaptures && move !== 0 && to < SQUARE_NB && board[to] !== 0) {
      counts.capture++;
      return;
    }
    if (Math.abs(sc) > filter.maxScore) {
      counts.score++;
      return;
    }
    if (ply < filter.minPly) {
      counts.ply++;
      return;
    }
    const f = boardFactor(board, buf[off + OFF_RULE60]);
    for (let image = 0; image < (filter.mirror && !inValid ? 2 : 1); image++) {
      // image 1: the left-right mirror, its squares still visited in ascending order.
      let fl = side;
      for (let s = 0; s < SQUARE_NB; s++) {
        const from = image === 0 ? s : s - (s % 9) + 8 - (s % 9);
        const pc = board[from];
        if (pc === 0) continue;
        entries.push(pc * SQUARE_NB + s);
        if (pc === 7) fl |= mirrorFor(s % 9) << (side === 0 ? 1 : 2);
        else if (pc === 15) fl |= mirrorFor(s % 9) << (side === 1 ? 1 : 2);
      }
      start.push(entries.n);
      flags.push(fl);
      score.push(sc);
      result.push(res);
      factor.push(f);
      isValid.push(inValid ? 1 : 0);
    }
    counts.kept++;
    if (filter.mirror && !inValid) counts.mirrored++;
  };
  for (const path of paths) {
    const version = fileVersion(path);
    if (!version.ok) throw new DataError(`${path}: ${version.error.message}`);
    prevPly = -1;
    prevRedResult = 2;
    if (version.value === 2) {
      // A chain file: its records (docs/DATAGEN.md), hashed as the version-1 file of the same records would be.
      let hash = fnvUpdate(0x811c9dc5, makeHeader(), HEADER_SIZE);
      const r = forEachChainRecord(path, (buf, off, index) => {
        hash = fnvUpdate(hash, buf.subarray(off, off + RECORD_SIZE), RECORD_SIZE);
        addRecord(buf, off, index, path, -1);
      });
      if (!r.ok) throw new DataError(`${path}: ${r.error.message}`);
      files.push({ path, records: r.value.records, hash: hash >>> 0 });
      continue;
    }
    let fd: number;
    try {
      fd = openSync(path, 'r');
    } catch (e) {
      throw new DataError(`${path}: cannot open (${(e as Error).message})`);
    }
    try {
      const size = fstatSync(fd).size;
      const head = new Uint8Array(HEADER_SIZE);
      const got = readSync(fd, head, 0, HEADER_SIZE, 0);
      const hc = checkHeader(head.subarray(0, got));
      if (!hc.ok) throw new DataError(`${path}: ${hc.error.message}`);
      const body = size - HEADER_SIZE;
      const records = Math.floor(body / RECORD_SIZE);
      const partial = body - records * RECORD_SIZE;
      if (partial !== 0)
        throw new DataError(
          `${path}: truncated: ${partial} bytes after the last of ${records} whole records ` +
            `(a file still being written? copy whole records: head -c $((${HEADER_SIZE} + ${RECORD_SIZE} * N)))`,
        );
      let hash = fnvUpdate(0x811c9dc5, head, HEADER_SIZE);
      const per = 16384;
      const buf = new Uint8Array(per * RECORD_SIZE);
      for (let index = 0; index < records;) {
        const k = Math.min(per, records - index);
        const bytes = k * RECORD_SIZE;
        if (readSync(fd, buf, 0, bytes, HEADER_SIZE + index * RECORD_SIZE) !== bytes)
          throw new DataError(`${path}: short read at record ${index}`);
        hash = fnvUpdate(hash, buf, bytes);
        for (let i = 0; i < k; i++, index++)
          addRecord(buf, i * RECORD_SIZE, index, path, HEADER_SIZE + index * RECORD_SIZE);
      }
      files.push({ path, records, hash: hash >>> 0 });
    } finally {
      closeSync(fd);
    }
  }
  const n = counts.kept + counts.mirrored;
  let nValid = 0;
  for (let i = 0; i < n; i++) nValid += isValid.a[i];
  const train = new Uint32Array(new SharedArrayBuffer(4 * Math.max(1, n - nValid)));
  const valid = new Uint32Array(new SharedArrayBuffer(4 * Math.max(1, nValid)));
  for (let i = 0, t = 0, v = 0; i < n; i++) {
    if (isValid.a[i]) valid[v++] = i;
    else train[t++] = i;
  }
  return {
    count: n,
    start: start.shared(Uint32Array, 4),
    entries: entries.shared(Uint16Array, 2),
    flags: flags.shared(Uint8Array, 1),
    score: score.shared(Int16Array, 2),
    result: result.shared(Int8Array, 1),
    factor: factor.shared(Float32Array, 4),
    train: train.subarray(0, n - nValid),
    valid: valid.subarray(0, nValid),
    games,
    validGames,
    counts,
    files,
  };
}

function fnvUpdate(h: number, bytes: Uint8Array, end: number): number {
  for (let i = 0; i < end; i++) h = Math.imul(h ^ bytes[i], 0x01000193);
  return h;
}

/** The board (90 piece codes) of position i. */
export function positionBoard(d: TrainDataBuffers, i: number, board = new Uint8Array(SQUARE_NB)): Uint8Array {
  board.fill(0);
  for (let e = d.start[i]; e < d.start[i + 1]; e++) {
    const x = d.entries[e];
    board[x % SQUARE_NB] = (x / SQUARE_NB) | 0;
  }
  return board;
}

// ---- the sigmoid scale and the targets ------------------------------------------------

export function sigmoid(x: number): number {
  return 1 / (1 + Math.exp(-x));
}

/**
 * The K maximising the likelihood of the game results given the search
 * scores (result r in {0, 1/2, 1}, P(win) = sigmoid(score / K)), over
 * positions `idx` (at most `sample` of them, evenly spaced), by golden-section
 * search on [10, 5000].
 */
export function fitK(d: TrainDataBuffers, idx: Uint32Array, sample = 1_000_000): number {
  const n = Math.min(idx.length, sample);
  const score = new Float64Array(n),
    result = new Float64Array(n);
  for (let j = 0; j < n; j++) {
    const i = idx[Math.floor((j * idx.length) / n)];
    score[j] = d.score[i];
    result[j] = (d.result[i] + 1) / 2;
  }
  const nll = (k: number): number => {
    let s = 0;
    for (let j = 0; j < n; j++) {
      const p = sigmoid(score[j] / k);
      const r = result[j];
      s -= r * Math.log(p + 1e-12) + (1 - r) * Math.log(1 - p + 1e-12);
    }
    return s / Math.max(1, n);
  };
  return goldenSectionMinimum(nll, 10, 5000, 60);
}

/**
 * loadTrainData as a Result: the data, or why a file is refused (the message
 * names the file and the record). What the trainer's command line and bench use.
 */
export function readTrainData(
  paths: readonly string[],
  filter: DataFilter,
  validation: number,
): Result<TrainData, 'data'> {
  try {
    return ok(loadTrainData(paths, filter, validation));
  } catch (e) {
    if (e instanceof DataError) return err('data', e.message);
    throw e;
  }
}
