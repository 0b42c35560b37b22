// The search: iterative deepening with aspiration windows over a negamax
// alpha-beta (PVS) search and a quiescence search, with Pikafish's pruning,
// reductions and extensions (search.cpp, checked against commit 1c66b9b).
//
// Everything per node works on preallocated typed arrays: the search stack is
// a set of Int32Arrays indexed by ply + STACK_OFFSET (so ss - 7 .. ss + 2 are
// valid), the principal variation is a triangular table, and move pickers and
// searched-move lists live in slots indexed by 2 * ply (+1 inside a singular
// extension search, which re-enters the same ply while the outer picker is
// still in use). Only root bookkeeping (root moves, PV arrays) allocates.

import { generate } from '../core/movegen.js';
import { KEY_FILTER_MASK, Position } from '../core/position.js';
import { RuleVerdict, ruleJudge, type RuleConfig } from '../core/rules.js';
import {
  GEN_LEGAL,
  GEN_QUIETS,
  MAX_MOVES,
  MAX_PLY,
  MOVE_NONE,
  MOVE_NULL,
  PAWN,
  PIECE_VALUE,
  VALUE_DRAW,
  VALUE_INFINITE,
  VALUE_MATE,
  VALUE_MATE_IN_MAX_PLY,
  VALUE_MATED_IN_MAX_PLY,
  VALUE_NONE,
  VALUE_ZERO,
  mateIn,
  matedIn,
  type Move,
} from '../core/types.js';
import { evaluate } from '../eval/evaluate.js';
import { networkEvaluator, type EvalNetwork, type NetworkEvaluator } from '../eval/networks.js';
import {
  BUTTERFLY,
  CAPTURE_HISTORY_LIMIT,
  CORRECTION_HISTORY_LIMIT,
  Histories,
  LOW_PLY_HISTORY_SIZE,
  PIECE_TO,
  pawnHistoryBase,
  LOW_PLY_HISTORY_LIMIT,
  updateEntry,
  CONT_HISTORY_START,
  CONT_CORRECTION_START,
  PAWN_HISTORY_START,
} from './history.js';
import { MovePicker } from './movepick.js';
import { Prng } from '../core/prng.js';
import { Skill } from './skill.js';
import { TimeManager, clockFor } from './timeman.js';
import {
  BOUND_EXACT,
  BOUND_LOWER,
  BOUND_NONE,
  BOUND_UPPER,
  DEPTH_QS,
  DEPTH_UNSEARCHED,
  TranspositionTable,
  valueFromTT,
  valueToTT,
} from './tt.js';
import type { Bound, SearchInfo, SearchLimits, SearchOptions, SearchResult, StaticEvaluation } from './types.js';
import { chooseBestThread, type SharedSearch, type ThreadResult } from './threads.js';

export interface SearchIO {
  /** Shared flags (Int32Array on a SharedArrayBuffer, read with Atomics.load): [0] = 1 when `stop` was received,
   *  [1] = 1 when `ponderhit` was received. */
  signals: Int32Array;
  /** Called for each info line (after each completed iteration for every MultiPV line; also with bound
   *  'lower'/'upper' on aspiration fail-high/fail-low once more than ~1 s has passed, like Stockfish). */
  info(i: SearchInfo): void;
  /** Free text for `info string ...` (optional use). */
  text(line: string): void;
  /** True when nobody reads the info lines (data generation): the search does not build them. */
  silent?: boolean;
  /**
   * Lazy SMP (src/search/threads.ts): the state shared by the threads of this
   * search, and this thread's index in it (0 = the main thread, which alone
   * manages time, prints `info` and answers; the others are helpers). Absent or
   * with one thread: a single-threaded search.
   */
  shared?: SharedSearch;
  threadIndex?: number;
}

const NONPV = 0;
const PV = 1;
const ROOT = 2;

const STACK_OFFSET = 7;
const STACK_SIZE = MAX_PLY + 16;
const PV_STRIDE = MAX_PLY + 2;
const SEARCHED_CAPACITY = 32;
const CHECK_INTERVAL = 256;
/** Fail-high/low info lines are sent only after this many ms (like Stockfish's 10M nodes). */
const BOUND_OUTPUT_MS = 1000;

const LMR_DIVISOR = new Int32Array([
  3307, 2930, 2874, 2818, 3215, 3225, 3224, 2782, 2858, 2919, 3088, 3275, 3180, 2868, 3006, 3599,
]);
const CONT_WEIGHTS = new Int32Array([0, 1076, 639, 293, 523, 129, 445]);
const CMHC_MULT = new Int32Array([96, 100, 100, 100, 115, 118, 129]);

// Pikafish's make_key(seed) = seed * 6364136223846793005 + 1442695040888963407 (mod 2^64),
// as 32-bit halves, for the rule-60 key adjustment.
const MK_N = 4096;
const MK_LO = new Int32Array(MK_N);
const MK_HI = new Int32Array(MK_N);
{
  const mask = (1n << 64n) - 1n;
  for (let i = 0; i < MK_N; i++) {
    const k = (BigInt(i) * 6364136223846793005n + 1442695040888963407n) & mask;
    MK_LO[i] = Number(k & 0xffffffffn) | 0;
    MK_HI[i] = Number(k >> 32n) | 0;
  }
}

// The pruning margins of search() (Pikafish's search.cpp), as pure int32 functions
// so that tools (commands/tune/scale-report.ts) show the search's own numbers.

/** Step 6, razoring: a non-PV node with eval < alpha - razoringMargin(depth) drops into qsearch. */
export function razoringMargin(depth: number): number {
  return 1370 + 244 * depth * depth;
}

/** Step 7, reverse futility: the per-ply multiplier of the margin (smaller without a TT hit). */
function futilityMult(depth: number, ttHit: boolean): number {
  return Math.min(40 + depth * 4, 129) - (ttHit ? 0 : 33);
}

/** Step 7, reverse futility: eval - margin >= beta cuts the node (absCorr = |correction value|). */
export function reverseFutilityMargin(
  depth: number,
  ttHit: boolean,
  improving: boolean,
  opponentWorsening: boolean,
  absCorr: number,
): number {
  const mult = futilityMult(depth, ttHit);
  return (
    mult * depth -
    (((((improving ? 2512 : 0) + (opponentWorsening ? 340 : 0)) * mult) / 1024) | 0) +
    ((absCorr / 132109) | 0)
  );
}

/**
 * Step 13, futility for quiet moves: staticEval + margin <= alpha prunes the move
 * (lmrDepth < 10, not in check); the margin is larger before a best move exists
 * and when the static evaluation is above alpha.
 */
export function quietFutilityMargin(lmrDepth: number, noBestMove: boolean, evalAboveAlpha: boolean): number {
  return 47 + (noBestMove ? 272 : 0) + 129 * lmrDepth + (evalAboveAlpha ? 112 : 0);
}

function isWin(v: number): boolean {
  return v >= VALUE_MATE_IN_MAX_PLY;
}
function isLoss(v: number): boolean {
  return v <= VALUE_MATED_IN_MAX_PLY;
}
function isDecisive(v: number): boolean {
  return v >= VALUE_MATE_IN_MAX_PLY || v <= VALUE_MATED_IN_MAX_PLY;
}
function moveOk(m: Move): boolean {
  return m !== MOVE_NONE && m !== MOVE_NULL;
}
function clampInt(v: number, lo: number, hi: number): number {
  return v < lo ? lo : v > hi ? hi : v;
}
function interpolate(x: number, x0: number, x1: number, y0: number, y1: number): number {
  return y0 + ((y1 - y0) * (x - x0)) / (x1 - x0);
}

class RootMove {
  score = -VALUE_INFINITE;
  previousScore = -VALUE_INFINITE;
  averageScore = -VALUE_INFINITE;
  meanSquaredScore = -VALUE_INFINITE * VALUE_INFINITE;
  uciScore = -VALUE_INFINITE;
  scoreLowerbound = false;
  scoreUpperbound = false;
  previousScoreExact = false;
  selDepth = 0;
  effort = 0;
  pv: Move[];
  previousPV: Move[];
  constructor(readonly move: Move) {
    this.pv = [move];
    this.previousPV = [];
  }
  scoreIsBound(): boolean {
    return this.scoreLowerbound || this.scoreUpperbound;
  }
  scoreIsExactLoss(): boolean {
    return this.score !== -VALUE_INFINITE && isLoss(this.score) && !this.scoreIsBound();
  }
  unsetBoundFlags(): void {
    this.scoreLowerbound = this.scoreUpperbound = false;
  }
}

/** The root moves: the legal moves, restricted to `searchmoves` (in their order) when some of them are legal. */
function rootMovesOf(pos: Position, searchmoves: readonly Move[] | undefined): RootMove[] {
  const legal = new Int32Array(MAX_MOVES);
  const nLegal = generate(pos, GEN_LEGAL, legal, 0);
  const rootMoves: RootMove[] = [];
  if (searchmoves && searchmoves.length) {
    for (const m of searchmoves) {
      let ok = false;
      for (let i = 0; i < nLegal; i++) if (legal[i] === m) ok = true;
      if (ok && !rootMoves.some((r) => r.move === m)) rootMoves.push(new RootMove(m));
    }
  }
  if (!rootMoves.length) for (let i = 0; i < nLegal; i++) rootMoves.push(new RootMove(legal[i]));
  return rootMoves;
}

/** Descending by score, then by previous score (used with a stable sort). */
function rootOrder(a: RootMove, b: RootMove): number {
  return a.score !== b.score ? b.score - a.score : b.previousScore - a.previousScore;
}

function stableSortRange(a: RootMove[], from: number, to: number): void {
  if (to - from < 2) return;
  const part = a.slice(from, to).sort(rootOrder);
  for (let i = 0; i < part.length; i++) a[from + i] = part[i];
}

export class Searcher {
  readonly tt: TranspositionTable;
  readonly hist: Histories;
  readonly tm = new TimeManager();

  // ---- Search stack (index = ply + STACK_OFFSET) ------------------------------
  private readonly ssMove = new Int32Array(STACK_SIZE);
  private readonly ssExcluded = new Int32Array(STACK_SIZE);
  private readonly ssEval = new Int32Array(STACK_SIZE);
  private readonly ssStatScore = new Int32Array(STACK_SIZE);
  private readonly ssMoveCount = new Int32Array(STACK_SIZE);
  private readonly ssInCheck = new Int32Array(STACK_SIZE);
  private readonly ssTtPv = new Int32Array(STACK_SIZE);
  private readonly ssTtHit = new Int32Array(STACK_SIZE);
  private readonly ssFollowPV = new Int32Array(STACK_SIZE);
  private readonly ssCutoffCnt = new Int32Array(STACK_SIZE);
  private readonly ssReduction = new Int32Array(STACK_SIZE);
  /** Continuation history table offset of the move made at this ply. */
  private readonly ssCont = new Int32Array(STACK_SIZE);
  private readonly ssContCorr = new Int32Array(STACK_SIZE);

  private readonly pvTable = new Int32Array(PV_STRIDE * PV_STRIDE);
  private readonly pvLen = new Int32Array(PV_STRIDE + 1);

  private readonly pickers: MovePicker[] = [];
  private readonly quietsSearched = new Int32Array(2 * STACK_SIZE * SEARCHED_CAPACITY);
  private readonly capturesSearched = new Int32Array(2 * STACK_SIZE * SEARCHED_CAPACITY);

  private readonly reductions = new Int32Array(MAX_MOVES + MAX_PLY);
  private readonly sleepCell = new Int32Array(
    typeof SharedArrayBuffer !== 'undefined' ? new SharedArrayBuffer(4) : new ArrayBuffer(4),
  );

  // ---- Per-search state ---------------------------------------------------------
  private pos!: Position;
  private readonly rootPos = new Position(null);
  private limits!: SearchLimits;
  private io!: SearchIO;
  private signals!: Int32Array;
  private rules!: RuleConfig;
  /** What the rules said at the node judged last (and their working memory), filled by every ruleJudge call. */
  private readonly ruleVerdict = new RuleVerdict();
  private rule60Max = 120;
  nodes = 0;
  /** Lazy SMP: the shared state of this search (null: one thread), this thread's index, and whether it is a helper. */
  private shared: SharedSearch | null = null;
  private threadIndex = 0;
  private helper = false;
  private stopped = false;
  private ponder = false;
  private stopOnPonderhit = false;
  private useTimeManagement = false;
  private callsCnt = 0;
  private rootMoves: RootMove[] = [];
  private pvIdx = 0;
  private pvLast = 0;
  private selDepth = 0;
  private nmpMinPly = 0;
  private rootDepth = 0;
  private completedDepth = 0;
  private rootDelta = 1;
  private bestMoveChanges = 0;
  private increaseDepth = true;
  private readonly optimism = new Int32Array(2);
  private readonly lastIterationPV = new Int32Array(MAX_PLY + 2);
  private lastIterationPVLen = 0;
  private clock: () => number = () => performance.now();
  private searchCount = 0;
  private lastRulesKey: string | null = null;
  // Adjusted key of the current position (computeKey()).
  private kLo = 0;
  private kHi = 0;

  // ---- Kept between searches (Pikafish's SearchManager) ---------------------
  private bestPreviousScore = VALUE_INFINITE;
  private bestPreviousAverageScore = VALUE_INFINITE;
  private previousTimeReduction = 0.85;
  private readonly iterValue = new Int32Array(4);

  /** `hist`: the history tables to use (by default its own); the warm-up borrows the search thread's. */
  constructor(hashMb = 16, hist: Histories = new Histories()) {
    this.tt = new TranspositionTable(hashMb);
    this.hist = hist;
    for (let i = 0; i < 2 * STACK_SIZE; i++) this.pickers.push(new MovePicker());
    for (let i = 1; i < this.reductions.length; i++) this.reductions[i] = Math.trunc((1740 / 100.0) * Math.log(i));
  }

  /** The network evaluation in use (null: the classical evaluation). */
  private nnue: NetworkEvaluator | null = null;
  private network: EvalNetwork | null = null;

  /** Evaluates with `net` from now on (null: the classical evaluation). Slot 1 of its work areas is this thread's. */
  setNetwork(net: EvalNetwork | null, slot = 1): void {
    this.nnue = net ? networkEvaluator(net, slot) : null;
    this.network = net;
  }

  /** Which evaluation the search uses, for messages. */
  evaluationName(): string {
    return this.nnue && this.network ? `NNUE ${this.network.label()} (${this.nnue.kernels.name} kernels)` : 'classical';
  }

  /**
   * The static evaluation of `pos` as this thread's searches evaluate it, with
   * optimism 0 (null when the side to move is in check). The network's
   * accumulators it computes are keyed by position, so searches are unaffected.
   */
  staticEvaluation(pos: Position): StaticEvaluation {
    const value = pos.inCheck() ? null : this.nnue ? this.nnue.evaluate(pos, 0) : evaluate(pos, 0);
    return { evaluation: this.evaluationName(), value };
  }

  resizeHash(mb: number): void {
    this.tt.resize(mb);
  }

  /** ucinewgame / Clear Hash: TT (unless a helper thread, whose table the main thread clears), histories and the time manager's per-game state. */
  clear(withTable = true): void {
    if (withTable) this.tt.clear();
    this.hist.clear();
    this.tm.clear();
    this.bestPreviousScore = VALUE_INFINITE;
    this.bestPreviousAverageScore = VALUE_INFINITE;
    this.previousTimeReduction = 0.85;
    this.callsCnt = 0;
  }

  hashfull(): number {
    return this.tt.hashfull(0);
  }

  // =============================================================================
  // Entry point
  // =============================================================================

  search(rootPos: Position, limits: SearchLimits, options: SearchOptions, io: SearchIO): SearchResult {
    // Work on a private copy: make/unmake may reorder the piece lists, which would
    // make a second search of the same object generate moves in another order.
    const pos = this.rootPos;
    pos.copyFrom(rootPos);
    this.pos = pos;
    pos.reserve(MAX_PLY + 16);
    this.limits = limits;
    this.io = io;
    this.signals = io.signals;
    this.shared = io.shared && io.shared.threads > 1 ? io.shared : null;
    this.threadIndex = this.shared ? (io.threadIndex ?? 0) : 0;
    this.helper = this.threadIndex > 0;
    this.rules = options.rules;
    this.rule60Max = this.rules.rule60MaxPly;
    // Stored scores depend on the game rules: forget them when the rules change.
    const rulesKey = `${this.rules.repetitionRule}/${this.rules.drawRule}/${this.rules.rule60MaxPly}/${this.rules.mateThreatDepth}`;
    // (Only the main thread clears the shared table; helpers start after it.)
    if (!this.helper && this.lastRulesKey !== null && rulesKey !== this.lastRulesKey) this.tt.clear();
    this.lastRulesKey = rulesKey;
    this.nodes = 0;
    this.stopped = false;
    this.ponder = !!limits.ponder;
    this.stopOnPonderhit = false;
    this.callsCnt = 0;
    this.clock = clockFor(limits.startTime);
    this.searchCount++;
    this.useTimeManagement = this.tm.init(limits, pos.side, pos.gamePly, options);
    if (this.helper) {
      // A helper manages no time, ignores ponder (the main thread waits for it)
      // and starts once the main thread has prepared the table.
      this.useTimeManagement = false;
      this.ponder = false;
      const generation = this.shared!.awaitStart(io.signals);
      if (generation < 0) {
        this.shared!.finish(this.threadIndex, null, 0);
        return { bestMove: MOVE_NONE, ponderMove: MOVE_NONE, score: 0, nodes: 0, depth: 0 };
      }
      this.tt.setGeneration(generation);
    } else {
      this.tt.newSearch();
      this.shared?.publishStart(this.tt.generation());
    }

    const rootMoves = rootMovesOf(pos, limits.searchmoves);
    this.rootMoves = rootMoves;

    if (!rootMoves.length) {
      if (this.helper) {
        this.shared!.finish(this.threadIndex, null, 0);
        return { bestMove: MOVE_NONE, ponderMove: MOVE_NONE, score: -VALUE_MATE, nodes: 0, depth: 0 };
      }
      this.outputNoMoves();
      this.waitWhilePondering(true);
      this.stopHelpers();
      return { bestMove: MOVE_NONE, ponderMove: MOVE_NONE, score: -VALUE_MATE, nodes: 0, depth: 0 };
    }

    // Helpers search at full strength: the main thread alone weakens its choice.
    const skill = this.helper
      ? new Skill(20, false, options.elo)
      : new Skill(options.skillLevel, options.limitStrength, options.elo);
    const rng = new Prng(
      (pos.keyLo[pos.sp] ^ Math.imul(pos.keyHi[pos.sp], 0x9e3779b1) ^ Math.imul(this.searchCount, 0x85ebca6b)) | 0,
    );

    const uciPvSent = this.iterativeDeepening(options, skill, rng);
    let sent = uciPvSent;

    if (this.helper) return this.finishHelper();

    // An infinite or ponder search must not return before `stop` (or ponderhit).
    this.waitWhilePondering(false);
    this.stopped = true;
    this.stopHelpers();

    const totalNodes = this.totalNodes();
    if (this.useTimeManagement && this.tm.useNodesTime) this.tm.advanceNodesTime(totalNodes - this.tm.incrementUnits);

    // Lazy SMP: the answer comes from the thread whose result the threads vote for
    // (Pikafish's get_best_thread); with a depth limit, MultiPV or a weakened
    // level it is the main thread's.
    if (this.shared && !limits.depth && !skill.enabled() && Math.max(1, options.multiPV | 0) === 1) {
      if (this.adoptBestThread()) sent = false;
    }

    this.bestPreviousScore = this.rootMoves[0].score;
    this.bestPreviousAverageScore = this.rootMoves[0].averageScore;

    const best = this.rootMoves[0];
    if (best.pv.length === 1 && this.extractPonderFromTT(best)) sent = false;
    if (!sent) this.outputPV(options, this.rootDepth);

    return {
      bestMove: best.pv[0],
      ponderMove: best.pv.length > 1 ? best.pv[1] : MOVE_NONE,
      score:
        best.score !== -VALUE_INFINITE
          ? best.score
          : best.previousScore !== -VALUE_INFINITE
            ? best.previousScore
            : VALUE_ZERO,
      // (Counted again: a helper that ended late may have published more since.)
      nodes: this.totalNodes(),
      depth: this.completedDepth,
    };
  }

  /**
   * The answer to a search whose `stop` came before it began (src/search/worker.ts
   * checks the flag first). Pikafish, when the stop is read before its first
   * iteration, searches nothing and answers the first root move, after the PV line
   * its start_searching() always prints before `bestmove` (depth 1, score 0; shown
   * here, as outputPV shows an unsearched root move, with the move as its PV). The
   * same here, without touching the tables, histories or time manager, so a queue
   * of stopped searches drains at once and the next search is as it would have been.
   */
  answerStopped(rootPos: Position, limits: SearchLimits, options: SearchOptions, io: SearchIO): SearchResult {
    const pos = this.rootPos;
    pos.copyFrom(rootPos);
    this.limits = limits;
    this.io = io;
    this.shared = null;
    this.nodes = 0;
    this.clock = clockFor(limits.startTime);
    this.rootMoves = rootMovesOf(pos, limits.searchmoves);
    if (!this.rootMoves.length) {
      this.outputNoMoves();
      return { bestMove: MOVE_NONE, ponderMove: MOVE_NONE, score: -VALUE_MATE, nodes: 0, depth: 0 };
    }
    this.outputPV(options, 0);
    return { bestMove: this.rootMoves[0].move, ponderMove: MOVE_NONE, score: VALUE_ZERO, nodes: 0, depth: 0 };
  }

  /** The info line of a root without a legal move: in xiangqi that is a loss, mated or stalemated. */
  private outputNoMoves(): void {
    this.io.info({
      depth: 0,
      seldepth: 0,
      multipv: 1,
      score: -VALUE_MATE,
      bound: 'exact',
      nodes: 0,
      nps: 0,
      hashfull: this.tt.hashfull(0),
      timeMs: Math.max(0, Math.round(this.elapsedMs())),
      pv: [],
    });
  }

  /** Nodes searched by all threads of this search (helpers' counts as last published). */
  private totalNodes(): number {
    return this.shared ? this.shared.totalNodes(this.threadIndex, this.nodes) : this.nodes;
  }

  /** Main thread: ends the helpers (Pikafish's threads.stop) and waits until each has written its result. */
  private stopHelpers(): void {
    const shared = this.shared;
    if (!shared || this.helper) return;
    Atomics.store(this.signals, 0, 1);
    Atomics.notify(this.signals, 0);
    shared.waitHelpers();
  }

  /** A helper's end: its result goes to the shared area for the main thread. */
  private finishHelper(): SearchResult {
    const best = this.rootMoves[0];
    this.shared!.finish(
      this.threadIndex,
      {
        score: best.score,
        lowerbound: best.scoreLowerbound,
        upperbound: best.scoreUpperbound,
        completedDepth: this.completedDepth,
        rootDepth: this.rootDepth,
        selDepth: best.selDepth,
        previousScore: best.previousScore,
        averageScore: best.averageScore,
        pv: best.pv,
      },
      this.nodes,
    );
    return {
      bestMove: best.pv[0],
      ponderMove: MOVE_NONE,
      score: best.score,
      nodes: this.nodes,
      depth: this.completedDepth,
    };
  }

  /**
   * Main thread, after the helpers finished: when another thread's result wins
   * the vote, it becomes rootMoves[0] (so the final `info`, the ponder move and
   * the scores kept for the next search are that thread's). True when it did.
   */
  private adoptBestThread(): boolean {
    const shared = this.shared!;
    const own = this.rootMoves[0];
    const results: ThreadResult[] = [
      {
        index: 0,
        score: own.score,
        lowerbound: own.scoreLowerbound,
        upperbound: own.scoreUpperbound,
        completedDepth: this.completedDepth,
        rootDepth: this.rootDepth,
        selDepth: own.selDepth,
        previousScore: own.previousScore,
        averageScore: own.averageScore,
        pv: own.pv,
      },
    ];
    for (let i = 1; i < shared.threads; i++) {
      const r = shared.result(i);
      // Only results for a root move of this search (a helper's PV is its own, but be safe).
      if (r && this.rootMoves.some((m) => m.move === r.pv[0])) results.push(r);
    }
    const k = chooseBestThread(results, isDecisive, isLoss, -VALUE_INFINITE);
    if (k <= 0) return false;
    const r = results[k];
    const rm = new RootMove(r.pv[0]);
    rm.pv = r.pv.slice();
    rm.previousPV = r.pv.slice();
    rm.score = rm.uciScore = r.score;
    rm.previousScore = r.previousScore;
    rm.averageScore = r.averageScore;
    rm.scoreLowerbound = r.lowerbound;
    rm.scoreUpperbound = r.upperbound;
    rm.selDepth = r.selDepth;
    this.rootMoves[0] = rm;
    this.rootDepth = r.rootDepth;
    return true;
  }

  private elapsedMs(): number {
    return this.clock() - this.limits.startTime;
  }

  private sleep(ms: number): void {
    const s = this.signals;
    const shared = typeof SharedArrayBuffer !== 'undefined';
    if (shared && s.buffer instanceof SharedArrayBuffer) Atomics.wait(s, 0, 0, ms);
    else if (shared && this.sleepCell.buffer instanceof SharedArrayBuffer) Atomics.wait(this.sleepCell, 0, 0, ms);
    else {
      const end = Date.now() + ms;
      while (Date.now() < end) {
        /* no way to sleep without shared memory */
      }
    }
  }

  /** Blocks while the search may not end yet: infinite until stop, ponder until stop or ponderhit. */
  private waitWhilePondering(noMoves: boolean): void {
    for (;;) {
      if (Atomics.load(this.signals, 0) !== 0) return;
      if (this.ponder && Atomics.load(this.signals, 1) !== 0) this.ponder = false;
      if (!this.ponder && !this.limits.infinite) return;
      this.sleep(noMoves ? 5 : 2);
    }
  }

  private onPonderhit(): void {
    this.ponder = false;
    // Time is counted from the ponderhit.
    this.tm.restart();
    if (this.stopOnPonderhit) this.stopped = true;
  }

  /**
   * Polls the stop/ponderhit flags and the limits every CHECK_INTERVAL calls (a few
   * hundred nodes: Stockfish uses 512 calls, but a JavaScript node is slower).
   */
  private checkTime(): void {
    if (--this.callsCnt > 0) return;
    const limits = this.limits;
    const ln = limits.nodes ?? 0;
    this.callsCnt = ln ? Math.min(CHECK_INTERVAL, Math.floor(ln / 1024)) : CHECK_INTERVAL;
    const shared = this.shared;
    if (shared !== null) {
      shared.publishNodes(this.threadIndex, this.nodes);
      if (this.helper) {
        // Helpers only watch the stop flag; the main thread manages time and limits.
        this.callsCnt = CHECK_INTERVAL;
        if (Atomics.load(this.signals, 0) !== 0) this.stopped = true;
        return;
      }
    }
    if (Atomics.load(this.signals, 0) !== 0) {
      this.stopped = true;
      return;
    }
    if (this.ponder) {
      if (Atomics.load(this.signals, 1) !== 0) this.onPonderhit();
      if (this.ponder) return;
    }
    const nodes = shared !== null ? shared.totalNodes(0, this.nodes) : this.nodes;
    if (ln && nodes >= ln) {
      this.stopped = true;
      return;
    }
    // No clock to read when only nodes limit the search (a node limit checks every call).
    if (!this.useTimeManagement && !limits.movetime) return;
    const elapsed = this.tm.elapsed(nodes);
    if (
      (this.useTimeManagement && (elapsed > this.tm.maximum() || this.stopOnPonderhit)) ||
      (limits.movetime && elapsed >= limits.movetime)
    ) {
      this.stopped = true;
    }
  }

  // =============================================================================
  // Iterative deepening
  // =============================================================================

  private iterativeDeepening(options: SearchOptions, skill: Skill, rng: Prng): boolean {
    const rootMoves = this.rootMoves;
    const us = this.pos.side;
    const limits = this.limits;

    // Fresh stack; the entries before the root point to the sentinel tables.
    this.ssMove.fill(0);
    this.ssExcluded.fill(0);
    this.ssEval.fill(0);
    this.ssStatScore.fill(0);
    this.ssMoveCount.fill(0);
    this.ssInCheck.fill(0);
    this.ssTtPv.fill(0);
    this.ssTtHit.fill(0);
    this.ssFollowPV.fill(0);
    this.ssCutoffCnt.fill(0);
    this.ssReduction.fill(0);
    this.ssCont.fill(0);
    this.ssContCorr.fill(0);
    for (let i = 0; i < STACK_OFFSET; i++) this.ssEval[i] = VALUE_NONE;
    this.pvLen.fill(0);

    this.iterValue.fill(this.bestPreviousScore === VALUE_INFINITE ? VALUE_ZERO : this.bestPreviousScore);

    let multiPV = Math.max(1, options.multiPV | 0);
    if (skill.enabled()) multiPV = Math.max(multiPV, 4);
    multiPV = Math.min(multiPV, rootMoves.length);

    let lastBestMovePV: Move[] = [];
    let lastBestMoveDepth = 0;
    let lastBestMoveScore = -VALUE_INFINITE;
    let bestValue = -VALUE_INFINITE;
    let timeReduction = 1,
      totBestMoveChanges = 0;
    let iterIdx = 0;
    let searchAgainCounter = 0;
    let uciPvSent = false;

    this.hist.newSearch();
    this.rootDepth = 0;
    this.completedDepth = 0;
    this.nmpMinPly = 0;
    this.bestMoveChanges = 0;
    this.increaseDepth = true;
    this.lastIterationPVLen = 0;

    // Helpers ignore the depth limit: the main thread stops them when it is done.
    const depthLimit = this.helper ? 0 : (limits.depth ?? 0);
    while (this.rootDepth + 1 < MAX_PLY && !this.stopped && !(depthLimit && this.rootDepth >= depthLimit)) {
      this.rootDepth++;
      totBestMoveChanges /= 2;
      uciPvSent = false;

      for (let i = 0; i < rootMoves.length; i++) {
        const rm = rootMoves[i];
        rm.previousScore = rm.score;
        rm.previousPV = rm.pv.slice();
        rm.previousScoreExact = i < multiPV;
      }

      const pvFirst = 0;
      this.pvLast = rootMoves.length;
      if (!this.increaseDepth) searchAgainCounter++;

      for (this.pvIdx = 0; this.pvIdx < multiPV; this.pvIdx++) {
        const pvIdx = this.pvIdx;
        const prevPV = rootMoves[pvIdx].previousPV;
        this.lastIterationPVLen = Math.min(prevPV.length, this.lastIterationPV.length);
        for (let i = 0; i < this.lastIterationPVLen; i++) this.lastIterationPV[i] = prevPV[i];
        this.selDepth = 0;

        // Aspiration window around the root move's average score.
        // (Pikafish varies the first window by thread: 10 + threadIdx % 8.)
        let delta = 10 + (this.threadIndex % 8) + Math.trunc(Math.abs(rootMoves[pvIdx].meanSquaredScore) / 39605);
        const avg = rootMoves[pvIdx].averageScore;
        let alpha = Math.max(avg - delta, -VALUE_INFINITE);
        let beta = Math.min(avg + delta, VALUE_INFINITE);

        this.optimism[us] = Math.trunc((92 * avg) / (Math.abs(avg) + 95));
        this.optimism[us ^ 1] = 0 - this.optimism[us];

        let failedHighCnt = 0;
        for (;;) {
          const adjustedDepth = Math.max(
            1,
            this.rootDepth - failedHighCnt - Math.trunc((3 * (searchAgainCounter + 1)) / 4),
          );
          this.rootDelta = beta - alpha;
          bestValue = this.searchNode(ROOT, STACK_OFFSET, alpha, beta, adjustedDepth, false);

          // Bring the best move to the front (stable: other moves keep their order).
          stableSortRange(rootMoves, pvIdx, this.pvLast);

          if (this.stopped) break;

          if (!this.helper && multiPV === 1 && (bestValue <= alpha || bestValue >= beta)) {
            const t = this.elapsedMs();
            if (t > BOUND_OUTPUT_MS) this.outputPV(options, this.rootDepth);
          }

          if (bestValue <= alpha) {
            beta = alpha;
            alpha = Math.max(bestValue - delta, -VALUE_INFINITE);
            failedHighCnt = 0;
            this.stopOnPonderhit = false;
          } else if (bestValue >= beta) {
            alpha = Math.max(beta - delta, alpha);
            beta = Math.min(bestValue + delta, VALUE_INFINITE);
            ++failedHighCnt;
          } else break;

          delta += Math.trunc((44 * delta) / 128);
        }

        if (this.stopped && pvIdx) {
          // Do not let an aborted line spoil a proven loss of an earlier line.
          const cur = rootMoves[pvIdx],
            prev = rootMoves[pvIdx - 1];
          if ((isLoss(prev.score) && rootOrder(cur, prev) < 0) || cur.scoreIsExactLoss()) {
            if (cur.previousScore !== -VALUE_INFINITE && cur.previousScoreExact && cur.previousScore <= prev.score) {
              cur.score = cur.uciScore = cur.previousScore;
              cur.previousScore = -VALUE_INFINITE;
              cur.pv = cur.previousPV.slice();
              cur.unsetBoundFlags();
            } else {
              if (isLoss(prev.score)) {
                cur.score = cur.uciScore = prev.score;
                cur.previousScore = -VALUE_INFINITE;
                cur.pv.length = 1;
                cur.scoreUpperbound = true;
              } else cur.scoreUpperbound = false;
              cur.scoreLowerbound = !cur.scoreUpperbound;
            }
          }
          for (let i = pvIdx + 1; i < multiPV; i++)
            if (rootMoves[i].scoreIsExactLoss()) rootMoves[i].scoreLowerbound = true;
        }

        stableSortRange(rootMoves, pvFirst, pvIdx + 1);

        if (!this.stopped && pvIdx + 1 === multiPV && !this.helper) {
          this.outputPV(options, this.rootDepth);
          uciPvSent = true;
        }
        if (this.stopped) break;
      }

      const forgottenMate =
        lastBestMoveScore !== -VALUE_INFINITE &&
        isDecisive(lastBestMoveScore) &&
        (Math.abs(rootMoves[0].score) < Math.abs(lastBestMoveScore) || rootMoves[0].scoreIsBound());

      if (!this.stopped) {
        this.completedDepth = this.rootDepth;
        if (!lastBestMovePV.length || lastBestMovePV[0] !== rootMoves[0].pv[0]) lastBestMoveDepth = this.rootDepth;
        if (!forgottenMate) {
          lastBestMovePV = rootMoves[0].pv.slice();
          lastBestMoveScore = rootMoves[0].score;
        }
      }

      const abortedLossSearch = this.stopped && !this.pvIdx && rootMoves[0].scoreIsExactLoss();
      if (abortedLossSearch || (rootMoves[0].score !== -VALUE_INFINITE && forgottenMate)) {
        if (lastBestMovePV.length) {
          const k = rootMoves.findIndex((r) => r.move === lastBestMovePV[0]);
          if (k > 0) {
            const rm = rootMoves[k];
            rootMoves.splice(k, 1);
            rootMoves.unshift(rm);
          }
          rootMoves[0].score = rootMoves[0].uciScore = lastBestMoveScore;
          rootMoves[0].pv = lastBestMovePV.slice();
          rootMoves[0].unsetBoundFlags();
          uciPvSent = false;
        } else if (abortedLossSearch) rootMoves[0].scoreLowerbound = true;
      }

      // Found a "mate in x" after a completed iteration?
      if (
        limits.mate &&
        !this.stopped &&
        isDecisive(rootMoves[0].score) &&
        VALUE_MATE - Math.abs(rootMoves[0].score) <= 2 * limits.mate
      )
        this.stopped = true;

      // Weakened play: choose the move once the iteration at depth 1 + level is complete.
      // Deeper iterations could not change the choice, so the search ends there (an
      // infinite search goes on for its output; a ponder search waits for ponderhit
      // with the move chosen). Stockfish goes on until its time is used: stopping
      // makes a level's strength nearly independent of the clock and its moves prompt.
      if (skill.enabled() && skill.timeToPick(this.rootDepth)) {
        skill.pickBest(this.skillLines(multiPV), multiPV, rng);
        if (!limits.infinite) this.stopped = true;
      }

      // Best-move changes of every thread (Pikafish sums them over the pool and
      // divides by the thread count below).
      totBestMoveChanges +=
        this.bestMoveChanges + (this.shared && !this.helper ? this.shared.takeBestMoveChanges() : 0);
      this.bestMoveChanges = 0;

      // Do we have time for the next iteration? Can we stop searching now?
      if (this.useTimeManagement && !this.stopped && !this.stopOnPonderhit) {
        const nodesEffort = Math.floor((rootMoves[0].effort * 100000) / Math.max(1, this.nodes));
        let fallingEval =
          (16.93 + 2.73 * (this.bestPreviousAverageScore - bestValue) + 0.8 * (this.iterValue[iterIdx] - bestValue)) /
          100.0;
        fallingEval = Math.min(1.86, Math.max(0.61, fallingEval));
        timeReduction = Math.min(
          1.44,
          Math.max(0.67, interpolate(this.rootDepth - lastBestMoveDepth, 8, 17, 0.67, 1.44)),
        );
        const reduction = (2.1 + this.previousTimeReduction) / (2.48 * timeReduction);
        const bestMoveInstability = 0.96 + (1.63 * totBestMoveChanges) / (this.shared ? this.shared.threads : 1);
        const highBestMoveEffort = Math.min(0.96, Math.max(0.74, interpolate(nodesEffort, 78000, 94000, 0.96, 0.74)));
        const totalTime = this.tm.optimum() * fallingEval * reduction * bestMoveInstability * highBestMoveEffort;

        const elapsed = this.tm.elapsed(this.totalNodes());
        if (
          rootMoves.length === 1 ||
          elapsed > Math.min(totalTime, this.tm.maximum()) ||
          rootMoves[multiPV - 1].score >= mateIn(3) ||
          rootMoves[0].score === matedIn(2)
        ) {
          // While pondering, keep going until ponderhit or stop.
          if (this.ponder) this.stopOnPonderhit = true;
          else this.stopped = true;
        } else this.increaseDepth = this.ponder || elapsed <= totalTime * 0.26;
      }

      this.iterValue[iterIdx] = bestValue;
      iterIdx = (iterIdx + 1) & 3;

      // Flags between iterations (short iterations may not reach checkTime's poll).
      if (!this.stopped) {
        if (Atomics.load(this.signals, 0) !== 0) this.stopped = true;
        else if (this.ponder && Atomics.load(this.signals, 1) !== 0) this.onPonderhit();
      }
    }

    this.previousTimeReduction = timeReduction;

    if (skill.enabled()) {
      const pick = skill.best !== MOVE_NONE ? skill.best : skill.pickBest(this.skillLines(multiPV), multiPV, rng);
      const k = rootMoves.findIndex((r) => r.move === pick);
      if (k > 0) {
        const t = rootMoves[0];
        rootMoves[0] = rootMoves[k];
        rootMoves[k] = t;
        uciPvSent = false;
      }
    }
    return uciPvSent;
  }

  private skillLines(multiPV: number): { score: number; move: Move }[] {
    const out: { score: number; move: Move }[] = [];
    for (let i = 0; i < multiPV && i < this.rootMoves.length; i++) {
      const rm = this.rootMoves[i];
      out.push({ score: rm.score === -VALUE_INFINITE ? rm.previousScore : rm.score, move: rm.move });
    }
    return out;
  }

  private outputPV(options: SearchOptions, depth: number): void {
    if (this.io.silent) return;
    const rootMoves = this.rootMoves;
    const n = Math.min(Math.max(1, options.multiPV | 0), rootMoves.length);
    const timeMs = Math.max(1, Math.round(this.elapsedMs()));
    const hashfull = this.tt.hashfull(0);
    const nodes = this.totalNodes();
    for (let i = 0; i < n; i++) {
      const rm = rootMoves[i];
      const usePrevious = rm.score === -VALUE_INFINITE;
      if (depth === 1 && usePrevious && i > 0) continue;
      const d = usePrevious ? Math.max(1, depth - 1) : depth;
      let v = usePrevious ? rm.previousScore : rm.uciScore;
      if (v === -VALUE_INFINITE) v = VALUE_ZERO;
      const pv = (usePrevious ? rm.previousPV : rm.pv).slice();
      if (!pv.length) pv.push(rm.move);
      let bound: Bound = 'exact';
      if (!usePrevious) bound = rm.scoreLowerbound ? 'lower' : rm.scoreUpperbound ? 'upper' : 'exact';
      this.io.info({
        depth: d,
        seldepth: rm.selDepth,
        multipv: i + 1,
        score: v,
        bound,
        nodes,
        nps: Math.floor((nodes * 1000) / timeMs),
        hashfull,
        timeMs,
        pv,
      });
    }
  }

  /** Finds a ponder move in the TT when the PV has only the best move. */
  private extractPonderFromTT(rm: RootMove): boolean {
    const pos = this.pos;
    const m = rm.pv[0];
    pos.doMove(m);
    if (ruleJudge(pos, 1, this.rules, this.ruleVerdict) === VALUE_NONE) {
      this.computeKey();
      this.tt.probe(this.kLo, this.kHi);
      const tm = this.tt.move;
      if (this.tt.hit && tm !== MOVE_NONE) {
        const list = new Int32Array(MAX_MOVES);
        const n = generate(pos, GEN_LEGAL, list, 0);
        for (let i = 0; i < n; i++)
          if (list[i] === tm) {
            rm.pv.push(tm);
            break;
          }
      }
    }
    pos.undoMove(m);
    return rm.pv.length > 1;
  }

  // =============================================================================
  // Helpers used per node
  // =============================================================================

  /** The TT key of the current position, adjusted by the rule-60 counter and the repetition filter. */
  private computeKey(): void {
    const pos = this.pos;
    const sp = pos.sp;
    let lo = pos.keyLo[sp],
      hi = pos.keyHi[sp];
    const r = pos.rule60[sp];
    if (r >= 14) {
      let i = (r - 14) >> 3;
      if (i >= MK_N) i = MK_N - 1;
      lo ^= MK_LO[i];
      hi ^= MK_HI[i];
    }
    if (pos.keyFilter[pos.keyLo[sp] & KEY_FILTER_MASK] !== 0) {
      lo ^= MK_LO[14];
      hi ^= MK_HI[14];
    }
    this.kLo = lo;
    this.kHi = hi;
  }

  /** The static evaluation of the current position for the search (protected: lab/search/free-eval.ts records and replays it). */
  protected evaluate(): number {
    const nnue = this.nnue;
    if (nnue !== null) return nnue.evaluate(this.pos, this.optimism[this.pos.side]);
    return evaluate(this.pos, this.optimism[this.pos.side]);
  }

  private valueDraw(): number {
    return VALUE_DRAW - 1 + (this.nodes & 2);
  }

  /** Makes a move in the search; `givesCheck` is pos.givesCheck(m) when the caller has it. */
  private doMove(ss: number, m: Move, capture: boolean, pc: number, givesCheck?: boolean): void {
    this.nodes++;
    this.pos.doMove(m, givesCheck);
    const to = m & 127;
    this.ssMove[ss] = m;
    this.ssCont[ss] = (((this.ssInCheck[ss] * 2 + (capture ? 1 : 0)) * 16 + pc) * 90 + to) * PIECE_TO;
    this.ssContCorr[ss] = (pc * 90 + to) * PIECE_TO;
  }

  private correctionValue(ss: number): number {
    const pos = this.pos;
    const sp = pos.sp;
    const us = pos.side;
    const corr = this.hist.correction;
    const pcv = corr[(((pos.pawnKey[sp] & 0xffff) << 1) + us) * 4];
    const micv = corr[(((pos.minorKey[sp] & 0xffff) << 1) + us) * 4 + 1];
    const wnpcv = corr[(((pos.nonPawnKeyRed[sp] & 0xffff) << 1) + us) * 4 + 2];
    const bnpcv = corr[(((pos.nonPawnKeyBlack[sp] & 0xffff) << 1) + us) * 4 + 3];
    const m = this.ssMove[ss - 1];
    let cntcv = 71856;
    if (moveOk(m)) {
      const to = m & 127;
      const pi = pos.board[to] * 90 + to;
      const cc = this.hist.contCorr;
      cntcv = 8982 * (cc[this.ssContCorr[ss - 2] + pi] + cc[this.ssContCorr[ss - 4] + pi] + 2 * CONT_CORRECTION_START);
    }
    return 4547 * pcv + 3804 * micv + 8213 * (wnpcv + bnpcv) + cntcv;
  }

  private updateCorrectionHistory(ss: number, bonus: number): void {
    const pos = this.pos;
    const sp = pos.sp;
    const us = pos.side;
    const corr = this.hist.correction;
    const D = CORRECTION_HISTORY_LIMIT;
    const np = ((bonus * 125) / 128) | 0;
    updateEntry(corr, (((pos.pawnKey[sp] & 0xffff) << 1) + us) * 4, bonus, D);
    updateEntry(corr, (((pos.minorKey[sp] & 0xffff) << 1) + us) * 4 + 1, ((bonus * 145) / 128) | 0, D);
    updateEntry(corr, (((pos.nonPawnKeyRed[sp] & 0xffff) << 1) + us) * 4 + 2, np, D);
    updateEntry(corr, (((pos.nonPawnKeyBlack[sp] & 0xffff) << 1) + us) * 4 + 3, np, D);
    const m = this.ssMove[ss - 1];
    if (moveOk(m)) {
      const to = m & 127;
      const pi = pos.board[to] * 90 + to;
      this.hist.updateContCorr(this.ssContCorr[ss - 2] + pi, ((bonus * 131) / 128) | 0);
      this.hist.updateContCorr(this.ssContCorr[ss - 4] + pi, ((bonus * 63) / 128) | 0);
    }
  }

  private updateContinuationHistories(ss: number, pc: number, to: number, bonus: number): void {
    const hist = this.hist;
    const cont = hist.cont;
    const pi = pc * 90 + to;
    const inCheck = this.ssInCheck[ss] !== 0;
    let positiveCount = 0;
    for (let i = 1; i <= 6; i++) {
      // Only the first two when in check.
      if (inCheck && i > 2) break;
      if (moveOk(this.ssMove[ss - i])) {
        const idx = this.ssCont[ss - i] + pi;
        if (cont[idx] + CONT_HISTORY_START > 0) positiveCount++;
        const mult = CMHC_MULT[positiveCount];
        // The product in int32, as Pikafish computes it in `int`: beyond 2^31 (bonuses
        // from about 16,000) it wraps, and Kirin wraps with it to search the same trees.
        hist.updateCont(idx, ((Math.imul(Math.imul(bonus, CONT_WEIGHTS[i]), mult) / 131072) | 0) + (i < 2 ? 83 : 0));
      }
    }
  }

  private updateQuietHistories(ss: number, m: Move, bonus: number): void {
    const pos = this.pos;
    const h = this.hist;
    const ply = ss - STACK_OFFSET;
    h.updateMain(pos.side * BUTTERFLY + m, bonus);
    if (ply < LOW_PLY_HISTORY_SIZE)
      updateEntry(h.lowPly, ply * BUTTERFLY + m, ((bonus * 693) / 1024) | 0, LOW_PLY_HISTORY_LIMIT);
    const pc = pos.board[m >> 7],
      to = m & 127;
    this.updateContinuationHistories(ss, pc, to, ((bonus * 972) / 1024) | 0);
    const pawnBase = pawnHistoryBase(pos.pawnKey[pos.sp]);
    h.updatePawn(pawnBase + pc * 90 + to, ((bonus * (bonus > -7 ? 913 : 553)) / 1024) | 0);
  }

  private updateAllStats(
    ss: number,
    slot: number,
    bestMove: Move,
    prevSq: number,
    nQuiets: number,
    nCaptures: number,
    depth: number,
    ttMove: Move,
    pvNode: boolean,
  ): void {
    const pos = this.pos;
    const b = pos.board;
    const capH = this.hist.capture;
    const movedPiece = b[bestMove >> 7];
    let bonus =
      Math.min(162 * depth - 87, 1602) + (bestMove === ttMove ? 336 : 0) + ((this.ssStatScore[ss - 1] / 32) | 0);
    const malus = Math.min(870 * depth - 148, 2000);
    if (!pvNode) bonus += Math.floor((bonus * (nQuiets + nCaptures)) / 256);
    const base = slot * SEARCHED_CAPACITY;

    if (!pos.isCapture(bestMove)) {
      this.updateQuietHistories(ss, bestMove, ((bonus * 899) / 1024) | 0);
      let actualMalus = ((malus * 1100) / 1024) | 0;
      for (let i = 0; i < nQuiets; i++) {
        actualMalus = ((actualMalus * 950) / 1024) | 0;
        this.updateQuietHistories(ss, this.quietsSearched[base + i], 0 - actualMalus);
      }
    } else {
      const to = bestMove & 127;
      updateEntry(capH, (movedPiece * 90 + to) * 8 + (b[to] & 7), ((bonus * 1455) / 1024) | 0, CAPTURE_HISTORY_LIMIT);
    }

    // Extra penalty for a quiet early move of the previous ply that gets refuted.
    if (prevSq >= 0 && this.ssMoveCount[ss - 1] === 1 + this.ssTtHit[ss - 1] && pos.captured[pos.sp] === 0) {
      this.updateContinuationHistories(ss - 1, b[prevSq], prevSq, ((-malus * 617) / 1024) | 0);
    }

    for (let i = 0; i < nCaptures; i++) {
      const m = this.capturesSearched[base + i];
      const to = m & 127;
      updateEntry(capH, (b[m >> 7] * 90 + to) * 8 + (b[to] & 7), ((-malus * 1440) / 1024) | 0, CAPTURE_HISTORY_LIMIT);
    }
  }

  private reduction(improving: boolean, d: number, mn: number, delta: number): number {
    const reductionScale = this.reductions[d] * this.reductions[mn];
    return (
      reductionScale -
      (((delta * 1138) / this.rootDelta) | 0) +
      (improving ? 0 : ((reductionScale * 166) / 512) | 0) +
      1934
    );
  }

  private isShuffling(m: Move, ss: number): boolean {
    const pos = this.pos;
    const sp = pos.sp;
    if (pos.isCapture(m) || pos.rule60[sp] < 10) return false;
    if (pos.pliesFromNull[sp] < 6 || ss - STACK_OFFSET < 20) return false;
    const m2 = this.ssMove[ss - 2],
      m4 = this.ssMove[ss - 4];
    return m >> 7 === (m2 & 127) && m2 >> 7 === (m4 & 127);
  }

  private updatePV(ply: number, m: Move): void {
    const t = this.pvTable;
    const dst = ply * PV_STRIDE,
      src = (ply + 1) * PV_STRIDE;
    const n = this.pvLen[ply + 1];
    t[dst] = m;
    for (let i = 0; i < n; i++) t[dst + 1 + i] = t[src + i];
    this.pvLen[ply] = n + 1;
  }

  // =============================================================================
  // Main search
  // =============================================================================

  private searchNode(
    nodeType: number,
    ss: number,
    alpha: number,
    beta: number,
    depth: number,
    cutNode: boolean,
  ): number {
    const pvNode = nodeType !== NONPV;
    const rootNode = nodeType === ROOT;

    if (depth <= 0) return this.qsearch(pvNode ? PV : NONPV, ss, alpha, beta);
    if (depth > MAX_PLY - 1) depth = MAX_PLY - 1;

    const allNode = !(pvNode || cutNode);
    const pos = this.pos;
    const board = pos.board;
    const ply = ss - STACK_OFFSET;
    const hist = this.hist;
    const tt = this.tt;

    // Step 1. Initialize node
    const inCheck = pos.checked[pos.sp] === 1;
    this.ssInCheck[ss] = inCheck ? 1 : 0;
    const priorCapture = pos.captured[pos.sp] !== 0;
    const us = pos.side;
    this.ssMoveCount[ss] = 0;
    let bestValue = -VALUE_INFINITE;
    const maxValue = VALUE_INFINITE;

    this.ssFollowPV[ss] =
      rootNode ||
      (this.ssFollowPV[ss - 1] !== 0 &&
        ply - 1 < this.lastIterationPVLen &&
        this.ssMove[ss - 1] === this.lastIterationPV[ply - 1])
        ? 1
        : 0;

    this.checkTime();

    if (pvNode && this.selDepth < ply + 1) this.selDepth = ply + 1;

    if (!rootNode) {
      // Step 2. Game end by rule (repetition, 60-move rule), aborted search, maximum ply
      const r = ruleJudge(pos, ply, this.rules, this.ruleVerdict);
      if (r !== VALUE_NONE) return r === VALUE_DRAW ? this.valueDraw() : r;
      // A two-fold repetition that is not final yet (ComputerRule): the side it
      // would favour can count on at least a draw, the other on at most one.
      const provisional = this.ruleVerdict.provisional;
      if (provisional === 1) alpha = Math.max(alpha, VALUE_DRAW - 1);
      else if (provisional === -1) beta = Math.min(beta, VALUE_DRAW + 1);

      if (this.stopped || ply >= MAX_PLY) return ply >= MAX_PLY && !inCheck ? this.evaluate() : this.valueDraw();

      // Step 3. Mate distance pruning
      if (alpha < matedIn(ply)) alpha = matedIn(ply);
      if (beta > mateIn(ply + 1)) beta = mateIn(ply + 1);
      if (alpha >= beta) return alpha;
    }

    const prevMove = this.ssMove[ss - 1];
    const prevSq = moveOk(prevMove) ? prevMove & 127 : -1;
    let bestMove = MOVE_NONE;
    const priorReduction = this.ssReduction[ss - 1];
    this.ssReduction[ss - 1] = 0;
    this.ssStatScore[ss] = 0;
    this.ssCutoffCnt[ss + 2] = 0;

    const correctionValue = this.correctionValue(ss);
    const absCorr = correctionValue < 0 ? 0 - correctionValue : correctionValue;

    // Step 4. Transposition table lookup
    const excludedMove = this.ssExcluded[ss];
    // Worked out here, on every node's path: the rare no-move ending below then
    // holds no comparison or arithmetic that V8 saw no type feedback for (each
    // would be a soft deoptimisation of this whole function, thousands a bench).
    const excluded = excludedMove !== MOVE_NONE;
    const matedValue = matedIn(ply);
    const slot = 2 * ply + (excluded ? 1 : 0);
    this.computeKey();
    const keyLo = this.kLo;
    const ttIdx = tt.probe(keyLo, this.kHi);
    const ttHit = tt.hit;
    this.ssTtHit[ss] = ttHit ? 1 : 0;
    const ttMove = rootNode ? this.rootMoves[this.pvIdx].pv[0] : ttHit ? tt.move : MOVE_NONE;
    const ttValue = ttHit ? valueFromTT(tt.value, ply, pos.rule60[pos.sp], this.rule60Max) : VALUE_NONE;
    const ttDepth = tt.depth,
      ttBound = tt.bound,
      ttEval = tt.eval,
      ttIsPv = tt.isPv;
    if (excludedMove === MOVE_NONE) this.ssTtPv[ss] = pvNode || (ttHit && ttIsPv) ? 1 : 0;
    const ttCapture = ttMove !== MOVE_NONE && pos.isCapture(ttMove);

    // Step 5. Static evaluation
    let unadjustedStaticEval = VALUE_NONE;
    let evalV: number;
    if (inCheck) {
      evalV = this.ssEval[ss] = this.ssEval[ss - 2];
    } else if (excludedMove !== MOVE_NONE) {
      unadjustedStaticEval = evalV = this.ssEval[ss];
    } else if (ttHit) {
      unadjustedStaticEval = ttEval;
      if (unadjustedStaticEval === VALUE_NONE) unadjustedStaticEval = this.evaluate();
      evalV = this.ssEval[ss] = clampInt(
        unadjustedStaticEval + ((correctionValue / 131072) | 0),
        VALUE_MATED_IN_MAX_PLY + 1,
        VALUE_MATE_IN_MAX_PLY - 1,
      );
      // The TT value can be a better estimate.
      if (ttValue !== VALUE_NONE && (ttBound & (ttValue > evalV ? BOUND_LOWER : BOUND_UPPER)) !== 0) evalV = ttValue;
    } else {
      unadjustedStaticEval = this.evaluate();
      evalV = this.ssEval[ss] = clampInt(
        unadjustedStaticEval + ((correctionValue / 131072) | 0),
        VALUE_MATED_IN_MAX_PLY + 1,
        VALUE_MATE_IN_MAX_PLY - 1,
      );
      tt.write(
        ttIdx,
        keyLo,
        VALUE_NONE,
        this.ssTtPv[ss] !== 0,
        BOUND_NONE,
        DEPTH_UNSEARCHED,
        MOVE_NONE,
        unadjustedStaticEval,
      );
    }

    // Once the moves are searched, the node reads ssEval[ss] again (Pikafish's
    // ss->staticEval): a singular search of this node at the same stack entry may
    // end in a quiescence search that rewrites it.
    const staticEval = this.ssEval[ss];
    let improving = staticEval > this.ssEval[ss - 2];
    const opponentWorsening = staticEval > 0 - this.ssEval[ss - 1];

    // Hindsight adjustment of reductions based on the static evaluation difference.
    if (priorReduction >= 3 && !opponentWorsening) depth++;
    if (priorReduction >= 2 && depth >= 2 && staticEval + this.ssEval[ss - 1] > 193) depth--;

    // Early TT cutoff at non-PV nodes
    const ttDepthOk = ttDepth > depth - (ttValue <= beta ? 1 : 0);
    if (
      !pvNode &&
      excludedMove === MOVE_NONE &&
      ttDepthOk &&
      ttValue !== VALUE_NONE &&
      (ttBound & (ttValue >= beta ? BOUND_LOWER : BOUND_UPPER)) !== 0 &&
      (cutNode === ttValue >= beta || depth > 5)
    ) {
      if (ttMove !== MOVE_NONE && ttValue >= beta) {
        if (!ttCapture) this.updateQuietHistories(ss, ttMove, Math.min(108 * depth, 1773));
        if (prevSq >= 0 && this.ssMoveCount[ss - 1] < 3 && !priorCapture) {
          this.updateContinuationHistories(ss - 1, board[prevSq], prevSq, -2218);
        }
      }
      // Graph history interaction: no TT cutoffs close to the 60-move limit, and at
      // higher depths check that the position after the TT move agrees.
      if (this.rule60Max === 0 || pos.rule60[pos.sp] < this.rule60Max - 4) {
        if (
          depth >= 7 &&
          ttMove !== MOVE_NONE &&
          pos.pseudoLegal(ttMove) &&
          pos.legal(ttMove) &&
          !isDecisive(ttValue)
        ) {
          pos.doMove(ttMove);
          this.computeKey();
          tt.probe(this.kLo, this.kHi);
          const nextValue = tt.value;
          pos.undoMove(ttMove);
          if (nextValue === VALUE_NONE) return ttValue;
          if (ttValue >= beta === 0 - nextValue >= beta) return ttValue;
        } else return ttValue;
      }
    } else if (
      !pvNode &&
      excludedMove === MOVE_NONE &&
      ttDepthOk &&
      ttValue !== VALUE_NONE &&
      ttBound !== BOUND_EXACT &&
      (ttBound & (ttValue >= beta ? BOUND_UPPER : BOUND_LOWER)) !== 0 &&
      depth > 5
    ) {
      // Only the window made the cutoff fail: the entry is less useful.
      tt.penalize(ttIdx, 1);
    }

    const mp = this.pickers[slot];

    if (!inCheck) {
      // Use the static evaluation difference to improve quiet move ordering.
      if (prevSq >= 0 && !this.ssInCheck[ss - 1] && !priorCapture) {
        const evalDiff = clampInt(0 - (this.ssEval[ss - 1] + staticEval), -110, 187) + 34;
        hist.updateMain((us ^ 1) * BUTTERFLY + prevMove, evalDiff * 13);
        const prevPc = board[prevSq];
        if (!ttHit && (prevPc & 7) !== PAWN) {
          const pawnBase = pawnHistoryBase(pos.pawnKey[pos.sp]);
          hist.updatePawn(pawnBase + prevPc * 90 + prevSq, evalDiff * 12);
        }
      }

      // Step 6. Razoring
      if (!pvNode && evalV < alpha - razoringMargin(depth)) return this.qsearch(NONPV, ss, alpha, beta);

      // Step 7. Futility pruning: child node (reverse futility)
      if (
        !this.ssTtPv[ss] &&
        depth < 15 &&
        evalV >= beta &&
        (ttMove === MOVE_NONE || ttCapture) &&
        !isLoss(beta) &&
        !isWin(evalV)
      ) {
        const futilityMargin = reverseFutilityMargin(depth, ttHit, improving, opponentWorsening, absCorr);
        if (evalV - futilityMargin >= beta) return ((716 * beta + 308 * evalV) / 1024) | 0;
      }

      // Step 8. Null move search with verification search
      if (
        cutNode &&
        staticEval >= beta - 8 * depth - (improving ? 50 : 0) + 187 &&
        excludedMove === MOVE_NONE &&
        pos.majorMaterial[us] !== 0 &&
        ply >= this.nmpMinPly &&
        !isLoss(beta)
      ) {
        const R = 8 + ((depth / 3) | 0);
        pos.doNullMove();
        this.ssMove[ss] = MOVE_NULL;
        this.ssCont[ss] = 0;
        this.ssContCorr[ss] = 0;
        const nullValue = 0 - this.searchNode(NONPV, ss + 1, 0 - beta, 1 - beta, depth - R, false);
        pos.undoNullMove();

        // Do not return unproven mates.
        if (nullValue >= beta && !isWin(nullValue)) {
          if (this.nmpMinPly || depth < 15) return nullValue;
          // Verification at high depths, with null moves disabled for the first plies.
          this.nmpMinPly = ply + (((3 * (depth - R)) / 4) | 0);
          const v = this.searchNode(NONPV, ss, beta - 1, beta, depth - R, false);
          this.nmpMinPly = 0;
          if (v >= beta) return nullValue;
        }
      }

      improving = improving || staticEval >= beta;

      // Step 9. Internal iterative reductions
      if (!this.ssFollowPV[ss] && !allNode && depth >= 6 && ttMove === MOVE_NONE) depth--;

      // Step 10. ProbCut: a good capture whose reduced search beats beta by a margin
      const probCutBeta = beta + 251 - (improving ? 66 : 0);
      if (depth >= 3 && !isDecisive(beta) && !(ttValue !== VALUE_NONE && ttValue < probCutBeta)) {
        mp.initProbCut(pos, hist, ttMove, probCutBeta - staticEval);
        const probCutDepth = depth - (improving ? 5 : 3);
        let move: Move;
        while ((move = mp.nextMove()) !== MOVE_NONE) {
          if (move === excludedMove || !pos.legal(move)) continue;
          this.doMove(ss, move, true, board[move >> 7]);
          let value = 0 - this.qsearch(NONPV, ss + 1, 0 - probCutBeta, 1 - probCutBeta);
          if (value >= probCutBeta && probCutDepth > 0) {
            value = 0 - this.searchNode(NONPV, ss + 1, 0 - probCutBeta, 1 - probCutBeta, probCutDepth, !cutNode);
          }
          pos.undoMove(move);
          if (value >= probCutBeta) {
            tt.write(
              ttIdx,
              keyLo,
              valueToTT(value, ply),
              this.ssTtPv[ss] !== 0,
              BOUND_LOWER,
              probCutDepth + 1,
              move,
              unadjustedStaticEval,
            );
            if (!isDecisive(value)) return value - (probCutBeta - beta);
          }
        }
      }
    }

    // Step 11. A small ProbCut idea (also when in check)
    {
      const probCutBeta = beta + 470;
      if (
        (ttBound & BOUND_LOWER) !== 0 &&
        ttDepth >= depth - 4 &&
        ttValue !== VALUE_NONE &&
        ttValue >= probCutBeta &&
        !isDecisive(beta) &&
        !isDecisive(ttValue)
      )
        return probCutBeta;
    }

    const cont = hist.cont;
    const c0 = this.ssCont[ss - 1],
      c1 = this.ssCont[ss - 2];
    const mainH = hist.main,
      capH = hist.capture,
      pawnH = hist.pawn;
    const pawnBase = pawnHistoryBase(pos.pawnKey[pos.sp]);
    const mainBase = us * BUTTERFLY;
    const searchedBase = slot * SEARCHED_CAPACITY;
    let nQuiets = 0,
      nCaptures = 0;

    mp.init(pos, hist, ttMove, depth, ply, this.ssCont, ss);

    let value = bestValue;
    let moveCount = 0;
    const majorMaterial = pos.majorMaterial[us] !== 0;
    let move: Move;

    // Step 12. Loop through the moves until none remain or a beta cutoff occurs.
    while ((move = mp.nextMove()) !== MOVE_NONE) {
      if (move === excludedMove) continue;
      if (!pos.legal(move)) continue;
      // At the root obey searchmoves and skip the PV lines already searched (MultiPV).
      if (rootNode && !this.isActiveRootMove(move)) continue;

      this.ssMoveCount[ss] = ++moveCount;
      if (pvNode) this.pvLen[ply + 1] = 0;

      let extension = 0;
      const to = move & 127;
      const capturedPiece = board[to];
      const capture = capturedPiece !== 0;
      const movedPiece = board[move >> 7];
      const pi = movedPiece * 90 + to;
      const givesCheck = pos.givesCheck(move);

      let newDepth = depth - 1;
      const delta = beta - alpha;
      let r = this.reduction(improving, depth, moveCount, delta);
      if (this.ssTtPv[ss]) r += 931;

      // Step 13. Pruning at shallow depths
      if (!rootNode && majorMaterial && !isLoss(bestValue)) {
        // Late move pruning: skip quiets once enough moves were tried.
        if (moveCount >= (((3 + depth * depth) / (improving ? 1 : 2)) | 0)) mp.skipQuietMoves();

        let lmrDepth = newDepth - ((r / 1005) | 0);

        if (capture || givesCheck) {
          const captHist = capH[pi * 8 + (capturedPiece & 7)];
          // Futility pruning for captures
          if (!givesCheck && lmrDepth < 19) {
            const futilityValue =
              this.ssEval[ss] + 322 + 336 * lmrDepth + PIECE_VALUE[capturedPiece] + (((229 * captHist) / 1024) | 0);
            if (futilityValue <= alpha) continue;
          }
          // SEE pruning for captures and checks
          const margin = 256 * depth + (((captHist * 34) / 1024) | 0);
          if (!pos.seeGe(move, 0 - margin)) continue;
        } else if (!this.ssFollowPV[ss] || !pvNode) {
          const dIndex = Math.min(depth, 16) - 1;
          let history =
            cont[c0 + pi] + cont[c1 + pi] + pawnH[pawnBase + pi] + (2 * CONT_HISTORY_START + PAWN_HISTORY_START);
          // Continuation history pruning
          if (history < -2995 * depth) continue;
          history += ((73 * mainH[mainBase + move]) / 32) | 0;
          lmrDepth += (history / LMR_DIVISOR[dIndex]) | 0;

          const futilityValue =
            this.ssEval[ss] + quietFutilityMargin(lmrDepth, bestMove === MOVE_NONE, this.ssEval[ss] > alpha);
          // Futility pruning: parent node
          if (!inCheck && lmrDepth < 10 && futilityValue <= alpha) {
            if (bestValue <= futilityValue && !isDecisive(bestValue) && !isWin(futilityValue))
              bestValue = futilityValue;
            continue;
          }
          if (lmrDepth < 0) lmrDepth = 0;
          // SEE pruning for quiets
          if (!pos.seeGe(move, 0 - 35 * lmrDepth * lmrDepth)) continue;
        }
      }

      // Step 14. Extensions: singular, multi-cut, negative
      if (
        !rootNode &&
        move === ttMove &&
        excludedMove === MOVE_NONE &&
        depth >= 5 + this.ssTtPv[ss] &&
        ttValue !== VALUE_NONE &&
        !isDecisive(ttValue) &&
        (ttBound & BOUND_LOWER) !== 0 &&
        ttDepth >= depth - 3 &&
        !this.isShuffling(move, ss)
      ) {
        const singularBeta = ttValue - ((((44 + (this.ssTtPv[ss] && !pvNode ? 72 : 0)) * depth) / 69) | 0);
        const singularDepth = (newDepth / 2) | 0;

        this.ssExcluded[ss] = move;
        value = this.searchNode(NONPV, ss, singularBeta - 1, singularBeta, singularDepth, cutNode);
        this.ssExcluded[ss] = MOVE_NONE;

        if (value < singularBeta) {
          const corrValAdj = (absCorr / 265845) | 0;
          const deep = ply > this.rootDepth;
          const doubleMargin =
            -4 +
            (pvNode ? 234 : 0) -
            (ttCapture ? 0 : 172) -
            corrValAdj -
            (((1085 * hist.ttMoveHistory) / 133615) | 0) -
            (deep ? 43 : 0);
          const tripleMargin =
            106 +
            (pvNode ? 299 : 0) -
            (ttCapture ? 0 : 263) +
            (this.ssTtPv[ss] ? 93 : 0) -
            corrValAdj -
            (deep ? 60 : 0);
          extension = 1 + (value < singularBeta - doubleMargin ? 1 : 0) + (value < singularBeta - tripleMargin ? 1 : 0);
          depth++;
        } else if (value >= beta && !isDecisive(value)) {
          // Multi-cut: several moves fail high, prune the whole subtree.
          hist.updateTTMoveHistory(-397 - 103 * depth);
          return value;
        } else if (ttValue >= beta) extension = -3;
        else if (cutNode) extension = -2;
      }

      const nodeCount = rootNode ? this.nodes : 0;

      // Step 15. Make the move
      this.doMove(ss, move, capture, movedPiece, givesCheck);
      newDepth += extension;

      if (this.ssTtPv[ss]) {
        r -=
          2363 +
          (pvNode ? 963 : 0) +
          (ttValue > alpha ? 1121 : 0) +
          (ttDepth >= depth ? 1137 + (cutNode ? 922 : 0) : 0);
      }
      r += 855;
      r -= moveCount * 64;
      r -= (absCorr / 30558) | 0;
      if (cutNode) r += 3251 + (ttMove === MOVE_NONE ? 1048 : 0);
      if (ttCapture) r += 1571;
      const childCutoffs = this.ssCutoffCnt[ss + 1];
      if (childCutoffs > 1) r += 256 + (childCutoffs > 2 ? 1024 : 0) + (allNode ? 1024 : 0);
      else if (move === ttMove) r -= 2730;

      let statScore: number;
      if (capture) statScore = (((953 * PIECE_VALUE[capturedPiece]) / 128) | 0) + capH[pi * 8 + (capturedPiece & 7)];
      else
        statScore =
          ((2048 * mainH[mainBase + move] +
            1126 * (cont[c0 + pi] + CONT_HISTORY_START) +
            1024 * (cont[c1 + pi] + CONT_HISTORY_START)) /
            1024) |
          0;
      this.ssStatScore[ss] = statScore;
      r -= ((statScore * 946) / 8192) | 0;
      if (allNode) r += ((r * 256) / (256 * depth + 256)) | 0;

      // Step 16. Late move reductions
      if (depth >= 2 && moveCount > 1) {
        const d = Math.max(1, Math.min(newDepth - ((r / 1024) | 0), newDepth + 2)) + (pvNode ? 1 : 0);
        this.ssReduction[ss] = newDepth - d;
        value = 0 - this.searchNode(NONPV, ss + 1, -1 - alpha, 0 - alpha, d, true);
        this.ssReduction[ss] = 0;

        if (value > alpha) {
          // Re-search at full depth, a little deeper or shallower depending on the result.
          const doDeeperSearch = d < newDepth && value > bestValue + 60;
          const doShallowerSearch = value < bestValue + 9;
          newDepth += (doDeeperSearch ? 1 : 0) - (doShallowerSearch ? 1 : 0);
          if (newDepth > d) value = 0 - this.searchNode(NONPV, ss + 1, -1 - alpha, 0 - alpha, newDepth, !cutNode);
          this.updateContinuationHistories(ss, movedPiece, to, 1528);
        }
      } else if (!pvNode || moveCount > 1) {
        // Step 17. Full-depth zero-window search when LMR is skipped
        if (ttMove === MOVE_NONE) r += 979;
        value =
          0 -
          this.searchNode(
            NONPV,
            ss + 1,
            -1 - alpha,
            0 - alpha,
            newDepth - (r > 3135 ? 1 : 0) - (r > 4840 && newDepth > 2 ? 1 : 0),
            !cutNode,
          );
      }

      // Full PV search for the first move and for moves that beat alpha.
      if (pvNode && (moveCount === 1 || value > alpha)) {
        this.pvLen[ply + 1] = 0;
        if (move === ttMove && ((ttValue !== VALUE_NONE && isDecisive(ttValue) && ttDepth > 0) || ttDepth > 1)) {
          newDepth = Math.max(newDepth, 1);
        }
        value = 0 - this.searchNode(PV, ss + 1, 0 - beta, 0 - alpha, newDepth, false);
      }

      // Step 18. Undo move
      pos.undoMove(move);

      // Step 19. New best move? (Results of a stopped search cannot be trusted.)
      if (this.stopped) return VALUE_ZERO;

      if (rootNode) this.updateRootMove(move, value, alpha, beta, moveCount, nodeCount);

      // An alternative move equal to the best is sometimes promoted (pretend it beats alpha).
      const inc =
        value === bestValue && ply + 2 >= this.rootDepth && (this.nodes & 15) === 0 && !isWin(Math.abs(value) + 1)
          ? 1
          : 0;

      if (value + inc > bestValue) {
        bestValue = value;
        if (value + inc > alpha) {
          bestMove = move;
          if (pvNode && !rootNode) this.updatePV(ply, move);
          if (value >= beta) {
            if (extension < 2 || pvNode) this.ssCutoffCnt[ss]++;
            break;
          }
          // Reduce the other moves once a score improvement was found.
          if (depth > 3 && depth < 11 && !isDecisive(value)) depth -= 3;
          alpha = value;
        }
      }

      // Remember the moves that did not become the best, to update their stats.
      if (move !== bestMove && moveCount <= SEARCHED_CAPACITY) {
        if (capture) this.capturesSearched[searchedBase + nCaptures++] = move;
        else this.quietsSearched[searchedBase + nQuiets++] = move;
      }
    }

    // Step 20. Mate (no legal move is a loss in xiangqi, in check or not)
    if (bestValue >= beta && !isDecisive(bestValue) && !isDecisive(alpha)) {
      bestValue = ((bestValue * depth + beta) / (depth + 1)) | 0;
    }

    if (!moveCount) bestValue = excluded ? alpha : matedValue;
    else if (bestMove !== MOVE_NONE) {
      this.updateAllStats(ss, slot, bestMove, prevSq, nQuiets, nCaptures, depth, ttMove, pvNode);
      if (!pvNode) hist.updateTTMoveHistory(bestMove === ttMove ? 796 : -855);
    } else if (!priorCapture && prevSq >= 0) {
      // Bonus for the prior quiet move that caused the fail low.
      let bonusScale = -231;
      bonusScale -= (this.ssStatScore[ss - 1] / 73) | 0;
      bonusScale += Math.min(62 * depth, 512);
      if (this.ssMoveCount[ss - 1] > 13) bonusScale += 152;
      if (!inCheck && bestValue <= this.ssEval[ss] - 166) bonusScale += 76;
      if (!this.ssInCheck[ss - 1] && bestValue <= 0 - this.ssEval[ss - 1] - 109) bonusScale += 163;
      if (bonusScale < 0) bonusScale = 0;
      const scaledBonus = Math.min(148 * depth - 86, 2188) * bonusScale;
      const prevPc = board[prevSq];
      this.updateContinuationHistories(ss - 1, prevPc, prevSq, ((scaledBonus * 192) / 16384) | 0);
      hist.updateMain((us ^ 1) * BUTTERFLY + prevMove, ((scaledBonus * 216) / 32768) | 0);
      if ((prevPc & 7) !== PAWN) {
        hist.updatePawn(pawnBase + prevPc * 90 + prevSq, ((scaledBonus * 244) / 8192) | 0);
      }
    } else if (priorCapture && prevSq >= 0) {
      // Bonus for the prior capture that caused the fail low.
      const capturedPiece = pos.captured[pos.sp];
      updateEntry(capH, (board[prevSq] * 90 + prevSq) * 8 + (capturedPiece & 7), 983, CAPTURE_HISTORY_LIMIT);
    }

    if (pvNode && bestValue > maxValue) bestValue = maxValue;

    // No good move found: the previous (ttPv) position's move was probably good.
    if (bestValue <= alpha) this.ssTtPv[ss] = this.ssTtPv[ss] || this.ssTtPv[ss - 1] ? 1 : 0;

    if (excludedMove === MOVE_NONE && !(rootNode && this.pvIdx)) {
      tt.write(
        ttIdx,
        keyLo,
        valueToTT(bestValue, ply),
        this.ssTtPv[ss] !== 0,
        bestValue >= beta ? BOUND_LOWER : pvNode && bestMove !== MOVE_NONE ? BOUND_EXACT : BOUND_UPPER,
        // (depth < MAX_PLY: the same as depth when there were moves; no arithmetic only the no-move case runs)
        Math.min(MAX_PLY - 1, depth + (moveCount !== 0 ? 0 : 6)),
        bestMove,
        unadjustedStaticEval,
      );
    }

    // Correction history: when the best move is quiet and the error direction matches the bound.
    if (
      !inCheck &&
      !(bestMove !== MOVE_NONE && pos.isCapture(bestMove)) &&
      bestValue > this.ssEval[ss] === (bestMove !== MOVE_NONE)
    ) {
      const bonus = clampInt(
        (((bestValue - this.ssEval[ss]) * depth * (bestMove !== MOVE_NONE ? 12 : 17)) / 128) | 0,
        -CORRECTION_HISTORY_LIMIT / 4,
        CORRECTION_HISTORY_LIMIT / 4,
      );
      this.updateCorrectionHistory(ss, ((1069 * bonus) / 1024) | 0);
    }

    return bestValue;
  }

  private isActiveRootMove(m: Move): boolean {
    const rm = this.rootMoves;
    for (let i = this.pvIdx; i < this.pvLast; i++) if (rm[i].move === m) return true;
    return false;
  }

  private updateRootMove(
    move: Move,
    value: number,
    alpha: number,
    beta: number,
    moveCount: number,
    nodeCount: number,
  ): void {
    const rootMoves = this.rootMoves;
    let k = 0;
    while (k < rootMoves.length && rootMoves[k].move !== move) k++;
    if (k === rootMoves.length) return;
    const rm = rootMoves[k];
    const N = this.nodes - nodeCount;
    rm.effort += N;
    const ePrev = Math.max(1, rm.effort - N);
    // Exponential moving averages of the score and squared score, weighted by effort.
    const w = clampInt(Math.floor((32 * N * 2) / (N * 2 + 3 * ePrev)), 12, 24);
    const wMss = Math.min(w, 16);
    const v2 = value * Math.abs(value);
    rm.averageScore =
      rm.averageScore === -VALUE_INFINITE ? value : Math.floor((value * w + rm.averageScore * (32 - w)) / 32);
    rm.meanSquaredScore =
      rm.meanSquaredScore === -VALUE_INFINITE * VALUE_INFINITE
        ? v2
        : Math.floor((v2 * wMss + rm.meanSquaredScore * (32 - wMss)) / 32);

    if (moveCount === 1 || value > alpha) {
      rm.score = rm.uciScore = value;
      rm.selDepth = this.selDepth;
      rm.unsetBoundFlags();
      if (value >= beta) {
        rm.scoreLowerbound = true;
        rm.uciScore = beta;
      } else if (value <= alpha) {
        rm.scoreUpperbound = true;
        rm.uciScore = alpha;
      }
      const n = this.pvLen[1];
      const pv: Move[] = [move];
      for (let i = 0; i < n; i++) pv.push(this.pvTable[PV_STRIDE + i]);
      rm.pv = pv;
      if (moveCount > 1 && !this.pvIdx) {
        if (this.helper) this.shared!.addBestMoveChange(this.threadIndex);
        else this.bestMoveChanges++;
      }
    } else rm.score = -VALUE_INFINITE;
  }

  // =============================================================================
  // Quiescence search
  // =============================================================================

  private qsearch(nodeType: number, ss: number, alpha: number, beta: number): number {
    const pvNode = nodeType === PV;
    const pos = this.pos;
    const board = pos.board;
    const ply = ss - STACK_OFFSET;
    const tt = this.tt;

    // Step 1. Initialize node
    if (pvNode) this.pvLen[ply] = 0;
    let bestMove = MOVE_NONE;
    const inCheck = pos.checked[pos.sp] === 1;
    this.ssInCheck[ss] = inCheck ? 1 : 0;
    let moveCount = 0;

    if (pvNode && this.selDepth < ply + 1) this.selDepth = ply + 1;

    // Step 2. Game end by rule, maximum ply
    const r = ruleJudge(pos, ply, this.rules, this.ruleVerdict);
    if (r !== VALUE_NONE) return r;
    const provisional = this.ruleVerdict.provisional;
    if (provisional !== 0) {
      if (provisional === 1) alpha = Math.max(alpha, VALUE_DRAW);
      else beta = Math.min(beta, VALUE_DRAW);
      if (alpha >= beta) return alpha;
    }
    if (ply >= MAX_PLY) return !inCheck ? this.evaluate() : VALUE_DRAW;

    // Step 3. Transposition table lookup
    this.computeKey();
    const keyLo = this.kLo;
    const ttIdx = tt.probe(keyLo, this.kHi);
    const ttHit = tt.hit;
    this.ssTtHit[ss] = ttHit ? 1 : 0;
    const ttMove = ttHit ? tt.move : MOVE_NONE;
    const ttValue = ttHit ? valueFromTT(tt.value, ply, pos.rule60[pos.sp], this.rule60Max) : VALUE_NONE;
    const ttBound = tt.bound;
    const pvHit = ttHit && tt.isPv;

    if (
      !pvNode &&
      tt.depth >= DEPTH_QS &&
      ttValue !== VALUE_NONE &&
      (ttBound & (ttValue >= beta ? BOUND_LOWER : BOUND_UPPER)) !== 0
    ) {
      return ttValue;
    }

    // Step 4. Static evaluation
    let unadjustedStaticEval = VALUE_NONE;
    let bestValue: number, futilityBase: number;
    if (inCheck) bestValue = futilityBase = -VALUE_INFINITE;
    else {
      const correctionValue = this.correctionValue(ss);
      if (ttHit) {
        unadjustedStaticEval = tt.eval;
        if (unadjustedStaticEval === VALUE_NONE) unadjustedStaticEval = this.evaluate();
        bestValue = this.ssEval[ss] = clampInt(
          unadjustedStaticEval + ((correctionValue / 131072) | 0),
          VALUE_MATED_IN_MAX_PLY + 1,
          VALUE_MATE_IN_MAX_PLY - 1,
        );
        if (
          ttValue !== VALUE_NONE &&
          !isDecisive(ttValue) &&
          (ttBound & (ttValue > bestValue ? BOUND_LOWER : BOUND_UPPER)) !== 0
        )
          bestValue = ttValue;
      } else {
        unadjustedStaticEval = this.evaluate();
        bestValue = this.ssEval[ss] = clampInt(
          unadjustedStaticEval + ((correctionValue / 131072) | 0),
          VALUE_MATED_IN_MAX_PLY + 1,
          VALUE_MATE_IN_MAX_PLY - 1,
        );
      }

      // Stand pat
      if (bestValue >= beta) {
        if (!isDecisive(bestValue)) bestValue = ((467 * bestValue + 557 * beta) / 1024) | 0;
        if (!ttHit)
          tt.write(ttIdx, keyLo, VALUE_NONE, false, BOUND_LOWER, DEPTH_UNSEARCHED, MOVE_NONE, unadjustedStaticEval);
        return bestValue;
      }
      if (bestValue > alpha) alpha = bestValue;
      futilityBase = this.ssEval[ss] + 220;
    }

    const prevMove = this.ssMove[ss - 1];
    const prevSq = moveOk(prevMove) ? prevMove & 127 : -1;

    const slot = 2 * ply + (this.ssExcluded[ss] !== MOVE_NONE ? 1 : 0);
    const mp = this.pickers[slot];
    mp.init(pos, this.hist, ttMove, DEPTH_QS, ply, this.ssCont, ss);

    // Step 5. Loop through the moves (captures, or evasions when in check)
    let move: Move;
    while ((move = mp.nextMove()) !== MOVE_NONE) {
      if (!pos.legal(move)) continue;
      const to = move & 127;
      const givesCheck = pos.givesCheck(move);
      const capturedPiece = board[to];
      const capture = capturedPiece !== 0;
      moveCount++;

      // Step 6. Pruning
      if (!isLoss(bestValue)) {
        if (!givesCheck && to !== prevSq && !isLoss(futilityBase)) {
          if (moveCount > 2) continue;
          const futilityValue = futilityBase + PIECE_VALUE[capturedPiece];
          if (futilityValue <= alpha) {
            if (futilityValue > bestValue) bestValue = futilityValue;
            continue;
          }
          if (!pos.seeGe(move, alpha - futilityBase)) {
            const v = alpha < futilityBase ? alpha : futilityBase;
            if (v > bestValue) bestValue = v;
            continue;
          }
        }
        if (!capture) continue;
        if (!pos.seeGe(move, -106)) continue;
      }

      // Step 7. Make and search the move
      this.doMove(ss, move, capture, board[move >> 7], givesCheck);
      const value = 0 - this.qsearch(nodeType, ss + 1, 0 - beta, 0 - alpha);
      pos.undoMove(move);

      // Step 8. New best move?
      if (value > bestValue) {
        bestValue = value;
        if (value > alpha) {
          bestMove = move;
          if (pvNode) this.updatePV(ply, move);
          if (value < beta) alpha = value;
          else break;
        }
      }
    }

    // Step 9. No legal move: mated (stalemate is a loss too in xiangqi).
    if (!moveCount && (inCheck || !this.hasLegalQuiet(mp))) return matedIn(ply);

    if (!isDecisive(bestValue) && bestValue > beta) bestValue = ((481 * bestValue + 543 * beta) / 1024) | 0;

    tt.write(
      ttIdx,
      keyLo,
      valueToTT(bestValue, ply),
      pvHit,
      bestValue >= beta ? BOUND_LOWER : BOUND_UPPER,
      DEPTH_QS,
      bestMove,
      unadjustedStaticEval,
    );
    return bestValue;
  }

  private hasLegalQuiet(mp: MovePicker): boolean {
    const list = mp.moves;
    const n = generate(this.pos, GEN_QUIETS, list, 0);
    for (let i = 0; i < n; i++) if (this.pos.legal(list[i])) return true;
    return false;
  }
}
