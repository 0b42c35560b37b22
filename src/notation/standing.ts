// Where a piece stands in the players' terms: its file in its own side's
// numbering and its place among the pieces of its kind on that file. The
// Chinese and WXF notations both name a move by these (docs/NOTATION.md).
//
// Files: each side numbers the nine files 1..9 from its own right, so Red's
// file 1 is board file i and Black's file 1 is board file a. "Front" is towards
// the opponent: higher ranks for Red, lower for Black.

import { FILE_OF, RANK_OF, RED, colorOf, typeOf, type Color } from '../core/types.js';

/** The number (1..9) a side gives to board file `f` (0 = a ... 8 = i). */
export function fileNumber(color: Color, f: number): number {
  return color === RED ? 9 - f : f + 1;
}

/** The board file (0 = a ... 8 = i) of a side's file number `n` (1..9). */
function boardFile(color: Color, n: number): number {
  return color === RED ? 9 - n : n - 1;
}

/** +1 when the side moves towards higher ranks (Red), -1 otherwise. */
export function forward(color: Color): number {
  return color === RED ? 1 : -1;
}

/** A piece's place in the players' terms (see `standing`). */
export interface Standing {
  readonly type: number;
  readonly color: Color;
  /** Its file in its own side's numbering, 1..9. */
  readonly file: number;
  /** How many pieces of its kind and color stand on that file (1 when it is alone). */
  readonly onFile: number;
  /** Its place among them, 0 for the front one (nearest the opponent). */
  readonly index: number;
  /** How many files hold two or more pieces of its kind and color. */
  readonly doubledFiles: number;
  /**
   * Its number (1..5) when the pieces on the doubled files are counted file
   * by file from the side's right, front to back on each file (the rule for
   * pawns on two doubled files; with one doubled file it is `index + 1`); 0
   * when it stands alone on its file.
   */
  readonly ordinal: number;
}

/** Where the piece on `sq` stands. `board` holds a piece code per square (Position.board). */
export function standing(board: ArrayLike<number>, sq: number): Standing {
  const piece = board[sq];
  const color = colorOf(piece);
  const fwd = forward(color);
  // Ranks of this piece kind per board file, front first.
  const ranks: number[][] = [[], [], [], [], [], [], [], [], []];
  for (let s = 0; s < 90; s++) if (board[s] === piece) ranks[FILE_OF[s]].push(RANK_OF[s]);
  for (const r of ranks) r.sort((a, b) => (b - a) * fwd);
  const f = FILE_OF[sq];
  const own = ranks[f];
  const index = own.indexOf(RANK_OF[sq]);
  let doubledFiles = 0;
  let before = 0;
  // Files in the side's own order (its file 1 first).
  for (let n = 1; n <= 9; n++) {
    const bf = boardFile(color, n);
    if (ranks[bf].length < 2) continue;
    doubledFiles++;
    if (fileNumber(color, bf) < fileNumber(color, f)) before += ranks[bf].length;
  }
  return {
    type: typeOf(piece),
    color,
    file: fileNumber(color, f),
    onFile: own.length,
    index,
    doubledFiles,
    ordinal: own.length >= 2 ? before + index + 1 : 0,
  };
}
