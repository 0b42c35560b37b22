// The board editor's model: a 9 x 10 board of pieces and the side to move,
// changed freely (a piece placed, removed or moved anywhere, the board cleared
// or set to the start), and checked by the rules core as a FEN would be: the
// same errors, the same words (src/core/fen.ts: kings, piece counts, squares a
// piece can never stand on; the side not to move in check). Pure.
//
// Squares are the library's: rank * 9 + file, a0 = 0 (Red's back rank, left)
// to i9 = 89; pieces colour << 3 | type (rook 1, advisor 2, cannon 3, pawn 4,
// knight 5, bishop 6, king 7; Red 0, Black 1).

import {
  BLACK,
  Position,
  RED,
  START_FEN,
  ok,
  parseFen,
  type Color,
  type FenErrorCode,
  type Result,
} from '../../src/browser/index.js';

/** FEN letters by piece type (Red's in upper case). */
const LETTERS = ['', 'r', 'a', 'c', 'p', 'n', 'b', 'k'];

/** The 14 pieces, Red's then Black's, each in the order rook, knight, bishop, advisor, king, cannon, pawn (the palette's). */
export const PALETTE: readonly number[] = [RED, BLACK].flatMap((c) => [1, 5, 6, 2, 7, 3, 4].map((t) => (c << 3) | t));

/** True for a piece code of the palette. */
export function isPiece(piece: number): boolean {
  return PALETTE.includes(piece);
}

export class BoardEditorModel {
  /** The piece on each square (0: empty). */
  readonly board = new Uint8Array(90);
  /** Who moves first in the position. */
  side: Color = RED;

  /** The model of a position the rules core accepts (the standard start by default). */
  constructor(fen: string = START_FEN) {
    const r = this.load(fen);
    if (!r.ok) throw new Error(r.error.message);
  }

  /** Sets the board from a FEN; a FEN the rules core refuses is refused with its error and the board stays. */
  load(fen: string): Result<null, FenErrorCode> {
    const r = parseFen(fen);
    if (!r.ok) return r;
    this.board.set(r.value.board);
    this.side = r.value.side;
    return ok(null);
  }

  /** The piece on `square`, 0 when empty. */
  pieceOn(square: number): number {
    return this.board[square];
  }

  /** Puts `piece` on `square` (replacing what stood there). */
  place(square: number, piece: number): void {
    if (!isPiece(piece)) throw new Error(`no piece ${piece}`);
    this.board[checked(square)] = piece;
  }

  /** Empties `square`; returns what stood there (0 when nothing). */
  remove(square: number): number {
    const pc = this.board[checked(square)];
    this.board[square] = 0;
    return pc;
  }

  /** Moves the piece on `from` to `to` (replacing what stood there); nothing when `from` is empty or equals `to`. */
  move(from: number, to: number): void {
    const pc = this.board[checked(from)];
    if (pc === 0 || from === checked(to)) return;
    this.board[to] = pc;
    this.board[from] = 0;
  }

  /** An empty board. */
  clear(): void {
    this.board.fill(0);
  }

  /** The standard start position, Red to move. */
  start(): void {
    this.load(START_FEN);
  }

  /** How many of `piece` stand on the board. */
  count(piece: number): number {
    let n = 0;
    for (const pc of this.board) if (pc === piece) n++;
    return n;
  }

  /** The position as a FEN (counters 0 and 1), whether or not it is legal. */
  fen(): string {
    const ranks: string[] = [];
    for (let r = 9; r >= 0; r--) {
      let s = '';
      let empty = 0;
      for (let f = 0; f < 9; f++) {
        const pc = this.board[r * 9 + f];
        if (pc === 0) {
          empty++;
          continue;
        }
        if (empty > 0) s += empty;
        empty = 0;
        const letter = LETTERS[pc & 7];
        s += pc >> 3 === RED ? letter.toUpperCase() : letter;
      }
      ranks.push(empty > 0 ? s + empty : s);
    }
    return `${ranks.join('/')} ${this.side === RED ? 'w' : 'b'} - - 0 1`;
  }

  /** The position's FEN when the rules core accepts it as a game's start, else the core's error (Position.fromFen). */
  validate(): Result<string, FenErrorCode> {
    const fen = this.fen();
    const p = Position.fromFen(fen);
    return p.ok ? ok(p.value.fen()) : p;
  }
}

function checked(square: number): number {
  if (!Number.isInteger(square) || square < 0 || square >= 90) throw new Error(`no square ${square}`);
  return square;
}
