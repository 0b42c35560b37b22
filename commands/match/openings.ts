// Opening sets for matches.
//
// A file holds one opening per line; blank lines and lines starting with '#'
// are skipped, and text after a '#' or ';' on a line is the opening's name.
// A line is either
//   - a list of moves from the start position, optionally preceded by
//     "startpos" and/or "moves":      h2e2 h9g7 h0g2 i9h9   # central cannon vs screen horses
//   - a FEN (Pikafish form, trailing fields optional), optionally followed by
//     moves, with or without the keyword "moves":
//       rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1 moves h2e2
// Every move is checked with the rules core; an opening whose final position is
// already decided (no legal move, repetition...) is rejected.
//
// Each opening is played twice, once with each engine as red (a game pair).

import { readFileSync } from 'node:fs';
import {
  DEFAULT_RULES,
  err,
  judge,
  ok,
  parseLegalMove,
  parseUciMove,
  Position,
  START_FEN,
  type Result,
  type RuleConfig,
} from '../../src/dev.js';
import { mulberry32 } from '../../src/core/prng.js';

export interface Opening {
  /** Starting FEN, or null for the standard start position. */
  fen: string | null;
  /** Moves (UCI, a0-i9) played from that position. */
  moves: string[];
  /** Name from the line's comment, or the move list. */
  name: string;
  /** 1-based line in the source file (0 when not from a file). */
  line: number;
}

const isMove = (token: string): boolean => parseUciMove(token).ok;

export type OpeningErrorCode = 'opening-syntax' | 'opening-fen' | 'opening-move' | 'opening-ends';

/** Applies UCI moves to `pos`; a bad move is named with its number and the position. */
export function applyMoves(pos: Position, moves: readonly string[]): Result<null, 'opening-move'> {
  for (let i = 0; i < moves.length; i++) {
    const text = moves[i];
    const m = parseLegalMove(pos, text);
    if (!m.ok) return err('opening-move', `move ${i + 1} "${text}" is not legal in ${pos.fen()}`);
    pos.doMove(m.value);
  }
  return ok(null);
}

/** The position an opening leads to (with its history), or why the opening does not play. */
export function openingPosition(o: Opening): Result<Position, 'opening-fen' | 'opening-move'> {
  const start = o.fen === null ? ok(new Position()) : Position.fromFen(o.fen);
  if (!start.ok) return err('opening-fen', `opening ${o.name}: ${start.error.message}`);
  const r = applyMoves(start.value, o.moves);
  if (!r.ok) return err('opening-move', `opening ${o.name}: ${r.error.message}`);
  return start;
}

/** Parses one line: an Opening, null for a blank or comment line, or the error (naming the line). */
export function parseOpeningLine(
  raw: string,
  lineNo = 0,
  rules: RuleConfig = DEFAULT_RULES,
): Result<Opening | null, OpeningErrorCode> {
  let text = raw;
  let name = '';
  const cut = text.search(/[#;]/);
  if (cut >= 0) {
    name = text.slice(cut + 1).trim();
    text = text.slice(0, cut);
  }
  const tokens = text
    .trim()
    .split(/\s+/)
    .filter((t) => t.length > 0);
  if (tokens.length === 0) return ok(null);
  let fen: string | null = null;
  let i = 0;
  if (tokens[0] === 'startpos') i = 1;
  else if (tokens[0] === 'fen') {
    i = 1;
  }
  if (i < tokens.length && tokens[i].includes('/')) {
    const fenTokens = [tokens[i++]];
    while (i < tokens.length && fenTokens.length < 6 && tokens[i] !== 'moves' && !isMove(tokens[i]))
      fenTokens.push(tokens[i++]);
    fen = fenTokens.join(' ');
  } else if (tokens[0] === 'fen') {
    return err('opening-fen', `line ${lineNo}: "fen" without a FEN`);
  }
  if (tokens[i] === 'moves') i++;
  const moves = tokens.slice(i).map((t) => t.toLowerCase());
  for (const m of moves) {
    if (!isMove(m))
      return err('opening-syntax', `line ${lineNo}: "${m}" is not a move (expected UCI squares a0-i9, e.g. h2e2)`);
  }
  const pos = new Position(null);
  const set = pos.setFen(fen ?? START_FEN);
  if (!set.ok) return err('opening-fen', `line ${lineNo}: ${set.error.message}`);
  const played = applyMoves(pos, moves);
  if (!played.ok) return err(played.error.code, `line ${lineNo}: ${played.error.message}`);
  const j = judge(pos, rules);
  if (j.result !== 'none')
    return err('opening-ends', `line ${lineNo}: the opening already ends the game (${j.result}, ${j.reason})`);
  return ok({
    fen,
    moves,
    name: name || (fen ? fen + (moves.length ? ' ' + moves.join(' ') : '') : moves.join(' ') || 'startpos'),
    line: lineNo,
  });
}

/** Parses the text of an opening file; the error lists every bad line. */
export function parseOpenings(text: string, rules: RuleConfig = DEFAULT_RULES): Result<Opening[], 'opening-file'> {
  const out: Opening[] = [];
  const errors: string[] = [];
  const lines = text.split(/\r?\n/);
  for (let n = 0; n < lines.length; n++) {
    const r = parseOpeningLine(lines[n], n + 1, rules);
    if (!r.ok) errors.push(r.error.message);
    else if (r.value !== null) out.push(r.value);
  }
  if (errors.length) return err('opening-file', `bad opening file:\n  ${errors.join('\n  ')}`);
  return ok(out);
}

/**
 * Reads and parses an opening file (parseOpenings); a file that cannot be read,
 * or one without a single opening (every line blank or a comment), is the error too.
 */
export function loadOpenings(path: string, rules: RuleConfig = DEFAULT_RULES): Result<Opening[], 'opening-file'> {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    return err('opening-file', `cannot read the opening file ${path}: ${(e as Error).message}`);
  }
  const r = parseOpenings(text, rules);
  if (!r.ok) return err('opening-file', `${path}: ${r.error.message}`);
  if (r.value.length === 0)
    return err('opening-file', `${path}: no openings in the file (every line is blank or a comment)`);
  return r;
}

export const START_OPENING: Opening = Object.freeze({ fen: null, moves: [], name: 'startpos', line: 0 }) as Opening;

export function shuffled<T>(items: readonly T[], seed: number): T[] {
  const a = items.slice();
  const r = mulberry32(seed);
  for (let i = a.length - 1; i > 0; i--) {
    const j = Math.floor(r() * (i + 1));
    [a[i], a[j]] = [a[j], a[i]];
  }
  return a;
}

export interface ScheduledGame {
  /** 0-based game number. */
  index: number;
  /** 0-based pair number (games 2k and 2k+1 share an opening). */
  pair: number;
  opening: Opening;
  /** Which engine (0 = first, 1 = second) plays red. */
  redEngine: 0 | 1;
}

/**
 * The game schedule: game 2k and 2k+1 use opening k (cycling through the set),
 * the first with engine 0 as red, the second with colors swapped.
 */
export function scheduleGames(openings: readonly Opening[], games: number): ScheduledGame[] {
  const set = openings.length ? openings : [START_OPENING];
  const out: ScheduledGame[] = [];
  for (let g = 0; g < games; g++) {
    const pair = g >> 1;
    out.push({ index: g, pair, opening: set[pair % set.length], redEngine: (g & 1) as 0 | 1 });
  }
  return out;
}
