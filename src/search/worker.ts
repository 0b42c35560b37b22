// The search thread. The protocol thread never searches: it posts `go`
// messages here and keeps reading commands, so `isready` and `stop` are answered
// within milliseconds. Stop/ponderhit travel through a SharedArrayBuffer that
// each `go` brings with it (signals[0] = stop, signals[1] = ponderhit).
//
// With Threads > 1 the engine runs several of these workers (Lazy SMP): thread 0
// is the main thread (time, `info`, the answer); the others are helpers that
// search the same root on the same shared transposition table (a 'tt' message
// brings its SharedArrayBuffer) and report to the main thread through the
// `shared` buffer of each `go` (src/search/threads.ts), never to the engine.

import { parentPort, workerData } from '#platform/thread-host';
import type { FenErrorCode } from '../core/fen.js';
import { Position } from '../core/position.js';
import type { Result } from '../core/result.js';
import type { Move } from '../core/types.js';
import { networkFromHandle, type EvalNetwork, type EvalNetworkHandle } from '../eval/networks.js';
import { Searcher } from './search.js';
import { DEFAULT_SEARCH_OPTIONS, type SearchLimits, type SearchOptions, type StaticEvaluation } from './types.js';
import { warmupJobs } from './warmup.js';
import { SharedSearch } from './threads.js';

export type ToWorker =
  | {
      type: 'go';
      id: number;
      fen: string;
      moves: Move[];
      limits: SearchLimits;
      options: SearchOptions;
      signals: SharedArrayBuffer;
      /** Lazy SMP state of this search (src/search/threads.ts); absent with one thread. */
      shared?: SharedArrayBuffer;
    }
  /** The shared transposition table (every thread attaches the same buffer). */
  | { type: 'tt'; buffer: ArrayBufferLike }
  | { type: 'clear' }
  | { type: 'hashfull'; id: number }
  | { type: 'net'; net: EvalNetworkHandle | null }
  /** The static evaluation of a game's position, as this thread's searches evaluate it. */
  | { type: 'eval'; id: number; fen: string; moves: Move[] }
  /**
   * The first message: warm up (when `warmup` is given), then answer 'ready'.
   * Thread 0 always gets one; a helper only when it is to warm up.
   */
  | { type: 'start'; warmup: Warmup | null };

export type FromWorker =
  | { type: 'info'; id: number; info: import('./types.js').SearchInfo }
  | { type: 'text'; id: number; line: string }
  | { type: 'done'; id: number; result: import('./types.js').SearchResult }
  | { type: 'hashfull'; id: number; value: number }
  | { type: 'eval'; id: number; result: StaticEvaluation }
  | { type: 'eval-error'; id: number; message: string }
  /** The thread is up and its warm-up (if asked for) is done. */
  | { type: 'ready' }
  /**
   * Sent by thread 0 on 'start', before the warm-up: the history tables' shared
   * storage, whose pages the engine's thread brings in meanwhile (the warm-up
   * writes only some). A helper brings its own in after its warm-up.
   */
  | { type: 'histories'; buffers: SharedArrayBuffer[] }
  | { type: 'error'; id: number; message: string };

/** The data a search thread starts with (workerData). */
export interface WorkerStart {
  /** The thread's index in the pool: 0 the main search thread, then the Lazy SMP helpers. */
  index?: number;
}

/** What the warm-up of a 'start' message works with. */
export interface Warmup {
  /** [0] set to end the warm-up early. */
  abort: SharedArrayBuffer;
  /**
   * A fresh (empty) transposition table of the size the searches will use: the
   * warm-up searches in it, then empties it again, so the optimised code is
   * compiled for the real table and its pages are in memory before the first `go`.
   */
  tt?: ArrayBufferLike;
  /** The network the engine evaluates with at start-up: the warm-up evaluates with it too. */
  net?: EvalNetworkHandle | null;
  /** Nodes of deeper searches after the usual warm-up (the platform's WARMUP_EXTRA_NODES). */
  extraNodes?: number;
}

const port = parentPort;
if (!port) throw new Error('worker.ts must run in a worker thread');

const data = (workerData ?? {}) as WorkerStart;
/** This thread's index in the pool: 0 = main thread; its NNUE work slot is index + 1 (slot 0 is the engine's). */
const threadIndex = data.index ?? 0;
/** The table storage arrives with a 'tt' message before the first search. */
const searcher = new Searcher(0);
/**
 * A `clear` (ucinewgame, Clear Hash) is done when the next search (or hashfull)
 * needs it: a burst of them costs one clear, and a `quit` does not wait for clears
 * no search will see. Searches see exactly the same tables as with eager clears.
 */
let clearPending = false;
function settleClear(): void {
  if (clearPending) {
    clearPending = false;
    // The table is shared: the main thread clears it, every thread its own histories.
    searcher.clear(threadIndex === 0);
  }
}

/** The game the engine sent, as a position (the engine accepted its FEN when it set the game). */
function gamePosition(fen: string, moves: readonly Move[]): Result<Position, FenErrorCode> {
  const r = Position.fromFen(fen);
  if (r.ok) for (const m of moves) r.value.doMove(m);
  return r;
}

/** One search, the same code for a `go` and for the warm-up (so the warm-up compiles what a `go` runs). */
function runSearch(
  s: Searcher,
  pos: Position,
  limits: SearchLimits,
  options: SearchOptions,
  signals: Int32Array,
  id: number,
  send: (m: FromWorker) => void,
  shared?: SharedSearch,
): import('./types.js').SearchResult {
  return s.search(pos, limits, options, {
    signals,
    info: (info) => send({ type: 'info', id, info }),
    text: (line) => send({ type: 'text', id, line }),
    shared,
    threadIndex,
  });
}

// The warm-up (a 'start' message, before any other): messages sent meanwhile
// (a `go`) wait in the port's queue. It searches with a scratch Searcher that
// borrows the search thread's histories (reset to their starting values after
// it: cheaper than first touching a second set of 40 MB); its table is the real
// one when the engine sends a fresh table (then emptied again: an empty table is
// all zeros), else a scratch one. So the real Searcher's tables and histories
// (and `bench`) are as if it had not run. Limits and options cross a structured
// clone, as a `go`'s do through postMessage, so the optimised code sees objects
// of the shapes real searches bring. The thread may be started before the engine
// has its table and network (src/engine/prestart.ts): its
// modules load and its tables are built meanwhile, and the warm-up waits for them.
function warmUp(w: Warmup, post: (m: FromWorker) => void): void {
  try {
    const abort = new Int32Array(w.abort);
    const scratch = new Searcher(w.tt ? 0 : 1, searcher.hist);
    if (w.tt) scratch.tt.attach(w.tt);
    if (w.net) scratch.setNetwork(networkFromHandle(w.net), threadIndex + 1);
    const discard = (): void => {};
    for (const job of warmupJobs(w.extraNodes ?? 0)) {
      if (Atomics.load(abort, 0) !== 0) break;
      const { fen, limits } = job();
      const pos = gamePosition(fen, []);
      if (pos.ok)
        runSearch(
          scratch,
          pos.value,
          structuredClone(limits),
          structuredClone(DEFAULT_SEARCH_OPTIONS),
          abort,
          0,
          discard,
        );
    }
    scratch.tt.clear();
  } catch (e) {
    // A failed warm-up costs speed, not correctness.
    post({ type: 'text', id: 0, line: `warm-up failed: ${(e as Error).message}` });
  } finally {
    searcher.hist.clear();
  }
}

/**
 * After the warm-up, the history tables' pages are brought into memory in
 * slices of 4,096 pages (16 MB, about 50 ms where first touches are slow), one
 * slice per turn of the event loop, so a `go` that arrives meanwhile waits for
 * one slice at most, and the process's memory is what it will stay at before
 * its games run (the soak test checks that it does not grow). The engine's
 * thread has usually brought them in during the warm-up (the 'histories'
 * message): then this only finds them there.
 */
function prefaultHistories(): void {
  if (!searcher.hist.prefaultSome(4096)) setTimeout(prefaultHistories, 0);
}

let network: EvalNetwork | null = null;

port.on('message', (msg: ToWorker) => {
  const post = (m: FromWorker) => port.postMessage(m);
  switch (msg.type) {
    case 'start':
      if (threadIndex === 0) post({ type: 'histories', buffers: searcher.hist.pageBuffers() });
      if (msg.warmup) warmUp(msg.warmup, post);
      post({ type: 'ready' });
      prefaultHistories();
      break;
    case 'go': {
      const signals = new Int32Array(msg.signals);
      const shared = msg.shared ? new SharedSearch(msg.shared) : undefined;
      if (threadIndex > 0) {
        // A helper: its result goes to the main thread through `shared`; the
        // engine hears only from thread 0. It always marks itself done.
        try {
          if (!shared || !shared.begin(threadIndex)) break; // the main thread finished without this one
          if (Atomics.load(signals, 0) !== 0) {
            shared.finish(threadIndex, null, 0);
            break;
          }
          settleClear();
          const pos = gamePosition(msg.fen, msg.moves);
          if (pos.ok) runSearch(searcher, pos.value, msg.limits, msg.options, signals, msg.id, () => {}, shared);
          else post({ type: 'text', id: 0, line: `ERROR: search thread ${threadIndex}: ${pos.error.message}` });
        } catch (e) {
          post({ type: 'text', id: 0, line: `ERROR: search thread ${threadIndex} failed: ${(e as Error).message}` });
        } finally {
          if (shared && !shared.isDone(threadIndex)) shared.abandon(threadIndex);
        }
        break;
      }
      try {
        const pos = gamePosition(msg.fen, msg.moves);
        if (!pos.ok) {
          Atomics.store(signals, 0, 1);
          shared?.publishNoSearch();
          post({ type: 'error', id: msg.id, message: pos.error.message });
          break;
        }
        if (Atomics.load(signals, 0) !== 0) {
          shared?.publishNoSearch();
          // Stopped before it began: no search, the first root move and its info line.
          const result = searcher.answerStopped(pos.value, msg.limits, msg.options, {
            signals,
            info: (info) => post({ type: 'info', id: msg.id, info }),
            text: (line) => post({ type: 'text', id: msg.id, line }),
          });
          post({ type: 'done', id: msg.id, result });
          break;
        }
        settleClear();
        const result = runSearch(searcher, pos.value, msg.limits, msg.options, signals, msg.id, post, shared);
        post({ type: 'done', id: msg.id, result });
      } catch (e) {
        // Helpers must not search on for a main thread that failed.
        Atomics.store(signals, 0, 1);
        shared?.publishNoSearch();
        post({ type: 'error', id: msg.id, message: (e as Error).stack ?? String(e) });
      }
      break;
    }
    case 'tt':
      searcher.tt.attach(msg.buffer);
      break;
    case 'net':
      // The weights arrive in shared memory: every thread reads the same copy,
      // each in its own work slot.
      network = msg.net ? networkFromHandle(msg.net) : null;
      try {
        searcher.setNetwork(network, threadIndex + 1);
      } catch (e) {
        // No work slot for this thread (the memory could not grow): it evaluates classically.
        searcher.setNetwork(null);
        post({ type: 'text', id: 0, line: `ERROR: search thread ${threadIndex}: ${(e as Error).message}` });
      }
      break;
    case 'clear':
      clearPending = true;
      break;
    case 'hashfull':
      // bench asks before its clock starts: the pending clear and the histories'
      // first touches (else done in idle slices) are then behind it.
      settleClear();
      while (!searcher.hist.prefaultSome(1 << 20));
      post({ type: 'hashfull', id: msg.id, value: searcher.hashfull() });
      break;
    case 'eval':
      try {
        const pos = gamePosition(msg.fen, msg.moves);
        if (pos.ok) post({ type: 'eval', id: msg.id, result: searcher.staticEvaluation(pos.value) });
        else post({ type: 'eval-error', id: msg.id, message: pos.error.message });
      } catch (e) {
        post({ type: 'eval-error', id: msg.id, message: (e as Error).message });
      }
      break;
  }
});
