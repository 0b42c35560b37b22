// The referee's tactical threats (threat.ts): what a side can win on its next
// move in the Chinese rules' sense (捉), and its plans to mate (杀); the same
// verdicts for both colours and both wings.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { assignIds, idBoard } from './chase.js';
import { Position } from './position.js';
import { CHECK_WINS, checkTarget, checkWins, forcedMate, threatBy, threatJoint, threatTargets } from './threat.js';
import { FILE_OF, PIECE_CHARS, RANK_OF, squareName } from './types.js';
import { parseLegalMove } from './ucimove.js';
import { flipFilesFen, mirrorFen, randomPositions } from '../../test/support/fixtures.js';

const LIMIT = 20000;
/** The book's 参考图48 (test/rules/chinese-corpus.txt, cn-ref48). */
const REF48 = '2baka1R1/1c7/5c1C1/p3p3p/9/9/P3P3P/4B4/2n1A4/2BA1K3 w - - 0 1';

function at(fen: string, moves: readonly string[] = []): Position {
  const pos = new Position(fen);
  for (const u of moves) {
    if (u === 'null') pos.doNullMove();
    else {
      const m = parseLegalMove(pos, u);
      assert.ok(m.ok, `${u} in ${pos.fen()}`);
      pos.doMove(m.value);
    }
  }
  return pos;
}

/**
 * "Ne5" for each enemy piece the side to move can win, and with which piece
 * ("Ne5<Ra5"), in square order; "*" after one that only several pieces together win.
 */
function threats(pos: Position, withBy = false): string[] {
  assignIds(pos);
  const mask = threatTargets(pos, LIMIT);
  const out: string[] = [];
  for (let s = 0; s < 90; s++) {
    const p = pos.board[s];
    if (!p || p >> 3 === pos.side || !(mask & (1 << idBoard[s]))) continue;
    let text = PIECE_CHARS[p].toUpperCase() + squareName(s);
    if (withBy)
      for (let a = 0; a < 90; a++) {
        const q = pos.board[a];
        if (q && q >> 3 === pos.side && idBoard[a] === threatBy[idBoard[s]])
          text += `<${PIECE_CHARS[q].toUpperCase()}${squareName(a)}`;
      }
    out.push(text + (threatJoint.mask & (1 << idBoard[s]) ? '*' : ''));
  }
  if (mask & CHECK_WINS) {
    // A check that wins material whatever the answer: name its checker and a piece it wins.
    const name = (color: number, id: number): string => {
      for (let s = 0; s < 90; s++) {
        const p = pos.board[s];
        if (p && p >> 3 === color && idBoard[s] === id) return PIECE_CHARS[p].toUpperCase() + squareName(s);
      }
      return '?';
    };
    const joint = threatJoint.mask & CHECK_WINS ? '*' : '';
    const by = 31 - Math.clz32(checkWins.by & -checkWins.by);
    out.push(`check ${name(pos.side, by)} wins ${name(pos.side ^ 1, checkTarget[by])}${joint}`);
  }
  return out;
}

describe('threatTargets: the pieces a side can win (捉)', () => {
  it('an unprotected piece under attack', () => {
    assert.deepEqual(threats(at('3k5/9/9/9/R3n4/9/9/9/9/4K4 w - - 0 1'), true), ['Ne5<Ra5', 'check Ra5 wins Ne5']);
    // Behind a screen of advisors the rook has no check: only the capture.
    assert.deepEqual(threats(at('3ak4/4a4/9/9/R3n4/9/9/9/9/3K5 w - - 0 1'), true), ['Ne5<Ra5']);
  });

  it('not a protected piece of lower value: rook takes knight, rook takes rook', () => {
    assert.deepEqual(threats(at('3k5/9/9/9/R3n3r/9/9/9/9/4K4 w - - 0 1')), []);
  });

  it('a protected piece of higher value: the knight wins the rook for itself', () => {
    assert.deepEqual(threats(at('4k1r2/9/9/9/6r2/4N4/9/9/9/3K5 w - - 0 1'), true), ['Rg5<Ne4']);
  });

  it('not two pieces of equal value that attack each other (an exchange offer, 兑), protected or not', () => {
    assert.deepEqual(threats(at('4k1r2/9/9/9/6n2/4N4/9/9/9/3K5 w - - 0 1')), []);
    assert.deepEqual(threats(at('3k5/9/9/9/R3r4/9/9/9/9/5K3 w - - 0 1')), []);
  });

  it('pawns and kings may attack freely; a pawn at home is no target', () => {
    assert.deepEqual(threats(at('3k5/9/4n4/4P4/9/9/9/9/9/5K3 w - - 0 1')), []);
    assert.deepEqual(threats(at('3k5/9/9/R3p4/9/9/9/9/9/5K3 w - - 0 1')), []);
    // The same pawn across the river (for Black, rank 4 or below) is a target.
    assert.deepEqual(threats(at('3k5/9/9/9/9/R3p4/9/9/9/5K3 w - - 0 1')), ['Pe4']);
  });

  it("a rook won by a check that unmasks it (the book's 图2: after 马一进二 the knight checks and the rook takes, a joint attack)", () => {
    const fen = '1r2kab1r/2c1a4/n1c1b1n2/4p2N1/p1p6/1C4P2/P1P1P4/2N1B3C/4A4/1RBAK2R1 w - - 0 1';
    assert.deepEqual(threats(at(fen, ['h6i4', 'i9h9', 'i4h6', 'null']), true), ['check Nh6 wins Rh9*']);
    // Before the move the same check was no threat: the knight stood on i4.
    assert.deepEqual(threats(at(fen, ['h6i4', 'i9h9'])), []);
  });

  it('a protected piece that two pieces attack is won jointly (联合捉), an unprotected one by one piece alone', () => {
    // The knight on e5 is protected by the rook on e9: one rook alone would lose itself for it, two win it.
    assert.equal(threats(at('4rk3/9/9/9/R3n4/9/9/9/4R4/3K5 w - - 0 1'))[0], 'Ne5*');
    assert.deepEqual(threats(at('4rk3/9/9/9/R3n4/9/9/9/9/3K5 w - - 0 1')), []);
    // Unprotected, it is the first rook's alone.
    assert.equal(threats(at('5k3/9/9/9/R3n4/9/9/9/4R4/3K5 w - - 0 1'))[0], 'Ne5');
    // 参考图40: 炮4进1 sets up the knight's check with the cannon behind it, a knight-cannon joint attack.
    const ref40 = '5a3/1N1c1k3/4b4/4NC3/6p1p/2B6/5n2P/2n1B4/3KA4/5A3 w - - 0 1';
    assert.ok(threats(at(ref40, ['b8c6', 'd8d7', 'null'])).some((t) => t.startsWith('check') && t.endsWith('*')));
  });

  it('nothing for a side in check', () => {
    assert.deepEqual(threats(at('3k5/9/9/9/R3n4/9/9/9/9/3rK4 w - - 0 1')), []);
  });
});

describe('forcedMate: plans to mate (杀)', () => {
  it('a mate by check in one move', () => {
    assert.equal(forcedMate(at('4k4/R8/9/9/9/9/9/9/9/1R1K5 w - - 0 1'), 1, LIMIT, true), true);
  });

  it("a quiet first move then mate: found as a plan, not by checks alone (the book's 参考图48: 士6进5 is 杀)", () => {
    const pos = at(REF48, ['h9h8', 'f9e8', 'null']);
    assert.equal(forcedMate(pos, 1, LIMIT, true), false);
    assert.equal(forcedMate(pos, 3, LIMIT, false), false);
    assert.equal(forcedMate(pos, 2, LIMIT, true), true);
  });

  it("taking a rook that offers the exchange is no mate threat (the book's 图29: 兑, not 杀)", () => {
    const fen = '2bak2r1/4aP3/4b4/2r1C4/4P4/2B6/4R3R/B8/1p7/c3K4 w - - 0 1';
    const pos = at(fen, ['i3h3', 'null']);
    // Rook takes rook would mate, but the black rook on h9 attacks the red one back.
    const take = parseLegalMove(pos, 'h3h9');
    assert.ok(take.ok && pos.givesCheck(take.value) && pos.board[take.value & 127] === PIECE_CHARS.indexOf('r'));
    assert.equal(forcedMate(pos, 1, LIMIT, true), false);
    // The same rook move with nothing to answer it is a mate threat.
    assert.equal(forcedMate(at('2bak2n1/4aP3/4b4/4C4/4P4/9/7R1/9/9/4K4 w - - 0 1'), 1, LIMIT, true), true);
  });
});

/** The square's image under the colour flip (ranks reversed) or the wing flip (files reversed). */
function image(sq: number, colours: boolean): number {
  return colours ? (9 - RANK_OF[sq]) * 9 + FILE_OF[sq] : RANK_OF[sq] * 9 + 8 - FILE_OF[sq];
}

describe('the same verdicts for both colours and both wings', () => {
  const positions = randomPositions(120, 60, 50).filter((p) => !p.inCheck());

  it('threatTargets', () => {
    // Of two pieces of one value that a check could win, the search may name
    // either (it stops at the first winning line), so targets are compared by value.
    let some = 0;
    const VALUE: Record<string, string> = { R: 'rook', N: 'minor', C: 'minor', A: 'weak', B: 'weak', P: 'weak' };
    const kinds = (list: string[]): string =>
      list
        .map((t) => (t.startsWith('check') ? 'check' : VALUE[t[0]]) + (t.endsWith('*') ? '*' : ''))
        .sort()
        .join(' ');
    for (const pos of positions) {
      const mine = threats(pos);
      if (mine.length) some++;
      for (const colours of [true, false]) {
        const other = at(colours ? mirrorFen(pos.fen()) : flipFilesFen(pos.fen()));
        const back = threats(other).map((t) =>
          t.startsWith('check')
            ? t
            : t[0] + squareName(image((t.charCodeAt(2) - 48) * 9 + t.charCodeAt(1) - 97, colours)),
        );
        assert.equal(kinds(back), kinds(mine), `${pos.fen()} (${colours ? 'colours' : 'wings'} flipped)`);
      }
    }
    assert.ok(some >= 10, `only ${some} positions with a threat`);
  });

  it('forcedMate', () => {
    let some = 0;
    const mates = [at('4k4/R8/9/9/9/9/9/9/9/1R1K5 w - - 0 1'), at(REF48, ['h9h8', 'f9e8', 'null'])];
    for (const pos of [...mates, ...positions]) {
      const mine = forcedMate(pos, 2, LIMIT, true);
      if (mine) some++;
      assert.equal(forcedMate(at(mirrorFen(pos.fen())), 2, LIMIT, true), mine, pos.fen());
      assert.equal(forcedMate(at(flipFilesFen(pos.fen())), 2, LIMIT, true), mine, pos.fen());
    }
    assert.ok(some >= mates.length, `${some} mates found`);
  });
});
