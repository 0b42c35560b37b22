// The contract between the protocol layer and the search.

import { DEFAULT_RULES, type RuleConfig } from '../core/rules.js';
import type { Move } from '../core/types.js';

/** Limits of one `go` command (times in milliseconds). */
export interface SearchLimits {
  wtime?: number;
  btime?: number;
  winc?: number;
  binc?: number;
  movestogo?: number;
  depth?: number;
  nodes?: number;
  /** Search for a mate in this many moves. */
  mate?: number;
  movetime?: number;
  infinite?: boolean;
  ponder?: boolean;
  /** Restrict the root to these moves. */
  searchmoves?: Move[];
  /** performance.now()/Date.now() style start time in ms, taken when `go` was read. */
  startTime: number;
}

/** Engine options that the search reads (values already validated). */
export interface SearchOptions {
  multiPV: number;
  moveOverhead: number;
  nodestime: number;
  /** Skill Level 0..20 (20 = full strength). */
  skillLevel: number;
  limitStrength: boolean;
  elo: number;
  /** The game rules the search judges repetitions, the 60-move rule and draws by (src/core/rules.ts). */
  rules: RuleConfig;
  /** Threads (1 until the threads work lands). */
  threads: number;
  /** The `Ponder` option: the GUI will ponder, so time management may spend a little more (Stockfish: +25%). */
  ponder: boolean;
}

/**
 * The search options at the defaults of the engine's option table (src/engine/engine.ts), in the
 * order Engine.searchOptions() builds them (optimised code specialises on an object's shape). The
 * warm-up searches with these; tools spread them and change what they need. A test
 * (src/engine/engine.test.ts) pins them to `new Engine().searchOptions()`.
 */
export const DEFAULT_SEARCH_OPTIONS: Readonly<SearchOptions> = {
  multiPV: 1,
  moveOverhead: 10,
  nodestime: 0,
  skillLevel: 20,
  limitStrength: false,
  elo: 1280,
  rules: DEFAULT_RULES,
  threads: 1,
  ponder: false,
};

export type Bound = 'exact' | 'lower' | 'upper';

/** One `info` line's worth of data; the protocol formats scores. */
export interface SearchInfo {
  depth: number;
  seldepth: number;
  multipv: number;
  /** Internal units from the root side to move; mate scores as VALUE_MATE - plies. */
  score: number;
  bound: Bound;
  nodes: number;
  nps: number;
  hashfull: number;
  timeMs: number;
  pv: Move[];
}

export interface SearchResult {
  bestMove: Move;
  ponderMove: Move;
  /** Score of the best move, internal units, root side to move. */
  score: number;
  nodes: number;
  depth: number;
  /** The move came from the opening book (OwnBook): no search ran. */
  book?: boolean;
}

/** The static evaluation of a position on a search thread: the evaluation its searches use. */
export interface StaticEvaluation {
  /** Which evaluation: `classical`, or `NNUE <file> (<description>) (<kernels> kernels)`. */
  evaluation: string;
  /** From the side to move, internal units, optimism 0 (`eval`'s final evaluation); null when in check. */
  value: number | null;
}
