// FEN: round trips, accepted variants, and a clear error for each kind of
// malformed FEN (which must leave the position untouched).

import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { describe, it } from 'node:test';

import { START_FEN, isValidSquareFor, parseFen } from './fen.js';
import { legalMoves } from './movegen.js';
import { Position } from './position.js';
import { ADVISOR, BISHOP, BLACK, KING, PAWN, RED, makePiece, parseSquare } from './types.js';
import { mulberry32 } from './prng.js';
import { perftTablePath, tableLines } from '../../test/support/fixtures.js';

function perftFens(): string[] {
  const file = perftTablePath();
  assert.ok(existsSync(file), `reference data missing: ${file}`);
  const fens = tableLines(readFileSync(file, 'utf8'))
    .slice(1)
    .map((l) => l.split('\t')[0]);
  return [...new Set(fens)];
}

describe('FEN round trips', () => {
  it('every reference perft position round-trips (with default trailing fields)', () => {
    const fens = perftFens();
    assert.equal(fens.length, 49);
    for (const f of fens) {
      const pos = new Position(f);
      const full = f.split(' ').length === 2 ? `${f} - - 0 1` : f;
      assert.equal(pos.fen(), full);
      assert.equal(new Position(full).fen(), full);
      assert.equal(new Position(full).keyHex(), pos.keyHex());
    }
  });

  it('positions of random games round-trip, counters included', () => {
    const rnd = mulberry32(3);
    let n = 0;
    for (let g = 0; g < 40; g++) {
      const pos = new Position();
      for (let ply = 0; ply < 150; ply++) {
        const moves = legalMoves(pos);
        if (!moves.length) break;
        pos.doMove(moves[Math.floor(rnd() * moves.length)]);
        const f = pos.fen();
        const copy = new Position(f);
        assert.equal(copy.fen(), f);
        assert.equal(copy.keyHex(), pos.keyHex(), f);
        assert.equal(copy.inCheck(), pos.inCheck(), f);
        assert.equal(copy.gamePly, pos.gamePly, f);
        assert.equal(copy.rule60Count(), pos.rule60Count(), f);
        n++;
      }
    }
    assert.ok(n > 3000);
  });

  it('the start position', () => {
    assert.equal(new Position().fen(), START_FEN);
    assert.equal(new Position(START_FEN).fen(), START_FEN);
  });
});

describe('FEN variants accepted', () => {
  it('H (horse) and E (elephant) letters', () => {
    const pos = new Position('rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR w - - 0 1');
    assert.equal(pos.fen(), START_FEN);
  });

  it('missing trailing fields take their defaults', () => {
    const board = START_FEN.split(' ')[0];
    assert.equal(new Position(board).fen(), START_FEN);
    assert.equal(new Position(`${board} w`).fen(), START_FEN);
    assert.equal(new Position(`${board} b`).fen(), `${board} b - - 0 1`);
    assert.equal(new Position(`${board} w - -`).fen(), START_FEN);
    assert.equal(new Position(`${board} b - - 17`).fen(), `${board} b - - 17 1`);
    assert.equal(new Position(`  ${board}   w  -  -  3   9 `).fen(), `${board} w - - 3 9`);
    // Full-move number 0 (a common mistake) is read as 1.
    assert.equal(new Position(`${board} b - - 0 0`).fen(), `${board} b - - 0 1`);
  });

  it('gamePly follows the full-move number and side', () => {
    const board = START_FEN.split(' ')[0];
    assert.equal(new Position(`${board} w - - 0 1`).gamePly, 0);
    assert.equal(new Position(`${board} b - - 0 1`).gamePly, 1);
    assert.equal(new Position(`${board} w - - 0 30`).gamePly, 58);
    assert.equal(new Position(`${board} b - - 0 30`).gamePly, 59);
  });

  it('the square table: advisors, elephants, pawns and kings only where they can ever stand', () => {
    const count = (pc: number) => {
      let n = 0;
      for (let s = 0; s < 90; s++) if (isValidSquareFor(pc, s)) n++;
      return n;
    };
    for (const c of [RED, BLACK]) {
      assert.equal(count(makePiece(c, ADVISOR)), 5);
      assert.equal(count(makePiece(c, BISHOP)), 7);
      assert.equal(count(makePiece(c, KING)), 9);
      assert.equal(count(makePiece(c, PAWN)), 45 + 10); // the enemy half plus 5 files x 2 ranks
    }
    assert.ok(isValidSquareFor(makePiece(RED, PAWN), parseSquare('c4')));
    assert.ok(!isValidSquareFor(makePiece(RED, PAWN), parseSquare('b4')));
    assert.ok(isValidSquareFor(makePiece(BLACK, PAWN), parseSquare('b4')));
    assert.ok(!isValidSquareFor(makePiece(BLACK, PAWN), parseSquare('b5')));
    assert.ok(isValidSquareFor(makePiece(BLACK, BISHOP), parseSquare('e7')));
    assert.ok(!isValidSquareFor(makePiece(BLACK, BISHOP), parseSquare('e2')));
  });
});

describe('malformed FENs are rejected with a message naming the problem', () => {
  const S = START_FEN.split(' ')[0];
  const cases: Array<[string, string, RegExp]> = [
    ['empty', '', /empty/],
    ['blank', '   ', /empty/],
    ['rank too narrow', 'rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABN w', /rank 0 .*8 files, expected 9/],
    [
      'rank too wide (digits)',
      'rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C6C1/9/RNBAKABNR w',
      /rank 2 .*10 files, expected 9/,
    ],
    [
      'rank too wide (letters)',
      'rnbakabnr/9/1c5c1/p1p1p1p1p/9/9p/P1P1P1P1P/1C5C1/9/RNBAKABNR w',
      /rank 4 .*wider than 9/,
    ],
    ['too few ranks', 'rnbakabnr/9/1c5c1/p1p1p1p1p/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w', /9 ranks, expected 10/],
    ['too many ranks', 'rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w', /11 ranks, expected 10/],
    ['unknown letter', 'rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNQ w', /unknown piece letter 'Q'/],
    ['zero as a digit', 'rnbakabnr/9/1c5c1/p1p1p1p1p/9/09/P1P1P1P1P/1C5C1/9/RNBAKABNR w', /unknown piece letter '0'/],
    ['missing red king', 'rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBA1ABNR w', /red king is missing/],
    ['missing black king', 'rnba1abnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w', /black king is missing/],
    ['two kings', 'rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBAKABNR w', /red has 2 kings/],
    ['three rooks', 'rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/R8/RNBAKABNR w', /red has 3 rooks, at most 2/],
    ['six pawns', 'rnbakabnr/9/1c5c1/p1p1p1p1p/p8/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w', /black has 6 pawns, at most 5/],
    ['three cannons', 'rnbakabnr/9/1c2c2c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w', /black has 3 cannons/],
    ['advisor off its points', 'rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/3A5/RNB1KABNR w', /red advisor on d1/],
    [
      'black advisor off its points',
      'rnb1kabnr/3a5/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w',
      /black advisor on d8/,
    ],
    [
      'elephant across the river',
      'rnbakabnr/9/1c5c1/p1p1p1p1p/2B6/9/P1P1P1P1P/1C5C1/9/RN1AKABNR w',
      /red bishop on c5/,
    ],
    [
      'black elephant across the river',
      'rn1akabnr/9/1c5c1/p1p1p1p1p/9/2b6/P1P1P1P1P/1C5C1/9/RNBAKABNR w',
      /black bishop on c4/,
    ],
    ['pawn behind its start', 'rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/2P1P1P1P/PC5C1/9/RNBAKABNR w', /red pawn on a2/],
    [
      'pawn on an odd file before the river',
      'rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/1PP1P1P1P/1C5C1/9/RNBAKABNR w',
      /red pawn on b3/,
    ],
    ['black pawn behind its start', 'rnbakabnr/9/pc5c1/2p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w', /black pawn on a7/],
    ['king outside the palace', 'rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBA1AKNR w', /red king on g0/],
    [
      'black king outside the palace',
      'rnba1abnr/9/1c5c1/p1p1p1p1p/4k4/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w',
      /black king on e5/,
    ],
    ['bad side to move', `${S} x - - 0 1`, /side to move "x"/],
    ['side to move spelled out', `${S} white - - 0 1`, /side to move "white"/],
    ['half-move counter not a number', `${S} w - - abc 1`, /half-move counter "abc" is not a number/],
    ['negative half-move counter', `${S} w - - -1 1`, /half-move counter "-1"/],
    ['half-move counter out of range', `${S} w - - 120 1`, /half-move counter 120 is out of range/],
    ['move number not a number', `${S} w - - 0 one`, /move number "one" is not a number/],
    ['move number out of range', `${S} w - - 0 100001`, /move number 100001 is out of range/],
    ['extra field', `${S} w - - 0 1 extra`, /unexpected extra field "extra"/],
    ['castling rights', `${S} w KQkq - 0 1`, /castling rights field "KQkq" must be '-'/],
    ['en-passant square', `${S} w - e3 0 1`, /en-passant square field "e3" must be '-'/],
    ['free text after the side', `${S} w hello world`, /castling rights field "hello"/],
    ['side not to move in check', '3k5/9/9/9/9/9/9/9/9/r3K4 b - - 0 1', /side not to move \(red\) is in check/],
    ['kings facing', '4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1', /side not to move \(black\) is in check/],
  ];

  for (const [name, fen, re] of cases) {
    it(name, () => {
      const parsed = parseFen(fen);
      const pos = new Position();
      for (let i = 0; i < 3; i++) pos.doMove(legalMoves(pos)[i * 7]);
      const before = pos.fen();
      const key = pos.keyHex();
      const r = pos.setFen(fen);
      assert.ok(!r.ok, `accepted: ${fen}`);
      assert.match(r.error.message, re);
      assert.match(r.error.message, /^invalid FEN "/);
      assert.match(r.error.code, /^fen-/);
      if (!parsed.ok) assert.deepEqual(parsed.error, r.error);
      else assert.equal(r.error.code, 'fen-check');
      // The position is unchanged, history included.
      assert.equal(pos.fen(), before);
      assert.equal(pos.keyHex(), key);
      assert.equal(pos.sp, 3);
      assert.equal(pos.validate(), null);
      assert.throws(
        () => new Position(fen),
        (e: Error) => re.test(e.message),
      );
    });
  }

  it('controls: nearly identical valid FENs are accepted', () => {
    for (const fen of [
      'rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4A4/RNB1KABNR w', // advisor on e1
      'rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAK1BNR w', // one advisor
      'rnbakabnr/9/1c5c1/2p1p1p1p/p8/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w', // black pawn on a5
      'rnbakabnr/9/1c5c1/p1p1p1p1p/9/2B6/P1P1P1P1P/1C5C1/9/RN1AKABNR w', // red elephant on c4
      '3k5/9/9/9/9/9/9/9/9/r2AK4 b - - 0 1', // the advisor blocks the rook
      '4k4/9/9/9/4N4/9/9/9/9/3K4C w', // no check at all
      `${S} w - - 119 100000`,
    ]) {
      assert.ok(new Position(null).setFen(fen).ok, fen);
    }
  });
});
