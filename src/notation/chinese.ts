// Chinese move notation, both ways: 炮二平五, 马8进7, 前炮退二, 后车平4, 中兵进一,
// 一兵平五, simplified or traditional (炮二平五 / 馬8進7). docs/NOTATION.md has the rules.
//
// A move is four characters: the piece, the file it stands on (Red 一..九, Black
// 1..9, each side counting from its own right), 进/退/平 (forward, back,
// sideways), and a number: the points moved for the straight movers (车 炮 兵 帅)
// going forward or back, otherwise the file reached. Several pieces of a kind on
// one file are told apart by their place instead of the file (the rules of the
// Chinese Xiangqi Association and xqbase's computer standard):
//   two on a file            前 / 后 before the piece (前炮退二)
//   three pawns on a file    前 / 中 / 后
//   four or five on a file   一 二 三 四 五, counted from the front (二兵平四)
//   two doubled files        一 ... 五 over both, file by file from the mover's right,
//                            front to back on each file; the places are written in
//                            Chinese numerals for Black too (一卒平5)
//   advisors and elephants   never: their file and direction always name one piece.
// The reader also takes the older five-character form with the file kept
// (前兵九平八), the piece left out (前九平八), the place after the piece (车前平四),
// full-width or half-width digits for either side, traditional characters and
// the variants 俥 傌 砲 包 進 後 上 下.

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
  RED,
  ROOK,
  moveFrom,
  moveTo,
  type Move,
} from '../core/types.js';
import { isDiagonalMover, type Action, type MoveQuery, type Place } from './query.js';
import { fileNumber, forward, standing } from './standing.js';

/** Options of the Chinese notation. */
export interface ChineseStyle {
  /** Traditional characters (車 馬 帥 將 進 後). */
  readonly traditional?: boolean;
  /** Black's digits full-width (１..９) instead of half-width (1..9). */
  readonly fullWidth?: boolean;
}

// Piece names by type (ROOK..KING = 1..7): red, then black.
const SIMPLIFIED_NAMES = ['', '车仕炮兵马相帅', '车士炮卒马象将'];
const TRADITIONAL_NAMES = ['', '車仕炮兵馬相帥', '車士炮卒馬象將'];
const RED_NUMERALS = '一二三四五六七八九';

function pieceName(type: number, color: number, traditional: boolean): string {
  return (traditional ? TRADITIONAL_NAMES : SIMPLIFIED_NAMES)[1 + color][type - 1];
}

/** The side's way of writing the number n (1..9). */
function numeral(n: number, color: number, fullWidth: boolean): string {
  if (color === RED) return RED_NUMERALS[n - 1];
  return String.fromCharCode((fullWidth ? 0xff10 : 0x30) + n);
}

/**
 * The Chinese text of `m`, a legal move of `pos` (the caller checks legality).
 */
export function chineseText(pos: Position, m: Move, style: ChineseStyle = {}): string {
  const trad = style.traditional === true;
  const full = style.fullWidth === true;
  const from = moveFrom(m);
  const to = moveTo(m);
  const st = standing(pos.board, from);
  const { type, color } = st;
  const name = pieceName(type, color, trad);
  const num = (n: number) => numeral(n, color, full);
  let head: string;
  if (st.onFile < 2 || type === ADVISOR || type === BISHOP) head = name + num(st.file);
  else if (type === PAWN && (st.doubledFiles >= 2 || st.onFile >= 4)) head = RED_NUMERALS[st.ordinal - 1] + name;
  else {
    const places = st.onFile === 3 ? '前中' + (trad ? '後' : '后') : '前' + (trad ? '後' : '后');
    head = places[st.index] + name;
  }
  const dr = (RANK_OF[to] - RANK_OF[from]) * forward(color);
  if (dr === 0) return head + '平' + num(fileNumber(color, FILE_OF[to]));
  const act = dr > 0 ? (trad ? '進' : '进') : '退';
  return head + act + num(isDiagonalMover(type) ? fileNumber(color, FILE_OF[to]) : Math.abs(dr));
}

const PIECES: Readonly<Record<string, number>> = {
  车: ROOK,
  車: ROOK,
  俥: ROOK,
  伡: ROOK,
  马: KNIGHT,
  馬: KNIGHT,
  傌: KNIGHT,
  相: BISHOP,
  象: BISHOP,
  仕: ADVISOR,
  士: ADVISOR,
  帅: KING,
  帥: KING,
  将: KING,
  將: KING,
  炮: CANNON,
  砲: CANNON,
  包: CANNON,
  兵: PAWN,
  卒: PAWN,
};
const PLACES: Readonly<Record<string, Place>> = { 前: 'front', 中: 'middle', 后: 'rear', 後: 'rear' };
const ACTIONS: Readonly<Record<string, Action>> = { 进: '+', 進: '+', 上: '+', 退: '-', 下: '-', 平: '=' };

/** 1..9 for 一..九 or a digit (half- or full-width), 0 otherwise. */
function numberOf(ch: string): number {
  const r = RED_NUMERALS.indexOf(ch);
  if (r >= 0) return r + 1;
  const c = ch.charCodeAt(0);
  if (c >= 0x31 && c <= 0x39) return c - 0x30;
  if (c >= 0xff11 && c <= 0xff19) return c - 0xff10;
  return 0;
}

/** A place: 前 中 后 or an ordinal 1..5 (一..五 or a digit); null otherwise. */
function placeOf(ch: string): Place | null {
  const p = PLACES[ch];
  if (p !== undefined) return p;
  const n = numberOf(ch);
  return n >= 1 && n <= 5 ? n : null;
}

/** True when `text` holds a character only the Chinese notation uses. */
export function looksChinese(text: string): boolean {
  return /[\u3400-\u9fff]/.test(text);
}

/** Reads a Chinese move text into what it describes (which legal move it is, query.ts decides). */
export function readChinese(text: string): Result<MoveQuery, 'notation-syntax'> {
  const c = [...text.replace(/\s+/g, '')];
  const fail = (why: string) =>
    err('notation-syntax', `'${text}' is not a move in Chinese notation (${why}; like 炮二平五 or 马8进7)`);
  if (c.length !== 4 && c.length !== 5) return fail(`${c.length} characters, expected 4 or 5`);
  const action = ACTIONS[c[c.length - 2]];
  if (action === undefined) return fail(`'${c[c.length - 2]}' is not 进, 退 or 平`);
  const n = numberOf(c[c.length - 1]);
  if (n === 0) return fail(`'${c[c.length - 1]}' is not a number 1..9`);
  const query = (types: number[], file: number, place: Place | null) =>
    ok({ text, types, file, place, wxfFile: false, action, n });
  const piece0 = PIECES[c[0]];
  const piece1 = PIECES[c[1]];
  if (c.length === 4) {
    if (piece0 !== undefined) {
      const file = numberOf(c[1]);
      if (file !== 0) return query([piece0], file, null); // 炮二平五
      const place = PLACES[c[1]];
      if (place !== undefined) return query([piece0], 0, place); // 车前平四
      return fail(`'${c[1]}' is neither a file nor 前, 中 or 后`);
    }
    const place = placeOf(c[0]);
    if (place === null) return fail(`'${c[0]}' is not a piece, 前, 中, 后 or 一..五`);
    if (piece1 !== undefined) return query([piece1], 0, place); // 前炮退二, 一兵平五
    const file = numberOf(c[1]);
    if (file !== 0) return query([PAWN], file, place); // 前九平八
    return fail(`'${c[1]}' is neither a piece nor a file`);
  }
  const place = placeOf(c[0]);
  const file = numberOf(c[2]);
  if (place === null || piece1 === undefined || file === 0)
    return fail('five characters are a place, a piece and its file, like 前兵九平八');
  return query([piece1], file, place); // 前兵九平八
}
