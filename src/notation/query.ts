// A move as the Chinese and WXF notations describe it (which piece, standing
// where, going which way and how far) and the one legal move it names.

import { legalMoves } from '../core/movegen.js';
import type { Position } from '../core/position.js';
import { err, ok, type Result } from '../core/result.js';
import { ADVISOR, BISHOP, FILE_OF, KNIGHT, RANK_OF, RED, moveToUci, type Move } from '../core/types.js';
import { fileNumber, forward, standing, type Standing } from './standing.js';

/** Why a move text was refused. */
export type NotationErrorCode = 'notation-syntax' | 'notation-no-move' | 'notation-ambiguous';

/** Forward, backward or sideways. */
export type Action = '+' | '-' | '=';

/**
 * Which of several pieces of a kind on one file a text names: Chinese 前/后/中
 * (front, rear, middle), WXF `+`/`-` (the front and rear of two or three, the
 * second from the front and from the rear of four or five), WXF `++`/`--` (the
 * foremost and rearmost of four or five), or a number 1..5 counted from the
 * front (Chinese 一..五: on the given file, or without a file over the doubled
 * files, Standing.ordinal).
 */
export type Place = 'front' | 'rear' | 'middle' | 'wxf-plus' | 'wxf-minus' | 'foremost' | 'rearmost' | number;

/** A move described the players' way. */
export interface MoveQuery {
  /** The text as given, for messages. */
  readonly text: string;
  /** The piece types it may be (more than one where a letter is shared, like WXF G). */
  readonly types: readonly number[];
  /** The file it starts on in the mover's numbering (1..9), 0 when not given. */
  readonly file: number;
  /** Its place among several of its kind on a file, null when not given. */
  readonly place: Place | null;
  /** WXF: a bare file on a file of three or five such pieces names the middle one. */
  readonly wxfFile: boolean;
  readonly action: Action;
  /** Points moved (straight movers going forward or back) or the file reached (in the mover's numbering). */
  readonly n: number;
}

/** True for pieces that move diagonally (knight, bishop, advisor): their number is the file they reach. */
export function isDiagonalMover(type: number): boolean {
  return type === KNIGHT || type === BISHOP || type === ADVISOR;
}

function placeMatches(place: Place, st: Standing, withFile: boolean): boolean {
  const k = st.onFile;
  const i = st.index;
  if (k < 2) return false;
  switch (place) {
    case 'front':
    case 'foremost':
      return i === 0;
    case 'rear':
    case 'rearmost':
      return i === k - 1;
    case 'middle':
      return k % 2 === 1 && i === (k - 1) / 2;
    case 'wxf-plus':
      return i === (k >= 4 ? 1 : 0);
    case 'wxf-minus':
      return i === (k >= 4 ? k - 2 : k - 1);
    default:
      return withFile ? i === place - 1 : st.ordinal === place;
  }
}

function standsAsNamed(q: MoveQuery, st: Standing): boolean {
  if (!q.types.includes(st.type)) return false;
  if (q.file !== 0 && st.file !== q.file) return false;
  if (q.place !== null) return placeMatches(q.place, st, q.file !== 0);
  if (q.wxfFile && st.onFile >= 3 && st.onFile % 2 === 1 && st.index !== (st.onFile - 1) / 2) return false;
  return q.file !== 0;
}

function goesAsNamed(q: MoveQuery, type: number, color: 0 | 1, from: number, to: number): boolean {
  const dr = (RANK_OF[to] - RANK_OF[from]) * forward(color);
  const toFile = fileNumber(color, FILE_OF[to]);
  if (q.action === '=') return dr === 0 && toFile === q.n;
  const sign = q.action === '+' ? 1 : -1;
  if (isDiagonalMover(type)) return dr * sign > 0 && toFile === q.n;
  return FILE_OF[to] === FILE_OF[from] && dr === sign * q.n;
}

function sideName(pos: Position): string {
  return pos.sideToMove === RED ? 'Red' : 'Black';
}

/** The one legal move of `pos` that `q` describes, or why there is none or more than one. */
export function findMove(pos: Position, q: MoveQuery): Result<Move, NotationErrorCode> {
  const found: Move[] = [];
  const seen = new Map<number, Standing>();
  for (const m of legalMoves(pos)) {
    const from = m >> 7;
    let st = seen.get(from);
    if (st === undefined) {
      st = standing(pos.board, from);
      seen.set(from, st);
    }
    if (standsAsNamed(q, st) && goesAsNamed(q, st.type, st.color, from, m & 127)) found.push(m);
  }
  if (found.length === 1) return ok(found[0]);
  if (found.length === 0)
    return err('notation-no-move', `'${q.text}' names no legal move of ${sideName(pos)} in ${pos.fen()}`);
  return err(
    'notation-ambiguous',
    `'${q.text}' names ${found.length} legal moves of ${sideName(pos)} (${found.map(moveToUci).join(', ')}) in ${pos.fen()}`,
  );
}
