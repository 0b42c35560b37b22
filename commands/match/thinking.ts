// What each engine did with its time in a game: for every move, the time it
// took (as the runner measured it), the depth of the engine's last scored
// `info` line, and the engine's clock after the move (increment added). The
// game log keeps them in one field, `thinking USED/DEPTH/LEFT ...`, one entry a
// move of the game (LEFT is "-" without a clock); `kirin match report` sums them
// up per engine: how long a move takes, how deep it goes, how close to its flag
// an engine came.

import { err, ok, type Result } from '../../src/dev.js';
import { median } from '../../toolkit/stats.js';

export interface MoveThinking {
  /** Time the move took, ms (the runner's measurement: from `go` to `bestmove`). */
  usedMs: number;
  /** Depth of the engine's last `info` line with a score (0: none). */
  depth: number;
  /** The mover's clock after the move, increment added, ms; null without a clock. */
  leftMs: number | null;
}

/** The game log's field: "thinking 1368/18/8732 776/17/8056 ...". */
export function thinkingField(moves: readonly MoveThinking[]): string {
  const words = moves.map(
    (t) => `${Math.round(t.usedMs)}/${t.depth}/${t.leftMs === null ? '-' : Math.round(t.leftMs)}`,
  );
  return ['thinking', ...words].join(' ');
}

/** Reads the field `thinkingField` writes; the message says what is wrong. */
export function parseThinkingField(field: string): Result<MoveThinking[], 'thinking'> {
  const words = field.split(' ').filter((w) => w !== '');
  if (words[0] !== 'thinking') return err('thinking', 'the field does not start with "thinking"');
  const out: MoveThinking[] = [];
  for (const w of words.slice(1)) {
    const m = /^(\d+)\/(\d+)\/(\d+|-)$/.exec(w);
    if (!m) return err('thinking', `"${w}" is not USED/DEPTH/LEFT (ms/plies/ms or -)`);
    out.push({ usedMs: Number(m[1]), depth: Number(m[2]), leftMs: m[3] === '-' ? null : Number(m[3]) });
  }
  return ok(out);
}

/** One engine's thinking over many games. */
export interface ThinkingSummary {
  moves: number;
  meanMs: number;
  medianMs: number;
  longestMs: number;
  /** Mean depth over the moves that reported one. */
  meanDepth: number;
  /** The fewest ms the engine had left after a move (null: no clock). */
  fewestLeftMs: number | null;
  /** The largest share of the clock (before the move) one move took, 0..1 (null: no clock). */
  largestShare: number | null;
}

/** Sums up the moves of one engine; null when there are none. */
export function summarizeThinking(moves: readonly MoveThinking[]): ThinkingSummary | null {
  if (moves.length === 0) return null;
  const used = moves.map((t) => t.usedMs);
  const deep = moves.filter((t) => t.depth > 0);
  let fewest: number | null = null;
  let share: number | null = null;
  for (const t of moves) {
    if (t.leftMs === null) continue;
    fewest = fewest === null ? t.leftMs : Math.min(fewest, t.leftMs);
    // The clock before the move is not logged; the clock after it plus the time it took is at least that.
    const before = t.leftMs + t.usedMs;
    if (before > 0) share = Math.max(share ?? 0, t.usedMs / before);
  }
  return {
    moves: moves.length,
    meanMs: used.reduce((a, b) => a + b, 0) / used.length,
    medianMs: median(used),
    longestMs: used.reduce((a, b) => Math.max(a, b)),
    meanDepth: deep.length ? deep.reduce((a, t) => a + t.depth, 0) / deep.length : 0,
    fewestLeftMs: fewest,
    largestShare: share,
  };
}

/** "kirin-17: 9,876 moves, 262 ms a move (median 230, longest 1,368), depth 14.2, fewest left 512 ms, largest share 13.6%". */
function thinkingLine(name: string, s: ThinkingSummary): string {
  const n = (x: number): string => Math.round(x).toLocaleString('en-US');
  let line = `${name}: ${n(s.moves)} moves, ${n(s.meanMs)} ms a move (median ${n(s.medianMs)}, longest ${n(s.longestMs)})`;
  line += `, depth ${s.meanDepth.toFixed(1)}`;
  if (s.fewestLeftMs !== null) line += `, fewest left ${n(s.fewestLeftMs)} ms`;
  if (s.largestShare !== null) line += `, largest share of the clock ${(100 * s.largestShare).toFixed(1)}%`;
  return line;
}

/** One game's thinking and who played it: the start (FEN or null), the opening's length, the players. */
export interface GameThinking {
  red: string;
  black: string;
  /** The game's start: a FEN (its side field says who moves first) or null for the start position. */
  fen: string | null;
  /** Moves played from `fen` before the engines' first move (the opening's). */
  openingMoves: number;
  thinking: readonly MoveThinking[];
}

/**
 * Each engine's "Thinking: NAME: ..." line over the games, in the order of
 * `names`; an engine with no logged move has none. The game's moves alternate
 * from the side to move after the opening.
 */
export function thinkingLines(games: readonly GameThinking[], names: readonly string[]): string[] {
  const byEngine = new Map<string, MoveThinking[]>(names.map((n) => [n, []]));
  for (const g of games) {
    // Red moves first from the start position; a FEN names its side to move ("b": Black).
    const redStarts = g.fen === null || g.fen.split(' ')[1] !== 'b';
    const redFirst = redStarts === (g.openingMoves % 2 === 0);
    g.thinking.forEach((t, i) => byEngine.get(redFirst === (i % 2 === 0) ? g.red : g.black)?.push(t));
  }
  const out: string[] = [];
  for (const [name, moves] of byEngine) {
    const s = summarizeThinking(moves);
    if (s) out.push(`Thinking: ${thinkingLine(name, s)}`);
  }
  return out;
}
