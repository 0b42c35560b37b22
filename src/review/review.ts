// Game review: every position of a game searched by an Engine, each move
// scored by the win chance its mover lost (Kirin's WDL model), classified
// (inaccuracy, mistake, blunder) and summed up as each side's accuracy.
// Platform-neutral (the library, the page's worker, `kirin review`); the
// thresholds and formulas are in docs/REVIEW.md.
//
//   const r = await reviewGame(engine, { startFen: null, moves: ['h2e2', 'h9g7'] }, { nodes: 100000 });
//   if (r.ok) console.log(r.value.red.accuracy, r.value.plies[1].classification);
//
// Each position is searched on its own, from empty tables (the hash and the
// histories cleared before it), so that its result depends on the position,
// the limits, the network and the Hash size alone: with a node or depth limit
// and engines of one thread each, the same game gets the same scores and
// verdicts whatever the number of engines, the order, and what the engines
// did before (the page with its one search thread and `kirin review --threads
// N` agree). Several engines search several positions at once.

import { START_FEN } from '../core/fen.js';
import { Position } from '../core/position.js';
import { err, ok, type Result } from '../core/result.js';
import { judge, type ReasonCode } from '../core/rules.js';
import { parseLegalMove } from '../core/ucimove.js';
import { BLACK, MAX_MOVES, moveToUci, RED, VALUE_MATE, VALUE_MATE_IN_MAX_PLY, type Color } from '../core/types.js';
import type { Engine } from '../engine/engine.js';
import { materialCount, mateInMoves, toCp, winRateParams, type WinRateModel } from '../eval/score.js';
import type { SearchInfo, SearchLimits } from '../search/types.js';
import { gameAccuracy, moveAccuracy, volatilityWeights } from './accuracy.js';

export type Side = 'red' | 'black';

/** What a move was: the engine's own choice, another good one, or how bad. */
export type Classification = 'best' | 'good' | 'inaccuracy' | 'mistake' | 'blunder';

/** The game to review: a start FEN (null or absent: the start position) and the moves in UCI coordinates. */
export interface ReviewGame {
  readonly startFen?: string | null;
  readonly moves: readonly string[];
}

/** How long each position is searched: nodes, milliseconds or depth (at least one). */
export interface ReviewLimits {
  readonly nodes?: number;
  readonly movetime?: number;
  readonly depth?: number;
}

/** The mover's win-chance drops (0..1) from which a move is an inaccuracy, a mistake, a blunder. */
export interface Thresholds {
  readonly inaccuracy: number;
  readonly mistake: number;
  readonly blunder: number;
}

/** Kirin's thresholds (docs/REVIEW.md): drops of the expected score, win = 1, draw = 1/2. */
export const DEFAULT_THRESHOLDS: Thresholds = Object.freeze({ inaccuracy: 0.05, mistake: 0.1, blunder: 0.2 });

export interface ReviewProgress {
  /** Positions searched (or judged) so far; grows by one each call. */
  readonly done: number;
  /** Positions of the game (moves + 1). */
  readonly total: number;
  /** The position just finished. */
  readonly position: ReviewPosition;
}

export interface ReviewOptions extends ReviewLimits {
  /**
   * The order positions are handed to the engines: 'backward' (default), from
   * the last position to the first, or 'forward'. Each position is searched
   * on its own, so the order changes when each result comes, not the results.
   */
  readonly order?: 'backward' | 'forward';
  /** Lines searched per position (the engine's MultiPV for the review; default 1). */
  readonly multiPv?: number;
  readonly thresholds?: Thresholds;
  /** Called after each position, in the order the searches end. */
  readonly onProgress?: (progress: ReviewProgress) => void;
  /** Aborting it stops the search in progress and ends the review with the error 'cancelled'. */
  readonly signal?: AbortSignal;
}

/** A score from Red's point of view. */
export interface ReviewScore {
  /** Internal units (mates as VALUE_MATE - plies), from Red. */
  readonly value: number;
  /** Centipawns normalised as the engine prints them (100: the side ahead wins half its games); null for a mate. */
  readonly cp: number | null;
  /** Moves to mate, positive when Red mates, 0 when the game is over (see ReviewPosition.terminal); else null. */
  readonly mate: number | null;
  /** Red's win chance: the expected score (win 1, draw 1/2) of the WDL model, in [0, 1]; 1 or 0 for a mate. */
  readonly redWin: number;
}

/** One line of the search: its moves (UCI) and its score. */
export interface ReviewLine {
  readonly pv: readonly string[];
  readonly score: ReviewScore;
}

/** A game-ending position: no search, the result decides the score. */
export interface Terminal {
  readonly result: 'red' | 'black' | 'draw';
  readonly code: ReasonCode;
  readonly reason: string;
}

export interface ReviewPosition {
  /** Moves played before it (0: the start position). */
  readonly index: number;
  readonly fen: string;
  readonly sideToMove: Side;
  /** The result when the game ends here (mate, stalemate, a rule), else null. */
  readonly terminal: Terminal | null;
  /** The best line's score (a terminal position's is its result). */
  readonly score: ReviewScore;
  /** The lines searched, best first (none for a terminal position). */
  readonly lines: readonly ReviewLine[];
  readonly depth: number;
  readonly nodes: number;
}

export interface ReviewPly {
  /** 1 for the first move of the game. */
  readonly ply: number;
  /** The move number (the FEN's full-move counter: it grows after each Black move). */
  readonly moveNumber: number;
  readonly side: Side;
  /** The move played (UCI). */
  readonly move: string;
  /** The position it was played in. */
  readonly fenBefore: string;
  /** The engine's best move there (UCI; null when the review found none) and its line. */
  readonly best: string | null;
  readonly bestPv: readonly string[];
  /** The score with the best move (the position before) and after the move played, from Red. */
  readonly scoreBefore: ReviewScore;
  readonly scoreAfter: ReviewScore;
  /** The mover's win chance before and after the move, in [0, 1]. */
  readonly winBefore: number;
  readonly winAfter: number;
  /** winBefore - winAfter, at least 0. */
  readonly drop: number;
  /** The move's accuracy in [0, 100] (accuracy.ts). */
  readonly accuracy: number;
  readonly classification: Classification;
}

export interface SideSummary {
  /** Game accuracy in [0, 100]; null when the side made no move. */
  readonly accuracy: number | null;
  readonly moves: number;
  readonly inaccuracies: number;
  readonly mistakes: number;
  readonly blunders: number;
}

export interface Review {
  readonly startFen: string;
  readonly moves: readonly string[];
  /** Which evaluation searched (Engine.evaluationName) and the win-rate model of the win chances. */
  readonly evaluation: string;
  readonly model: string;
  readonly limits: ReviewLimits;
  readonly thresholds: Thresholds;
  /** moves.length + 1 positions: the start and after each move. */
  readonly positions: readonly ReviewPosition[];
  readonly plies: readonly ReviewPly[];
  readonly red: SideSummary;
  readonly black: SideSummary;
  /** Nodes searched in all and the review's wall time in milliseconds. */
  readonly nodes: number;
  readonly timeMs: number;
}

export type ReviewErrorCode = 'review-options' | 'review-game' | 'search' | 'cancelled';

/**
 * The mover's expected score (win 1, draw 1/2) for internal value `v` from the
 * side to move, by the WDL model at this material: (1 + P(win) - P(loss)) / 2.
 * A mate score is certain: 1 or 0.
 */
export function winChance(v: number, material: number, model: WinRateModel): number {
  if (v >= VALUE_MATE_IN_MAX_PLY) return 1;
  if (v <= -VALUE_MATE_IN_MAX_PLY) return 0;
  const { a, b } = winRateParams(material, model);
  const win = 1 / (1 + Math.exp((a - v) / b));
  const loss = 1 / (1 + Math.exp((a + v) / b));
  return (1 + win - loss) / 2;
}

/** The class of a move with this win-chance drop: 'good' below the inaccuracy threshold. */
export function classifyDrop(drop: number, t: Thresholds = DEFAULT_THRESHOLDS): Exclude<Classification, 'best'> {
  if (drop >= t.blunder) return 'blunder';
  if (drop >= t.mistake) return 'mistake';
  if (drop >= t.inaccuracy) return 'inaccuracy';
  return 'good';
}

function sideName(c: Color): Side {
  return c === RED ? 'red' : 'black';
}

/** The positions of a game, each with what the review needs before searching. */
interface GamePosition {
  fen: string;
  side: Color;
  material: number;
  terminal: Terminal | null;
}

function playGame(engine: Engine, startFen: string, moves: readonly string[]): Result<GamePosition[], 'review-game'> {
  const start = Position.fromFen(startFen);
  if (!start.ok) return err('review-game', `start FEN: ${start.error.message}`);
  const pos = start.value;
  pos.reserve(moves.length + 1);
  const rules = engine.ruleConfig();
  const list = new Int32Array(MAX_MOVES);
  const out: GamePosition[] = [];
  for (let i = 0; ; i++) {
    const j = judge(pos, rules);
    // Mate and stalemate end the game whatever follows; a rule's verdict only when it is the last position.
    const over = j.code === 'checkmate' || j.code === 'stalemate' || (j.result !== 'none' && i === moves.length);
    out.push({
      fen: pos.fen(),
      side: pos.sideToMove,
      material: materialCount(pos),
      terminal: over ? { result: j.result as Terminal['result'], code: j.code, reason: j.reason } : null,
    });
    if (i === moves.length) break;
    if (over) return err('review-game', `ply ${i + 1} (${moves[i]}): the game is over (${j.reason})`);
    const m = parseLegalMove(pos, moves[i], list);
    if (!m.ok) return err('review-game', `ply ${i + 1}: ${m.error.message}`);
    pos.doMove(m.value);
  }
  return ok(out);
}

function checkLimits(o: ReviewOptions): Result<ReviewLimits, 'review-options'> {
  const limits: { nodes?: number; movetime?: number; depth?: number } = {};
  for (const name of ['nodes', 'movetime', 'depth'] as const) {
    const v = o[name];
    if (v === undefined) continue;
    if (!Number.isSafeInteger(v) || v < 1) return err('review-options', `${name} ${v}: not a positive integer`);
    limits[name] = v;
  }
  if (Object.keys(limits).length === 0) return err('review-options', 'no limit: give nodes, movetime or depth');
  if (o.multiPv !== undefined && (!Number.isSafeInteger(o.multiPv) || o.multiPv < 1 || o.multiPv > 500))
    return err('review-options', `multiPv ${o.multiPv}: not an integer in 1..500`);
  const t = o.thresholds;
  if (t && !(t.inaccuracy > 0 && t.inaccuracy <= t.mistake && t.mistake <= t.blunder && t.blunder <= 1))
    return err('review-options', 'thresholds: need 0 < inaccuracy <= mistake <= blunder <= 1');
  return ok(limits);
}

/** Builds scores from Red's point of view for one position. */
function scorer(p: GamePosition, model: WinRateModel): (v: number) => ReviewScore {
  return (stmValue) => {
    const value = p.side === RED ? stmValue : -stmValue;
    const mate = Math.abs(value) >= VALUE_MATE_IN_MAX_PLY ? mateInMoves(value) : null;
    return {
      value,
      cp: mate === null ? toCp(value, p.material, 'PawnValueNormalized', model) : null,
      mate,
      redWin: winChance(value, p.material, model),
    };
  };
}

function terminalPosition(index: number, p: GamePosition): ReviewPosition {
  const t = p.terminal!;
  // Red's value: a mate for the winner, 0 for a draw.
  const value = t.result === 'draw' ? 0 : t.result === 'red' ? VALUE_MATE : -VALUE_MATE;
  const score: ReviewScore = {
    value,
    cp: t.result === 'draw' ? 0 : null,
    mate: t.result === 'draw' ? null : 0,
    redWin: t.result === 'draw' ? 0.5 : t.result === 'red' ? 1 : 0,
  };
  return { index, fen: p.fen, sideToMove: sideName(p.side), terminal: t, score, lines: [], depth: 0, nodes: 0 };
}

/**
 * Reviews a game with `engines`: one Engine, or several that search
 * positions side by side (each its own; give each Threads 1 for results that
 * do not depend on how many there are). Each position is searched from
 * empty tables (ucinewgame before it) with the engine's options (Hash, the
 * network). Leaves each engine's position as it found it (and MultiPV, when
 * `multiPv` changed it); its hash keeps the last search. Errors:
 * 'review-options' (no or bad limit, no engine), 'review-game' (a bad FEN or
 * move; the message names the ply), 'search' (an engine failed), 'cancelled'.
 */
export async function reviewGame(
  engines: Engine | readonly Engine[],
  game: ReviewGame,
  options: ReviewOptions,
): Promise<Result<Review, ReviewErrorCode>> {
  const pool: readonly Engine[] = Array.isArray(engines) ? engines : [engines as Engine];
  if (pool.length === 0) return err('review-options', 'no engine to review with');
  const checked = checkLimits(options);
  if (!checked.ok) return checked;
  const limits = checked.value;
  const startFen = game.startFen ?? START_FEN;
  const moves = [...game.moves];
  const engine = pool[0];
  const played = playGame(engine, startFen, moves);
  if (!played.ok) return played;
  const game$ = played.value;
  const model = engine.winRateModel();
  const thresholds = options.thresholds ?? DEFAULT_THRESHOLDS;
  const signal = options.signal;
  if (signal?.aborted) return err('cancelled', 'the review was cancelled');

  const multiPv = options.multiPv ?? 1;
  const saved = pool.map((e) => ({ game: e.game(), multiPv: e.options.getNumber('MultiPV') }));
  pool.forEach((e, k) => {
    if (multiPv !== saved[k].multiPv) e.options.set('MultiPV', String(multiPv));
  });
  let failure: Result<never, ReviewErrorCode> | null = null;
  const onAbort = (): void => {
    for (const e of pool) e.stop();
  };
  signal?.addEventListener('abort', onAbort);
  const started = Date.now();
  const positions: ReviewPosition[] = new Array<ReviewPosition>(game$.length);
  let nodes = 0;
  const queue = game$.map((_, i) => i);
  if ((options.order ?? 'backward') === 'backward') queue.reverse();
  let done = 0;
  /** One engine's share: positions from the queue until it is empty, the review fails or is cancelled. */
  const work = async (e: Engine): Promise<void> => {
    for (let i = queue.shift(); i !== undefined && failure === null; i = queue.shift()) {
      if (signal?.aborted) {
        failure = err('cancelled', 'the review was cancelled');
        break;
      }
      const p = game$[i];
      let position: ReviewPosition;
      if (p.terminal) position = terminalPosition(i, p);
      else {
        e.newGame();
        const set = e.setPosition(startFen, moves.slice(0, i));
        if (!set.ok) {
          failure = err('review-game', `position ${i}: ${set.error.message}`);
          break;
        }
        const searched = await searchPosition(e, i, p, limits, multiPv, model);
        if (failure !== null) break;
        if (!searched.ok) {
          failure = searched;
          onAbort();
          break;
        }
        // A search stopped by the signal has a partial result: the review ends without it.
        if (signal?.aborted) {
          failure = err('cancelled', 'the review was cancelled');
          break;
        }
        position = searched.value;
        nodes += position.nodes;
      }
      positions[i] = position;
      options.onProgress?.({ done: ++done, total: game$.length, position });
    }
  };
  try {
    await Promise.all(pool.map(work));
  } finally {
    signal?.removeEventListener('abort', onAbort);
    pool.forEach((e, k) => {
      e.setPosition(saved[k].game.startFen, saved[k].game.moves);
      if (multiPv !== saved[k].multiPv) e.options.set('MultiPV', String(saved[k].multiPv));
    });
  }
  if (failure) return failure;
  return ok(
    summarise(startFen, moves, positions, game$, engine.evaluationName(), model, limits, thresholds, {
      nodes,
      timeMs: Date.now() - started,
    }),
  );
}

async function searchPosition(
  engine: Engine,
  index: number,
  p: GamePosition,
  limits: ReviewLimits,
  multiPv: number,
  model: WinRateModel,
): Promise<Result<ReviewPosition, 'search'>> {
  const last: (SearchInfo | undefined)[] = [];
  const go: SearchLimits = { ...limits, startTime: Date.now() };
  let result;
  try {
    result = await engine.go(go, {
      info: (info) => {
        last[info.multipv - 1] = info;
      },
    });
  } catch (e) {
    return err('search', `position ${index} (${p.fen}): ${(e as Error).message}`);
  }
  const score = scorer(p, model);
  const best = moveToUci(result.bestMove);
  const lines: ReviewLine[] = [];
  for (let k = 0; k < multiPv; k++) {
    const info = last[k];
    if (!info || info.pv.length === 0) continue;
    lines.push({ pv: info.pv.map(moveToUci), score: score(info.score) });
  }
  // The best move decides (the threads' vote may pick another than the last line printed).
  if (lines.length === 0 || lines[0].pv[0] !== best) {
    const i = lines.findIndex((l) => l.pv[0] === best);
    const line = i >= 0 ? lines.splice(i, 1)[0] : { pv: [best], score: score(result.score) };
    lines.unshift(line);
  }
  return ok({
    index,
    fen: p.fen,
    sideToMove: sideName(p.side),
    terminal: null,
    score: lines[0].score,
    lines,
    depth: result.depth,
    nodes: result.nodes,
  });
}

/** The full-move counter of a FEN (1 when it has none). */
function fullMoveNumber(fen: string): number {
  const n = Number(fen.split(/\s+/)[5]);
  return Number.isSafeInteger(n) && n > 0 ? n : 1;
}

/** The mover's win chance from a score from Red. */
function moverWin(s: ReviewScore, mover: Color): number {
  return mover === RED ? s.redWin : 1 - s.redWin;
}

function summarise(
  startFen: string,
  moves: string[],
  positions: ReviewPosition[],
  game: GamePosition[],
  evaluation: string,
  model: WinRateModel,
  limits: ReviewLimits,
  thresholds: Thresholds,
  totals: { nodes: number; timeMs: number },
): Review {
  const plies: ReviewPly[] = [];
  for (let i = 0; i < moves.length; i++) {
    const before = positions[i],
      after = positions[i + 1];
    const mover = game[i].side;
    const winBefore = moverWin(before.score, mover);
    const winAfter = moverWin(after.score, mover);
    const drop = Math.max(0, winBefore - winAfter);
    const best = before.lines[0]?.pv[0] ?? null;
    plies.push({
      ply: i + 1,
      moveNumber: fullMoveNumber(before.fen),
      side: sideName(mover),
      move: moves[i],
      fenBefore: before.fen,
      best,
      bestPv: before.lines[0]?.pv ?? [],
      scoreBefore: before.score,
      scoreAfter: after.score,
      winBefore,
      winAfter,
      drop,
      accuracy: moveAccuracy(100 * drop),
      classification: moves[i] === best ? 'best' : classifyDrop(drop, thresholds),
    });
  }
  const weights = volatilityWeights(positions.map((p) => 100 * p.score.redWin));
  const side = (c: Color): SideSummary => {
    const mine = plies.flatMap((_, i) => (game[i].side === c ? [i] : []));
    const count = (k: Classification): number => mine.filter((i) => plies[i].classification === k).length;
    return {
      accuracy: gameAccuracy(
        mine.map((i) => plies[i].accuracy),
        mine.map((i) => weights[i]),
      ),
      moves: mine.length,
      inaccuracies: count('inaccuracy'),
      mistakes: count('mistake'),
      blunders: count('blunder'),
    };
  };
  return {
    startFen,
    moves,
    evaluation,
    model: model.name,
    limits,
    thresholds,
    positions,
    plies,
    red: side(RED),
    black: side(BLACK),
    nodes: totals.nodes,
    timeMs: totals.timeMs,
  };
}
