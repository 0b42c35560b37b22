// The accumulators both kinds of network keep for a search: one entry per ply
// of the position's history, in a ring of STACK_PLIES, each stamped with the key
// of the position it was computed for. This module decides which entry a
// position uses, whether it is already computed, and from which computed
// ancestor it is brought up to date: the nearest within `maxWalk` plies; one two
// or more plies back is first carried to the parent, then the position is
// updated from the parent, so the siblings evaluated next update from the
// parent one move away instead of each from the distant ancestor (in `bench`
// with Pikafish's architecture some 40% fewer feature rows and half the
// refreshes; Stockfish carries the whole chain, only the parent measured faster
// here). How an entry is computed from an ancestor is each network's own
// (AccumulatorKind). Allocates nothing after construction.

import type { Position } from '../core/position.js';

/** Plies of accumulators kept per thread (a ring indexed by ply). */
export const STACK_PLIES = 256;

/** A network's half of the accumulator stack: computing one entry. */
export interface AccumulatorKind {
  /**
   * Computes the accumulators of ply `n` of `pos` (the position as it stands) into
   * ring entry `i`, from entry `from` of the computed ancestor `dist` plies back
   * (`from` -1: none within reach; compute from scratch).
   */
  updateFrom(pos: Position, n: number, i: number, from: number, dist: number): void;
}

/** The counters the stack keeps in its network's statistics. */
export interface AccumulatorStackStats {
  /** Positions whose accumulators were already computed. */
  reused: number;
  /** Parents computed first (an ancestor two or more plies back). */
  parents: number;
}

export class AccumulatorStack {
  private readonly stampLo = new Int32Array(STACK_PLIES);
  private readonly stampHi = new Int32Array(STACK_PLIES);
  private readonly valid = new Uint8Array(STACK_PLIES);

  constructor(
    private readonly kind: AccumulatorKind,
    private readonly maxWalk: number,
    private readonly stats: AccumulatorStackStats,
  ) {}

  /** The ring entry of `pos`'s ply (its accumulators' place, whether computed or not). */
  static entryOf(pos: Position): number {
    return pos.sp & (STACK_PLIES - 1);
  }

  /** Forgets every computed entry. */
  reset(): void {
    this.valid.fill(0);
  }

  /** Brings the accumulators of `pos` up to date and returns their ring entry. */
  current(pos: Position): number {
    const n = pos.sp,
      i = n & (STACK_PLIES - 1);
    if (this.valid[i] && this.stampLo[i] === pos.keyLo[n] && this.stampHi[i] === pos.keyHi[n]) this.stats.reused++;
    else this.update(pos, n, i, true);
    return i;
  }

  /** Computes entry i (ply n) from the nearest computed ancestor, through the parent when `withParent`. */
  private update(pos: Position, n: number, i: number, withParent: boolean): void {
    let j = -1,
      dist = 0;
    for (let d = 1; d <= this.maxWalk && n - d >= 0; d++) {
      const jj = (n - d) & (STACK_PLIES - 1);
      if (this.valid[jj] && this.stampLo[jj] === pos.keyLo[n - d] && this.stampHi[jj] === pos.keyHi[n - d]) {
        j = jj;
        dist = d;
        break;
      }
    }
    if (dist >= 2 && withParent) {
      // The parent first: take the last move back, update, make the move again
      // (which rebuilds exactly the same state).
      this.stats.parents++;
      const m = pos.undoLast();
      this.update(pos, n - 1, (n - 1) & (STACK_PLIES - 1), false);
      pos.redoLast(m);
      j = (n - 1) & (STACK_PLIES - 1);
      dist = 1;
    }
    this.kind.updateFrom(pos, n, i, j, dist);
    this.valid[i] = 1;
    this.stampLo[i] = pos.keyLo[n];
    this.stampHi[i] = pos.keyHi[n];
  }
}
