// Basic domain types of xiangqi: colors, piece types, pieces, squares and moves.
//
// Everything is a small integer so that hot paths work on typed arrays and int32
// arithmetic. The encodings follow Pikafish so that network files and tables
// indexed by piece or square line up without translation.

export type Color = 0 | 1;
export const RED = 0 as const;
export const BLACK = 1 as const;

/** Piece types, numbered as in Pikafish (ROOK..KING = 1..7). */
export const ROOK = 1;
export const ADVISOR = 2;
export const CANNON = 3;
export const PAWN = 4;
export const KNIGHT = 5;
export const BISHOP = 6;
export const KING = 7;

/** A piece is `color << 3 | type`: red rook = 1 ... red king = 7, black rook = 9 ... black king = 15. */
export const PIECE_NB = 16;

export function makePiece(color: number, type: number): number {
  return (color << 3) | type;
}
export function colorOf(piece: number): Color {
  return (piece >> 3) as Color;
}
export function typeOf(piece: number): number {
  return piece & 7;
}

/** FEN letters by piece code (red upper case, black lower case). */
export const PIECE_CHARS = ' RACPNBK racpnbk';

/** Squares are rank * 9 + file: a0 = 0 (Red's back rank, left), i9 = 89. */
export const SQUARE_NB = 90;
const FILE_NB = 9;
const RANK_NB = 10;

export function makeSquare(file: number, rank: number): number {
  return rank * 9 + file;
}
export const FILE_OF = new Uint8Array(SQUARE_NB);
export const RANK_OF = new Uint8Array(SQUARE_NB);
for (let s = 0; s < SQUARE_NB; s++) {
  FILE_OF[s] = s % 9;
  RANK_OF[s] = (s / 9) | 0;
}

export function squareName(sq: number): string {
  return String.fromCharCode(97 + FILE_OF[sq]) + String.fromCharCode(48 + RANK_OF[sq]);
}

/** Parses "a0".."i9"; returns -1 when the text is not a square. */
export function parseSquare(text: string): number {
  if (text.length !== 2) return -1;
  const f = text.charCodeAt(0) - 97;
  const r = text.charCodeAt(1) - 48;
  if (f < 0 || f >= FILE_NB || r < 0 || r >= RANK_NB) return -1;
  return makeSquare(f, r);
}

/**
 * A move is `from << 7 | to` (as in Pikafish). 0 is "no move"; MOVE_NULL is the
 * null move (from = to = b0, which no real move can be).
 */
export type Move = number;
export const MOVE_NONE = 0;
export const MOVE_NULL = (1 << 7) | 1;

export function makeMove(from: number, to: number): Move {
  return (from << 7) | to;
}
export function moveFrom(m: Move): number {
  return m >> 7;
}
export function moveTo(m: Move): number {
  return m & 127;
}

export function moveToUci(m: Move): string {
  if (m === MOVE_NONE) return '(none)';
  if (m === MOVE_NULL) return '0000';
  return squareName(moveFrom(m)) + squareName(moveTo(m));
}

/** Piece values in internal units, from Pikafish (used by SEE and material terms). */
const ROOK_VALUE = 1305;
const ADVISOR_VALUE = 219;
export const CANNON_VALUE = 773;
export const PAWN_VALUE = 144;
const KNIGHT_VALUE = 720;
const BISHOP_VALUE = 187;

export const PIECE_VALUE = new Int32Array(PIECE_NB);
{
  const byType = [0, ROOK_VALUE, ADVISOR_VALUE, CANNON_VALUE, PAWN_VALUE, KNIGHT_VALUE, BISHOP_VALUE, 0];
  for (let p = 0; p < PIECE_NB; p++) PIECE_VALUE[p] = byType[p & 7];
}

/** Score constants (internal units), as in Pikafish. */
export const MAX_PLY = 246;
export const VALUE_ZERO = 0;
export const VALUE_DRAW = 0;
export const VALUE_NONE = 32002;
export const VALUE_INFINITE = 32001;
export const VALUE_MATE = 32000;
export const VALUE_MATE_IN_MAX_PLY = VALUE_MATE - MAX_PLY;
export const VALUE_MATED_IN_MAX_PLY = -VALUE_MATE_IN_MAX_PLY;

export function mateIn(ply: number): number {
  return VALUE_MATE - ply;
}
export function matedIn(ply: number): number {
  return -VALUE_MATE + ply;
}

/** Kinds of move generation. */
export const GEN_CAPTURES = 0;
export const GEN_QUIETS = 1;
export const GEN_PSEUDO_LEGAL = 2;
export const GEN_EVASIONS = 3;
export const GEN_LEGAL = 4;
export type GenType = 0 | 1 | 2 | 3 | 4;

/** Largest number of pseudo-legal moves any xiangqi position can have (with margin). */
export const MAX_MOVES = 256;
