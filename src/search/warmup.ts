// Warm-up of a fresh search thread. JavaScript code starts interpreted and is
// compiled to fast machine code only after it has run for a while, so the first
// search of a fresh thread would spend much of its time in slow code (a first
// `go movetime 1000` searched about 4,000 nodes where later ones search hundreds
// of thousands). A short search of a few positions on scratch tables brings the
// hot paths (move generation, make/unmake, evaluation, move picking, search,
// quiescence, the transposition table) to compiled code before the first `go`.
//
// The warm-up runs through the same code as a real `go` (src/search/worker.ts)
// on a scratch Searcher that is thrown away afterwards, with the search
// thread's histories, which are reset to their starting values after it: the
// real transposition table, histories and time-manager state are as if it had
// not run, so searches (and `bench`) stay deterministic.

import type { SearchLimits } from './types.js';

/** Start position, a middlegame, a position in check, and an endgame. */
const WARMUP_FENS = [
  'rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1',
  'r1bakab1r/9/1cn4cn/p1p1p1p1p/9/9/P1P1P1P1P/1CN1C1N2/9/R1BAKAB1R w - - 4 3',
  '2bakab2/9/4c4/p3p3p/2p3p2/9/P1P1P1P1P/4C4/4r4/2BAKAB2 w - - 0 20',
  '4k4/4a4/4b4/9/2p6/9/9/4B4/4A4/2RK5 w - - 0 40',
];

/**
 * The limits of the warm-up searches, built the way the protocol builds them
 * (startTime from Date.now() first, then the parameters), in the kinds GUIs send
 * (nodes, depth, movetime, a clock): optimised code specialises on the shapes of
 * the objects it sees, and code compiled for one kind only would be thrown away at
 * the first `go` of another kind.
 */
function warmupLimits(kind: number): SearchLimits {
  const l: SearchLimits = { startTime: Date.now() };
  switch (kind) {
    case 0:
      l.nodes = WARMUP_NODES;
      break;
    case 1:
      l.depth = 5;
      break;
    case 2:
      l.movetime = 5;
      break;
    default:
      l.wtime = 200;
      l.btime = 200;
      l.winc = 2;
      l.binc = 2;
      break;
  }
  return l;
}

/**
 * Nodes of a nodes-limited warm-up search. The sizes (with the short depth,
 * movetime and clock searches) are the smallest that keep the first `go
 * movetime 1000` of a process at about 0.8x the nodes of the fourth
 * (lab/protocol/first-move-bench): about half a second of warm-up in all on
 * a 2-core machine; larger ones bought a few percent more for every extra
 * second before `readyok`.
 */
const WARMUP_NODES = 3000;
/** Nodes of the final, deeper warm-up search. */
const DEEP_NODES = 20000;
/** Rounds over the positions (each round uses every kind of limit on every position). */
const WARMUP_ROUNDS = 1;

export interface WarmupJob {
  fen: string;
  limits: SearchLimits;
}

/** Nodes of each of the extra searches (warmupJobs' extraNodes). */
const EXTRA_CHUNK = 30000;
/**
 * No extra search starts after this many ms of warm-up: where searching is slow
 * (a browser without WebAssembly: portable kernels) the extra nodes would take
 * many seconds, and a page waits for the warm-up before the engine's first move.
 */
export const EXTRA_MAX_MS = 3000;

/**
 * The warm-up searches, in order (limits are made when a job is taken, so its
 * clock starts then); then `extraNodes` more in searches of EXTRA_CHUNK nodes of
 * the first two positions, for runtimes that compile later (the browser), none
 * of them started after EXTRA_MAX_MS of warm-up (`now` is the clock).
 */
export function* warmupJobs(extraNodes = 0, now: () => number = Date.now): Generator<() => WarmupJob> {
  const start = now();
  for (let r = 0; r < WARMUP_ROUNDS; r++) {
    for (const fen of WARMUP_FENS) {
      for (let kind = 0; kind < 4; kind++) yield () => ({ fen, limits: warmupLimits(kind) });
    }
  }
  // Last, a deeper search of the start position (by then in compiled code): the
  // paths that only deeper searches take (extensions, deep reductions, ProbCut)
  // gather their type feedback here instead of in the first real search.
  yield () => ({ fen: WARMUP_FENS[0], limits: { startTime: Date.now(), nodes: DEEP_NODES } });
  for (let k = 0; k * EXTRA_CHUNK < extraNodes && now() - start < EXTRA_MAX_MS; k++) {
    const nodes = Math.min(EXTRA_CHUNK, extraNodes - k * EXTRA_CHUNK);
    yield () => ({ fen: WARMUP_FENS[k & 1], limits: { startTime: Date.now(), nodes } });
  }
}
