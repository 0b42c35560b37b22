// History statistics that the search learns while it runs: move ordering
// (main/butterfly, low-ply, capture, continuation, pawn-structure histories)
// and static-evaluation correction (pawn, minor, non-pawn, continuation).
//
// Every table is a flat Int16Array; an update moves an entry towards the bonus
// and saturates at +-D (Pikafish's StatsEntry::operator<<):
//   v += clamp(bonus) - v * |clamp(bonus)| / D
// The tables that Pikafish shares between threads (continuation, pawn and
// correction histories) are allocated on SharedArrayBuffers.

import { PIECE_NB, SQUARE_NB } from '../core/types.js';
import { isShared, PAGE_WORDS, touchPages } from './pages.js';

const MAIN_HISTORY_LIMIT = 7183;
export const LOW_PLY_HISTORY_LIMIT = 7183;
export const CAPTURE_HISTORY_LIMIT = 10692;
const CONT_HISTORY_LIMIT = 30000;
const PAWN_HISTORY_LIMIT = 8192;
export const CORRECTION_HISTORY_LIMIT = 1024;
const TT_MOVE_HISTORY_LIMIT = 8192;

export const LOW_PLY_HISTORY_SIZE = 5;
const PAWN_HISTORY_SIZE = 8192;
const CORRHIST_SIZE = 65536;
/** Entries of a [piece][to] table. */
export const PIECE_TO = PIECE_NB * SQUARE_NB; // 1440

/** The start of a pawn structure's [piece][to] block in the pawn history (from the position's pawn key). */
export function pawnHistoryBase(pawnKey: number): number {
  return (pawnKey & (PAWN_HISTORY_SIZE - 1)) * PIECE_TO;
}

/** Stride of a move-indexed (butterfly) table: from << 7 | to < 2^14. */
export const BUTTERFLY = 1 << 14;

function int16(n: number, shared: boolean): Int16Array {
  const Sab = (globalThis as { SharedArrayBuffer?: typeof SharedArrayBuffer }).SharedArrayBuffer;
  return shared && Sab ? new Int16Array(new Sab(n * 2)) : new Int16Array(n);
}

/**
 * Fills an Int16Array with v. A shared Int16Array's own fill() goes element by
 * element (tens of ms for the continuation history); two entries per int32 do not.
 */
function fill16(t: Int16Array, v: number): void {
  if ((t.length & 1) === 0 && (t.byteOffset & 3) === 0) {
    new Int32Array(t.buffer, t.byteOffset, t.length >> 1).fill((v & 0xffff) | (v << 16));
  } else t.fill(v);
}

/** Zeroes the [piece][to] tables of `t` marked in `used` (their starting values) and unmarks them. */
function clearUsed(t: Int16Array, used: Uint8Array): void {
  const words = new Int32Array(t.buffer, t.byteOffset, t.length >> 1);
  const half = PIECE_TO >> 1;
  for (let i = 0; i < used.length; i++) {
    if (used[i] === 0) continue;
    used[i] = 0;
    words.fill(0, i * half, (i + 1) * half);
  }
}

/**
 * Starting values of the three large tables (Pikafish's), which store each
 * entry minus its starting value: a fresh (zeroed) table holds the starting
 * values without being written, so a new Histories touches none of their 44 MB
 * (first touches of fresh memory are slow) and a clear writes zeros. Readers
 * add the starting value back (a sum of n entries adds n times it).
 */
export const CONT_HISTORY_START = -436;
export const CONT_CORRECTION_START = 7;
export const PAWN_HISTORY_START = -1247;

/** The saturating update of one entry of a table stored relative to `start`. */
function updateRelativeEntry(t: Int16Array, i: number, bonus: number, d: number, start: number): void {
  const b = bonus > d ? d : bonus < -d ? -d : bonus;
  const v = t[i] + start;
  t[i] = v + b - (((v * (b < 0 ? -b : b)) / d) | 0) - start;
}

/** The saturating update of one entry. */
export function updateEntry(t: Int16Array, i: number, bonus: number, d: number): void {
  const b = bonus > d ? d : bonus < -d ? -d : bonus;
  const v = t[i];
  t[i] = v + b - (((v * (b < 0 ? -b : b)) / d) | 0);
}

export class Histories {
  /** [color][move] */
  readonly main = new Int16Array(2 * BUTTERFLY);
  /** [ply < 5][move] */
  readonly lowPly = new Int16Array(LOW_PLY_HISTORY_SIZE * BUTTERFLY);
  /** [piece][to][captured type] */
  readonly capture = new Int16Array(PIECE_NB * SQUARE_NB * 8);
  /**
   * Continuation histories [inCheck][capture][piece][to] -> a [piece][to] table:
   * a table starts at contOffset(inCheck, capture, piece, to). The table at
   * offset 0 ([0][0][NO_PIECE][0]) is the sentinel used before the root.
   * Stored relative to CONT_HISTORY_START.
   */
  readonly cont: Int16Array;
  /** Continuation correction [piece][to] -> [piece][to] table, offset (piece * 90 + to) * 1440; relative to CONT_CORRECTION_START. */
  readonly contCorr: Int16Array;
  /** [pawn key & (PAWN_HISTORY_SIZE - 1)][piece][to], relative to PAWN_HISTORY_START. */
  readonly pawn: Int16Array;
  /**
   * Unified correction history [key & 65535][color][4]: field 0 = pawn (indexed by
   * the pawn key), 1 = minor pieces, 2 = red non-pawn, 3 = black non-pawn.
   */
  readonly correction: Int16Array;
  ttMoveHistory = 0;
  /**
   * Which [piece][to] tables of `cont`, `contCorr` and `pawn` (by table number:
   * offset / PIECE_TO) the search has written since the last clear: clear()
   * resets only those (the three hold 44 of the 45 MB, and a game writes a small
   * part of them). They are written only through updateCont, updateContCorr
   * and updatePawn, which mark the entry's table. The marks belong to this object: tables shared
   * with another thread's Histories would need that thread's marks too.
   */
  readonly contUsed = new Uint8Array(2 * 2 * PIECE_TO);
  readonly contCorrUsed = new Uint8Array(PIECE_TO);
  readonly pawnUsed = new Uint8Array(PAWN_HISTORY_SIZE);
  /**
   * Which 128-entry blocks of `main` (index >> 7: the side and the from-square)
   * may hold a value other than 0: newSearch decays only those (a value of 0
   * stays 0), and unmarks a block that has decayed to all zeros. `main` is
   * written only through updateMain, which marks the entry's block.
   */
  private readonly mainLive = new Uint8Array((2 * BUTTERFLY) >> 7);

  constructor() {
    this.cont = int16(2 * 2 * PIECE_TO * PIECE_TO, true);
    this.contCorr = int16(PIECE_TO * PIECE_TO, true);
    this.pawn = int16(PAWN_HISTORY_SIZE * PIECE_TO, true);
    this.correction = int16(CORRHIST_SIZE * 2 * 4, true);
    this.clearSmall();
  }

  /** Resets everything to Pikafish's starting values (new game): the tables written since the last clear. */
  clear(): void {
    this.clearSmall();
    clearUsed(this.contCorr, this.contCorrUsed);
    clearUsed(this.cont, this.contUsed);
    clearUsed(this.pawn, this.pawnUsed);
  }

  /**
   * Brings in the pages of the three relative tables that are not in memory yet,
   * `pages` 4 KB pages at a time from where the last call stopped (an atomic
   * compare-exchange of 0 with 0 per page, which changes no entry); true when
   * all are done. The search thread calls it in slices while idle after its
   * warm-up, so the tables (untouched when made) are in memory before the games
   * run and the process's memory does not grow during them.
   */
  prefaultSome(pages: number): boolean {
    const tables = [this.cont, this.contCorr, this.pawn];
    while (pages > 0 && this.prefaultTable < tables.length) {
      const t = tables[this.prefaultTable];
      const words = new Int32Array(t.buffer, t.byteOffset, t.length >> 1);
      const from = this.prefaultWord;
      this.prefaultWord = touchPages(words, from, pages);
      pages -= Math.ceil((this.prefaultWord - from) / PAGE_WORDS);
      if (this.prefaultWord >= words.length) {
        this.prefaultTable++;
        this.prefaultWord = 0;
      }
    }
    return this.prefaultTable >= tables.length;
  }

  /** The storage of the three large tables where it is shared memory (another thread can bring its pages in). */
  pageBuffers(): SharedArrayBuffer[] {
    return [this.cont, this.contCorr, this.pawn].filter(isShared).map((t) => t.buffer as SharedArrayBuffer);
  }

  private prefaultTable = 0;
  private prefaultWord = 0;

  private clearSmall(): void {
    fill16(this.main, -5);
    this.mainLive.fill(1);
    fill16(this.lowPly, 0);
    fill16(this.capture, -607);
    fill16(this.correction, -6);
    this.ttMoveHistory = 0;
  }

  /** The saturating update of main[index] (the only way it is written: it marks the entry's block). */
  updateMain(index: number, bonus: number): void {
    this.mainLive[index >> 7] = 1;
    updateEntry(this.main, index, bonus, MAIN_HISTORY_LIMIT);
  }

  /** The saturating update of cont[index] (the only way it is written: it marks the entry's table). */
  updateCont(index: number, bonus: number): void {
    this.contUsed[(index / PIECE_TO) | 0] = 1;
    updateRelativeEntry(this.cont, index, bonus, CONT_HISTORY_LIMIT, CONT_HISTORY_START);
  }

  /** The saturating update of contCorr[index] (marking the entry's table). */
  updateContCorr(index: number, bonus: number): void {
    this.contCorrUsed[(index / PIECE_TO) | 0] = 1;
    updateRelativeEntry(this.contCorr, index, bonus, CORRECTION_HISTORY_LIMIT, CONT_CORRECTION_START);
  }

  /** The saturating update of pawn[index] (marking the entry's table). */
  updatePawn(index: number, bonus: number): void {
    this.pawnUsed[(index / PIECE_TO) | 0] = 1;
    updateRelativeEntry(this.pawn, index, bonus, PAWN_HISTORY_LIMIT, PAWN_HISTORY_START);
  }

  /** Start of a search: low-ply history restarts, main history decays. */
  newSearch(): void {
    fill16(this.lowPly, 99);
    // Each entry becomes trunc(v * 768 / 1024) = trunc(3v / 4), in integer steps.
    const m = this.main,
      live = this.mainLive;
    for (let block = 0; block < live.length; block++) {
      if (live[block] === 0) continue;
      let any = 0;
      for (let i = block << 7, end = i + 128; i < end; i++) {
        const x = m[i] * 3;
        const v = (x + ((x >> 31) & 3)) >> 2;
        m[i] = v;
        any |= v;
      }
      if (any === 0) live[block] = 0;
    }
  }

  static contOffset(inCheck: number, capture: number, piece: number, to: number): number {
    return (((inCheck * 2 + capture) * PIECE_NB + piece) * SQUARE_NB + to) * PIECE_TO;
  }

  static contCorrOffset(piece: number, to: number): number {
    return (piece * SQUARE_NB + to) * PIECE_TO;
  }

  updateTTMoveHistory(bonus: number): void {
    const d = TT_MOVE_HISTORY_LIMIT;
    const b = bonus > d ? d : bonus < -d ? -d : bonus;
    const v = this.ttMoveHistory;
    this.ttMoveHistory = v + b - (((v * (b < 0 ? -b : b)) / d) | 0);
  }
}
