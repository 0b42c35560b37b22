// Book move notations to Kirin moves: WXF / AXF English notation (R2=9, c1=2, H5+6,
// r++2 ...) and Chinese notation (车八进五, 炮１进５, 前炮平６ ...). Both name a piece
// type, its file (or front / middle / rear of several on one file), a direction and
// a number, and share one move finder. Run from dist/ after `npm run build`.
//
// Files: Red's 1..9 (一..九) run from Red's right (file i) to its left (file a),
// Black's from Black's right (file a) to its left (file i). Forward / backward /
// sideways; straight movers (rook, cannon, pawn, king) count points forward and
// backward, knights, elephants and advisors name the file they land on.
import { err, FILE_OF, legalMoves, ok, RANK_OF, type Move, type Position, type Result } from '../../src/dev.js';

/** A move text that does not name exactly one legal move. */
export type NotationResult = Result<Move, 'notation'>;

/**
 * The one legal move of the side to move matching the description: a piece of one
 * of `types`, standing on `file` (1..9 in the mover's numbering) or, with `which`
 * ('front' | 'middle' | 'rear') in place of the file, the one in that place among
 * several on a file; `act` '+' forward, '-' backward, '=' sideways; `n` points or
 * destination file. The error names `text` unless exactly one move matches.
 */
type Which = 'front' | 'middle' | 'rear' | null;

function findMove(
  pos: Position,
  text: string,
  types: readonly number[],
  which: Which,
  file: number,
  act: string,
  n: number,
): NotationResult {
  const side = pos.side;
  const fileIdx = (k: number): number => (side === 0 ? 9 - k : k - 1);
  const fwd = side === 0 ? 1 : -1;
  const cands: Move[] = [];
  for (const m of legalMoves(pos)) {
    const from = m >> 7,
      to = m & 127;
    const pc = pos.board[from];
    const type = pc & 7;
    if (!types.includes(type)) continue;
    if (which === null) {
      if (FILE_OF[from] !== fileIdx(file)) continue;
    } else {
      const same: number[] = [];
      for (let s = 0; s < 90; s++) if (pos.board[s] === pc && FILE_OF[s] === FILE_OF[from]) same.push(s);
      if (same.length < 2) continue;
      same.sort((a, b) => (RANK_OF[b] - RANK_OF[a]) * fwd); // most advanced first
      const idx = same.indexOf(from);
      if (which === 'front' && idx !== 0) continue;
      if (which === 'rear' && idx !== same.length - 1) continue;
      if (which === 'middle' && (idx === 0 || idx === same.length - 1)) continue;
    }
    const dr = (RANK_OF[to] - RANK_OF[from]) * fwd;
    const straight = type === 1 || type === 3 || type === 4 || type === 7;
    let ok: boolean;
    if (act === '=') ok = dr === 0 && FILE_OF[to] === fileIdx(n);
    else if (straight) ok = FILE_OF[to] === FILE_OF[from] && dr === (act === '+' ? n : -n);
    else ok = FILE_OF[to] === fileIdx(n) && (act === '+' ? dr > 0 : dr < 0);
    if (ok) cands.push(m);
  }
  if (cands.length !== 1) return err('notation', `"${text}" matches ${cands.length} legal moves in ${pos.fen()}`);
  return ok(cands[0]);
}

// R rook, H/N knight, E/B/M elephant, A/G advisor ("guard"), K king, C cannon,
// P/S pawn; the case of the letter is ignored (the side to move decides).
const LETTERS: Record<string, number[] | undefined> = {
  R: [1],
  H: [5],
  N: [5],
  E: [6],
  B: [6],
  M: [6],
  A: [2],
  G: [2, 7],
  K: [7],
  C: [3],
  P: [4],
  S: [4],
};

/**
 * WXF notation: letter, file (or "+" / "-" for the front / rear of two on a file),
 * "+" / "-" / "=" (also "." or nothing, as in "c89"), number.
 */
export function wxfToMove(pos: Position, text: string): NotationResult {
  const t = text.trim().replace(/[.]$/, '');
  const m = /^([A-Za-z])([1-9+-])([+=.-]?)([1-9])$/.exec(t);
  if (!m) return err('notation', `cannot read move "${text}"`);
  const types = LETTERS[m[1].toUpperCase()];
  if (!types) return err('notation', `unknown piece letter in "${text}"`);
  const which = m[2] === '+' ? 'front' : m[2] === '-' ? 'rear' : null;
  const act = m[3] === '' || m[3] === '.' ? '=' : m[3];
  return findMove(pos, text, types, which, which ? 0 : Number(m[2]), act, Number(m[4]));
}

const TYPES: Record<string, number | undefined> = {
  车: 1,
  車: 1,
  仕: 2,
  士: 2,
  炮: 3,
  砲: 3,
  兵: 4,
  卒: 4,
  马: 5,
  馬: 5,
  相: 6,
  象: 6,
  帅: 7,
  将: 7,
  帥: 7,
  將: 7,
};
const WHICH: Record<string, Which | undefined> = { 前: 'front', 中: 'middle', 后: 'rear' };
const ACTIONS: Record<string, string | undefined> = { 进: '+', 進: '+', 退: '-', 平: '=' };
const RED_NUM = '一二三四五六七八九';
/** The number a digit stands for (一..九, full-width or ASCII 1..9), or 0. */
function num(ch: string | undefined): number {
  if (ch === undefined) return 0;
  const r = RED_NUM.indexOf(ch);
  if (r >= 0) return r + 1;
  const code = ch.charCodeAt(0);
  if (code >= 0xff11 && code <= 0xff19) return code - 0xff10;
  if (code >= 0x31 && code <= 0x39) return code - 0x30;
  return 0;
}

/** Chinese notation: piece and file (or 前/中/后 and piece), 进/退/平, number. */
export function chineseToMove(pos: Position, text: string): NotationResult {
  const t = [...text.trim()];
  const which = WHICH[t[0]] ?? null;
  const type = TYPES[which ? t[1] : t[0]];
  const act = ACTIONS[t[2]];
  if (type === undefined) return err('notation', `unknown piece in ${text}`);
  if (act === undefined) return err('notation', `bad action in ${text}`);
  const file = which ? 0 : num(t[1]);
  const n = num(t[3]);
  if ((!which && file === 0) || n === 0) return err('notation', `not a number in ${text}`);
  return findMove(pos, text, [type], which, file, act, n);
}
