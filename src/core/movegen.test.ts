// Move generation: one test per movement rule on hand-made positions (each
// verified by listing the legal moves exactly), then the generation kinds checked
// against each other and against an independent, deliberately naive generator on
// many random positions.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { countLegal, generate, hasLegalMove, legalMoves } from './movegen.js';
import { Position } from './position.js';
import {
  GEN_CAPTURES,
  GEN_EVASIONS,
  GEN_LEGAL,
  GEN_PSEUDO_LEGAL,
  GEN_QUIETS,
  KING,
  MAX_MOVES,
  MOVE_NONE,
  MOVE_NULL,
  makeMove,
  moveFrom,
  moveTo,
  moveToUci,
  parseSquare,
  type Color,
  type Move,
} from './types.js';
import { mulberry32 } from './prng.js';
import { readFileSync } from 'node:fs';
import {
  F,
  gamePositions,
  naiveReach,
  piecesBetween,
  randomPlacement,
  setup,
  tableLines,
  testDataPath,
} from '../../test/support/fixtures.js';

// ---- helpers -----------------------------------------------------------------------

const uciList = (moves: Move[]): string[] => moves.map(moveToUci).sort();
const legalUci = (pos: Position): string[] => uciList(legalMoves(pos));
const legalFrom = (pos: Position, sq: string): string[] =>
  uciList(legalMoves(pos).filter((m) => moveFrom(m) === parseSquare(sq)));
const sorted = (a: string[]): string[] => [...a].sort();

function gen(pos: Position, kind: 0 | 1 | 2 | 3 | 4): Move[] {
  const list = new Int32Array(MAX_MOVES);
  const n = generate(pos, kind, list, 0);
  return Array.from(list.subarray(0, n));
}

// ---- a naive, independent rules implementation (the oracle) -----------------------------

/** Is color c's king attacked (including by the other king along an open file)? */
function naiveInDanger(board: ArrayLike<number>, c: number): boolean {
  const k = Array.prototype.indexOf.call(board, (c << 3) | KING) as number;
  const k2 = Array.prototype.indexOf.call(board, ((c ^ 1) << 3) | KING) as number;
  if (F(k) === F(k2) && piecesBetween(board, k, k2) === 0) return true;
  for (let s = 0; s < 90; s++) {
    const p = board[s];
    if (p && p >> 3 !== c && naiveReach(board, s, k)) return true;
  }
  return false;
}

function naivePseudo(board: ArrayLike<number>, side: number): Move[] {
  const out: Move[] = [];
  for (let from = 0; from < 90; from++) {
    const p = board[from];
    if (!p || p >> 3 !== side) continue;
    for (let to = 0; to < 90; to++) {
      const q = board[to];
      if (to === from || (q && q >> 3 === side)) continue;
      if (naiveReach(board, from, to)) out.push(makeMove(from, to));
    }
  }
  return out;
}

function naiveLegal(board: ArrayLike<number>, side: number): Move[] {
  const b = Array.from(board);
  return naivePseudo(board, side).filter((m) => {
    const from = moveFrom(m),
      to = moveTo(m);
    const cap = b[to];
    b[to] = b[from];
    b[from] = 0;
    const bad = naiveInDanger(b, side);
    b[from] = b[to];
    b[to] = cap;
    return !bad;
  });
}

// ---- random positions ----------------------------------------------------------------

const rnd0 = mulberry32(20240601);
const RANDOM_POSITIONS: Position[] = [
  ...Array.from({ length: 500 }, () => randomPlacement(rnd0, true)),
  ...gamePositions(rnd0, 40, 200, 10, 0.3),
];

// ---- movement rules on hand-made positions -------------------------------------------------------

describe('movement rules', () => {
  it('knight (horse): eight jumps when all legs are free', () => {
    const pos = setup('K d0 k f9 N e4');
    assert.deepEqual(legalFrom(pos, 'e4'), sorted(['e4c3', 'e4c5', 'e4d2', 'e4d6', 'e4f2', 'e4f6', 'e4g3', 'e4g5']));
    assert.deepEqual(legalUci(pos), sorted([...legalFrom(pos, 'e4'), 'd0d1', 'd0e0']));
  });

  it('knight (horse): a piece of either color on the leg blocks both jumps over it', () => {
    // e5 (own pawn) blocks d6/f6, d4 (enemy knight) blocks c5/c3, f6 holds an
    // enemy rook that cannot be taken through the blocked leg, d2 is own, g5 an enemy.
    const pos = setup('K d0 k f9 N e4 P e5 A d2 n d4 r f6 p g5');
    assert.deepEqual(legalFrom(pos, 'e4'), sorted(['e4f2', 'e4g3', 'e4g5']));
  });

  it('elephant: eye must be empty, never crosses the river, no own captures', () => {
    const pos = setup('K d0 k f9 B e2 B c4 N d3 p g4 r a6');
    // e2: c4 is own, and its way there (eye d3) is blocked anyway; g4 enemy pawn captured.
    assert.deepEqual(legalFrom(pos, 'e2'), sorted(['e2c0', 'e2g0', 'e2g4']));
    // c4: e2 own, a6/e6 across the river (even with an enemy rook on a6).
    assert.deepEqual(legalFrom(pos, 'c4'), ['c4a2']);
    const black = setup('k d9 K f0 b c5 R a3', 'b');
    assert.deepEqual(legalFrom(black, 'c5'), sorted(['c5a7', 'c5e7']));
  });

  it('advisor: one diagonal step, inside the palace only', () => {
    const pos = setup('K d0 k f9 A e1 A f2');
    assert.deepEqual(legalFrom(pos, 'e1'), sorted(['e1d2', 'e1f0'])); // d0 and f2 are own
    assert.deepEqual(legalFrom(pos, 'f2'), []); // e1 is own; g1, g3, e3 are outside
    assert.deepEqual(legalFrom(pos, 'd0'), sorted(['d0d1', 'd0e0']));
  });

  it('king: one orthogonal step, inside the palace only', () => {
    assert.deepEqual(legalUci(setup('K f2 k d9')), sorted(['f2e2', 'f2f1']));
    assert.deepEqual(legalFrom(setup('K e1 k f8 N f4'), 'e1'), sorted(['e1d1', 'e1e0', 'e1e2', 'e1f1']));
    // d1 would face the black king on the open d file.
    assert.deepEqual(legalUci(setup('K e1 k d9')), sorted(['e1e0', 'e1e2', 'e1f1']));
    assert.deepEqual(legalUci(setup('k d7 K f0', 'b')), sorted(['d7d8', 'd7e7']));
  });

  it('cannon: moves like a rook, captures over exactly one screen', () => {
    // Rank 4: screen d4, target g4. File b: screen b6, target b7, b8 behind two screens.
    const pos = setup('K d0 k f9 C b4 n d4 r g4 n b6 r b7 c b8');
    assert.deepEqual(
      legalFrom(pos, 'b4'),
      sorted(['b4a4', 'b4c4', 'b4g4', 'b4b0', 'b4b1', 'b4b2', 'b4b3', 'b4b5', 'b4b7']),
    );
    // Without a screen nothing is captured; own pieces never.
    const pos2 = setup('K d0 k f9 C b4 r b6 N e4 R h4');
    assert.deepEqual(legalFrom(pos2, 'b4'), sorted(['b4a4', 'b4c4', 'b4d4', 'b4b0', 'b4b1', 'b4b2', 'b4b3', 'b4b5']));
  });

  it('pawn: forward only before the river, also sideways after it, never backwards', () => {
    const pos = setup('K d0 k e8 P e3 P g5 P a6 P c9');
    assert.deepEqual(legalFrom(pos, 'e3'), ['e3e4']);
    assert.deepEqual(legalFrom(pos, 'g5'), sorted(['g5f5', 'g5g6', 'g5h5']));
    assert.deepEqual(legalFrom(pos, 'a6'), sorted(['a6a7', 'a6b6']));
    assert.deepEqual(legalFrom(pos, 'c9'), sorted(['c9b9', 'c9d9']));
    const black = setup('k e9 K d0 p c6 p e4 p i0', 'b');
    assert.deepEqual(legalFrom(black, 'c6'), ['c6c5']);
    assert.deepEqual(legalFrom(black, 'e4'), sorted(['e4d4', 'e4e3', 'e4f4']));
    assert.deepEqual(legalFrom(black, 'i0'), ['i0h0']);
  });

  it('flying general: a king may not step onto an open file facing the other king', () => {
    assert.deepEqual(legalUci(setup('K d0 k e9')), ['d0d1']);
    assert.deepEqual(legalUci(setup('k d9 K e0', 'b')), ['d9d8']);
  });

  it('flying general: the only piece between the kings may not leave the file', () => {
    // The knight can never stay on the file: it is frozen.
    assert.deepEqual(legalUci(setup('K e0 N e4 k e9')), sorted(['e0d0', 'e0e1', 'e0f0']));
    // The cannon may slide along the file but not sideways.
    assert.deepEqual(
      legalFrom(setup('K e0 C e4 k e9'), 'e4'),
      sorted(['e4e1', 'e4e2', 'e4e3', 'e4e5', 'e4e6', 'e4e7', 'e4e8']),
    );
  });

  it('double check by rook and cannon: interposing blocks both, capturing the screen does not', () => {
    // Black rook e5 checks; black cannon e8 checks over it. Nc4xe5 leaves the knight
    // as the cannon's new screen; a3-e3 and c4-e3 put a second screen in the cannon's way.
    const pos = setup('K e0 R a3 N c4 k d9 r e5 c e8');
    assert.equal(pos.inCheck(), true);
    assert.deepEqual(pos.checkerSquares(), [parseSquare('e5'), parseSquare('e8')]);
    assert.deepEqual(legalUci(pos), sorted(['a3e3', 'c4e3', 'e0f0']));
  });

  it('double check by knight and cannon: one rook move answers both', () => {
    // Knight c1 checks over the leg d1; cannon e5 checks over the own rook e1.
    // Re1-d1 blocks the leg and takes the screen away; Re1xc1 takes the knight and the screen.
    const pos = setup('K e0 R e1 k d9 n c1 c e5');
    assert.deepEqual(pos.checkerSquares(), [parseSquare('c1'), parseSquare('e5')]);
    assert.deepEqual(legalUci(pos), sorted(['e0f0', 'e1c1', 'e1d1']));
  });

  it('double check by pawn and cannon: only the king may take the checker', () => {
    // Pawn e1 checks and screens cannon e5. Taking it with the rook or advisor leaves a screen.
    const pos = setup('K e0 A f2 R a1 k d9 p e1 c e5');
    assert.deepEqual(pos.checkerSquares(), [parseSquare('e1'), parseSquare('e5')]);
    assert.deepEqual(legalUci(pos), sorted(['e0e1', 'e0f0']));
  });

  it('stalemate: no legal move while not in check', () => {
    const pos = setup('K d0 k e9 r i1');
    assert.equal(pos.inCheck(), false);
    assert.deepEqual(legalUci(pos), []);
    assert.equal(hasLegalMove(pos, new Int32Array(MAX_MOVES), 0), false);
    assert.ok(gen(pos, GEN_PSEUDO_LEGAL).length > 0);
  });

  it('checkmate: in check with no legal move', () => {
    const pos = setup('K d0 k e9 r d5');
    assert.equal(pos.inCheck(), true);
    assert.deepEqual(legalUci(pos), []);
    assert.equal(hasLegalMove(pos, new Int32Array(MAX_MOVES), 0), false);
    // Horse behind cannon (马后炮): the knight on e2 is the cannon's screen and guards d0/f0.
    const mate = setup('K e0 k d9 n e2 c e5');
    assert.equal(mate.inCheck(), true);
    assert.deepEqual(legalUci(mate), []);
    // With an advisor that can step into e1 (a second screen that also blocks the leg) it is not mate.
    assert.deepEqual(legalUci(setup('K e0 A d0 k d9 n e2 c e5')), ['d0e1']);
  });

  it('the start position has the 44 expected moves', () => {
    const pos = new Position();
    const moves = legalUci(pos);
    assert.equal(moves.length, 44);
    for (const m of ['h2e2', 'b0c2', 'c3c4', 'a0a1', 'h0g2', 'c0e2', 'd0e1', 'e0e1', 'b2b9', 'h2h9']) {
      assert.ok(moves.includes(m), `${m} missing`);
    }
  });
});

// ---- generation kinds ---------------------------------------------------------------------------

describe('generation kinds on random positions', () => {
  it('the random sample covers checks, double checks and mates', () => {
    const checked = RANDOM_POSITIONS.filter((p) => p.inCheck()).length;
    const double = RANDOM_POSITIONS.filter((p) => p.checkerSquares().length >= 2).length;
    const none = RANDOM_POSITIONS.filter((p) => legalMoves(p).length === 0).length;
    assert.ok(RANDOM_POSITIONS.length >= 800, `${RANDOM_POSITIONS.length} positions`);
    assert.ok(checked >= 40, `only ${checked} positions in check`);
    assert.ok(double >= 3, `only ${double} double checks`);
    assert.ok(none >= 1, 'no position without moves');
  });

  it('LEGAL and PSEUDO_LEGAL equal an independent naive generator', () => {
    for (const pos of RANDOM_POSITIONS) {
      const fen = pos.fen();
      assert.deepEqual(
        uciList(gen(pos, GEN_PSEUDO_LEGAL)),
        naivePseudo(pos.board, pos.side).map(moveToUci).sort(),
        fen,
      );
      assert.deepEqual(uciList(gen(pos, GEN_LEGAL)), naiveLegal(pos.board, pos.side).map(moveToUci).sort(), fen);
    }
  });

  it('CAPTURES and QUIETS partition PSEUDO_LEGAL; captures take enemy pieces, quiets land on empty squares', () => {
    for (const pos of RANDOM_POSITIONS) {
      const fen = pos.fen();
      const caps = gen(pos, GEN_CAPTURES),
        quiets = gen(pos, GEN_QUIETS),
        all = gen(pos, GEN_PSEUDO_LEGAL);
      const union = [...caps, ...quiets];
      assert.equal(new Set(union).size, union.length, `duplicates or overlap in ${fen}`);
      assert.deepEqual(
        [...union].sort((a, b) => a - b),
        [...all].sort((a, b) => a - b),
        fen,
      );
      for (const m of caps) {
        const victim = pos.board[moveTo(m)];
        assert.ok(victim !== 0 && victim >> 3 !== pos.side, `${moveToUci(m)} in ${fen}`);
        assert.notEqual(victim & 7, KING, `king capture ${moveToUci(m)} in ${fen}`);
      }
      for (const m of quiets) assert.equal(pos.board[moveTo(m)], 0, `${moveToUci(m)} in ${fen}`);
      for (const m of all) assert.equal(pos.board[moveFrom(m)] >> 3, pos.side, fen);
    }
  });

  it('LEGAL is PSEUDO_LEGAL (and EVASIONS when in check) filtered by legal()', () => {
    for (const pos of RANDOM_POSITIONS) {
      const fen = pos.fen();
      const legal = gen(pos, GEN_LEGAL);
      assert.deepEqual(
        [...legal].sort((a, b) => a - b),
        gen(pos, GEN_PSEUDO_LEGAL)
          .filter((m) => pos.legal(m))
          .sort((a, b) => a - b),
        fen,
      );
      if (pos.inCheck()) {
        const ev = gen(pos, GEN_EVASIONS).filter((m) => pos.legal(m));
        assert.deepEqual(
          [...ev].sort((a, b) => a - b),
          [...legal].sort((a, b) => a - b),
          fen,
        );
      }
    }
  });

  it("CAPTURES, QUIETS and PSEUDO_LEGAL come in Pikafish's order: by piece type, then from and to squares ascending", () => {
    // Pikafish's type order: pawn, bishop, advisor, knight, cannon, rook, king.
    const rank = [0, 5, 2, 4, 0, 3, 1, 6]; // by Kirin's type code (rook 1 ... king 7)
    for (const pos of RANDOM_POSITIONS) {
      for (const kind of [GEN_CAPTURES, GEN_QUIETS, GEN_PSEUDO_LEGAL] as const) {
        const list = gen(pos, kind);
        const key = (m: Move) => rank[pos.board[moveFrom(m)] & 7] * 16384 + m;
        assert.deepEqual(
          list,
          [...list].sort((a, b) => key(a) - key(b)),
          `${pos.fen()} kind ${kind}`,
        );
      }
    }
  });

  it("LEGAL lists the moves in native Pikafish's order (test/data/pikafish-move-order.tsv)", () => {
    const lines = tableLines(readFileSync(testDataPath('pikafish-move-order.tsv'), 'utf8'));
    assert.deepEqual(lines[0].split('\t'), ['fen', 'moves']);
    let inCheck = 0;
    for (const line of lines.slice(1)) {
      const [fen, moves = ''] = line.split('\t');
      const pos = new Position(fen);
      if (pos.inCheck()) inCheck++;
      assert.equal(gen(pos, GEN_LEGAL).map(moveToUci).join(' '), moves, fen);
    }
    assert.ok(lines.length > 400 && inCheck >= 140, `${lines.length} rows, ${inCheck} in check`);
  });

  it('countLegal and hasLegalMove agree with the LEGAL list (cannon lines, pins, checks)', () => {
    const scratch = new Int32Array(MAX_MOVES * 2);
    let withDangerTo = 0;
    for (const pos of RANDOM_POSITIONS) {
      const n = gen(pos, GEN_LEGAL).length;
      // Counting from an offset must not matter, nor a second call on the cached danger squares.
      assert.equal(countLegal(pos, scratch, 0), n, pos.fen());
      assert.equal(countLegal(pos, scratch, 37), n, pos.fen());
      assert.equal(hasLegalMove(pos, scratch, 5), n > 0, pos.fen());
      if (!pos.inCheck() && pos.dangerSquares() > 0) withDangerTo++;
    }
    assert.ok(withDangerTo >= 20, `only ${withDangerTo} positions with a cannon aimed at the king`);
  });

  it('pseudoLegal(m) holds exactly for generated pseudo-legal moves (all 90x90 pairs)', () => {
    for (const pos of RANDOM_POSITIONS) {
      const set = new Set(gen(pos, GEN_PSEUDO_LEGAL));
      for (let from = 0; from < 90; from++) {
        for (let to = 0; to < 90; to++) {
          const m = makeMove(from, to);
          if (pos.pseudoLegal(m) !== set.has(m)) {
            assert.fail(`pseudoLegal(${moveToUci(m)}) = ${pos.pseudoLegal(m)} in ${pos.fen()}`);
          }
        }
      }
      for (const m of [MOVE_NONE, MOVE_NULL, -1, 90 << 7, (89 << 7) | 90, (89 << 7) | 127, 1 << 20]) {
        assert.equal(pos.pseudoLegal(m), false, `pseudoLegal(${m})`);
      }
    }
  });

  it('legal(m) equals making the move and testing the own king; givesCheck equals check after doMove', () => {
    for (const pos of RANDOM_POSITIONS) {
      const fen = pos.fen();
      const us = pos.side;
      for (const m of gen(pos, GEN_PSEUDO_LEGAL)) {
        const legal = pos.legal(m);
        const check = legal ? pos.givesCheck(m) : false;
        pos.doMove(m);
        assert.equal(legal, !pos.kingAttacked(us), `legal(${moveToUci(m)}) in ${fen}`);
        if (legal) assert.equal(check, pos.inCheck(), `givesCheck(${moveToUci(m)}) in ${fen}`);
        pos.undoMove(m);
      }
      assert.equal(pos.fen(), fen);
      assert.equal(pos.validate(), null);
    }
  });

  it('givesCheck equals the check after the move for every pseudo-legal move, also of crowded king lines', () => {
    // givesCheck answers moves away from the enemy king's lines and knight legs
    // without trying them: compare it with the full test after making the move,
    // for every pseudo-legal move (legal or not) of placements of every density.
    const rnd = mulberry32(77);
    let near = 0,
      checks = 0;
    for (let n = 0; n < 3000; n++) {
      const pos = randomPlacement(rnd, true);
      const fen = pos.fen();
      const them = pos.side ^ 1;
      const ksq = pos.kingSq[them];
      for (const m of gen(pos, GEN_PSEUDO_LEGAL)) {
        const from = moveFrom(m),
          to = moveTo(m);
        const gives = pos.givesCheck(m);
        pos.doMove(m);
        const check = pos.kingAttacked(them as Color);
        assert.equal(gives, check, `givesCheck(${moveToUci(m)}) in ${fen}`);
        pos.undoMove(m);
        if (
          F(from) === F(ksq) ||
          F(to) === F(ksq) ||
          Math.floor(from / 9) === Math.floor(ksq / 9) ||
          Math.floor(to / 9) === Math.floor(ksq / 9)
        )
          near++;
        if (gives) checks++;
      }
      assert.equal(pos.fen(), fen);
    }
    assert.ok(near > 15000, `${near} moves touching the enemy king's lines`);
    assert.ok(checks > 3500, `${checks} checks`);
  });

  it('legal() stays exact when its danger-square cache stamp wraps around', () => {
    // The cache stamp is a private counter bumped once per new position; force it
    // to the int32 limit and check that the fast path still filters correctly.
    const pos = setup('K e0 C e4 k e9 R a1');
    const priv = pos as unknown as { dangerStamp: number };
    assert.equal(typeof priv.dangerStamp, 'number', 'the cache stamp field was renamed: update this test');
    priv.dangerStamp = 0x7ffffffd;
    const a1a2 = makeMove(parseSquare('a1'), parseSquare('a2'));
    const e9e8 = makeMove(parseSquare('e9'), parseSquare('e8'));
    for (let i = 0; i < 4; i++) {
      pos.doMove(a1a2);
      assert.equal(legalMoves(pos).length, 3, `black moves after ${i} rounds`);
      pos.doMove(e9e8);
      // The cannon on e4 is pinned by the flying general: only file moves are legal.
      assert.deepEqual(
        legalFrom(pos, 'e4'),
        sorted(['e4e1', 'e4e2', 'e4e3', 'e4e5', 'e4e6', 'e4e7']),
        `after ${i} rounds`,
      );
      pos.undoMove(e9e8);
      pos.undoMove(a1a2);
      assert.deepEqual(legalFrom(pos, 'e4'), sorted(['e4e1', 'e4e2', 'e4e3', 'e4e5', 'e4e6', 'e4e7', 'e4e8']));
    }
  });
});
