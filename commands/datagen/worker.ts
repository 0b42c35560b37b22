// One datagen worker thread: plays self-play games with its own Searcher and
// posts each finished game's records (and their dedup keys) to the main thread.

import { parentPort, workerData } from 'node:worker_threads';
import {
  DEFAULT_RULES,
  DEFAULT_SEARCH_OPTIONS,
  err,
  loadEmbeddedNetwork,
  loadEvalNetwork,
  GEN_CAPTURES,
  GEN_LEGAL,
  generate,
  judge,
  MAX_MOVES,
  MOVE_NONE,
  mulberry32,
  ok,
  Position,
  Searcher,
  VALUE_MATE_IN_MAX_PLY,
  type EvalNetwork,
  type Move,
  type Result,
  type SearchLimits,
  type SearchOptions,
} from '../../src/dev.js';
import { openingPosition, type Opening } from '../match/openings.js';
import { RECORD_SIZE, dedupKey, encodeRecord } from './format.js';

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

export interface GameMessage {
  type: 'game';
  id: number;
  records: Uint8Array;
  keys: Float64Array;
  plies: number;
}

/** A game is adjudicated when the search score is at least 2000 internal units (~14 pawns) for one side 8 plies in a row. */
export const ADJUDICATION = { adjudicateScore: 2000, adjudicatePlies: 8 } as const;

/** The engine's defaults, without a move overhead (datagen searches by nodes and depth, not by the clock). */
const OPTIONS: SearchOptions = { ...DEFAULT_SEARCH_OPTIONS, moveOverhead: 0 };

const list = new Int32Array(MAX_MOVES);

/** True when the side to move has a capture that wins material by SEE. */
function goodCapturePending(pos: Position): boolean {
  const n = generate(pos, GEN_CAPTURES, list, 0);
  for (let i = 0; i < n; i++) {
    if (pos.legal(list[i]) && pos.seeGe(list[i], 1)) return true;
  }
  return false;
}

/** Plays one game and returns its filtered records; `result` 1/0/-1 from red. */
export function playGame(
  cfg: WorkerConfig,
  searcher: Searcher,
  rng: () => number,
): { records: Uint8Array; keys: Float64Array; plies: number } {
  const signals = new Int32Array(new SharedArrayBuffer(8));
  const io = { signals, info: () => {}, text: () => {}, silent: true };
  let pos: Position;
  // Opening line, then random plies (retry when the random walk ends the game).
  for (;;) {
    const o = cfg.openings.length ? cfg.openings[Math.floor(rng() * cfg.openings.length)] : null;
    const start = o ? openingPosition(o) : ok(new Position());
    if (!start.ok) continue;
    pos = start.value;
    pos.reserve(cfg.maxPly + 64);
    let okWalk = true;
    for (let i = 0; i < cfg.randomPlies; i++) {
      const n = generate(pos, GEN_LEGAL, list, 0);
      if (n === 0) {
        okWalk = false;
        break;
      }
      pos.doMove(list[Math.floor(rng() * n)]);
      if (judge(pos, DEFAULT_RULES).result !== 'none') {
        okWalk = false;
        break;
      }
    }
    if (okWalk && generate(pos, GEN_LEGAL, list, 0) > 0) break;
  }
  searcher.clear();
  const pending: { rec: Uint8Array; key: number; side: number }[] = [];
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
    const mate = score >= VALUE_MATE_IN_MAX_PLY || score <= -VALUE_MATE_IN_MAX_PLY;
    if (!mate && !pos.inCheck() && !pos.isCapture(best) && !goodCapturePending(pos)) {
      const rec = new Uint8Array(RECORD_SIZE);
      encodeRecord(rec, 0, pos, score, searcher.staticEvaluation(pos).value ?? 0, 0, best);
      pending.push({ rec, key: dedupKey(pos), side: pos.side });
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
    plies++;
    const j = judge(pos, DEFAULT_RULES);
    if (j.result !== 'none') {
      result = j.result === 'red' ? 1 : j.result === 'black' ? -1 : 0;
      break;
    }
    if (plies >= cfg.maxPly) break; // draw
  }
  const records = new Uint8Array(pending.length * RECORD_SIZE);
  const keys = new Float64Array(pending.length);
  pending.forEach((p, i) => {
    p.rec[50] = (p.side === 0 ? result : -result) & 0xff;
    records.set(p.rec, i * RECORD_SIZE);
    keys[i] = p.key;
  });
  return { records, keys, plies };
}

if (parentPort) {
  const cfg = workerData as WorkerConfig;
  const port = parentPort;
  const searcher = new Searcher(cfg.hashMb);
  const net = datagenNetwork(cfg.evalFile);
  if (!net.ok) throw new Error(net.error.message);
  searcher.setNetwork(net.value);
  const rng = mulberry32(cfg.seed);
  for (;;) {
    const g = playGame(cfg, searcher, rng);
    port.postMessage({ type: 'game', id: cfg.id, ...g } satisfies GameMessage, [
      g.records.buffer as ArrayBuffer,
      g.keys.buffer as ArrayBuffer,
    ]);
    // Let the main thread's messages (terminate) through.
    await new Promise((r) => setImmediate(r));
  }
}
