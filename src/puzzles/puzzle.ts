// Puzzles (docs/PUZZLES.md): a position where one move wins, with the line that
// proves it. A set of them is a JSON file (`kirin puzzles build` writes it; Kirin
// ships one built from master games); this module reads and checks one, judges a
// player's moves against a puzzle, fits the next puzzle to a player's rating and
// moves the rating after each try. Platform-neutral: the page's Practice mode.
//
//   const set = readPuzzles(text);                       // Result<PuzzleSet, 'puzzles-format'>
//   const p = choosePuzzle(set.value.puzzles, 1500, solved, Math.random);
//   puzzleMove(p, [], 'h2e2');   // 'correct' (then the defence: p.moves[1]), 'solved', or 'wrong'

import { Position } from '../core/position.js';
import { err, ok, type Result } from '../core/result.js';
import { legalMoves } from '../core/movegen.js';
import { parseLegalMove } from '../core/ucimove.js';

/** What a puzzle is about: 杀法 (a mate), 得子 (winning material), 残局 (an endgame: little material left). */
export type PuzzleTheme = 'mate' | 'material' | 'endgame';

export const PUZZLE_THEMES: readonly PuzzleTheme[] = Object.freeze(['mate', 'material', 'endgame']);

/** One puzzle. */
export interface Puzzle {
  /** Unique in its set. */
  readonly id: string;
  /** The position; the side to move solves. */
  readonly fen: string;
  /**
   * The solution line in UCI: the solver's moves and, between them, the
   * defender's best defence; it ends with a solver's move.
   */
  readonly moves: readonly string[];
  readonly themes: readonly PuzzleTheme[];
  /** Moves to mate when the theme is a mate (mate in N), else null. */
  readonly mateIn: number | null;
  /** How hard it is, on an Elo-like scale (from the search effort Kirin needs to find the first move). */
  readonly rating: number;
  /** Where it comes from: the game's players, event, year and the move it arose at. */
  readonly source: string;
}

export interface PuzzleSet {
  /** What the set says about itself (its source, licence, how it was built). */
  readonly description: Readonly<Record<string, unknown>>;
  readonly puzzles: readonly Puzzle[];
}

const FORMAT = 'kirin-puzzles';
const VERSION = 1;

/** A puzzle set as JSON text (the file `kirin puzzles build` writes). */
export function writePuzzles(set: PuzzleSet): string {
  const lines = set.puzzles.map((p) => JSON.stringify(p));
  return `{"format":"${FORMAT}","version":${VERSION},"description":${JSON.stringify(set.description)},"puzzles":[\n${lines.join(',\n')}\n]}\n`;
}

/** Checks one puzzle: a legal start, a legal solution line of odd length that does not pass the end of the game. */
function checkPuzzle(p: unknown, i: number): Result<Puzzle, 'puzzles-format'> {
  const bad = (why: string) => err('puzzles-format', `puzzle ${i + 1}: ${why}`);
  if (p === null || typeof p !== 'object') return bad('not an object');
  const q = p as Record<string, unknown>;
  if (typeof q.id !== 'string' || q.id === '') return bad('no id');
  if (typeof q.fen !== 'string') return bad('no fen');
  const pos = Position.fromFen(q.fen);
  if (!pos.ok) return bad(`fen: ${pos.error.message}`);
  if (!Array.isArray(q.moves) || q.moves.length % 2 !== 1 || !q.moves.every((m) => typeof m === 'string'))
    return bad('moves: an odd number of UCI moves (the solver moves first and last)');
  for (const [k, m] of (q.moves as string[]).entries()) {
    const move = parseLegalMove(pos.value, m);
    if (!move.ok) return bad(`move ${k + 1} (${m}): ${move.error.message}`);
    pos.value.doMove(move.value);
  }
  if (!Array.isArray(q.themes) || !q.themes.every((t) => PUZZLE_THEMES.includes(t as PuzzleTheme)))
    return bad(`themes: a list of ${PUZZLE_THEMES.join(', ')}`);
  if (q.mateIn !== null && !(Number.isSafeInteger(q.mateIn) && (q.mateIn as number) > 0))
    return bad('mateIn: a positive integer or null');
  if (typeof q.rating !== 'number' || !Number.isFinite(q.rating)) return bad('no rating');
  if (typeof q.source !== 'string') return bad('no source');
  return ok({
    id: q.id,
    fen: q.fen,
    moves: q.moves as string[],
    themes: q.themes as PuzzleTheme[],
    mateIn: q.mateIn as number | null,
    rating: q.rating,
    source: q.source,
  });
}

/**
 * Reads a puzzle set (JSON text or its UTF-8 bytes) and checks every puzzle:
 * its position, its line (each move legal), its themes, rating and source;
 * ids unique. The error names the puzzle and what is wrong.
 */
export function readPuzzles(input: string | Uint8Array): Result<PuzzleSet, 'puzzles-format'> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(typeof input === 'string' ? input : new TextDecoder().decode(input));
  } catch (e) {
    return err('puzzles-format', `not a puzzle set: ${(e as Error).message}`);
  }
  const o = parsed as Record<string, unknown> | null;
  if (o === null || typeof o !== 'object' || o.format !== FORMAT)
    return err('puzzles-format', `not a puzzle set (no "format": "${FORMAT}")`);
  if (o.version !== VERSION)
    return err('puzzles-format', `puzzle set version ${String(o.version)}; this Kirin reads version ${VERSION}`);
  if (!Array.isArray(o.puzzles)) return err('puzzles-format', 'no puzzles list');
  const puzzles: Puzzle[] = [];
  const ids = new Set<string>();
  for (const [i, p] of o.puzzles.entries()) {
    const c = checkPuzzle(p, i);
    if (!c.ok) return c;
    if (ids.has(c.value.id)) return err('puzzles-format', `puzzle ${i + 1}: id ${c.value.id} twice`);
    ids.add(c.value.id);
    puzzles.push(c.value);
  }
  const description = o.description !== null && typeof o.description === 'object' ? o.description : {};
  return ok({ description: description as Record<string, unknown>, puzzles });
}

/** How a move in a puzzle went: the right move (more to come), the last right move, or a wrong one. */
export type PuzzleVerdict = 'correct' | 'solved' | 'wrong';

/**
 * Judges the solver's move `move` (UCI) after the line `played` (the moves of
 * the puzzle so far: the solver's and the defences). The solution's move is
 * right; so is, where a mate puzzle's last move is due, any move that mates.
 * 'solved' when it was the last move of the line.
 */
export function puzzleMove(puzzle: Puzzle, played: readonly string[], move: string): PuzzleVerdict {
  const k = played.length;
  if (k % 2 !== 0 || k >= puzzle.moves.length) return 'wrong';
  const last = k === puzzle.moves.length - 1;
  if (move === puzzle.moves[k]) return last ? 'solved' : 'correct';
  if (!last || puzzle.mateIn === null) return 'wrong';
  // The mating move: any move that mates.
  const pos = Position.fromFen(puzzle.fen);
  if (!pos.ok) return 'wrong';
  for (const m of played) {
    const mv = parseLegalMove(pos.value, m);
    if (!mv.ok) return 'wrong';
    pos.value.doMove(mv.value);
  }
  const mv = parseLegalMove(pos.value, move);
  if (!mv.ok) return 'wrong';
  pos.value.doMove(mv.value);
  // No legal move left: mated (or stalemated, which loses in xiangqi too).
  return legalMoves(pos.value).length === 0 ? 'solved' : 'wrong';
}

/**
 * The next puzzle for a player of `rating`: among those not in `done`, one of
 * the few nearest in rating (random among the five nearest, so that the same
 * rating does not always give the same puzzle); null when all are done.
 */
export function choosePuzzle(
  puzzles: readonly Puzzle[],
  rating: number,
  done: ReadonlySet<string>,
  random: () => number,
): Puzzle | null {
  const left = puzzles.filter((p) => !done.has(p.id));
  if (left.length === 0) return null;
  left.sort((a, b) => Math.abs(a.rating - rating) - Math.abs(b.rating - rating) || (a.id < b.id ? -1 : 1));
  const near = left.slice(0, Math.min(5, left.length));
  return near[Math.min(near.length - 1, Math.floor(random() * near.length))];
}

/**
 * A player's rating after a try (Elo: the expected score against the puzzle's
 * rating, K = 32 by default): up when solved, down when not.
 */
export function ratingAfter(player: number, puzzle: number, solved: boolean, k = 32): number {
  const expected = 1 / (1 + 10 ** ((puzzle - player) / 400));
  return Math.round(player + k * ((solved ? 1 : 0) - expected));
}
