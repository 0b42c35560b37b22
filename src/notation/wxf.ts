// WXF (World Xiangqi Federation) move notation, both ways: C2=5, H8+7, R1-2,
// +R=4, -P+1. docs/NOTATION.md has the rules.
//
// A move is four characters: the piece letter (K A E H R C P), the file it
// stands on (each side counting 1..9 from its own right), + - or = (forward,
// back, sideways; `.` is read as =), and a number: points moved for the straight
// movers (R C P K) going forward or back, otherwise the file reached. Several
// pieces of a kind on one file (never advisors or elephants):
//   two, or three pawns   + / - before the letter for the front / rear one (+R=4,
//                         -P+1, as in WXF's game collection); the middle pawn of
//                         three keeps its file (P3=4)
//   four or five pawns    ++ foremost, P+ second, P3 middle (five), P- second
//                         rearmost, -- rearmost (WXF's rule)
//   two doubled files     the file in place of the letter, then + / - or the
//                         file again for the middle one: 3+=4, 33=4, 3-=4, 7+=6.
// The reader also takes the letter before the sign (R+=4, the WXF rule book's
// order), `.` or nothing for sideways (C2.5, C25), lower case (Black's moves in
// some books), full-width characters, the letters N B M G S (knight, elephant,
// elephant, advisor, pawn) and XQ Review's Pa..Pe for numbered pawns.

import type { Position } from '../core/position.js';
import { err, ok, type Result } from '../core/result.js';
import {
  ADVISOR,
  BISHOP,
  CANNON,
  FILE_OF,
  KING,
  KNIGHT,
  PAWN,
  RANK_OF,
  ROOK,
  moveFrom,
  moveTo,
  type Move,
} from '../core/types.js';
import { isDiagonalMover, type Action, type MoveQuery, type Place } from './query.js';
import { fileNumber, forward, standing } from './standing.js';

const LETTERS = ' RACPHEK'; // by type: ROOK..KING = 1..7

/** The WXF text of `m`, a legal move of `pos` (the caller checks legality). */
export function wxfText(pos: Position, m: Move): string {
  const from = moveFrom(m);
  const to = moveTo(m);
  const st = standing(pos.board, from);
  const { type, color } = st;
  const letter = LETTERS[type];
  const k = st.onFile;
  const i = st.index;
  let head: string;
  if (k < 2 || type === ADVISOR || type === BISHOP) head = letter + st.file;
  else if (type !== PAWN) head = (i === 0 ? '+' : '-') + letter;
  else if (st.doubledFiles >= 2) head = String(st.file) + (i === 0 ? '+' : i === k - 1 ? '-' : String(st.file));
  else if (k <= 3) head = i === 0 ? '+P' : i === k - 1 ? '-P' : 'P' + st.file;
  else head = i === 0 ? '++' : i === k - 1 ? '--' : i === 1 ? 'P+' : i === k - 2 ? 'P-' : 'P' + st.file;
  const dr = (RANK_OF[to] - RANK_OF[from]) * forward(color);
  if (dr === 0) return head + '=' + fileNumber(color, FILE_OF[to]);
  return head + (dr > 0 ? '+' : '-') + (isDiagonalMover(type) ? fileNumber(color, FILE_OF[to]) : Math.abs(dr));
}

const PIECES: Readonly<Record<string, readonly number[]>> = {
  R: [ROOK],
  H: [KNIGHT],
  N: [KNIGHT],
  E: [BISHOP],
  B: [BISHOP],
  M: [BISHOP],
  A: [ADVISOR],
  G: [ADVISOR, KING],
  K: [KING],
  C: [CANNON],
  P: [PAWN],
  S: [PAWN],
};

/** Full-width ASCII (Ｃ２＝５) to ASCII. */
export function halfWidth(text: string): string {
  return text
    .replace(/[\uff01-\uff5e]/g, (ch) => String.fromCharCode(ch.charCodeAt(0) - 0xfee0))
    .replace(/\u3000/g, ' ');
}

/** Reads a WXF move text into what it describes (which legal move it is, query.ts decides). */
export function readWxf(text: string): Result<MoveQuery, 'notation-syntax'> {
  const t = halfWidth(text).trim();
  const fail = (why: string) =>
    err('notation-syntax', `'${text}' is not a move in WXF notation (${why}; like C2=5, H8+7 or +R=4)`);
  const m = /^([A-Za-z+\-1-9])([A-Za-z+\-1-9])([+\-=.]?)([1-9])$/.exec(t);
  if (!m) return fail('expected a piece, its file, + - or =, and a number');
  const [, a, b, act, num] = m;
  if (act === '' && !(b >= '1' && b <= '9')) return fail('no + - or = after a tandem piece');
  const action: Action = act === '' || act === '.' ? '=' : (act as Action);
  const n = Number(num);
  const letter = (ch: string) => PIECES[ch.toUpperCase()];
  const isFile = (ch: string) => ch >= '1' && ch <= '9';
  const isSign = (ch: string) => ch === '+' || ch === '-';
  const query = (types: readonly number[], file: number, place: Place | null, wxfFile = false) =>
    ok({ text, types, file, place, wxfFile, action, n });
  const la = letter(a);
  if (la !== undefined) {
    if (isFile(b)) return query(la, Number(b), null, true); // C2=5, P3=4 (the middle of three)
    if (isSign(b)) return query(la, 0, b === '+' ? 'wxf-plus' : 'wxf-minus'); // R+=4, P-+1
    if (la[0] === PAWN && b >= 'a' && b <= 'e') return query(la, 0, b.charCodeAt(0) - 96); // Pa..Pe
    return fail(`'${b}' is neither a file nor + or -`);
  }
  if (isSign(a)) {
    const lb = letter(b);
    if (lb !== undefined) return query(lb, 0, a === '+' ? 'wxf-plus' : 'wxf-minus'); // +R=4, -P+1
    if (b === a) return query([PAWN], 0, a === '+' ? 'foremost' : 'rearmost'); // ++=4, --=4
    return fail(`'${a}${b}' is not a tandem piece (+R, -P, ++ or --)`);
  }
  if (isFile(a)) {
    const file = Number(a);
    if (isSign(b)) return query([PAWN], file, b === '+' ? 'front' : 'rear'); // 3+=4
    if (b === a) return query([PAWN], file, 'middle'); // 33=4
    return fail(`'${a}${b}' is not a pawn on a doubled file (like 3+, 3- or 33)`);
  }
  return fail(`'${a}' is not a piece letter`);
}
