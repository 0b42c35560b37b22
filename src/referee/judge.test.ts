// The referee (judge.ts): a game's repetition cycles move by move, the ruling in
// English word for word on five figures of the Chinese rule book, the same as
// data and as message keys, and refused games.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { Position } from '../core/position.js';
import { parseLegalMove } from '../core/ucimove.js';
import { addMove, newGame, type Game } from '../notation/game.js';
import { parseGames } from '../notation/pgn.js';
import { judgeGame, type JudgeOptions } from './judge.js';

/** A game record from a FEN and UCI moves. */
function game(fen: string, moves: string): Game {
  const g = newGame(fen);
  const pos = new Position(fen);
  let at: Game | ReturnType<typeof addMove> = g;
  for (const u of moves.trim().split(/\s+/)) {
    const m = parseLegalMove(pos, u);
    assert.ok(m.ok, u);
    at = addMove(at, m.value);
    pos.doMove(m.value);
  }
  return g;
}

function verdict(fen: string, moves: string, options: JudgeOptions = { rule: 'ChineseRule' }) {
  const v = judgeGame(game(fen, moves), options);
  assert.ok(v.ok, v.ok ? '' : v.error.message);
  return v.value;
}

// Five figures of the Chinese rule book (test/rules/chinese-corpus.txt), played
// to their first repetition: the referee's account, word for word.
const FIGURES = [
  {
    figure: '图2',
    fen: '1r2kab1r/2c1a4/n1c1b1n2/4p2N1/p1p6/1C4P2/P1P1P4/2N1B3C/4A4/1RBAK2R1 w - - 0 1',
    moves: 'h6i4 i9h9 i4h6 h9i9',
    text: [
      'Plies 1-4 (moves 1-2) repeat the position after ply 0, a cycle of 4 plies under ChineseRule:',
      '  Red 马二退一 chases the black rook on i9 with the cannon on i2.',
      '  Black 车9平8 is idle.',
      '  Red 马一进二 chases the black rook on h9 (a check with the knight on h6 wins it).',
      '  Black 车8平9 chases the red cannon on i2 with the rook on i9.',
      '  Red chases on every move.',
      '  Black chases once and idles once.',
      '  Red must change: a perpetual chase loses; black wins if Red repeats.',
      'The rules end the game after ply 4: black wins (perpetual chase).',
    ],
  },
  {
    figure: '图6',
    fen: '2b6/4k4/9/9/9/9/9/9/2p6/3K1RBc1 w - - 0 1',
    moves: 'f0e0 e8f8 e0f0 f8e8',
    text: [
      'Plies 1-4 (moves 1-2) repeat the position after ply 0, a cycle of 4 plies under ChineseRule:',
      '  Red 车四平五 checks (rook on e0).',
      '  Black 将5平6 answers the check (idle).',
      '  Red 车五平四 checks (rook on f0).',
      '  Black 将6平5 answers the check (idle).',
      '  Red checks on every move.',
      '  Black makes only idle moves.',
      '  Red must change: a perpetual check loses; black wins if Red repeats.',
      'The rules end the game after ply 4: black wins (perpetual check).',
    ],
  },
  {
    figure: '图7',
    fen: '2bak1c2/4aRN1r/4b4/9/9/9/3pp4/2n1B4/9/2B1K3C w - - 0 1',
    moves: 'i0h0 i8h8 h0i0 h8i8',
    text: [
      'Plies 1-4 (moves 1-2) repeat the position after ply 0, a cycle of 4 plies under ChineseRule:',
      '  Red 炮一平二 threatens mate.',
      '  Black 车9平8 is idle.',
      '  Red 炮二平一 threatens mate.',
      '  Black 车8平9 is idle.',
      '  Red threatens mate on every move.',
      '  Black makes only idle moves.',
      '  Red must change: perpetual mate threats lose; black wins if Red repeats.',
      'The rules end the game after ply 4: black wins (perpetual mate threat).',
    ],
  },
  {
    figure: '图14',
    fen: '1rb1kacn1/4a4/2n1b2r1/p1C1pRP1p/2p6/9/PcP1P3P/N3C1N2/9/1RBAKAB2 w - - 0 1',
    moves: 'g6h6 h7g7 h6g6 g7h7',
    text: [
      'Plies 1-4 (moves 1-2) repeat the position after ply 0, a cycle of 4 plies under ChineseRule:',
      '  Red 兵三平二 is idle.',
      '  Black 车8平7 chases the red knight on g2 with the cannon on g9.',
      '  Red 兵二平三 is idle.',
      '  Black 车7平8 chases the red knight on g2 with the cannon on g9.',
      '  Red makes only idle moves.',
      '  Black chases on every move.',
      '  Black must change: a perpetual chase loses; red wins if Black repeats.',
      'The rules end the game after ply 4: red wins (perpetual chase).',
    ],
  },
  {
    figure: '参考图43',
    fen: '3k1ab2/4a4/4b1P2/p7p/1c7/3r5/P3R3P/4C4/4A2n1/2B1K2N1 w - - 0 1',
    moves: 'e3b3 b5e5 b3e3 e5b5',
    text: [
      'Plies 1-4 (moves 1-2) repeat the position after ply 0, a cycle of 4 plies under ChineseRule:',
      '  Red 车五平八 chases the black cannon on b5 with the rook on b3, and the black advisor on e8 with the cannon on e2.',
      '  Black 炮2平5 threatens mate.',
      '  Red 车八平五 chases the black cannon on e5 with the rook on e3.',
      '  Black 炮5平2 threatens mate.',
      '  Red chases on every move.',
      '  Black threatens mate on every move.',
      '  Both sides attack on every move: neither must change, and repeating draws.',
      'The rules end the game after ply 4: a draw (repetition).',
    ],
  },
];

describe("the rule book's figures in words", () => {
  for (const f of FIGURES)
    it(f.figure, () => {
      assert.equal(verdict(f.fen, f.moves).text, f.text.join('\n'));
    });
});

describe('the verdict as data', () => {
  it("图2: each move's kind, target and piece; who must change; the result", () => {
    const v = verdict(FIGURES[0].fen, FIGURES[0].moves);
    assert.equal(v.cycles.length, 1);
    const c = v.cycles[0];
    assert.deepEqual(
      c.moves.map((m) => [m.ply, m.side, m.move, m.kind]),
      [
        [1, 'red', 'h6i4', 'chase'],
        [2, 'black', 'i9h9', 'idle'],
        [3, 'red', 'i4h6', 'chase'],
        [4, 'black', 'h9i9', 'chase'],
      ],
    );
    assert.deepEqual(c.moves[0].targets, [{ side: 'black', piece: 'rook', square: 'i9' }]);
    assert.deepEqual(c.moves[0].by, [{ side: 'red', piece: 'cannon', square: 'i2' }]);
    assert.deepEqual(c.moves[2].byCheck, [true]);
    assert.deepEqual(
      [c.from, c.to, c.code, c.mustChange, c.result, c.reason],
      [0, 4, 'perpetual-chase', 'red', 'black', 'perpetual-chase'],
    );
    assert.deepEqual(c.red, { moves: 2, checks: 0, mateThreats: 0, chases: 2, idle: 0, attacksEveryMove: true });
    assert.deepEqual(c.black, { moves: 2, checks: 0, mateThreats: 0, chases: 1, idle: 1, attacksEveryMove: false });
    assert.deepEqual(v.end && [v.end.ply, v.end.result, v.end.reason], [4, 'black', 'perpetual-chase']);
  });

  it('the new reasons by kind: answers to check, mate threats, chases by a check, exchange offers', () => {
    const kinds = (fen: string, moves: string): string[] => verdict(fen, moves).cycles[0].moves.map((m) => m.kind);
    // 图6: checks, and the king's answers are idle.
    assert.deepEqual(kinds(FIGURES[1].fen, FIGURES[1].moves), ['check', 'idle', 'check', 'idle']);
    assert.ok(verdict(FIGURES[1].fen, FIGURES[1].moves).cycles[0].moves[1].answersCheck);
    // 图7: the cannon threatens mate, the black rook only blocks.
    assert.deepEqual(kinds(FIGURES[2].fen, FIGURES[2].moves), ['mate-threat', 'idle', 'mate-threat', 'idle']);
    // 参考图9: rook exchange offers (兑) are idle.
    assert.deepEqual(
      kinds('2bakcb2/4a4/8n/2p1p1p1p/9/9/4P1P1P/2r1B2rC/4A1R1R/3AK1B2 w - - 0 1', 'g1h1 h2g2 h1g1 g2h2'),
      ['idle', 'idle', 'idle', 'idle'],
    );
  });

  it('an answer to a check chases with its own piece, not with what the check left', () => {
    const kinds = (fen: string, moves: string): string[] => verdict(fen, moves).cycles[0].moves.map((m) => m.kind);
    // 参考图47: 炮三平五 blocks the check and unmasks the rook's attack on the cannon on g1.
    const c = verdict(
      'r2akabr1/9/2n1b1n2/p1p1p1R1p/6c2/2P6/P3P2CP/2N1C4/6c1N/R1BAKAB2 w - - 0 1',
      'e2g2 g5e5 g2e2 e5g5',
    ).cycles[0];
    assert.ok(c.moves[2].answersCheck);
    assert.equal(c.moves[2].kind, 'chase');
    assert.deepEqual(c.moves[2].targets, [{ side: 'black', piece: 'cannon', square: 'g1' }]);
    assert.deepEqual(c.moves[2].by, [{ side: 'red', piece: 'rook', square: 'g6' }]);
    // 参考图22: 炮2平6 blocks the check that left the red cannon on e6 unprotected: idle.
    assert.deepEqual(kinds('3a1k3/4a4/5c3/p1p1C4/4r4/5R3/P1P1P4/6N2/4A4/2c1KA3 w - - 0 1', 'f4e4 f7b7 e4f4 b7f7'), [
      'idle',
      'mate-threat',
      'check',
      'idle',
    ]);
  });

  it('message keys and parameters for a page to translate', () => {
    const c = verdict(FIGURES[0].fen, FIGURES[0].moves).cycles[0];
    assert.deepEqual(
      c.messages.map((m) => m.key),
      [
        'cycle',
        'move.chase',
        'move.idle',
        'move.chase',
        'move.chase',
        'side.summary',
        'side.summary',
        'verdict.must-change',
      ],
    );
    assert.deepEqual(c.messages[0].params, { from: 0, to: 4, length: 4, fromMove: 1, toMove: 2, rule: 'ChineseRule' });
    assert.deepEqual(c.messages[1].params, {
      side: 'red',
      move: 'h6i4',
      text: '马二退一',
      ply: 1,
      targets: 'rook',
      targetSquares: 'i9',
      by: 'cannon',
      bySquares: 'i2',
      byCheck: '0',
    });
    assert.deepEqual(c.messages[7].params, { side: 'red', winner: 'black', offence: 'perpetual-chase' });
  });

  it('参考图40: both sides chase every move, chases by a piece alone lose against joint attacks', () => {
    const c = verdict('5a3/1N1c1k3/4b4/4NC3/6p1p/2B6/5n2P/2n1B4/3KA4/5A3 w - - 0 1', 'b8c6 d8d7 c6b8 d7d8').cycles[0];
    assert.ok(c.red.attacksEveryMove && c.black.attacksEveryMove);
    assert.equal(c.mustChange, 'red');
    assert.equal(c.code, 'perpetual-chase');
    assert.deepEqual(c.messages[7], {
      key: 'verdict.single-against-joint',
      params: { side: 'red', other: 'black' },
    });
    assert.ok(c.moves[1].winsByCheck || c.moves[1].byCheck.includes(true));
    // 参考图44: each side chases one piece, no joint attack: a draw, no such sentence.
    const d = verdict('2baka3/9/4bn2n/4PR3/p8/9/8P/5A3/4Ac3/4K4 w - - 0 1', 'f6i6 f1i1 i6f6 i1f1').cycles[0];
    assert.equal(d.result, 'draw');
    assert.ok(!d.messages.some((m) => m.key === 'verdict.single-against-joint'));
  });

  it('other rule sets and notations: the same cycle, their own ruling', () => {
    const f = FIGURES[0];
    const asian = verdict(f.fen, f.moves, { rule: 'AsianRule', notation: 'wxf' });
    assert.equal(asian.cycles[0].code, 'allowed');
    assert.equal(asian.cycles[0].moves[0].text, 'H2-1');
    assert.equal(asian.end && asian.end.result, 'draw');
    const none = verdict(f.fen, f.moves, { rule: 'NoJudgement' });
    assert.equal(none.cycles[0].code, 'not-judged');
    assert.equal(none.end, null);
    assert.match(
      none.text,
      /The rules do not judge this cycle: the game goes on\.\nThe rules let the game run to its last move\.$/,
    );
  });

  it('a game without repetition, and one that repeats twice', () => {
    const quiet = verdict('rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1', 'h2e2 h9g7');
    assert.deepEqual([quiet.cycles.length, quiet.end], [0, null]);
    assert.equal(quiet.text, 'No position repeats.\nThe rules let the game run to its last move.');
    // A cycle, a way out of it, and back to the same position: two stretches.
    const v = verdict('4k4/9/6n2/9/9/9/9/7R1/9/3K5 w - - 0 1', 'h2g2 g7h9 g2h2 h9g7 h2h4 g7e8 h4h2 e8g7', {
      rule: 'NoJudgement',
    });
    assert.deepEqual(
      v.cycles.map((c) => [c.from, c.to, c.moves.map((m) => m.kind).join(' ')]),
      [
        [0, 4, 'chase idle chase idle'],
        [4, 8, 'idle idle idle idle'],
      ],
    );
  });
});

describe('refused games', () => {
  it('a move that is not legal names its ply', () => {
    const [g] = parseGames('[FEN "4k4/9/6n2/9/9/9/9/7R1/9/3K5 w - - 0 1"]\n\n1. h2g2 g7h9 *\n');
    assert.ok(g.ok);
    g.value.children[0].children[0].move = 1; // a0 to b0: nothing stands on a0
    const v = judgeGame(g.value);
    assert.ok(!v.ok);
    assert.equal(v.error.code, 'move-illegal');
    assert.match(v.error.message, /^ply 2: /);
  });

  it('a start position that is not one', () => {
    const v = judgeGame(newGame('not a fen'));
    assert.ok(!v.ok);
    assert.match(v.error.code, /^fen-/);
  });
});
