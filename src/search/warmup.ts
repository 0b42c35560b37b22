// Warm-up of a fresh search thread. JavaScript code starts interpreted and is
// compiled to fast machine code only after it has run for a while, so the first
// search of a fresh thread would spend much of its time in slow code (a first
// `go movetime 1000` searched about 4,000 nodes where later ones search hundreds
// of thousands). A short search of a few positions on scratch tables brings the
// hot paths (move generation, make/unmake, evaluation, move picking, search,
// quiescence, the transposition table) to compiled code before the first `go`.
//
// The scratch Searcher is thrown away afterwards: the real transposition table,
// histories and time-manager state are untouched, so searches (and `bench`)
// stay deterministic.

import { Position } from '../core/position.js';
import { Searcher } from './search.js';
import type { SearchOptions } from './types.js';

/** Start position, a middlegame, a position in check, and an endgame. */
const WARMUP_FENS = [
  'rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1',
  'r1bakab1r/9/1cn4cn/p1p1p1p1p/9/9/P1P1P1P1P/1CN1C1N2/9/R1BAKAB1R w - - 4 3',
  '2bakab2/9/4c4/p3p3p/2p3p2/9/P1P1P1P1P/4C4/4r4/2BAKAB2 w - - 0 20',
  '4k4/4a4/4b4/9/2p6/9/9/4B4/4A4/2RK5 w - - 0 40',
];

/** Nodes per warm-up position: enough for the optimising compiler, about a tenth of a second in all. */
export const WARMUP_NODES = 6000;

const OPTIONS: SearchOptions = {
  multiPV: 1,
  moveOverhead: 10,
  nodestime: 0,
  rule60MaxPly: 120,
  skillLevel: 20,
  limitStrength: false,
  elo: 1280,
  repetitionRule: 'AsianRule',
  drawRule: 'None',
  mateThreatDepth: 0,
  threads: 1,
  ponder: false,
};

/**
 * Runs the warm-up searches; `abort[0]` set (by a `stop` or `quit` meanwhile)
 * ends it early. Returns the nodes searched.
 */
export function warmUp(abort: Int32Array, nodesPerPosition = WARMUP_NODES): number {
  const scratch = new Searcher(1);
  let nodes = 0;
  for (const fen of WARMUP_FENS) {
    if (Atomics.load(abort, 0) !== 0) break;
    const pos = new Position(fen);
    const r = scratch.search(pos, { nodes: nodesPerPosition, startTime: performance.now() }, OPTIONS, {
      signals: abort,
      info: () => {},
      text: () => {},
    });
    nodes += r.nodes;
  }
  return nodes;
}
