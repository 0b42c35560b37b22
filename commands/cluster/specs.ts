// The specs of the cluster's runs, as Redis holds them (JSON): what the
// coordinator makes (sprt.ts, datagen.ts, analyse.ts) and what a worker
// accepts after its checks (validate.ts).

import type { MatchConfig } from '../match/match.js';
import type { Opening } from '../match/openings.js';

/** `kirin match`'s settings of the games (MatchConfig) that a run's jobs play by. */
type MatchSettings = Pick<
  MatchConfig,
  | 'engines'
  | 'tc'
  | 'games'
  | 'rules'
  | 'maxPlies'
  | 'repetitions'
  | 'timeMarginMs'
  | 'moveTimeoutMs'
  | 'adjudication'
  | 'sprt'
  | 'sprtModel'
  | 'ratingInterval'
>;

export interface SprtSpec extends MatchSettings {
  /** Display names (from the engines' `id name` at submission, or --name). */
  names: [string, string];
  /** Game pairs per job. */
  pairs: number;
  /** The opening set in playing order (already shuffled for --openings-order random); empty: the start position. */
  openings: Opening[];
  openingsLabel: string;
  logFile: string | null;
}

export interface DatagenSpec {
  /** The data file (absolute, on the coordinator's machine). */
  out: string;
  positions: number;
  /** Positions per shard. */
  shard: number;
  /** The seed's shard this run's shard 0 is (the shards before it are in the file from earlier runs). */
  firstShard: number;
  seed: number;
  nodes: number;
  depth: number;
  randomPlies: number;
  maxPly: number;
  hash: number;
  openings: Opening[];
  openingsPath: string;
}

/** A game (or the line to one position): the start (null: the start position) and the moves. */
export interface AnalysisLine {
  fen: string | null;
  moves: string[];
}

/** One position to analyse: line `line` after its first `ply` moves. */
export interface AnalysisPosition {
  line: number;
  ply: number;
  /** The FEN of the position itself (for the reader). */
  at: string;
  /** Game number (from 0) for positions of a game, else null. */
  game: number | null;
  /** The move the game played here, if any. */
  played: string | null;
}

export interface AnalyseSpec {
  /** Each game (or position's line) once: a position names its line. */
  lines: AnalysisLine[];
  positions: AnalysisPosition[];
  depth: number;
  nodes: number;
  hash: number;
  /** Engine options (name, value) for the searches. */
  options: Array<[string, string]>;
}
