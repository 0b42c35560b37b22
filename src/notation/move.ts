// Moves in the players' notations, both ways: Chinese (炮二平五), WXF (C2=5),
// ICCS (H2-E2) and UCI (h2e2). Reading detects the notation; writing takes it
// as an option. docs/NOTATION.md describes the notations and their rules.
//
//   const pos = new Position();
//   const m = parseMove(pos, '炮二平五');           // ok(h2e2)
//   formatMove(pos, m.value, { notation: 'wxf' }); // ok('C2=5')

import type { Position } from '../core/position.js';
import { err, ok, type Result } from '../core/result.js';
import { makeMove, moveFrom, moveTo, moveToUci, parseSquare, squareName, type Move } from '../core/types.js';
import { chineseText, looksChinese, readChinese } from './chinese.js';
import { findMove, type NotationErrorCode } from './query.js';
import { halfWidth, readWxf, wxfText } from './wxf.js';

export type { NotationErrorCode } from './query.js';

/** The move notations: Chinese (炮二平五), WXF (C2=5), ICCS (H2-E2), UCI (h2e2). */
export type Notation = 'chinese' | 'wxf' | 'iccs' | 'uci';

/** The notations Kirin reads and writes. */
export const NOTATIONS: readonly Notation[] = Object.freeze(['chinese', 'wxf', 'iccs', 'uci'] as const);

/** How `formatMove` writes a move. */
export interface MoveStyle {
  /** The notation (default 'chinese'). */
  readonly notation?: Notation;
  /** Chinese: traditional characters (車 馬 帥 將 進 後) instead of simplified. */
  readonly traditional?: boolean;
  /** Chinese: Black's digits full-width (马８进７) instead of half-width (马8进7). */
  readonly fullWidth?: boolean;
}

/** How `parseMove` reads a move. */
export interface MoveReading {
  /** Read only this notation (default: detect it from the text). */
  readonly notation?: Notation;
}

const COORDINATES = /^([a-i])([0-9])(-?)([a-i])([0-9])$/i;

/**
 * The notation a move text is written in, or null when it is none of them.
 * Chinese characters make it Chinese; square-to-square coordinates make it ICCS
 * with a dash (H2-E2) and UCI without (h2e2), in either case; anything else is
 * read as WXF.
 */
export function detectNotation(text: string): Notation | null {
  const t = halfWidth(text).trim();
  if (t === '') return null;
  if (looksChinese(t)) return 'chinese';
  const c = COORDINATES.exec(t);
  if (c) return c[3] === '-' ? 'iccs' : 'uci';
  return /^[A-Za-z+\-1-9]{2}[+\-=.]?[1-9]$/.test(t) ? 'wxf' : null;
}

function readCoordinates(pos: Position, text: string, notation: 'iccs' | 'uci'): Result<Move, NotationErrorCode> {
  const c = COORDINATES.exec(halfWidth(text).trim());
  if (!c)
    return err(
      'notation-syntax',
      notation === 'iccs'
        ? `'${text}' is not a move in ICCS notation (like H2-E2: files A-I, ranks 0-9)`
        : `'${text}' is not a move in UCI notation (like h2e2: files a-i, ranks 0-9)`,
    );
  const from = parseSquare(c[1].toLowerCase() + c[2]);
  const to = parseSquare(c[4].toLowerCase() + c[5]);
  const m = makeMove(from, to);
  if (from !== to && pos.pseudoLegal(m) && pos.legal(m)) return ok(m);
  return err(
    'notation-no-move',
    `'${text}' is not a legal move of ${pos.sideToMove === 0 ? 'Red' : 'Black'} in ${pos.fen()}`,
  );
}

/**
 * The legal move of `pos` that `text` names, in any notation (detected, unless
 * `reading.notation` fixes it). Annotation marks after the move (!, ?, !?) are
 * ignored. Errors: 'notation-syntax' (the text is no move in the notation),
 * 'notation-no-move' (no legal move matches), 'notation-ambiguous' (more than
 * one does: the text lacks a 前/后 or + / - it needs).
 */
export function parseMove(pos: Position, text: string, reading: MoveReading = {}): Result<Move, NotationErrorCode> {
  const t = text.trim().replace(/[!?！？]+$/, '');
  const notation = reading.notation ?? detectNotation(t);
  switch (notation) {
    case 'chinese': {
      const q = readChinese(t);
      return q.ok ? findMove(pos, q.value) : q;
    }
    case 'wxf': {
      const q = readWxf(t);
      return q.ok ? findMove(pos, q.value) : q;
    }
    case 'iccs':
    case 'uci':
      return readCoordinates(pos, t, notation);
    default:
      return err(
        'notation-syntax',
        `'${text}' is not a move in any notation Kirin reads (Chinese 炮二平五, WXF C2=5, ICCS H2-E2, UCI h2e2)`,
      );
  }
}

/** Why a move could not be written. */
export type FormatErrorCode = 'move-illegal' | 'notation-unknown';

/**
 * `m` in the notation of `style` (Chinese by default), or 'move-illegal' when
 * it is not a legal move of `pos` ('notation-unknown' for a notation not in `Notation`).
 */
export function formatMove(pos: Position, m: Move, style: MoveStyle = {}): Result<string, FormatErrorCode> {
  if (!(pos.pseudoLegal(m) && pos.legal(m)))
    return err('move-illegal', `${moveToUci(m)} is not a legal move in ${pos.fen()}`);
  switch (style.notation ?? 'chinese') {
    case 'chinese':
      return ok(chineseText(pos, m, style));
    case 'wxf':
      return ok(wxfText(pos, m));
    case 'iccs':
      return ok(`${squareName(moveFrom(m))}-${squareName(moveTo(m))}`.toUpperCase());
    case 'uci':
      return ok(moveToUci(m));
    default:
      return err('notation-unknown', `unknown notation '${String(style.notation)}' (chinese, wxf, iccs or uci)`);
  }
}

/**
 * The moves of a line played from `pos` (a principal variation, a game), each
 * in the notation of `style`; `pos` is left as it was. Stops at the first move
 * that is not legal where it is played, naming it.
 */
export function formatLine(
  pos: Position,
  moves: readonly Move[],
  style: MoveStyle = {},
): Result<string[], FormatErrorCode> {
  const p = pos.clone();
  p.reserve(moves.length + 1);
  const out: string[] = [];
  for (let i = 0; i < moves.length; i++) {
    const t = formatMove(p, moves[i], style);
    if (!t.ok) return err(t.error.code, `move ${i + 1} of the line: ${t.error.message}`);
    out.push(t.value);
    p.doMove(moves[i]);
  }
  return ok(out);
}
