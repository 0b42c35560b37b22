// XQF, the binary game files of XQStudio and the Chinese programs that took its
// format up (docs/NOTATION.md). Versions 10 and older are plain; 11 and later
// are encrypted with keys kept in the header, and from 12 on the piece list is
// also rotated. Read only.
//
// Layout: a 1024-byte header, then the move records, depth first.
//   0    "XQ"            signature
//   2    version         10 .. 18
//   3    KeyMask, ProductId (4), KeyOrA..KeyOrD, KeysSum, KeyXY, KeyXYf, KeyXYt
//   16   32 bytes        the pieces' squares (x * 10 + y, x the file from Red's
//                        left, y the rank from Red's side; > 89 = off the board),
//                        in the order R N B A K A B N R C C P P P P P, Red then Black
//   50   who moves first (0 Red, 1 Black); 51 result (0 unknown, 1 Red won,
//        2 Black won, 3 and 4 drawn)
//   80   title, 208 event, 272 date, 288 site, 304 Red, 320 Black, 336 time
//        control, 400 Red's time, 416 Black's time, 464 annotator, 480 author:
//        each a length byte and GBK (or Big5) text
//   1024 records: from (+0x18), to (+0x20), flags, a spare byte; a comment
//        length and GBK (or Big5) comment follow when flag 0x20 is set (version 11 on;
//        version 10 always has the length). Flag 0x80: the next record is this
//        move's continuation; 0x40: after that continuation the next record is
//        an alternative to this move (version 10: 0xF0 and 0x0F). The first
//        record is the start: its comment is the game's opening comment.
// Encryption (version 11 on): with k(b) = ((((b*b*3+9)*3+8)*2+1)*3+8), KeyXY =
// k(KeyXY)*KeyXY, KeyXYf = k(KeyXYf)*KeyXY, KeyXYt = k(KeyXYt)*KeyXYf (all mod
// 256) and KeyRMKSize = (KeysSum*256 + KeyXY) % 32000 + 767 (from the header's
// bytes): from version 12 the piece list is rotated by KeyXY + 1 places; each
// square is stored + KeyXY; from and to are stored + KeyXYf and + KeyXYt; every
// byte from offset 1024 on is stored + F32Keys[offset % 32], where F32Keys is
// "[(C) Copyright Mr. Dong Shiwei.]" with its byte i ANDed with
// ((KeysSum, KeyXY, KeyXYf, KeyXYt)[i % 4] & KeyMask) | (KeyOrA..KeyOrD)[i % 4];
// comment lengths are stored + KeyRMKSize.

import { formatBoard } from '../core/fen.js';
import { Position } from '../core/position.js';
import { err, ok, type Result } from '../core/result.js';
import {
  BLACK,
  PIECE_CHARS,
  RED,
  colorOf,
  makeMove,
  makeSquare,
  moveToUci,
  squareName,
  type Color,
} from '../core/types.js';
import { moveName, type Game, type GameErrorCode, type GameResult, type MoveNode, type MoveTree } from './game.js';
import { decodeLegacy, oddCharacters, type TextEncoding } from './text.js';

const HEADER_SIZE = 1024;
/** Piece letters (FEN) of the 32 entries of the piece list. */
const PIECE_ORDER = 'RNBAKABNRCCPPPPPrnbakabnrccppppp';
const RESULTS: readonly GameResult[] = ['*', '1-0', '0-1', '1/2-1/2', '1/2-1/2'];
/** The header's strings: offset, size (a length byte and the text), tag. */
const TEXT_FIELDS: readonly [number, number, string][] = [
  [80, 64, 'Title'],
  [208, 64, 'Event'],
  [272, 16, 'Date'],
  [288, 16, 'Site'],
  [304, 16, 'Red'],
  [320, 16, 'Black'],
  [336, 64, 'TimeControl'],
  [400, 16, 'RedTime'],
  [416, 16, 'BlackTime'],
  [464, 16, 'Annotator'],
  [480, 16, 'Author'],
];
const COPYRIGHT = '[(C) Copyright Mr. Dong Shiwei.]';

/** True when the bytes start like an XQF file ("XQ"). */
export function isXqf(bytes: Uint8Array): boolean {
  return bytes.length >= 2 && bytes[0] === 0x58 && bytes[1] === 0x51;
}

function key(b: number, c: number): number {
  return (((((b * b * 3 + 9) * 3 + 8) * 2 + 1) * 3 + 8) * c) & 0xff;
}

/** The bytes of a length-prefixed string of the header, in a field of `size` bytes. */
function headerBytes(bytes: Uint8Array, at: number, size: number): Uint8Array {
  const len = Math.min(bytes[at], size - 1);
  return bytes.subarray(at + 1, at + 1 + len);
}

/** A header string's text. */
function fieldText(raw: Uint8Array, encoding: TextEncoding): string {
  return decodeLegacy(raw, encoding).replace(/\0.*$/s, '').trim();
}

interface XqfRecord {
  from: number;
  to: number;
  next: boolean;
  variation: boolean;
  comment: Uint8Array;
}

/** A move record with the records after it: [0] its continuation, the others the continuation's alternatives. */
interface RecordNode extends XqfRecord {
  children: RecordNode[];
}

/** How an XQF file is read. */
export interface XqfOptions {
  /** The strings' encoding (titles, names, comments); by default GB18030, or Big5 when that reads them better. */
  readonly encoding?: TextEncoding;
}

/**
 * The game of an XQF file, or why it cannot be read: not an XQF file, a version
 * this reader does not know (above 18), a file cut short, or a main-line move
 * that is not legal where it stands (named by its number and the position). A
 * variation with a move that is not legal is dropped (with the variations
 * inside it) and named in the game's `warnings`; the rest is kept.
 */
export function parseXqf(
  bytes: Uint8Array,
  name = 'the XQF file',
  options: XqfOptions = {},
): Result<Game, GameErrorCode> {
  if (!isXqf(bytes) || bytes.length < HEADER_SIZE)
    return err('xqf-format', `${name} is not an XQF file (no "XQ" signature and 1024-byte header)`);
  const version = bytes[2];
  if (version > 18) return err('xqf-version', `${name} is XQF version ${version}; versions up to 18 are read`);
  const encrypted = version > 10;
  const [keyMask, , , , , orA, orB, orC, orD, keysSum, hXY, hXYf, hXYt] = bytes.subarray(3, 16);
  const keyXY = encrypted ? key(hXY, hXY) : 0;
  const keyXYf = encrypted ? key(hXYf, keyXY) : 0;
  const keyXYt = encrypted ? key(hXYt, keyXYf) : 0;
  const keyRemark = encrypted ? ((keysSum * 256 + hXY) % 32000) + 767 : 0;
  const f32 = new Uint8Array(32);
  const keyBytes = [(keysSum & keyMask) | orA, (hXY & keyMask) | orB, (hXYf & keyMask) | orC, (hXYt & keyMask) | orD];
  for (let i = 0; i < 32; i++) f32[i] = encrypted ? COPYRIGHT.charCodeAt(i) & keyBytes[i % 4] : 0;

  // The pieces.
  const squares = new Uint8Array(32);
  for (let i = 0; i < 32; i++) {
    const stored = bytes[16 + i];
    squares[version >= 12 ? (keyXY + i + 1) & 31 : i] = stored;
  }
  const board = new Uint8Array(90);
  for (let i = 0; i < 32; i++) {
    const s = square((squares[i] - keyXY) & 0xff);
    if (s < 0) continue;
    if (board[s] !== 0)
      return err('xqf-format', `${name}: two pieces on ${squareName(s)} in the start position (a damaged file)`);
    board[s] = PIECE_CHARS.indexOf(PIECE_ORDER[i]);
  }

  // The records (decrypted as they are read).
  let at = HEADER_SIZE;
  const byte = () => (bytes[at] - f32[at++ % 32]) & 0xff;
  const readRecord = (): Result<XqfRecord, GameErrorCode> => {
    if (at + 4 > bytes.length) return err('xqf-truncated', `${name} ends inside a move record (offset ${at})`);
    const from = (byte() - 0x18 - keyXYf) & 0xff;
    const to = (byte() - 0x20 - keyXYt) & 0xff;
    const flags = byte();
    byte();
    const next = encrypted ? (flags & 0x80) !== 0 : (flags & 0xf0) !== 0;
    const variation = encrypted ? (flags & 0x40) !== 0 : (flags & 0x0f) !== 0;
    let comment = new Uint8Array(0);
    if (!encrypted || (flags & 0x20) !== 0) {
      if (at + 4 > bytes.length) return err('xqf-truncated', `${name} ends inside a comment length (offset ${at})`);
      const len = (byte() | (byte() << 8) | (byte() << 16) | (byte() << 24)) - keyRemark;
      if (len < 0 || at + len > bytes.length)
        return err('xqf-truncated', `${name}: a comment of ${len} bytes at offset ${at} runs past the end`);
      comment = new Uint8Array(len);
      for (let i = 0; i < len; i++) comment[i] = byte();
    }
    return ok({ from, to, next, variation, comment });
  };

  const root = readRecord();
  if (!root.ok) return root;
  // Black moves first when the first move is a black piece's (else the header says).
  let side: Color = bytes[50] === 1 ? BLACK : RED;
  const firstAt = at;
  if (root.value.next && at + 4 <= bytes.length) {
    const s = square((((bytes[at] - f32[at % 32]) & 0xff) - 0x18 - keyXYf) & 0xff);
    if (s >= 0 && board[s]) side = colorOf(board[s]);
  }
  at = firstAt;
  const start = Position.fromFen(`${formatBoard(board)} ${side === RED ? 'w' : 'b'}`);
  if (!start.ok) return err('xqf-format', `${name}: the start position: ${start.error.message}`);

  // The tree of records, depth first: a record's continuation follows it, then its alternative.
  const readLine = (out: RecordNode[]): Result<true, GameErrorCode> => {
    for (;;) {
      const r = readRecord();
      if (!r.ok) return r;
      const node: RecordNode = { ...r.value, children: [] };
      out.push(node);
      if (node.next) {
        const rest = readLine(node.children);
        if (!rest.ok) return rest;
      }
      if (!node.variation) return ok(true);
    }
  };
  const records: RecordNode[] = [];
  if (root.value.next) {
    const read = readLine(records);
    if (!read.ok) return read;
  }

  // The strings: GB18030 unless Big5 reads them with fewer odd characters (or the encoding given).
  const fields = TEXT_FIELDS.map(([offset, size, tag]) => ({ tag, raw: headerBytes(bytes, offset, size) }));
  const comments: Uint8Array[] = [root.value.comment];
  const gather = (nodes: RecordNode[]): void => {
    for (const n of nodes) {
      comments.push(n.comment);
      gather(n.children);
    }
  };
  gather(records);
  let encoding = options.encoding ?? 'gb18030';
  if (options.encoding === undefined) {
    const odd = (e: TextEncoding): number =>
      [...fields.map((f) => f.raw), ...comments].reduce((sum, b) => sum + oddCharacters(decodeLegacy(b, e)), 0);
    if (odd('big5') < odd('gb18030')) encoding = 'big5';
  }
  const commentText = (raw: Uint8Array): string => decodeLegacy(raw, encoding).replace(/\0+$/, '').trim();
  const headers: Record<string, string> = {};
  for (const f of fields) {
    const v = fieldText(f.raw, encoding);
    if (v !== '') headers[f.tag] = v;
  }
  const result = RESULTS[bytes[51]] ?? '*';
  headers.Result = result;
  const game: Game = {
    headers,
    fen: start.value.fen(),
    result,
    comment: commentText(root.value.comment),
    children: [],
  };

  // The moves, played: an illegal move on the main line refuses the game, one in a variation drops it.
  const warnings: string[] = [];
  type Played = Result<true, GameErrorCode>;
  /** Plays `nodes` (a move and its alternatives) into `tree`; the error of an illegal move on or under them. */
  const play = (nodes: RecordNode[], tree: MoveTree, pos: Position, onMain: boolean): Played => {
    for (let k = 0; k < nodes.length; k++) {
      const { from, to, comment, children } = nodes[k];
      const fromSq = square(from);
      const toSq = square(to);
      const uci = fromSq >= 0 && toSq >= 0 ? makeMove(fromSq, toSq) : 0;
      const variation = k > 0 || !onMain;
      let outcome: Played;
      let node: MoveNode | null = null;
      if (uci === 0 || !pos.pseudoLegal(uci) || !pos.legal(uci)) {
        const described =
          uci !== 0
            ? `${squareName(fromSq)}${squareName(toSq)}`
            : `with square codes ${from} and ${to} (off the board)`;
        outcome = err('game-move', `${moveName(pos)}: the move ${described} is not legal in ${pos.fen()}`);
      } else {
        node = { move: uci, commentBefore: '', comment: commentText(comment), nags: [], children: [] };
        tree.children.push(node);
        pos.doMove(uci);
        outcome = play(children, node, pos, onMain && k === 0);
        pos.undoMove(uci);
      }
      if (outcome.ok) continue;
      if (!variation) return outcome;
      // The innermost variation holding the move goes: this one when it starts here, else the caller's.
      if (k === 0) {
        if (node !== null) tree.children.splice(tree.children.indexOf(node), 1);
        return outcome;
      }
      if (node !== null) tree.children.splice(tree.children.indexOf(node), 1);
      // A variation is named where it starts: its first move's number and squares.
      const here = `${moveName(pos)} (${uci !== 0 ? moveToUci(uci) : '?'} ...)`;
      warnings.push(`${name}: dropped the variation at ${here}: ${outcome.error.message}`);
    }
    return ok(true);
  };
  const moves = play(records, game, start.value, true);
  if (!moves.ok) return err(moves.error.code, `${name}: ${moves.error.message}`);
  if (warnings.length > 0) game.warnings = warnings;
  return ok(game);
}

/** The square of an XQF square code (file * 10 + rank), -1 when it is off the board. */
function square(xy: number): number {
  return xy <= 89 ? makeSquare(Math.floor(xy / 10), xy % 10) : -1;
}
