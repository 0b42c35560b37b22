// Version-1 records from chain files and chain files from version-1 records
// (docs/DATAGEN.md).
//
// The records of a chain file (its "record view") are what `kirin datagen`
// wrote as records before the chain format: for a self-play game, its quiet
// positions (not in check, best move not a capture, no capture winning material
// by SEE pending, no mate score) that are new in the file (deduplicated by
// Zobrist key, in file order); for a game converted from a version-1 file, its
// scored positions as they are. `kirin train`, `kirin tune`, `--count` and
// `--to-text` read a chain file through this view.
//
// The converter from version 1 keeps every record byte for byte: consecutive
// records of one game are joined by the moves between them (the record's best
// move and up to BRIDGE_PLIES - 1 more, found by a search of the legal moves
// that reach the next record's board), a record that cannot be joined starts a
// new game at its position, and a record that is no position a game can hold
// is kept as it is.

import { err, MOVE_NONE, ok, Position, type Move, type Result } from '../../src/dev.js';
import { generate } from '../../src/core/movegen.js';
import { GEN_CAPTURES, GEN_LEGAL, MAX_MOVES, VALUE_MATE_IN_MAX_PLY } from '../../src/core/types.js';
import { readChain, type ChainSummary } from './chain.js';
import {
  RECORD_SIZE,
  dedupKey,
  decodeRecord,
  encodeRecord,
  fileVersion,
  forEachV1Record,
  recordPosition,
} from './format.js';
import { GameBuilder, setStart, type ChainEntry, type ChainVisitor } from './chain-codec.js';

const captureList = new Int32Array(MAX_MOVES);

/** True when the side to move has a capture that wins material by SEE. */
function goodCapturePending(pos: Position): boolean {
  const n = generate(pos, GEN_CAPTURES, captureList, 0);
  for (let i = 0; i < n; i++) {
    if (pos.legal(captureList[i]) && pos.seeGe(captureList[i], 1)) return true;
  }
  return false;
}

/**
 * Whether a searched position is quiet, the datagen's filter: a best move that
 * is no capture, no mate score, the side to move not in check and no capture
 * winning material by SEE pending.
 */
export function isQuiet(pos: Position, score: number, best: Move): boolean {
  if (best === MOVE_NONE || score >= VALUE_MATE_IN_MAX_PLY || score <= -VALUE_MATE_IN_MAX_PLY) return false;
  return !pos.inCheck() && !pos.isCapture(best) && !goodCapturePending(pos);
}

/**
 * A set of dedup keys (53-bit integers, dedupKey): open addressing with linear
 * probing in a Float64Array, kept at most half full, 0 standing for an empty
 * slot (the key 0 is a flag of its own). It holds any number of keys (a
 * JavaScript Set stops at 2^24) and costs about a quarter of a Set of numbers
 * per lookup: a 53-bit key is no small integer, so a Set hashes a heap number.
 * The slot mixes both halves of the key, so keys alike in their low bits
 * still spread.
 */
function slot(key: number): number {
  const h = Math.imul((key >>> 0) ^ Math.imul((key / 4294967296) | 0, 0x9e3779b1), 0x85ebca6b);
  return h ^ (h >>> 15);
}

export class KeySet {
  private table = new Float64Array(1 << 16);
  private mask = (1 << 16) - 1;
  private count = 0;
  private zero = false;
  has(key: number): boolean {
    if (key === 0) return this.zero;
    const t = this.table;
    let i = slot(key) & this.mask;
    for (;;) {
      const k = t[i];
      if (k === key) return true;
      if (k === 0) return false;
      i = (i + 1) & this.mask;
    }
  }
  add(key: number): void {
    if (key === 0) {
      if (!this.zero) this.count++;
      this.zero = true;
      return;
    }
    if (this.place(this.table, this.mask, key) && ++this.count * 2 > this.table.length) this.grow();
  }
  get size(): number {
    return this.count;
  }
  /** Puts `key` into `t`; false when it was there. */
  private place(t: Float64Array, mask: number, key: number): boolean {
    let i = slot(key) & mask;
    for (;;) {
      const k = t[i];
      if (k === key) return false;
      if (k === 0) {
        t[i] = key;
        return true;
      }
      i = (i + 1) & mask;
    }
  }
  private grow(): void {
    const old = this.table;
    const t = new Float64Array(old.length * 2);
    const mask = t.length - 1;
    for (let i = 0; i < old.length; i++) if (old[i] !== 0) this.place(t, mask, old[i]);
    this.table = t;
    this.mask = mask;
  }
}

/**
 * A visitor that turns a chain file's games into its records (the record
 * view), calling `emit(record, 0)` with each 56-byte record (the buffer is
 * reused). `seen` holds the dedup keys of the records so far.
 */
export class RecordView implements ChainVisitor {
  readonly seen = new KeySet();
  private readonly rec = new Uint8Array(RECORD_SIZE);
  private records = false;
  private result = 0;
  /** Records emitted. */
  count = 0;
  /** Scored positions of self-play games that were not quiet, or not new. */
  notQuiet = 0;
  duplicates = 0;
  constructor(private readonly emit: (record: Uint8Array, off: number) => void) {}
  game(info: { records: boolean; result: number }): void {
    this.records = info.records;
    this.result = info.result;
  }
  position(pos: Position, _i: number, scored: boolean, score: number, evalv: number, best: Move): void {
    if (!scored) return;
    if (!this.records) {
      if (!isQuiet(pos, score, best)) {
        this.notQuiet++;
        return;
      }
      const key = dedupKey(pos);
      if (this.seen.has(key)) {
        this.duplicates++;
        return;
      }
      this.seen.add(key);
    } else this.seen.add(dedupKey(pos));
    encodeRecord(this.rec, 0, pos, score, evalv, pos.side === 0 ? this.result : -this.result, best);
    this.count++;
    this.emit(this.rec, 0);
  }
  raw(record: Uint8Array): void {
    const p = recordPosition(decodeRecord(record, 0));
    if (p.ok) this.seen.add(dedupKey(p.value));
    this.count++;
    this.emit(record, 0);
  }
}

/**
 * Calls `each(buf, off, index)` for every record of a data file: the whole
 * records of a version-1 file, or the record view of a chain file (the buffer
 * is reused between calls).
 */
export function forEachRecord(
  path: string,
  each: (buf: Uint8Array, off: number, index: number) => void,
): Result<number, 'datagen-format'> {
  const v = fileVersion(path);
  if (!v.ok) return v;
  if (v.value === 1) return forEachV1Record(path, each);
  const r = forEachChainRecord(path, each);
  return r.ok ? ok(r.value.records) : err('datagen-format', r.error.message);
}

/** Calls `each(buf, off, index)` for every record of a chain file's record view. */
export function forEachChainRecord(
  path: string,
  each: (buf: Uint8Array, off: number, index: number) => void,
): Result<{ records: number; summary: ChainSummary; view: RecordView }, 'chain' | 'file'> {
  let index = 0;
  const view = new RecordView((buf, off) => each(buf, off, index++));
  const r = readChain(path, view);
  return r.ok ? ok({ records: index, summary: r.value, view }) : r;
}

// ---- version 1 -> chains --------------------------------------------------------------------

/** The most plies between two records of one game that the converter joins. */
const BRIDGE_PLIES = 6;
/** Positions a join may visit before the converter gives up and starts a new game. */
const BRIDGE_NODES = 20000;

/** Finds the moves from a position to a record's board (the search of a join). */
class Bridge {
  private readonly lists: Int32Array[] = [];
  readonly path = new Int32Array(BRIDGE_PLIES);
  private target: Uint8Array = new Uint8Array(90);
  private rule60 = 0;
  private nodes = 0;
  constructor() {
    for (let i = 0; i <= BRIDGE_PLIES; i++) this.lists.push(new Int32Array(MAX_MOVES));
  }
  private diff(pos: Position): number {
    let d = 0;
    const b = pos.board,
      t = this.target;
    for (let s = 0; s < 90; s++) if (b[s] !== t[s]) d++;
    return d;
  }
  /** Moves `plies` long from `pos` to `target` with the 60-move counter `rule60`, `first` tried first; into path. */
  find(pos: Position, plies: number, target: Uint8Array, rule60: number, first: Move): boolean {
    this.target = target;
    this.rule60 = rule60;
    this.nodes = 0;
    return this.search(pos, plies, 0, first);
  }
  private search(pos: Position, left: number, depth: number, first: Move): boolean {
    const d = this.diff(pos);
    if (left === 0) return d === 0 && Math.min(255, pos.rule60Count()) === this.rule60;
    // A move changes two squares.
    if (d > 2 * left || ++this.nodes > BRIDGE_NODES) return false;
    const list = this.lists[depth];
    const n = generate(pos, GEN_LEGAL, list, 0);
    for (let pass = 0; pass < 2; pass++) {
      for (let i = 0; i < n; i++) {
        const m = list[i];
        // Pass 0 tries the record's best move (the move the game played), pass 1 the others.
        if ((pass === 0) !== (m === first)) continue;
        pos.doMove(m);
        const found = this.search(pos, left - 1, depth + 1, MOVE_NONE);
        pos.undoMove(m);
        if (found) {
          this.path[depth] = m;
          return true;
        }
      }
    }
    return false;
  }
}

/** What a conversion did. */
export interface ConvertCounts {
  records: number;
  games: number;
  /** Records kept as they are. */
  raw: number;
  /** Joins by the gap in plies (index 1 = the next ply). */
  joins: number[];
}

/**
 * Turns version-1 records, in file order, into chain entries (`out`), so that
 * the chain's record view gives the same records, byte for byte. Feed records
 * with `add`, then `end`.
 */
export class V1ToChain {
  private readonly pos = new Position(null);
  private readonly tmp = new Uint8Array(RECORD_SIZE);
  private readonly bridge = new Bridge();
  private game: GameBuilder | null = null;
  private result = 0;
  /** The current game's last record's best move. */
  private lastBest: Move = MOVE_NONE;
  readonly counts: ConvertCounts = { records: 0, games: 0, raw: 0, joins: new Array(BRIDGE_PLIES + 1).fill(0) };
  constructor(private readonly out: (e: ChainEntry) => Result<null, 'chain'>) {}

  /** Whether `pos`, labelled as record `r`, encodes to `bytes`. */
  private same(bytes: Uint8Array, off: number, score: number, evalv: number, result: number, move: number): boolean {
    encodeRecord(this.tmp, 0, this.pos, score, evalv, result, move);
    for (let i = 0; i < RECORD_SIZE; i++) if (this.tmp[i] !== bytes[off + i]) return false;
    return true;
  }

  add(bytes: Uint8Array, off: number): Result<null, 'chain'> {
    this.counts.records++;
    const r = decodeRecord(bytes, off);
    const redResult = r.side === 0 ? r.result : -r.result;
    if (this.game && redResult === this.result && this.join(bytes, off, r.board, r.side, r.rule60, r.ply)) {
      this.game.setScore(r.score, r.eval, r.move);
      this.lastBest = r.move;
      return ok(null);
    }
    const ended = this.flush();
    if (!ended.ok) return ended;
    // A new game at the record's position.
    if (redResult >= -1 && redResult <= 1) {
      const start = { board: r.board.slice(), side: r.side, rule60: r.rule60, ply: r.ply };
      if (setStart(this.pos, start).ok && this.same(bytes, off, r.score, r.eval, r.result, r.move)) {
        this.pos.reserve(1024);
        this.game = new GameBuilder(start, true);
        this.result = redResult;
        this.game.setScore(r.score, r.eval, r.move);
        this.lastBest = r.move;
        this.counts.games++;
        return ok(null);
      }
    }
    this.counts.raw++;
    return this.out({ kind: 'raw', record: Uint8Array.prototype.slice.call(bytes, off, off + RECORD_SIZE) });
  }

  /** Joins the record to the current game when a few moves lead to it. */
  private join(bytes: Uint8Array, off: number, board: Uint8Array, side: number, rule60: number, ply: number): boolean {
    const pos = this.pos;
    const gap = ply - pos.gamePly;
    if (gap < 1 || gap > BRIDGE_PLIES || (pos.side ^ (gap & 1)) !== side) return false;
    if (!this.bridge.find(pos, gap, board, rule60, this.lastBest)) return false;
    const path = this.bridge.path;
    for (let i = 0; i < gap; i++) pos.doMove(path[i]);
    const r = decodeRecord(bytes, off);
    if (!this.same(bytes, off, r.score, r.eval, r.result, r.move)) {
      for (let i = gap - 1; i >= 0; i--) pos.undoMove(path[i]);
      return false;
    }
    for (let i = 0; i < gap; i++) this.game!.play(path[i]);
    this.counts.joins[gap]++;
    return true;
  }

  private flush(): Result<null, 'chain'> {
    if (!this.game) return ok(null);
    const g = this.game.finish(this.result);
    this.game = null;
    return this.out(g);
  }

  end(): Result<null, 'chain'> {
    return this.flush();
  }
}
