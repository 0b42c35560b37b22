// FEN parsing and validation (Pikafish form), with errors as values.
//
//   rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1
//
// Ranks are listed from rank 9 (Black's back rank) down to rank 0. The letters
// R A C P N B K (red, upper case) and r a c p n b k (black) are used; the H/E
// variant (H = horse = knight, E = elephant = bishop) is accepted too. Trailing
// fields may be missing: side defaults to red, counters to 0 and 1.

import { PALACE } from './attacks.js';
import { err, ok, type Result } from './result.js';
import {
  ADVISOR,
  BISHOP,
  BLACK,
  CANNON,
  FILE_OF,
  KING,
  KNIGHT,
  PAWN,
  PIECE_CHARS,
  RANK_OF,
  RED,
  ROOK,
  SQUARE_NB,
  colorOf,
  makePiece,
  makeSquare,
  squareName,
  typeOf,
  type Color,
} from './types.js';

export const START_FEN = 'rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1';

export interface ParsedFen {
  /** Piece code per square (0 = empty). */
  board: Uint8Array;
  side: Color;
  /** Plies counted towards the 60-move rule. */
  rule60: number;
  /** Full-move number as written (>= 1). */
  fullmove: number;
}

/** Why a FEN was rejected. */
export type FenErrorCode =
  | 'fen-empty'
  | 'fen-ranks'
  | 'fen-piece'
  | 'fen-rank-width'
  | 'fen-king'
  | 'fen-piece-count'
  | 'fen-square'
  | 'fen-side'
  | 'fen-counter'
  | 'fen-unused-field'
  | 'fen-extra'
  | 'fen-check';

export type FenResult = Result<ParsedFen, FenErrorCode>;

const LETTER_TYPE: Record<string, number> = {
  r: ROOK,
  a: ADVISOR,
  c: CANNON,
  p: PAWN,
  n: KNIGHT,
  h: KNIGHT,
  b: BISHOP,
  e: BISHOP,
  k: KING,
};
const TYPE_NAME = ['', 'rook', 'advisor', 'cannon', 'pawn', 'knight', 'bishop', 'king'];
const MAX_COUNT = [0, 2, 2, 2, 5, 2, 2, 1];

/** Squares each piece may ever stand on, by piece code (1 = allowed). */
const VALID = new Uint8Array(16 * SQUARE_NB);
{
  const advisor = [
    [3, 0],
    [5, 0],
    [4, 1],
    [3, 2],
    [5, 2],
  ];
  const bishop = [
    [2, 0],
    [6, 0],
    [0, 2],
    [4, 2],
    [8, 2],
    [2, 4],
    [6, 4],
  ];
  for (const c of [RED, BLACK]) {
    const mirrorRank = (r: number) => (c === RED ? r : 9 - r);
    for (let s = 0; s < SQUARE_NB; s++) {
      const f = FILE_OF[s],
        r = mirrorRank(RANK_OF[s]);
      VALID[makePiece(c, ROOK) * SQUARE_NB + s] = 1;
      VALID[makePiece(c, CANNON) * SQUARE_NB + s] = 1;
      VALID[makePiece(c, KNIGHT) * SQUARE_NB + s] = 1;
      VALID[makePiece(c, KING) * SQUARE_NB + s] = PALACE[s] === c + 1 ? 1 : 0;
      VALID[makePiece(c, PAWN) * SQUARE_NB + s] = r >= 5 || (r >= 3 && f % 2 === 0) ? 1 : 0;
    }
    for (const [f, r] of advisor) VALID[makePiece(c, ADVISOR) * SQUARE_NB + makeSquare(f, mirrorRank(r))] = 1;
    for (const [f, r] of bishop) VALID[makePiece(c, BISHOP) * SQUARE_NB + makeSquare(f, mirrorRank(r))] = 1;
  }
}

/** True when `piece` may legally stand on `sq` in some xiangqi game. */
export function isValidSquareFor(piece: number, sq: number): boolean {
  return VALID[piece * SQUARE_NB + sq] === 1;
}

function colorName(c: number): string {
  return c === RED ? 'red' : 'black';
}

/** The board field of a FEN (ranks 9 down to 0) for a piece-code-per-square array. */
export function formatBoard(board: ArrayLike<number>): string {
  let out = '';
  for (let r = 9; r >= 0; r--) {
    let empty = 0;
    for (let f = 0; f < 9; f++) {
      const pc = board[r * 9 + f];
      if (!pc) {
        empty++;
        continue;
      }
      if (empty) out += empty;
      empty = 0;
      out += PIECE_CHARS[pc];
    }
    if (empty) out += empty;
    if (r > 0) out += '/';
  }
  return out;
}

export function parseFen(fen: string): FenResult {
  const fail = (code: FenErrorCode, error: string): FenResult => err(code, `invalid FEN "${fen}": ${error}`);
  const fields = fen.trim().split(/\s+/);
  if (fields.length === 0 || fields[0] === '') return fail('fen-empty', 'it is empty');
  const ranks = fields[0].split('/');
  if (ranks.length !== 10)
    return fail('fen-ranks', `the board has ${ranks.length} ranks, expected 10 separated by '/'`);

  const board = new Uint8Array(SQUARE_NB);
  const counts = new Int32Array(16);
  for (let i = 0; i < 10; i++) {
    const rank = 9 - i;
    let file = 0;
    for (const ch of ranks[i]) {
      if (ch >= '1' && ch <= '9') {
        file += ch.charCodeAt(0) - 48;
        continue;
      }
      const type = LETTER_TYPE[ch.toLowerCase()];
      if (type === undefined) return fail('fen-piece', `unknown piece letter '${ch}' in rank ${rank}`);
      if (file >= 9) return fail('fen-rank-width', `rank ${rank} ("${ranks[i]}") is wider than 9 files`);
      const color: Color = ch === ch.toUpperCase() ? RED : BLACK;
      const piece = makePiece(color, type);
      const sq = makeSquare(file, rank);
      board[sq] = piece;
      counts[piece]++;
      file++;
    }
    if (file !== 9) {
      return fail('fen-rank-width', `rank ${rank} ("${ranks[i]}") has ${file} files, expected 9`);
    }
  }

  for (const c of [RED, BLACK]) {
    const kings = counts[makePiece(c, KING)];
    if (kings === 0) return fail('fen-king', `the ${colorName(c)} king is missing`);
    if (kings > 1) return fail('fen-king', `${colorName(c)} has ${kings} kings`);
    for (let t = ROOK; t <= BISHOP; t++) {
      const n = counts[makePiece(c, t)];
      if (n > MAX_COUNT[t])
        return fail('fen-piece-count', `${colorName(c)} has ${n} ${TYPE_NAME[t]}s, at most ${MAX_COUNT[t]} allowed`);
    }
  }
  for (let s = 0; s < SQUARE_NB; s++) {
    const p = board[s];
    if (p && !isValidSquareFor(p, s)) {
      return fail(
        'fen-square',
        `${colorName(colorOf(p))} ${TYPE_NAME[typeOf(p)]} on ${squareName(s)}, a square it can never stand on`,
      );
    }
  }

  let side: Color = RED;
  if (fields.length > 1) {
    const s = fields[1].toLowerCase();
    if (s === 'w' || s === 'r') side = RED;
    else if (s === 'b') side = BLACK;
    else return fail('fen-side', `side to move "${fields[1]}" must be 'w' (red) or 'b' (black)`);
  }

  // Fields 3 and 4 are chess's castling rights and en-passant square; xiangqi has neither.
  const unused = ['castling rights', 'en-passant square'];
  for (let i = 2; i < 4 && i < fields.length; i++) {
    if (fields[i] !== '-')
      return fail('fen-unused-field', `${unused[i - 2]} field "${fields[i]}" must be '-' (xiangqi has none)`);
  }

  let rule60 = 0;
  let fullmove = 1;
  if (fields.length > 4) {
    if (!/^\d+$/.test(fields[4])) return fail('fen-counter', `half-move counter "${fields[4]}" is not a number`);
    rule60 = Number(fields[4]);
    if (rule60 > 119)
      return fail(
        'fen-counter',
        `half-move counter ${rule60} is out of range 0..119 (the game would already be drawn)`,
      );
  }
  if (fields.length > 5) {
    if (!/^\d+$/.test(fields[5])) return fail('fen-counter', `move number "${fields[5]}" is not a number`);
    fullmove = Number(fields[5]);
    if (fullmove > 100000) return fail('fen-counter', `move number ${fullmove} is out of range 1..100000`);
    if (fullmove === 0) fullmove = 1;
  }
  if (fields.length > 6) return fail('fen-extra', `unexpected extra field "${fields[6]}"`);

  return ok({ board, side, rule60, fullmove });
}
