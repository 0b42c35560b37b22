// The transposition table: a hash table of earlier search results shared by all
// search threads (its storage lives on a SharedArrayBuffer).
//
// Layout, Pikafish's: clusters of 32 bytes (two to a cache line) holding 3
// entries of 10 bytes and 2 bytes of padding. Seen as 16-bit words, entry i of
// cluster c starts at word c * 16 + i * 5:
//   +0  key16: the low 16 bits of the (rule-60 adjusted) key
//   +1  depth8 (low byte: depth - DEPTH_NONE, 0 = empty) | genBound8 << 8
//       (generation 5 bits, bound 2 bits, pv 1 bit)
//   +2  move (14 bits)
//   +3  value (signed)
//   +4  static eval (signed)
// The cluster is the high half of the 64-bit product of the key and the cluster
// count (Pikafish's mul_hi64). Reads and writes are racy when threads share the
// table, as in Pikafish: callers must validate moves (pseudo-legal + legal)
// before playing them.

import { MOVE_NONE, VALUE_MATE_IN_MAX_PLY, VALUE_MATED_IN_MAX_PLY, VALUE_NONE, VALUE_INFINITE } from '../core/types.js';

export const BOUND_NONE = 0;
export const BOUND_UPPER = 1;
export const BOUND_LOWER = 2;
export const BOUND_EXACT = 3;

export const DEPTH_QS = 0;
export const DEPTH_UNSEARCHED = -2;
export const DEPTH_NONE = -3;

const GENERATION_BITS = 5;
const GENERATION_MASK = (1 << GENERATION_BITS) - 1;
const BOUND_SHIFT = GENERATION_BITS;
const PV_SHIFT = BOUND_SHIFT + 2;

const CLUSTER_SIZE = 3;
/** 16-bit words per entry and per cluster. */
const ENTRY_HALVES = 5;
const CLUSTER_HALVES = 16;
const CLUSTER_BYTES = CLUSTER_HALVES * 2;
const TWO_POW_M32 = 1 / 4294967296;

function allocate(bytes: number): Int32Array {
  const Sab = (globalThis as { SharedArrayBuffer?: typeof SharedArrayBuffer }).SharedArrayBuffer;
  return Sab ? new Int32Array(new Sab(bytes)) : new Int32Array(bytes >> 2);
}

export class TranspositionTable {
  /** The table's storage as int32 words (on a SharedArrayBuffer where available). */
  table: Int32Array;
  /** The same storage as 16-bit words: the entries' fields. */
  private h: Int16Array;
  clusterCount = 0;
  private generation8 = 0;
  private sizeMb = 0;

  // ---- Result of the last probe() (read immediately by the caller) ----------
  /** The key was found and the entry is occupied. */
  hit = false;
  move = MOVE_NONE;
  value = VALUE_NONE;
  eval = VALUE_NONE;
  depth = DEPTH_NONE;
  bound = BOUND_NONE;
  isPv = false;

  /** `mb` = 0: no storage yet (a search thread that will attach() a shared table). */
  constructor(mb = 16) {
    this.table = new Int32Array(0);
    this.h = new Int16Array(0);
    if (mb > 0) this.resize(mb);
  }

  /** Sets the size in MiB (at least 1) and clears the table. */
  resize(mb: number): void {
    mb = Math.max(1, Math.floor(mb));
    if (mb === this.sizeMb && this.table.length) {
      this.clear();
      return;
    }
    this.sizeMb = mb;
    this.clusterCount = Math.floor((mb * 1024 * 1024) / CLUSTER_BYTES);
    this.table = new Int32Array(0); // drop the old storage first
    this.h = new Int16Array(0);
    this.table = allocate(this.clusterCount * CLUSTER_BYTES);
    this.h = new Int16Array(this.table.buffer);
    this.generation8 = 0;
  }

  /** Table storage of `mb` MiB (at least 1) to share between threads with attach(). Throws when it cannot be allocated. */
  static allocateShared(mb: number): ArrayBufferLike {
    mb = Math.max(1, Math.floor(mb));
    return allocate(Math.floor((mb * 1024 * 1024) / CLUSTER_BYTES) * CLUSTER_BYTES).buffer;
  }

  /** Uses an existing shared buffer (another thread's table). */
  attach(buffer: ArrayBufferLike): void {
    this.table = new Int32Array(buffer);
    this.h = new Int16Array(buffer);
    this.clusterCount = Math.floor(this.h.length / CLUSTER_HALVES);
    this.sizeMb = Math.round((this.table.length * 4) / (1024 * 1024));
  }

  get buffer(): ArrayBufferLike {
    return this.table.buffer;
  }

  clear(): void {
    this.table.fill(0);
    this.generation8 = 0;
  }

  /** Called at the start of every search: entries of older searches age. */
  newSearch(): void {
    this.generation8 = (this.generation8 + 1) & GENERATION_MASK;
  }

  generation(): number {
    return this.generation8;
  }

  setGeneration(g: number): void {
    this.generation8 = g & GENERATION_MASK;
  }

  /**
   * 16-bit word index of the first entry of the key's cluster: the high 64 bits
   * of the 128-bit product of the key (keyHi:keyLo) and the cluster count, as
   * Pikafish's mul_hi64, computed exactly in doubles from 16-bit pieces.
   */
  firstEntry(keyLo: number, keyHi: number): number {
    const n = this.clusterCount;
    const lo = keyLo >>> 0,
      hi = keyHi >>> 0;
    if (n < 0x200000) {
      // Below 2^21 clusters (64 MB) both products and their sum are exact
      // doubles, and the quotients fit an int32, where truncation is floor.
      return (((hi * n + ((lo * n * TWO_POW_M32) | 0)) * TWO_POW_M32) | 0) * CLUSTER_HALVES;
    }
    const carryLo = Math.floor(((lo >>> 16) * n + Math.floor(((lo & 0xffff) * n) / 65536)) / 65536);
    const idx = Math.floor(((hi >>> 16) * n + Math.floor(((hi & 0xffff) * n + carryLo) / 65536)) / 65536);
    return idx * CLUSTER_HALVES;
  }

  /** Age in searches of an entry whose depth and generation word is `dg` (0-31, wrapping). */
  private relativeAge(dg: number): number {
    return (this.generation8 - (dg >>> 8)) & GENERATION_MASK;
  }

  /**
   * Looks up a key. Sets the result fields (hit, move, value, eval, depth, bound,
   * isPv) and returns the index of the entry to write to later: the entry holding
   * the key's 16 check bits, or the least valuable entry of the cluster.
   */
  probe(keyLo: number, keyHi: number): number {
    const h = this.h;
    const first = this.firstEntry(keyLo, keyHi);
    const key16 = (keyLo << 16) >> 16;
    for (let i = 0; i < CLUSTER_SIZE; i++) {
      const e = first + i * ENTRY_HALVES;
      if (h[e] === key16) {
        const dg = h[e + 1] & 0xffff;
        const depth8 = dg & 0xff;
        this.hit = depth8 !== 0;
        // A racing writer may tear an entry: never hand out a move off the board
        // (callers still check pseudo-legality and legality before playing it).
        const m = h[e + 2] & 0x3fff;
        this.move = m >>> 7 < 90 && (m & 127) < 90 ? m : MOVE_NONE;
        this.depth = depth8 + DEPTH_NONE;
        this.bound = (dg >>> (8 + BOUND_SHIFT)) & 3;
        this.isPv = ((dg >>> (8 + PV_SHIFT)) & 1) !== 0;
        this.value = h[e + 3];
        this.eval = h[e + 4];
        return e;
      }
    }
    let replace = first;
    let dg = h[first + 1] & 0xffff;
    let replaceWorth = (dg & 0xff) - 8 * this.relativeAge(dg);
    for (let i = 1; i < CLUSTER_SIZE; i++) {
      const e = first + i * ENTRY_HALVES;
      dg = h[e + 1] & 0xffff;
      const worth = (dg & 0xff) - 8 * this.relativeAge(dg);
      if (replaceWorth > worth) {
        replace = e;
        replaceWorth = worth;
      }
    }
    this.hit = false;
    this.move = MOVE_NONE;
    this.value = VALUE_NONE;
    this.eval = VALUE_NONE;
    this.depth = DEPTH_NONE;
    this.bound = BOUND_NONE;
    this.isPv = false;
    return replace;
  }

  /**
   * Stores data into entry `e` (from probe) for the key whose low half is
   * `keyLo`, following Pikafish's replacement rules: keep the old move when none
   * is given, overwrite only more valuable data, and age decisive scores of
   * entries that are kept.
   */
  write(
    e: number,
    keyLo: number,
    value: number,
    pv: boolean,
    bound: number,
    depth: number,
    move: number,
    ev: number,
  ): void {
    const h = this.h;
    const key16 = (keyLo << 16) >> 16;
    const sameKey = h[e] === key16;
    if (move !== MOVE_NONE || !sameKey) h[e + 2] = move & 0x3fff;
    const dg = h[e + 1] & 0xffff;
    const depth8 = dg & 0xff;
    const pvBit = pv ? 1 : 0;
    if (
      bound === BOUND_EXACT ||
      !sameKey ||
      depth - DEPTH_NONE + 2 * pvBit > depth8 - 4 ||
      this.relativeAge(dg) !== 0
    ) {
      const gb = this.generation8 | (bound << BOUND_SHIFT) | (pvBit << PV_SHIFT);
      h[e] = key16;
      h[e + 1] = ((depth - DEPTH_NONE) & 0xff) | (gb << 8);
      h[e + 3] = value;
      h[e + 4] = ev;
    } else if (depth8 + DEPTH_NONE >= 5 && ((dg >>> (8 + BOUND_SHIFT)) & 3) !== BOUND_EXACT) {
      // Secondary aging of decisive scores, important for elementary mate finding.
      const v16 = h[e + 3];
      if (Math.abs(v16) < VALUE_INFINITE && (v16 >= VALUE_MATE_IN_MAX_PLY || v16 <= VALUE_MATED_IN_MAX_PLY)) {
        h[e + 1] = (dg & 0xff00) | Math.max(depth8 - 1, 0);
      }
    }
  }

  /** Lowers the stored depth of entry `e` (an entry whose bound did not fit the window). */
  penalize(e: number, penalty: number): void {
    const dg = this.h[e + 1] & 0xffff;
    this.h[e + 1] = (dg & 0xff00) | Math.max((dg & 0xff) - penalty, 0);
  }

  /** Permill of the first 1000 clusters' entries written in the last `maxAge` searches. */
  hashfull(maxAge = 0): number {
    const h = this.h;
    const n = Math.min(1000, this.clusterCount);
    let cnt = 0;
    for (let c = 0; c < n; c++) {
      for (let i = 0; i < CLUSTER_SIZE; i++) {
        const dg = h[c * CLUSTER_HALVES + i * ENTRY_HALVES + 1] & 0xffff;
        if ((dg & 0xff) !== 0 && this.relativeAge(dg) <= maxAge) cnt++;
      }
    }
    return Math.floor((cnt * 1000) / (n * CLUSTER_SIZE));
  }
}

/**
 * 1 for a mate score, -1 for a mated one, 0 otherwise. The conversions below use
 * it without branches around their arithmetic: every operation runs for ordinary
 * scores too, so the optimised search holds none without type feedback for mates.
 */
function mateSign(v: number): number {
  return (v >= VALUE_MATE_IN_MAX_PLY ? 1 : 0) - (v <= VALUE_MATED_IN_MAX_PLY ? 1 : 0);
}

/** Mate scores are stored relative to the node ("plies to mate from here"). */
export function valueToTT(v: number, ply: number): number {
  return v + mateSign(v) * ply;
}

/**
 * Inverse of valueToTT. Mate scores that could be false because of the 60-move
 * rule (the mate is further away than the plies left before the rule applies)
 * are downgraded to the largest non-mate score, as Pikafish does. `rule60Max`
 * is the configured limit in plies (0 = no rule).
 */
export function valueFromTT(v: number, ply: number, r60c: number, rule60Max = 120): number {
  if (v === VALUE_NONE) return VALUE_NONE;
  const limit = rule60Max > 0 ? rule60Max - r60c : 1 << 30;
  // A mate beyond the rule's limit becomes the largest non-mate score of its sign.
  const s = mateSign(v);
  const beyond = 32000 - s * v > limit;
  const capped = s * (VALUE_MATE_IN_MAX_PLY - 1);
  const plain = v - s * ply;
  return s !== 0 && beyond ? capped : plain;
}
