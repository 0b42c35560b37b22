// What the search threads of one `go` share besides the transposition table
// (Lazy SMP, as Pikafish's ThreadPool): a SharedArrayBuffer created per search
// by the engine and handed to every thread with the `go`.
//
// Int32 words:
//   [0] started: 0 until the main thread has set up the search (cleared the
//       table if it had to, started a new table generation), then 1; helpers
//       wait for it so that they never write into a table about to be cleared.
//       -1: the main thread answered without searching (stopped before it began).
//   [1] the table generation of this search (helpers adopt it).
//   [2] thread count.
//   then per thread a record of REC_WORDS words:
//     state (0 not begun, 1 searching, 2 done: result written, or never begun
//     because the main thread finished first and claimed it), score,
//     bound flags (1 lower, 2 upper), completed depth, root depth, selDepth,
//     PV length, previous score, average score, best-move changes not yet
//     read by the main thread, PV moves.
// After the records, a Float64Array of node counts (one per thread) that each
// thread publishes as it polls; `info` and the node limit read their sum.

import { MAX_PLY, type Move } from '../core/types.js';

const HEADER_WORDS = 4;
const PV_CAP = MAX_PLY + 2;
const REC_WORDS = 10 + PV_CAP;

const R_DONE = 0;
const R_SCORE = 1;
const R_BOUND = 2;
const R_COMPLETED = 3;
const R_ROOT_DEPTH = 4;
const R_SELDEPTH = 5;
const R_PV_LEN = 6;
const R_PREV = 7;
const R_AVG = 8;
const R_BEST_MOVE_CHANGES = 9;
const R_PV = 10;

/** The most threads a search may use (the `Threads` option's maximum). */
export const MAX_THREADS = 1024;

/** One thread's result as the best-thread choice needs it. */
export interface ThreadResult {
  index: number;
  score: number;
  lowerbound: boolean;
  upperbound: boolean;
  completedDepth: number;
  rootDepth: number;
  selDepth: number;
  previousScore: number;
  averageScore: number;
  pv: Move[];
}

export class SharedSearch {
  readonly i32: Int32Array;
  readonly nodes: Float64Array;
  readonly threads: number;

  constructor(readonly buffer: SharedArrayBuffer) {
    this.i32 = new Int32Array(buffer);
    this.threads = this.i32[2];
    const nodeOffset = align8((HEADER_WORDS + this.threads * REC_WORDS) * 4);
    this.nodes = new Float64Array(buffer, nodeOffset, this.threads);
  }

  /** A fresh shared area for a search with `threads` threads. */
  static create(threads: number): SharedSearch {
    const nodeOffset = align8((HEADER_WORDS + threads * REC_WORDS) * 4);
    const buffer = new SharedArrayBuffer(nodeOffset + threads * 8);
    new Int32Array(buffer)[2] = threads;
    return new SharedSearch(buffer);
  }

  // ---- Start-up ordering ---------------------------------------------------------

  /** Main thread: the table is ready for this search (generation g); helpers may start. */
  publishStart(generation: number): void {
    Atomics.store(this.i32, 1, generation);
    Atomics.store(this.i32, 0, 1);
    Atomics.notify(this.i32, 0);
  }

  /** Main thread: it answered without searching; helpers should not search either. */
  publishNoSearch(): void {
    Atomics.store(this.i32, 0, -1);
    Atomics.notify(this.i32, 0);
  }

  /**
   * Helper: waits until the main thread has started (or `stop` is set).
   * Returns the table generation, or -1 when the helper should not search.
   */
  awaitStart(signals: Int32Array): number {
    for (;;) {
      const s = Atomics.load(this.i32, 0);
      if (s === 1) return Atomics.load(this.i32, 1);
      if (s === -1) return -1;
      if (Atomics.load(signals, 0) !== 0) return -1;
      Atomics.wait(this.i32, 0, 0, 20);
    }
  }

  // ---- Node counts ----------------------------------------------------------------

  publishNodes(index: number, nodes: number): void {
    this.nodes[index] = nodes;
  }

  /** Nodes of all threads (each thread's count as last published; the caller's own is exact). */
  totalNodes(index: number, own: number): number {
    let sum = own;
    const n = this.nodes;
    for (let i = 0; i < n.length; i++) if (i !== index) sum += n[i];
    return sum;
  }

  // ---- Best-move changes (time management) -----------------------------------------

  /** Helper: its root best move changed (the main thread's time management reads these). */
  addBestMoveChange(index: number): void {
    Atomics.add(this.i32, HEADER_WORDS + index * REC_WORDS + R_BEST_MOVE_CHANGES, 1);
  }

  /** Main thread: the helpers' best-move changes since the last call (they are reset). */
  takeBestMoveChanges(): number {
    let sum = 0;
    for (let i = 1; i < this.threads; i++)
      sum += Atomics.exchange(this.i32, HEADER_WORDS + i * REC_WORDS + R_BEST_MOVE_CHANGES, 0);
    return sum;
  }

  // ---- Results --------------------------------------------------------------------

  /**
   * Helper: claims its part in this search. False when the main thread has
   * already finished without it (a helper still starting up, or behind in its
   * queue): then it must not search.
   */
  begin(index: number): boolean {
    return Atomics.compareExchange(this.i32, HEADER_WORDS + index * REC_WORDS + R_DONE, 0, 1) === 0;
  }

  /** A thread has finished: writes its result and marks it done (even with an empty PV). */
  finish(index: number, r: Omit<ThreadResult, 'index'> | null, nodes: number): void {
    const base = HEADER_WORDS + index * REC_WORDS;
    const w = this.i32;
    this.nodes[index] = nodes;
    if (r) {
      w[base + R_SCORE] = r.score;
      w[base + R_BOUND] = (r.lowerbound ? 1 : 0) | (r.upperbound ? 2 : 0);
      w[base + R_COMPLETED] = r.completedDepth;
      w[base + R_ROOT_DEPTH] = r.rootDepth;
      w[base + R_SELDEPTH] = r.selDepth;
      w[base + R_PREV] = r.previousScore;
      w[base + R_AVG] = r.averageScore;
      const len = Math.min(r.pv.length, PV_CAP);
      for (let i = 0; i < len; i++) w[base + R_PV + i] = r.pv[i];
      w[base + R_PV_LEN] = len;
    } else w[base + R_PV_LEN] = 0;
    Atomics.store(w, base + R_DONE, 2);
    Atomics.notify(w, base + R_DONE);
  }

  /** Marks a thread done without a result (its worker died): nobody waits for it forever. */
  abandon(index: number): void {
    const base = HEADER_WORDS + index * REC_WORDS;
    Atomics.store(this.i32, base + R_DONE, 2);
    Atomics.notify(this.i32, base + R_DONE);
  }

  isDone(index: number): boolean {
    return Atomics.load(this.i32, HEADER_WORDS + index * REC_WORDS + R_DONE) === 2;
  }

  /**
   * Main thread (after setting stop): waits until every helper that began this
   * search has finished, for at most `maxWaitMs` (helpers poll the stop flag
   * every few hundred nodes, so they end within microseconds when they get a
   * core; on an overloaded machine a descheduled helper must not cost the game
   * on time: the main thread then answers without it, and the helper's late
   * result is never read). A helper that has not begun yet is marked done
   * instead (it will skip the search), so a slow-starting thread never delays
   * `bestmove`.
   */
  waitHelpers(maxWaitMs = 25): void {
    const deadline = performance.now() + maxWaitMs;
    for (let i = 1; i < this.threads; i++) {
      const at = HEADER_WORDS + i * REC_WORDS + R_DONE;
      if (Atomics.compareExchange(this.i32, at, 0, 2) === 0) continue;
      for (;;) {
        if (Atomics.load(this.i32, at) !== 1) break;
        const left = deadline - performance.now();
        if (left <= 0) break;
        Atomics.wait(this.i32, at, 1, Math.min(left, 5));
      }
    }
  }

  /** A finished thread's result (null when it has none: no PV). */
  result(index: number): ThreadResult | null {
    const base = HEADER_WORDS + index * REC_WORDS;
    const w = this.i32;
    const len = w[base + R_PV_LEN];
    if (!isDoneWord(w, base) || len <= 0) return null;
    const pv: Move[] = [];
    for (let i = 0; i < len; i++) pv.push(w[base + R_PV + i]);
    const b = w[base + R_BOUND];
    return {
      index,
      score: w[base + R_SCORE],
      lowerbound: (b & 1) !== 0,
      upperbound: (b & 2) !== 0,
      completedDepth: w[base + R_COMPLETED],
      rootDepth: w[base + R_ROOT_DEPTH],
      selDepth: w[base + R_SELDEPTH],
      previousScore: w[base + R_PREV],
      averageScore: w[base + R_AVG],
      pv,
    };
  }
}

function isDoneWord(w: Int32Array, base: number): boolean {
  return Atomics.load(w, base + R_DONE) === 2;
}

function align8(n: number): number {
  return (n + 7) & ~7;
}

/**
 * Pikafish's ThreadPool::get_best_thread: every thread votes for its best move
 * with weight (score - lowest score + 14); the thread with the most-voted move
 * wins (a longer PV breaks ties); a proven win or loss (exact score) prefers
 * the shortest mate. `results[0]` is the main thread. Returns an index into
 * `results`.
 */
export function chooseBestThread(
  results: readonly ThreadResult[],
  isDecisive: (v: number) => boolean,
  isLoss: (v: number) => boolean,
  scoreNone: number,
): number {
  if (results.length === 0) return -1;
  let minScore = Infinity;
  for (const r of results) minScore = Math.min(minScore, r.score);
  const votes = new Map<Move, number>();
  for (const r of results) votes.set(r.pv[0], (votes.get(r.pv[0]) ?? 0) + r.score - minScore + 14);
  let best = 0;
  for (let i = 0; i < results.length; i++) {
    const b = results[best],
      n = results[i];
    const bVote = votes.get(b.pv[0]) ?? 0,
      nVote = votes.get(n.pv[0]) ?? 0;
    const bDecisive = b.score !== scoreNone && isDecisive(b.score) && !(b.lowerbound || b.upperbound);
    const nDecisive = n.score !== scoreNone && isDecisive(n.score) && !(n.lowerbound || n.upperbound);
    if (bDecisive) {
      if (nDecisive && Math.abs(n.score) > Math.abs(b.score)) best = i;
    } else if (nDecisive || (!isLoss(n.score) && (nVote > bVote || (nVote === bVote && n.pv.length > b.pv.length))))
      best = i;
  }
  return best;
}
