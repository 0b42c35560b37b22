import assert from 'node:assert/strict';
import { test } from 'node:test';
import { BLACK, Position, RED, START_FEN, parseSquare } from '../../src/browser/index.js';
import { BoardEditorModel, PALETTE, isPiece } from './model.js';

const sq = parseSquare;
const RED_ROOK = (RED << 3) | 1;
const BLACK_KING = (BLACK << 3) | 7;
const RED_KING = (RED << 3) | 7;

test('the palette: fourteen pieces, each side rook, knight, bishop, advisor, king, cannon, pawn', () => {
  assert.equal(PALETTE.length, 14);
  assert.equal(new Set(PALETTE).size, 14);
  assert.ok(PALETTE.every(isPiece));
  assert.ok(!isPiece(0) && !isPiece(8) && !isPiece(16));
});

test('place, remove, move, clear and start; the FEN follows the board', () => {
  const m = new BoardEditorModel();
  assert.equal(m.fen(), START_FEN);
  m.clear();
  assert.equal(m.fen(), '9/9/9/9/9/9/9/9/9/9 w - - 0 1');
  m.place(sq('e0'), RED_KING);
  m.place(sq('d9'), BLACK_KING);
  m.place(sq('a4'), RED_ROOK);
  assert.equal(m.fen(), '3k5/9/9/9/9/R8/9/9/9/4K4 w - - 0 1');
  m.move(sq('a4'), sq('a9'));
  assert.equal(m.pieceOn(sq('a4')), 0);
  assert.equal(m.pieceOn(sq('a9')), RED_ROOK);
  m.side = BLACK;
  assert.equal(m.fen(), 'R2k5/9/9/9/9/9/9/9/9/4K4 b - - 0 1');
  // A move onto a piece replaces it; a move from an empty square or onto itself does nothing.
  m.move(sq('a9'), sq('d9'));
  assert.equal(m.count(BLACK_KING), 0);
  assert.equal(m.count(RED_ROOK), 1);
  m.move(sq('b5'), sq('c5'));
  m.move(sq('d9'), sq('d9'));
  assert.equal(m.remove(sq('d9')), RED_ROOK);
  assert.equal(m.remove(sq('d9')), 0);
  m.start();
  assert.equal(m.fen(), START_FEN);
  assert.equal(m.side, RED);
  assert.throws(() => m.place(90, RED_ROOK), /no square 90/);
  assert.throws(() => m.place(0, 8), /no piece 8/);
});

test("the FEN round trip: the core's positions load and write back the same board and side", () => {
  const fens = [
    START_FEN,
    '2bakab2/9/4c4/p1p1C1p1p/9/2P6/P3P1P1P/4B4/9/RNBAKA1NR b - - 0 1',
    '4k4/9/9/9/9/9/9/9/4R4/3K5 b - - 0 1',
    '3ak4/4a4/9/9/9/9/9/9/4A4/3K5 w - - 0 1',
  ];
  const m = new BoardEditorModel();
  for (const fen of fens) {
    assert.ok(m.load(fen).ok, fen);
    assert.equal(m.fen(), fen);
    const v = m.validate();
    assert.ok(v.ok);
    assert.equal(v.value, fen);
  }
  // H/E letters and missing fields read as the core reads them; the board written in R/N/B.
  assert.ok(m.load('4k4/9/9/9/9/9/9/9/4H4/3K5').ok);
  assert.equal(m.fen(), '4k4/9/9/9/9/9/9/9/4N4/3K5 w - - 0 1');
});

test("three rooks are refused with the rules core's message, as a FEN would be", () => {
  const m = new BoardEditorModel();
  m.place(sq('a5'), RED_ROOK);
  const v = m.validate();
  assert.ok(!v.ok);
  assert.equal(v.error.code, 'fen-piece-count');
  const core = Position.fromFen(m.fen());
  assert.ok(!core.ok);
  assert.equal(v.error.message, core.error.message);
  assert.match(v.error.message, /red has 3 rooks, at most 2 allowed$/);
  // Taken away again, the position is legal.
  m.remove(sq('a5'));
  assert.ok(m.validate().ok);
});

test("the core's other refusals come through: a missing king, a square a piece never stands on, the side not to move in check", () => {
  const m = new BoardEditorModel();
  m.clear();
  m.place(sq('e0'), RED_KING);
  let v = m.validate();
  assert.ok(!v.ok);
  assert.equal(v.error.code, 'fen-king');
  assert.match(v.error.message, /the black king is missing/);
  m.place(sq('d9'), BLACK_KING);
  assert.ok(m.validate().ok);
  m.place(sq('e5'), RED_KING); // a king outside its palace
  m.remove(sq('e0'));
  v = m.validate();
  assert.ok(!v.ok);
  assert.equal(v.error.code, 'fen-square');
  assert.match(v.error.message, /red king on e5, a square it can never stand on/);
  m.move(sq('e5'), sq('e0'));
  m.place(sq('d4'), RED_ROOK); // Red to move while Black's king stands in check
  v = m.validate();
  assert.ok(!v.ok);
  assert.equal(v.error.code, 'fen-check');
  m.side = BLACK;
  assert.ok(m.validate().ok);
  // A refused FEN leaves the board as it was.
  const before = m.fen();
  const r = m.load('RRRk5/9/9/9/9/9/9/9/9/4K4 w - - 0 1');
  assert.ok(!r.ok);
  assert.match(r.error.message, /red has 3 rooks/);
  assert.equal(m.fen(), before);
  assert.throws(() => new BoardEditorModel('not a fen'), /invalid FEN/);
});
