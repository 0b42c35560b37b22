// One datagen worker thread: plays self-play games with its own Searcher and
// posts each finished game (its chain, and the dedup keys of its quiet
// positions) to the main thread.

import { parentPort, workerData } from 'node:worker_threads';
import {
  DEFAULT_RULES,
  err,
  judge,
  MOVE_NONE,
  ok,
  parseLegalMove,
  Position,
  type Move,
  type Result,
  type SearchLimits,
} from '../../src/dev.js';
import { generate } from '../../src/core/movegen.js';
import { mulberry32 } from '../../src/core/prng.js';
import { GEN_LEGAL, MAX_MOVES } from '../../src/core/types.js';
import { loadEmbeddedNetwork, loadEvalNetwork, type EvalNetwork } from '../../src/eval/networks.js';
import { Searcher } from '../../src/search/search.js';
import { DEFAULT_SEARCH_OPTIONS, type SearchOptions } from '../../src/search/types.js';
import type { Opening } from '../match/openings.js';
import { GameBuilder, type ChainGame, type ChainStart } from './chain-codec.js';
import { dedupKey } from './format.js';
import { isQuiet } from './records.js';

export interface WorkerConfig {
  id: number;
  seed: number;
  openings: Opening[];
  randomPlies: number;
  nodes: number;
  depth: number;
  maxPly: number;
  /** |score| (internal units) at which a game is adjudicated after `adjudicatePlies` plies agreeing. */
  adjudicateScore: number;
  adjudicatePlies: number;
  /** The transposition table in MiB; 0: sized for the search (datagenHashMb). */
  hashMb: number;
  /**
   * The evaluation the games are played with: a network file (Pikafish's or
   * Kirin's), 'classical', or undefined for what the engine plays by default
   * (the embedded network when the build has one, else classical).
   */
  evalFile?: string;
}

/** The network `evalFile` names (null: the classical evaluation), or why it cannot be used. */
export function datagenNetwork(evalFile: string | undefined): Result<EvalNetwork | null, 'eval-file'> {
  if (evalFile === 'classical') return ok(null);
  if (evalFile === undefined) {
    const net = loadEmbeddedNetwork();
    if (!net) return ok(null);
    return net.ok ? net : err('eval-file', `the embedded network: ${net.error.message}`);
  }
  const net = loadEvalNetwork(evalFile);
  return net.ok ? net : err('eval-file', net.error.message);
}

export interface GameMessage extends PlayedGame {
  type: 'game';
  id: number;
}

/**
 * The transposition table for datagen searches of `nodes` nodes (0: by depth):
 * 4 MiB up to 1000 nodes a move (a game of 500-node searches fills about a
 * fifth of it; a smaller table is cleared faster and stays in the caches),
 * 16 MiB (the engine's default) above or by depth.
 */
export function datagenHashMb(nodes: number): number {
  return nodes > 0 && nodes <= 1000 ? 4 : 16;
}

/** A game is adjudicated when the search score is at least 2000 internal units (~14 pawns) for one side 8 plies in a row. */
export const ADJUDICATION = { adjudicateScore: 2000, adjudicatePlies: 8 } as const;

/** The engine's defaults, without a move overhead (datagen searches by nodes and depth, not by the clock). */
const OPTIONS: SearchOptions = { ...DEFAULT_SEARCH_OPTIONS, moveOverhead: 0 };

const list = new Int32Array(MAX_MOVES);

/** One finished game: the chain, and the position index and dedup key of each quiet position, in order. */
export interface PlayedGame {
  game: ChainGame;
  quiet: Int32Array;
  keys: Float64Array;
  plies: number;
}

/** The chain start of a position (null for the standard start position with no history). */
function chainStart(pos: Position): ChainStart {
  return { board: pos.board.slice(), side: pos.side, rule60: pos.rule60Count(), ply: pos.gamePly };
}

/**
 * Plays one game: every position from the first search on is scored (search
 * score, static evaluation, best move); the opening's moves and the random
 * plies are played unscored. `result` 1/0/-1 from red.
 */
export function playGame(cfg: WorkerConfig, searcher: Searcher, rng: () => number): PlayedGame {
  const signals = new Int32Array(new SharedArrayBuffer(8));
  const io = { signals, info: () => {}, text: () => {}, silent: true };
  let pos: Position;
  let game: GameBuilder;
  // Opening line, then random plies (retry when the random walk ends the game).
  for (;;) {
    const o = cfg.openings.length ? cfg.openings[Math.floor(rng() * cfg.openings.length)] : null;
    const start = o?.fen ? Position.fromFen(o.fen) : ok(new Position());
    if (!start.ok) continue;
    pos = start.value;
    pos.reserve(cfg.maxPly + 64);
    game = new GameBuilder(o?.fen ? chainStart(pos) : null);
    let okWalk = true;
    for (const text of o?.moves ?? []) {
      const m = parseLegalMove(pos, text);
      if (!m.ok) {
        okWalk = false;
        break;
      }
      pos.doMove(m.value);
      game.play(m.value);
    }
    if (!okWalk) continue;
    for (let i = 0; i < cfg.randomPlies; i++) {
      const n = generate(pos, GEN_LEGAL, list, 0);
      if (n === 0) {
        okWalk = false;
        break;
      }
      const m = list[Math.floor(rng() * n)];
      pos.doMove(m);
      game.play(m);
      if (judge(pos, DEFAULT_RULES).result !== 'none') {
        okWalk = false;
        break;
      }
    }
    if (okWalk && generate(pos, GEN_LEGAL, list, 0) > 0) break;
  }
  searcher.clear();
  const quiet: number[] = [];
  const keys: number[] = [];
  let result = 0; // from red
  let agree = 0;
  let plies = 0;
  for (;;) {
    const limits: SearchLimits = { startTime: performance.now() };
    if (cfg.nodes > 0) limits.nodes = cfg.nodes;
    if (cfg.depth > 0) limits.depth = cfg.depth;
    const res = searcher.search(pos, limits, OPTIONS, io);
    const best: Move = res.bestMove;
    if (best === MOVE_NONE) break;
    const score = res.score;
    game.setScore(score, searcher.staticEvaluation(pos).value ?? 0, best);
    if (isQuiet(pos, score, best)) {
      quiet.push(game.positions - 1);
      keys.push(dedupKey(pos));
    }
    // Adjudication by agreed large scores (from red's view).
    const red = pos.side === 0 ? score : -score;
    if (Math.abs(score) >= cfg.adjudicateScore) {
      agree = agree * Math.sign(red) > 0 ? agree + Math.sign(red) : Math.sign(red);
      if (Math.abs(agree) >= cfg.adjudicatePlies) {
        result = Math.sign(agree);
        break;
      }
    } else agree = 0;
    pos.doMove(best);
    game.play(best);
    plies++;
    const j = judge(pos, DEFAULT_RULES);
    if (j.result !== 'none') {
      result = j.result === 'red' ? 1 : j.result === 'black' ? -1 : 0;
      break;
    }
    if (plies >= cfg.maxPly) break; // draw
  }
  return { game: game.finish(result), quiet: Int32Array.from(quiet), keys: Float64Array.from(keys), plies };
}

if (parentPort) {
  const cfg = workerData as WorkerConfig;
  const port = parentPort;
  const searcher = new Searcher(cfg.hashMb > 0 ? cfg.hashMb : datagenHashMb(cfg.nodes));
  const net = datagenNetwork(cfg.evalFile);
  if (!net.ok) throw new Error(net.error.message);
  searcher.setNetwork(net.value);
  const rng = mulberry32(cfg.seed);
  for (;;) {
    const g = playGame(cfg, searcher, rng);
    port.postMessage({ type: 'game', id: cfg.id, ...g } satisfies GameMessage);
    // Let the main thread's messages (terminate) through.
    await new Promise((r) => setImmediate(r));
  }
}
