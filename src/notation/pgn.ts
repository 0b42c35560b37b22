// PGN game files for xiangqi, both ways (docs/NOTATION.md). Reading takes the
// dialects Chinese programs and game collections write: [Game "Chinese Chess"],
// [FEN] (side 'w', 'r' or 'b', or none), [Format "Chinese" | "WXF" | "ICCS"]
// (moves are detected one by one, so the tag is not needed and a wrong one does
// no harm), moves in any notation (parseMove), a black first move as `1. ...`,
// `1...` or `1. …………`, moves run together without a space (炮二平五马８进７,
// Ｃ２＝５Ｈ８＋７), comments {..} and ; .., variations (..), NAGs $n and !, ?, !!,
// ??, !?, ?!, results 1-0 0-1 1/2-1/2 * (and 红胜 黑胜 和棋 in the Result tag),
// text after a game's result (ignored up to the next tag), UTF-8, UTF-16, GBK or
// Big5 (text.ts: the decoding whose games read best is kept). A game whose main
// line cannot be read gives an error naming the game and the move; the other
// games of the file are still read. A variation with a move that cannot be read
// is dropped with a warning (Game.warnings) and the rest of the game is kept.

import { START_FEN } from '../core/fen.js';
import { Position } from '../core/position.js';
import { err, ok, type Result } from '../core/result.js';
import { RED, moveToUci } from '../core/types.js';
import { classifyOpening } from '../opening/ecco.js';
import {
  mainLine,
  moveName,
  readResult,
  type Game,
  type GameErrorCode,
  type GameResult,
  type MoveNode,
  type MoveTree,
} from './game.js';
import { formatMove, parseMove, type FormatErrorCode, type MoveStyle } from './move.js';
import { decodeText, oddCharacters, textCandidates, type TextEncoding } from './text.js';
import { halfWidth } from './wxf.js';

// ---- Reading ------------------------------------------------------------------------

type Token =
  | { kind: 'tag'; name: string; value: string }
  | { kind: 'bad-tag'; text: string }
  | { kind: 'comment'; text: string }
  | { kind: 'open' }
  | { kind: 'close' }
  | { kind: 'nag'; value: number }
  | { kind: 'result'; value: GameResult }
  | { kind: 'move'; text: string };

const SUFFIX_NAGS: Readonly<Record<string, number>> = { '!': 1, '?': 2, '!!': 3, '??': 4, '!?': 5, '?!': 6 };
const RESULTS: Readonly<Record<string, GameResult>> = {
  '1-0': '1-0',
  '0-1': '0-1',
  '1/2-1/2': '1/2-1/2',
  '½-½': '1/2-1/2',
  '*': '*',
};
const TAG = /\[\s*([^\s\]"]+)\s*"((?:[^"\\\n]|\\.)*)"\s*\]/y;

/** A word of movetext: a move, possibly with a move number before it and annotation marks after it. */
function wordTokens(word: string, out: Token[]): void {
  let w = word;
  const result = RESULTS[w];
  if (result !== undefined) {
    out.push({ kind: 'result', value: result });
    return;
  }
  if (/^[.…]+$/.test(w)) return; // the "..." before a black move
  const numbered = /^\d+\.+(.*)$/.exec(w);
  if (numbered) {
    // "12." alone, or "12.炮二平五" run together; "33.4" (WXF, a pawn on a doubled file) is a move.
    if (numbered[1] === '' || /^[.…]+$/.test(numbered[1])) return;
    if ([...numbered[1]].length >= 2) w = numbered[1];
  }
  const marks = /[!?]+$/.exec(w);
  if (marks && marks.index > 0) {
    out.push({ kind: 'move', text: w.slice(0, marks.index) });
    const nag = SUFFIX_NAGS[marks[0]];
    if (nag !== undefined) out.push({ kind: 'nag', value: nag });
    return;
  }
  const nag = SUFFIX_NAGS[w];
  if (nag !== undefined) out.push({ kind: 'nag', value: nag });
  else out.push({ kind: 'move', text: w });
}

/** The tokens of a PGN text (tags, comments, parentheses, NAGs, results, moves). */
function tokenize(text: string): Token[] {
  const out: Token[] = [];
  const n = text.length;
  let i = 0;
  while (i < n) {
    const ch = text[i];
    if (/\s/.test(ch)) {
      i++;
      continue;
    }
    if (ch === '%' && (i === 0 || text[i - 1] === '\n')) {
      const end = text.indexOf('\n', i);
      i = end < 0 ? n : end;
      continue;
    }
    if (ch === '{') {
      const end = text.indexOf('}', i + 1);
      out.push({ kind: 'comment', text: text.slice(i + 1, end < 0 ? n : end).trim() });
      i = end < 0 ? n : end + 1;
      continue;
    }
    if (ch === ';') {
      const end = text.indexOf('\n', i);
      out.push({ kind: 'comment', text: text.slice(i + 1, end < 0 ? n : end).trim() });
      i = end < 0 ? n : end;
      continue;
    }
    if (ch === '[') {
      TAG.lastIndex = i;
      const m = TAG.exec(text);
      if (m) {
        out.push({ kind: 'tag', name: m[1], value: m[2].replace(/\\(.)/g, '$1') });
        i = TAG.lastIndex;
        continue;
      }
      // A value with bare quotes inside ([Event "第"五"届"]): the line up to its last `"]`.
      const end = text.indexOf('\n', i);
      const line = text.slice(i, end < 0 ? n : end).trimEnd();
      const loose = /^\[\s*([^\s\]"]+)\s*"(.*)"\s*\]$/.exec(line);
      out.push(loose ? { kind: 'tag', name: loose[1], value: loose[2] } : { kind: 'bad-tag', text: line });
      i = end < 0 ? n : end;
      continue;
    }
    if (ch === '(' || ch === ')') {
      out.push({ kind: ch === '(' ? 'open' : 'close' });
      i++;
      continue;
    }
    if (ch === '$') {
      const m = /^\$(\d+)/.exec(text.slice(i, i + 6));
      if (m) {
        out.push({ kind: 'nag', value: Number(m[1]) });
        i += m[0].length;
        continue;
      }
    }
    let j = i;
    while (j < n && !/[\s{}()[\];]/.test(text[j])) j++;
    if (j === i) j++;
    wordTokens(halfWidth(text.slice(i, j)).replace(/[！]/g, '!').replace(/[？]/g, '?'), out);
    i = j;
  }
  return out;
}

/** The tokens of each game: a game starts at its tags, and ends at the next game's tags. */
function splitGames(tokens: Token[]): Token[][] {
  const games: Token[][] = [];
  let current: Token[] = [];
  let inMoves = false;
  for (const t of tokens) {
    if ((t.kind === 'tag' || t.kind === 'bad-tag') && inMoves) {
      games.push(current);
      current = [];
      inMoves = false;
    }
    if (t.kind !== 'tag' && t.kind !== 'bad-tag') inMoves = true;
    current.push(t);
  }
  if (current.length > 0) games.push(current);
  return games;
}

function tagValue(headers: Record<string, string>, name: string): string | undefined {
  for (const k of Object.keys(headers)) if (k.toLowerCase() === name.toLowerCase()) return headers[k];
  return undefined;
}

/** "game 3 (许银川 vs 聂卫平, 全国赛)" */
function gameName(index: number, headers: Record<string, string>): string {
  const red = tagValue(headers, 'Red');
  const black = tagValue(headers, 'Black');
  const event = tagValue(headers, 'Event');
  const parts: string[] = [];
  if (red || black) parts.push(`${red || '?'} vs ${black || '?'}`);
  if (event) parts.push(event);
  return `game ${index}${parts.length > 0 ? ` (${parts.join(', ')})` : ''}`;
}

interface Frame {
  /** Where the next move goes. */
  tree: MoveTree;
  /** The position before the next move. */
  pos: Position;
  /** The last move played in this line and where it hangs (for comments, NAGs, variations). */
  last: MoveNode | null;
  lastTree: MoveTree | null;
  /** A comment waiting for the line's first move. */
  before: string;
  /** A variation's first move (null until played, and for the main line), for dropping it. */
  first: MoveNode | null;
  /** Where a variation begins ("move 12 (Black)") and its first move's text, for the warning. */
  label: string;
  firstText: string;
}

function joinComment(a: string, b: string): string {
  return a === '' ? b : b === '' ? a : `${a}\n${b}`;
}

/**
 * The game of one game's tokens, from the start position `start`.
 * `failure.atFirstMove` tells whether it failed on the main line's first move.
 * A variation with a move that cannot be read is dropped whole (with the
 * variations inside it), and a warning naming it and the move is kept in the
 * game's `warnings`.
 */
function buildGame(
  tokens: Token[],
  headers: Record<string, string>,
  start: Position,
  where: string,
  failure: { atFirstMove: boolean },
): Result<Game, GameErrorCode> {
  const game: Game = { headers, fen: start.fen(), result: '*', comment: '', children: [] };
  const main: Frame = {
    tree: game,
    pos: start,
    last: null,
    lastTree: null,
    before: '',
    first: null,
    label: '',
    firstText: '',
  };
  const stack: Frame[] = [main];
  const warnings: string[] = [];
  let result: GameResult | null = null;
  let anyMove = false;
  /** While > 0, the tokens of a dropped variation are skipped: the depth of parentheses still open in it. */
  let skipping = 0;
  const play = (frame: Frame, text: string): Result<true, GameErrorCode> => {
    const m = parseMove(frame.pos, text);
    if (!m.ok) {
      // Moves run together (炮二平五马８进７): four characters each.
      const chars = [...text];
      if (m.error.code === 'notation-syntax' && chars.length >= 8 && chars.length % 4 === 0) {
        for (let k = 0; k < chars.length; k += 4) {
          const r = play(frame, chars.slice(k, k + 4).join(''));
          if (!r.ok) return r;
        }
        return ok(true);
      }
      return err('game-move', `${moveName(frame.pos)}: ${m.error.message}`);
    }
    const node: MoveNode = { move: m.value, commentBefore: frame.before, comment: '', nags: [], children: [] };
    frame.before = '';
    frame.tree.children.push(node);
    if (frame.first === null && frame !== main) frame.first = node;
    frame.lastTree = frame.tree;
    frame.last = node;
    frame.tree = node;
    frame.pos.doMove(m.value);
    anyMove = true;
    return ok(true);
  };
  for (const t of tokens) {
    if (skipping > 0) {
      if (t.kind === 'open') skipping++;
      else if (t.kind === 'close') skipping--;
      else if (t.kind === 'bad-tag')
        return err('game-syntax', `${where}: unreadable tag line '${t.text}' (expected [Name "value"])`);
      continue;
    }
    const frame = stack[stack.length - 1];
    switch (t.kind) {
      case 'tag':
        break;
      case 'bad-tag':
        return err('game-syntax', `${where}: unreadable tag line '${t.text}' (expected [Name "value"])`);
      case 'move': {
        if (frame !== main && frame.firstText === '') frame.firstText = t.text;
        const r = play(frame, t.text);
        if (!r.ok) {
          if (frame === main) {
            failure.atFirstMove = !anyMove;
            return err(r.error.code, `${where}: ${r.error.message}`);
          }
          // Drop the variation: its first move leaves the tree, the rest of its tokens are skipped.
          stack.pop();
          const parent = stack[stack.length - 1];
          if (frame.first !== null && parent.lastTree !== null) {
            const siblings = parent.lastTree.children;
            siblings.splice(siblings.indexOf(frame.first), 1);
          }
          warnings.push(
            `${where}: dropped the variation at ${frame.label} (${frame.firstText} ...): ${r.error.message}`,
          );
          skipping = 1;
        }
        break;
      }
      case 'comment':
        if (frame.last !== null) frame.last.comment = joinComment(frame.last.comment, t.text);
        else if (frame === main) game.comment = joinComment(game.comment, t.text);
        else frame.before = joinComment(frame.before, t.text);
        break;
      case 'nag':
        if (frame.last !== null) frame.last.nags.push(t.value);
        break;
      case 'open': {
        if (frame.last === null || frame.lastTree === null)
          return err('game-syntax', `${where}: a variation '(' with no move before it to be an alternative to`);
        const pos = frame.pos.clone();
        pos.undoMove(frame.last.move);
        stack.push({
          tree: frame.lastTree,
          pos,
          last: null,
          lastTree: null,
          before: '',
          first: null,
          label: moveName(pos),
          firstText: '',
        });
        break;
      }
      case 'close':
        if (stack.length === 1) return err('game-syntax', `${where}: ')' without a variation to close`);
        stack.pop();
        break;
      case 'result':
        if (stack.length === 1) result = t.value;
        break;
    }
    if (result !== null) break;
  }
  if (stack.length > 1 || skipping > 0) return err('game-syntax', `${where}: a variation '(' is never closed`);
  game.result = result ?? readResult(tagValue(headers, 'Result') ?? '') ?? '*';
  if (warnings.length > 0) game.warnings = warnings;
  return ok(game);
}

/** Reads one game's tokens. */
function readGame(tokens: Token[], index: number): Result<Game, GameErrorCode> {
  const headers: Record<string, string> = {};
  let i = 0;
  for (; i < tokens.length; i++) {
    const t = tokens[i];
    if (t.kind !== 'tag') break;
    headers[t.name] = t.value;
  }
  const where = gameName(index, headers);
  const fenTag = tagValue(headers, 'FEN');
  const fen = fenTag === undefined || fenTag.trim() === '' ? START_FEN : fenTag.trim();
  const start = Position.fromFen(fen);
  if (!start.ok) return err('game-fen', `${where}: the FEN tag: ${start.error.message}`);
  const moves = tokens.slice(i);
  const failure = { atFirstMove: false };
  const first = buildGame(moves, headers, start.value, where, failure);
  // A FEN without the side to move whose first move is Black's.
  if (!first.ok && failure.atFirstMove && fen.split(/\s+/).length < 2) {
    const black = Position.fromFen(`${fen} b`);
    if (black.ok) {
      const second = buildGame(moves, headers, black.value, where, failure);
      if (second.ok) return second;
    }
  }
  return first;
}

/** How a game file is read. */
export interface ReadOptions {
  /** The text's encoding; by default the decoding whose games read best (textCandidates). */
  readonly encoding?: TextEncoding;
}

/** The games of a file and the encoding its text was read in (null for text given as a string, and for XQF). */
export interface GamesRead {
  readonly games: Result<Game, GameErrorCode>[];
  readonly encoding: TextEncoding | null;
}

function readText(text: string): Result<Game, GameErrorCode>[] {
  const tokens = tokenize(text.replace(/^\ufeff/, ''));
  return splitGames(tokens).map((g, k) => readGame(g, k + 1));
}

/** How well a decoding read: games read, then moves in them, then the fewest odd characters (text.ts). */
function readingScore(games: Result<Game, GameErrorCode>[], text: string): [number, number, number] {
  let read = 0;
  let moves = 0;
  const count = (t: MoveTree): void => {
    for (const c of t.children) {
      moves++;
      count(c);
    }
  };
  for (const g of games)
    if (g.ok) {
      read++;
      count(g.value);
    }
  return [read, moves, -oddCharacters(text)];
}

function better(a: readonly number[], b: readonly number[]): boolean {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i] > b[i];
  return false;
}

/**
 * The games of a PGN text or file, with the encoding its bytes were read in.
 * Bytes are read in `options.encoding`, else in each encoding they may be in
 * (textCandidates: a byte-order mark, UTF-16's NUL pattern, valid UTF-8, else
 * GB18030 and Big5) and the decoding that reads the most games wins (then the
 * most moves, then the fewest characters unlikely in a game file); a decoding
 * that reads every game without an odd character is taken at once.
 */
export function readPgn(input: string | Uint8Array, options: ReadOptions = {}): GamesRead {
  if (typeof input === 'string') return { games: readText(input), encoding: null };
  const candidates = options.encoding !== undefined ? [options.encoding] : textCandidates(input);
  let best: GamesRead | null = null;
  let bestScore: [number, number, number] = [-1, -1, -Infinity];
  for (const encoding of candidates) {
    const { text } = decodeText(input, encoding);
    const games = readText(text);
    const score = readingScore(games, text);
    if (best === null || better(score, bestScore)) {
      best = { games, encoding };
      bestScore = score;
    }
    if (score[0] === games.length && games.length > 0 && score[2] === 0) break;
  }
  return best!;
}

/**
 * The games of a PGN file: one Result per game, in file order, so that a game
 * whose main line cannot be read (its error names the game and the move) does
 * not stop the others. Bytes are decoded as `readPgn` says.
 */
export function parseGames(input: string | Uint8Array, options: ReadOptions = {}): Result<Game, GameErrorCode>[] {
  return readPgn(input, options).games;
}

// ---- Writing -------------------------------------------------------------------------

/** How `writePgn` writes a game. */
export interface PgnStyle extends MoveStyle {
  /** The longest movetext line, in columns (a Chinese character counts two); default 80. */
  readonly lineWidth?: number;
}

const FORMAT_TAG: Readonly<Record<string, string>> = { chinese: 'Chinese', wxf: 'WXF', iccs: 'ICCS', uci: 'ICCS' };

function escapeTag(v: string): string {
  return v.replace(/\\/g, '\\\\').replace(/"/g, '\\"');
}

function columns(s: string): number {
  let w = 0;
  for (const ch of s)
    w += /[\u1100-\u115f\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6]/.test(ch)
      ? 2
      : 1;
  return w;
}

function commentToken(c: string): string {
  return `{${c.replace(/}/g, ')')}}`;
}

/**
 * The game as PGN text in the notation of `style` (Chinese by default): the
 * Game tag first, the game's tags in their order with Result, FEN (when the
 * start is not the standard one) and Format set from the game, then the moves
 * with their comments, NAGs and variations, and the result. UCI moves are
 * marked [Format "ICCS"] (ICCS without the dash, as several readers take it).
 * Errors: a move that is not legal where it stands (named), an unknown notation.
 */
export function writePgn(game: Game, style: PgnStyle = {}): Result<string, FormatErrorCode> {
  const start = Position.fromFen(game.fen);
  if (!start.ok) return err('move-illegal', `the game's start position: ${start.error.message}`);
  const notation = style.notation ?? 'chinese';
  const format = FORMAT_TAG[notation];
  if (format === undefined)
    return err('notation-unknown', `unknown notation '${notation}' (chinese, wxf, iccs or uci)`);
  const tags: [string, string][] = [['Game', tagValue(game.headers, 'Game') ?? 'Chinese Chess']];
  const isStart = start.value.fen() === new Position().fen();
  const set: Record<string, string | null> = {
    Result: game.result,
    FEN: isStart ? null : start.value.fen(),
    Format: format,
  };
  // The opening's ECCO code and names (a game from the start), where the game's own tags are missing or empty.
  const opening = isStart ? classifyOpening(mainLine(game).map(moveToUci)) : null;
  const named: Record<string, string> = opening?.ok
    ? { ECCO: opening.value.code, Opening: opening.value.name, Variation: opening.value.variation }
    : {};
  for (const [k, v] of Object.entries(named)) if (tagValue(game.headers, k) === undefined && v !== '') set[k] = v;
  for (const [k, v] of Object.entries(game.headers)) {
    const canon = ['Game', 'Result', 'FEN', 'Format'].find((c) => c.toLowerCase() === k.toLowerCase());
    if (canon === 'Game') continue;
    const ecco = Object.keys(named).find((c) => c.toLowerCase() === k.toLowerCase());
    if (ecco !== undefined && v.trim() === '') {
      if (named[ecco] !== '') tags.push([ecco, named[ecco]]);
      continue;
    }
    if (canon !== undefined) {
      const value = set[canon];
      if (value !== null) tags.push([canon, value]);
      delete set[canon];
      continue;
    }
    tags.push([k, v]);
  }
  for (const [k, v] of Object.entries(set)) if (v !== null) tags.push([k, v]);

  const words: string[] = [];
  if (game.comment !== '') words.push(commentToken(game.comment));
  const written = writeMoves(game, start.value, true, style, words);
  if (!written.ok) return written;
  words.push(game.result);

  const width = style.lineWidth ?? 80;
  const lines: string[] = [];
  let line = '';
  for (const w of words) {
    if (line !== '' && columns(line) + 1 + columns(w) > width) {
      lines.push(line);
      line = w;
    } else line = line === '' ? w : `${line} ${w}`;
  }
  if (line !== '') lines.push(line);
  return ok(`${tags.map(([k, v]) => `[${k} "${escapeTag(v)}"]`).join('\n')}\n\n${lines.join('\n')}\n`);
}

/** Writes one move: its comment before, number, text, NAGs and comment after. */
function moveWords(
  pos: Position,
  node: MoveNode,
  number: boolean,
  style: MoveStyle,
  words: string[],
): Result<true, FormatErrorCode> {
  if (node.commentBefore !== '') words.push(commentToken(node.commentBefore));
  const text = formatMove(pos, node.move, style);
  if (!text.ok) return err(text.error.code, `${moveName(pos)}: ${text.error.message}`);
  const n = 1 + (pos.plies >> 1);
  if (pos.sideToMove === RED) words.push(`${n}.`);
  else if (number || node.commentBefore !== '') words.push(`${n}...`);
  words.push(text.value);
  for (const g of node.nags) words.push(`$${g}`);
  if (node.comment !== '') words.push(commentToken(node.comment));
  return ok(true);
}

/** Writes the line from `tree` on (its main line with the alternatives at each move). */
function writeMoves(
  tree: MoveTree,
  pos: Position,
  number: boolean,
  style: MoveStyle,
  words: string[],
): Result<true, FormatErrorCode> {
  const p = pos.clone();
  let t = tree;
  let needNumber = number;
  while (t.children.length > 0) {
    const main = t.children[0];
    const w = moveWords(p, main, needNumber, style, words);
    if (!w.ok) return w;
    needNumber = main.comment !== '';
    for (let k = 1; k < t.children.length; k++) {
      const alt = t.children[k];
      const open = words.length;
      const aw = moveWords(p, alt, true, style, words);
      if (!aw.ok) return aw;
      const q = p.clone();
      q.doMove(alt.move);
      const rest = writeMoves(alt, q, alt.comment !== '', style, words);
      if (!rest.ok) return rest;
      words[open] = `(${words[open]}`;
      words[words.length - 1] += ')';
      needNumber = true;
    }
    p.doMove(main.move);
    t = main;
  }
  return ok(true);
}
