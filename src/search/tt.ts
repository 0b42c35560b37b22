// The transposition table: a hash table of earlier search results shared by all
// search threads (its storage lives on a SharedArrayBuffer).
//
// Layout: clusters of 3 entries, 3 int32 words per entry (Pikafish keeps 3
// entries of 10 bytes per 32-byte cluster; we spend a little more and keep the
// full upper 32 bits of the key as the check word):
//   w0  check word: the high half of the (rule-60 adjusted) key
//   w1  move (14 bits) | depth8 << 14 (8 bits) | genBound8 << 22 (8 bits:
//       generation 5 bits, bound 2 bits, pv 1 bit)
//   w2  value (low 16 bits, signed) | static eval (high 16 bits, signed)
// depth8 stores depth - DEPTH_NONE, so 0 means "empty". The cluster index comes
// from the low half of the key (multiply-high by the cluster count). Reads and
// writes are racy when threads share the table, as in Pikafish: callers must
// validate moves (pseudo-legal + legal) before playing them.

import { isShared, PAGE_WORDS, touchPages } from './pages.js';
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
const ENTRY_WORDS = 3;
const CLUSTER_WORDS = CLUSTER_SIZE * ENTRY_WORDS;
const CLUSTER_BYTES = CLUSTER_WORDS * 4;

function allocate(bytes: number): Int32Array {
  const Sab = (globalThis as { SharedArrayBuffer?: typeof SharedArrayBuffer }).SharedArrayBuffer;
  return Sab ? new Int32Array(new Sab(bytes)) : new Int32Array(bytes >> 2);
}

export class TranspositionTable {
  /** The table words (on a SharedArrayBuffer where available). */
  table: Int32Array;
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
    this.table = allocate(this.clusterCount * CLUSTER_BYTES);
    this.generation8 = 0;
  }

  /** Table storage of `mb` MiB (at least 1) to share between threads with attach(). Throws when it cannot be allocated. */
  static allocateShared(mb: number): ArrayBufferLike {
    mb = Math.max(1, Math.floor(mb));
    return allocate(Math.floor((mb * 1024 * 1024) / CLUSTER_BYTES) * CLUSTER_BYTES).buffer;
  }

  /**
   * Brings a fresh shared table's memory pages in without changing a byte (an
   * atomic compare-exchange of 0 with 0 writes one word per 4 KB page), so that a
   * thread searching in it meanwhile pays no page faults for them. The engine does
   * this on its own thread while the search thread starts: the first touch of 16 MB
   * costs tens of milliseconds on some machines.
   */
  static prefault(buffer: ArrayBufferLike): void {
    const words = new Int32Array(buffer);
    if (isShared(words)) touchPages(words, 0, Math.ceil(words.length / PAGE_WORDS));
  }

  /** Uses an existing shared buffer (another thread's table). */
  attach(buffer: ArrayBufferLike): void {
    this.table = new Int32Array(buffer);
    this.clusterCount = Math.floor(this.table.length / CLUSTER_WORDS);
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

  /** Word index of the first entry of the cluster for a key (exact multiply-high). */
  firstEntry(keyLo: number): number {
    const n = this.clusterCount;
    const hi = (keyLo >>> 16) * n;
    const lo = (keyLo & 0xffff) * n;
    // floor((keyLo * n) / 2^32) computed exactly in doubles.
    const idx = Math.floor((hi + Math.floor(lo / 65536)) / 65536);
    return idx * CLUSTER_WORDS;
  }

  private relativeAge(w1: number): number {
    return (this.generation8 - (w1 >>> 22)) & GENERATION_MASK;
  }

  /**
   * Looks up a key. Sets the result fields (hit, move, value, eval, depth, bound,
   * isPv) and returns the word index of the entry to write to later: the
   * entry holding the key, or the least valuable entry of the cluster.
   */
  probe(keyLo: number, keyHi: number): number {
    const t = this.table;
    const first = this.firstEntry(keyLo);
    for (let i = 0; i < CLUSTER_SIZE; i++) {
      const e = first + i * ENTRY_WORDS;
      if (t[e] === keyHi) {
        const w1 = t[e + 1],
          w2 = t[e + 2];
        const depth8 = (w1 >>> 14) & 0xff;
        this.hit = depth8 !== 0;
        // A racing writer may tear an entry: never hand out a move off the board
        // (callers still check pseudo-legality and legality before playing it).
        const m = w1 & 0x3fff;
        this.move = m >>> 7 < 90 && (m & 127) < 90 ? m : MOVE_NONE;
        this.depth = depth8 + DEPTH_NONE;
        this.bound = (w1 >>> (22 + BOUND_SHIFT)) & 3;
        this.isPv = ((w1 >>> (22 + PV_SHIFT)) & 1) !== 0;
        this.value = (w2 << 16) >> 16;
        this.eval = w2 >> 16;
        return e;
      }
    }
    let replace = first;
    let replaceWorth = ((t[first + 1] >>> 14) & 0xff) - 8 * this.relativeAge(t[first + 1]);
    for (let i = 1; i < CLUSTER_SIZE; i++) {
      const e = first + i * ENTRY_WORDS;
      const worth = ((t[e + 1] >>> 14) & 0xff) - 8 * this.relativeAge(t[e + 1]);
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
   * Stores data into entry `e` (from probe), following Pikafish's replacement
   * rules: keep the old move when none is given, overwrite only more valuable
   * data, and age decisive scores of entries that are kept.
   */
  write(
    e: number,
    keyHi: number,
    value: number,
    pv: boolean,
    bound: number,
    depth: number,
    move: number,
    ev: number,
  ): void {
    const t = this.table;
    const sameKey = t[e] === keyHi;
    let w1 = t[e + 1];
    if (move !== MOVE_NONE || !sameKey) w1 = (w1 & ~0x3fff) | (move & 0x3fff);
    const depth8 = (w1 >>> 14) & 0xff;
    const pvBit = pv ? 1 : 0;
    if (
      bound === BOUND_EXACT ||
      !sameKey ||
      depth - DEPTH_NONE + 2 * pvBit > depth8 - 4 ||
      this.relativeAge(w1) !== 0
    ) {
      const gb = this.generation8 | (bound << BOUND_SHIFT) | (pvBit << PV_SHIFT);
      t[e] = keyHi;
      t[e + 1] = (w1 & 0x3fff) | (((depth - DEPTH_NONE) & 0xff) << 14) | (gb << 22);
      t[e + 2] = (value & 0xffff) | (ev << 16);
    } else {
      t[e + 1] = w1;
      // Secondary aging of decisive scores, important for elementary mate finding.
      if (depth8 + DEPTH_NONE >= 5 && ((w1 >>> (22 + BOUND_SHIFT)) & 3) !== BOUND_EXACT) {
        const v16 = (t[e + 2] << 16) >> 16;
        if (Math.abs(v16) < VALUE_INFINITE && (v16 >= VALUE_MATE_IN_MAX_PLY || v16 <= VALUE_MATED_IN_MAX_PLY)) {
          t[e + 1] = (w1 & ~(0xff << 14)) | (Math.max(depth8 - 1, 0) << 14);
        }
      }
    }
  }

  /** Lowers the stored depth of entry `e` (an entry whose bound did not fit the window). */
  penalize(e: number, penalty: number): void {
    const w1 = this.table[e + 1];
    const depth8 = Math.max(((w1 >>> 14) & 0xff) - penalty, 0);
    this.table[e + 1] = (w1 & ~(0xff << 14)) | (depth8 << 14);
  }

  /** Permill of the first 1000 clusters' entries written in the last `maxAge` searches. */
  hashfull(maxAge = 0): number {
    const t = this.table;
    const n = Math.min(1000, this.clusterCount);
    let cnt = 0;
    for (let c = 0; c < n; c++) {
      for (let i = 0; i < CLUSTER_SIZE; i++) {
        const w1 = t[c * CLUSTER_WORDS + i * ENTRY_WORDS + 1];
        if (((w1 >>> 14) & 0xff) !== 0 && this.relativeAge(w1) <= maxAge) cnt++;
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
