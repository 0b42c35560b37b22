// The search thread. The protocol thread never searches: it posts `go`
// messages here and keeps reading commands, so `isready` and `stop` are answered
// within milliseconds. Stop/ponderhit travel through a SharedArrayBuffer that
// each `go` brings with it (signals[0] = stop, signals[1] = ponderhit).

import { parentPort, workerData } from './thread-host.js';
import { Position } from '../core/position.js';
import { generate } from '../core/movegen.js';
import { GEN_LEGAL, MAX_MOVES, MOVE_NONE, type Move } from '../core/types.js';
import { applyWeightsFromEnvironment } from '../eval/classical.js';
import { NnueNetwork, type NetworkHandle } from '../eval/nnue/network.js';
import { Searcher } from './search.js';
import type { SearchLimits, SearchOptions } from './types.js';
import { WARMUP_OPTIONS, warmupJobs } from './warmup.js';

export type ToWorker =
  | {
      type: 'go';
      id: number;
      fen: string;
      moves: Move[];
      limits: SearchLimits;
      options: SearchOptions;
      signals: SharedArrayBuffer;
    }
  | { type: 'hash'; mb: number }
  | { type: 'clear' }
  | { type: 'hashfull'; id: number }
  | { type: 'net'; net: NetworkHandle | null };

export type FromWorker =
  | { type: 'info'; id: number; info: import('./types.js').SearchInfo }
  | { type: 'text'; id: number; line: string }
  | { type: 'done'; id: number; result: import('./types.js').SearchResult }
  | { type: 'hashfull'; id: number; value: number }
  /** The thread is up and its warm-up (if asked for) is done. */
  | { type: 'ready' }
  | { type: 'error'; id: number; message: string };

/** The data a search thread starts with (workerData). */
export interface WorkerStart {
  /** Run the warm-up search before reading messages. */
  warmup?: boolean;
  /** [0] set to end the warm-up early. */
  abort?: SharedArrayBuffer;
}

const port = parentPort;
if (!port) throw new Error('worker.ts must run in a worker thread');
const weights = applyWeightsFromEnvironment();
if (!weights.ok)
  port.postMessage({ type: 'text', id: 0, line: `ERROR: ${weights.error.message}` } satisfies FromWorker);

let searcher = new Searcher(16);
/**
 * A `clear` (ucinewgame, Clear Hash) is done when the next search (or hashfull)
 * needs it: a burst of them costs one clear, and a `quit` does not wait for clears
 * no search will see. Searches see exactly the same tables as with eager clears.
 */
let clearPending = false;
function settleClear(): void {
  if (clearPending) {
    clearPending = false;
    searcher.clear();
  }
}

/** One search, the same code for a `go` and for the warm-up (so the warm-up compiles what a `go` runs). */
function runSearch(
  s: Searcher,
  fen: string,
  moves: readonly Move[],
  limits: SearchLimits,
  options: SearchOptions,
  signals: Int32Array,
  id: number,
  send: (m: FromWorker) => void,
): import('./types.js').SearchResult {
  const pos = new Position(fen);
  for (const m of moves) pos.doMove(m);
  return s.search(pos, limits, options, {
    signals,
    info: (info) => send({ type: 'info', id, info }),
    text: (line) => send({ type: 'text', id, line }),
  });
}

// Warm-up before the first message is read: messages sent meanwhile (a `go`)
// wait in the port's queue. The warm-up searches its own scratch tables, so the
// real Searcher's tables and histories (and `bench`) are untouched.
const data = (workerData ?? {}) as WorkerStart;
if (data.warmup && data.abort) {
  try {
    const abort = new Int32Array(data.abort);
    const scratch = new Searcher(1);
    const discard = (): void => {};
    for (const job of warmupJobs()) {
      if (Atomics.load(abort, 0) !== 0) break;
      const { fen, limits } = job();
      runSearch(scratch, fen, [], limits, WARMUP_OPTIONS, abort, 0, discard);
    }
  } catch (e) {
    // A failed warm-up costs speed, not correctness.
    port.postMessage({ type: 'text', id: 0, line: `warm-up failed: ${(e as Error).message}` } satisfies FromWorker);
  }
}
port.postMessage({ type: 'ready' } satisfies FromWorker);

const legalScratch = new Int32Array(MAX_MOVES);
/**
 * The answer of a search stopped before it began: the first root move, as a search
 * stopped at its first poll returns (the first legal move in generation order, or
 * the first legal one of `searchmoves`), without touching the tables. So a queue of
 * stopped searches (a GUI that sent go/stop faster than they ran, or `quit`) drains
 * in microseconds.
 */
function stoppedAnswer(pos: Position, limits: SearchLimits): import('./types.js').SearchResult {
  const n = generate(pos, GEN_LEGAL, legalScratch, 0);
  let best: Move = n > 0 ? legalScratch[0] : MOVE_NONE;
  for (const m of limits.searchmoves ?? []) {
    let legal = false;
    for (let i = 0; i < n; i++) if (legalScratch[i] === m) legal = true;
    if (legal) {
      best = m;
      break;
    }
  }
  return { bestMove: best, ponderMove: MOVE_NONE, score: 0, nodes: 0, depth: 0 };
}

let network: NnueNetwork | null = null;

port.on('message', (msg: ToWorker) => {
  const post = (m: FromWorker) => port.postMessage(m);
  switch (msg.type) {
    case 'go': {
      try {
        const signals = new Int32Array(msg.signals);
        if (Atomics.load(signals, 0) !== 0) {
          const pos = new Position(msg.fen);
          for (const m of msg.moves) pos.doMove(m);
          post({ type: 'done', id: msg.id, result: stoppedAnswer(pos, msg.limits) });
          break;
        }
        settleClear();
        const result = runSearch(searcher, msg.fen, msg.moves, msg.limits, msg.options, signals, msg.id, post);
        post({ type: 'done', id: msg.id, result });
      } catch (e) {
        post({ type: 'error', id: msg.id, message: (e as Error).stack ?? String(e) });
      }
      break;
    }
    case 'hash':
      try {
        searcher.resizeHash(msg.mb);
      } catch {
        searcher = new Searcher(16);
        searcher.setNetwork(network);
        post({ type: 'text', id: 0, line: `ERROR: could not allocate ${msg.mb} MB for the hash table; using 16 MB` });
      }
      break;
    case 'net':
      // The weights arrive in shared memory: every thread reads the same copy.
      network = msg.net ? NnueNetwork.fromHandle(msg.net) : null;
      searcher.setNetwork(network);
      break;
    case 'clear':
      clearPending = true;
      break;
    case 'hashfull':
      settleClear();
      post({ type: 'hashfull', id: msg.id, value: searcher.hashfull() });
      break;
  }
});
