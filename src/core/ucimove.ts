// Moves in UCI coordinates ("h2e2": from-square, to-square; files a-i, ranks
// 0-9): the one parser that the engine, the rules, the openings and the match
// runner use. Formatting is `moveToUci` in types.ts.

import { generate } from './movegen.js';
import type { Position } from './position.js';
import { GEN_LEGAL, MAX_MOVES, makeMove, parseSquare, type Move } from './types.js';
import { err, ok, type Result } from './result.js';

export type MoveErrorCode = 'move-syntax' | 'move-illegal';

/** The move a UCI text names (letters in either case), without asking whether it is legal anywhere. */
export function parseUciMove(text: string): Result<Move, 'move-syntax'> {
  const t = text.trim();
  if (t.length !== 4) return err('move-syntax', `'${text}' is not a move in UCI coordinates (like h2e2)`);
  const from = parseSquare(t.slice(0, 2).toLowerCase());
  const to = parseSquare(t.slice(2, 4).toLowerCase());
  if (from < 0 || to < 0)
    return err('move-syntax', `'${text}' is not a move in UCI coordinates (files a-i, ranks 0-9, like h2e2)`);
  return ok(makeMove(from, to));
}

/** The legal move of `pos` a UCI text names. `scratch` (MAX_MOVES entries) saves an allocation. */
export function parseLegalMove(pos: Position, text: string, scratch?: Int32Array): Result<Move, MoveErrorCode> {
  const parsed = parseUciMove(text);
  if (!parsed.ok) return parsed;
  const m = parsed.value;
  const list = scratch ?? new Int32Array(MAX_MOVES);
  const n = generate(pos, GEN_LEGAL, list, 0);
  for (let i = 0; i < n; i++) if (list[i] === m) return parsed;
  return err('move-illegal', `'${text}' is not a legal move`);
}

/**
 * Plays UCI moves on `pos` in order. On a bad move it stops there (the moves
 * before it stay played) and the error names the move's number and the position.
 */
export function playUciMoves(pos: Position, moves: readonly string[]): Result<Move[], MoveErrorCode> {
  const list = new Int32Array(MAX_MOVES);
  const played: Move[] = [];
  pos.reserve(moves.length + 1);
  for (let i = 0; i < moves.length; i++) {
    const m = parseLegalMove(pos, moves[i], list);
    if (!m.ok) return err(m.error.code, `move ${i + 1} of the list: ${m.error.message} in position ${pos.fen()}`);
    pos.doMove(m.value);
    played.push(m.value);
  }
  return ok(played);
}
