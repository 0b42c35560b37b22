// The search plays by the rules: it steers away from a forbidden cycle that it
// would lose, and takes a rule win that the opponent's perpetual chase hands it.
// Each test also runs a rule set under which the same move is harmless, so that
// the difference comes from the rule judgement and not from the position.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { DEFAULT_RULES, ruleConfigFrom } from './rules.js';
import { Searcher } from '../search/search.js';
import { defaultOptions, play, recordingIO } from '../../test/support/fixtures.js';
import { VALUE_MATE_IN_MAX_PLY, moveToUci } from './types.js';

const searcher = new Searcher(4);

function search(fen: string, moves: string, rule: string, depth: number) {
  const pos = play(fen, moves);
  searcher.clear();
  const r = searcher.search(
    pos,
    { depth, startTime: performance.now() },
    defaultOptions({ rules: ruleConfigFrom({ ...DEFAULT_RULES, repetitionRule: rule }) }),
    recordingIO(),
  );
  return { move: moveToUci(r.bestMove), score: r.score };
}

describe('search under the repetition rules', () => {
  // Red (rook) against black rook and cannon: red is lost on material, but the
  // rook can check the bare king along ranks 9 and 8 for ever. After
  // a0a9 e9e8 a9a8 e8e9 the check a8a9 repeats the position.
  const FEN = '4k4/9/9/9/9/9/6c2/7r1/9/R4K3 w - - 0 1';
  const HISTORY = 'a0a9 e9e8 a9a8 e8e9';

  it('takes the perpetual-check draw where cycles are not judged', () => {
    const r = search(FEN, HISTORY, 'NoJudgement', 10);
    assert.equal(r.move, 'a8a9');
    assert.ok(Math.abs(r.score) <= 2, `score ${r.score}`);
  });

  it('avoids the perpetual check that would lose under AsianRule', () => {
    const r = search(FEN, HISTORY, 'AsianRule', 10);
    assert.notEqual(r.move, 'a8a9');
    assert.ok(r.score < -200 && r.score > -VALUE_MATE_IN_MAX_PLY, `score ${r.score}`);
  });

  it('and under ComputerRule, where it would be the third occurrence soon', () => {
    const r = search(FEN, `${HISTORY} a8a9 e9e8 a9a8 e8e9`, 'ComputerRule', 10);
    assert.notEqual(r.move, 'a8a9');
    assert.ok(r.score < -200, `score ${r.score}`);
  });

  // The red rook has chased the lone black knight twice (h2g2, g2h2); black to
  // move returns to g7, completing the cycle: red's perpetual chase loses.
  const CHASE = '4k4/9/6n2/9/9/9/9/7R1/9/3K5 w - - 0 1';

  it('does not let a perpetual-chase win slip (AsianRule)', () => {
    const r = search(CHASE, 'h2g2 g7h9 g2h2', 'AsianRule', 8);
    assert.equal(r.move, 'h9g7');
    assert.ok(r.score >= VALUE_MATE_IN_MAX_PLY, `score ${r.score}`);
  });

  it('where chasing is allowed the same cycle is only a draw', () => {
    const r = search(CHASE, 'h2g2 g7h9 g2h2', 'AllowChase', 8);
    assert.ok(Math.abs(r.score) <= 2, `score ${r.score}`);
  });

  it('ComputerRule: the win comes at the third occurrence', () => {
    const r = search(CHASE, 'h2g2 g7h9 g2h2 h9g7 h2g2 g7h9 g2h2', 'ComputerRule', 8);
    assert.equal(r.move, 'h9g7');
    assert.ok(r.score >= VALUE_MATE_IN_MAX_PLY, `score ${r.score}`);
  });
  // AXF diagram 37: the red rook chases the lone black cannon on every move while
  // the cannon answers with a check (a1a0) and a chase (a0a1). "One check, one
  // chase" is allowed, so completing the cycle wins for Black under AsianRule,
  // although Black is far behind on material; Pikafish's ComputerRule calls any
  // cycle with a check in it a draw, which Black, being lost, is glad to take.
  const AXF37 = '4k4/9/9/9/9/9/9/9/c3A1N2/1RBK5 w - - 0 1';

  it("a check among the chased side's moves does not excuse the chaser (AsianRule)", () => {
    const r = search(AXF37, 'b0b1 a1a0 b1b0', 'AsianRule', 8);
    assert.equal(r.move, 'a0a1');
    assert.ok(r.score >= VALUE_MATE_IN_MAX_PLY, `score ${r.score}`);
  });

  it('ComputerRule rules the same cycle a draw', () => {
    const r = search(AXF37, 'b0b1 a1a0 b1b0 a0a1 b0b1 a1a0 b1b0', 'ComputerRule', 8);
    assert.equal(r.move, 'a0a1');
    assert.ok(Math.abs(r.score) <= 2, `score ${r.score}`);
  });
});
