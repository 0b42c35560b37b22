// Game-end judgement: options, mate and stalemate, the 60-move rule with its
// check exemption, DrawRule conversions, insufficient material, the in-search
// scoring of repetitions (ply semantics, ComputerRule's provisional verdict) and
// the verdict record the in-search judgement fills.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { Position } from './position.js';
import {
  DEFAULT_RULES,
  DRAW_RULES,
  REPETITION_RULES,
  type DrawRule,
  type RepetitionRule,
  type RuleConfig,
  formatJudgement,
  isBoardReason,
  judge,
  judgeMoves,
  reasonText,
  RuleVerdict,
  ruleConfigFrom,
  ruleJudge,
} from './rules.js';
import { BLACK, RED, VALUE_DRAW, VALUE_NONE, mateIn, matedIn } from './types.js';
import { play, uciMove } from '../../test/support/fixtures.js';

/** The verdict record the in-search judgements below fill (as the search's own does). */
const verdict = new RuleVerdict();
function searchScore(pos: Position, ply: number, rules: RuleConfig): number {
  return ruleJudge(pos, ply, rules, verdict);
}

function cfg(rule: RepetitionRule, drawRule: DrawRule = 'None', rule60MaxPly = 120, mateThreatDepth = 0): RuleConfig {
  return ruleConfigFrom({ repetitionRule: rule, drawRule, rule60MaxPly, mateThreatDepth });
}

const START_118 = 'rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 118 1';
const CHECKS = '4k4/9/9/9/9/9/9/9/9/R4K3 w - - 0 1';
const CHECK_CYCLE = 'a9a8 e8e9 a8a9 e9e8';
const PROTECTED = '4k3r/9/r5n2/9/9/9/9/7R1/9/3K5 w - - 0 1';
const CHASE = '4k4/9/6n2/9/9/9/9/7R1/9/3K5 w - - 0 1';
const CHASE_CYCLE = 'h2g2 g7h9 g2h2 h9g7';

describe('options', () => {
  it('lists the rule sets and draw rules of the wiki, AsianRule/None/120/0 by default', () => {
    assert.deepEqual(
      [...REPETITION_RULES],
      ['AsianRule', 'ComputerRule', 'ChineseRule', 'SkyRule', 'YitianRule', 'AllowChase', 'NoJudgement'],
    );
    assert.deepEqual(
      [...DRAW_RULES],
      ['None', 'DrawAsBlackWin', 'DrawAsRedWin', 'DrawRepAsBlackWin', 'DrawRepAsRedWin'],
    );
    assert.deepEqual(
      { ...DEFAULT_RULES },
      { repetitionRule: 'AsianRule', drawRule: 'None', rule60MaxPly: 120, mateThreatDepth: 0 },
    );
  });

  it('ruleConfigFrom validates names and clamps numbers', () => {
    const c = ruleConfigFrom({
      repetitionRule: 'computerrule',
      drawRule: 'drawasredwin',
      rule60MaxPly: 500,
      mateThreatDepth: -3,
    });
    assert.deepEqual(c, {
      repetitionRule: 'ComputerRule',
      drawRule: 'DrawAsRedWin',
      rule60MaxPly: 120,
      mateThreatDepth: 0,
    });
    const d = ruleConfigFrom({ repetitionRule: 'Bogus', drawRule: '', rule60MaxPly: 60.7, mateThreatDepth: 12 });
    assert.deepEqual(d, { repetitionRule: 'AsianRule', drawRule: 'None', rule60MaxPly: 60, mateThreatDepth: 10 });
  });

  it('every reason code has its words, and the board reasons are told apart from cycles', () => {
    assert.equal(reasonText('rule60'), '60-move rule');
    assert.equal(reasonText('perpetual-mate-threat'), 'perpetual mate threat');
    assert.equal(reasonText('none'), '');
    assert.ok(isBoardReason('checkmate') && isBoardReason('insufficient-material'));
    assert.ok(!isBoardReason('repetition') && !isBoardReason('perpetual-check'));
  });
  it('formats judgements for `d`', () => {
    assert.equal(formatJudgement({ result: 'none', code: 'none', byDrawRule: false, reason: '' }), 'Judgement: none');
    assert.equal(
      formatJudgement({ result: 'draw', code: 'repetition', byDrawRule: false, reason: 'repetition' }),
      'Judgement: draw (repetition)',
    );
    assert.equal(
      formatJudgement({ result: 'red', code: 'perpetual-chase', byDrawRule: false, reason: 'perpetual chase' }),
      'Judgement: red wins (perpetual chase)',
    );
    assert.equal(
      formatJudgement({ result: 'black', code: 'checkmate', byDrawRule: false, reason: 'checkmate' }),
      'Judgement: black wins (checkmate)',
    );
  });
});

describe('mate and stalemate', () => {
  it('a mated side loses', () => {
    const pos = new Position('R3k4/1R7/9/9/9/9/9/9/9/3K5 b - - 0 1');
    for (const r of REPETITION_RULES)
      assert.deepEqual(judge(pos, cfg(r)), {
        result: 'red',
        code: 'checkmate',
        byDrawRule: false,
        reason: 'checkmate',
      });
  });
  it('a stalemated side loses too', () => {
    const pos = new Position('4k4/R8/9/9/9/9/9/9/9/3K1R3 b - - 0 1');
    assert.equal(pos.inCheck(), false);
    assert.deepEqual(judge(pos, cfg('AsianRule')), {
      result: 'red',
      code: 'stalemate',
      byDrawRule: false,
      reason: 'stalemate',
    });
  });
  it('the start position is not over', () => {
    assert.deepEqual(judge(new Position(), DEFAULT_RULES), {
      result: 'none',
      code: 'none',
      byDrawRule: false,
      reason: '',
    });
  });
});

describe('60-move rule', () => {
  it('draws at Rule60MaxPly plies without capture', () => {
    const pos = play(START_118, 'h2e2');
    assert.equal(judge(pos, DEFAULT_RULES).result, 'none');
    assert.equal(searchScore(pos, 3, DEFAULT_RULES), VALUE_NONE);
    pos.doMove(uciMove('h9g7'));
    assert.equal(pos.rule60Count(), 120);
    assert.deepEqual(judge(pos, DEFAULT_RULES), {
      result: 'draw',
      code: 'rule60',
      byDrawRule: false,
      reason: '60-move rule',
    });
    assert.equal(searchScore(pos, 3, DEFAULT_RULES), VALUE_DRAW);
  });
  it('Rule60MaxPly 0 turns it off, smaller values shorten it', () => {
    const pos = play(START_118, 'h2e2 h9g7');
    assert.equal(judge(pos, cfg('AsianRule', 'None', 0)).result, 'none');
    assert.equal(searchScore(pos, 2, cfg('AsianRule', 'None', 0)), VALUE_NONE);
    const early = play(START_118.replace(' 118 ', ' 50 '), 'h2e2');
    assert.equal(judge(early, cfg('AsianRule', 'None', 51)).reason, '60-move rule');
    assert.equal(judge(early, cfg('AsianRule', 'None', 52)).result, 'none');
  });
  it("a side's checks beyond ten, and the replies, are not counted", () => {
    // NoJudgement: the perpetual check is not judged, so the counter can be watched.
    const pos = play(CHECKS.replace(' 0 1', ' 95 1'), 'a0a9 e9e8');
    assert.equal(pos.rule60Count(), 97);
    for (let i = 0; i < 4; i++) for (const t of CHECK_CYCLE.split(' ')) pos.doMove(uciMove(t));
    // 1 + 8 checks with their replies counted: 95 + 18 = 113.
    assert.equal(pos.rule60Count(), 113);
    for (let i = 0; i < 10; i++) for (const t of CHECK_CYCLE.split(' ')) pos.doMove(uciMove(t));
    // The 10th check and its reply still count (115); every later check and reply is exempt.
    assert.equal(pos.rule60Count(), 115);
    assert.equal(judge(pos, cfg('NoJudgement')).result, 'none');
    pos.doMove(uciMove('a9a5')); // not a check: counted again
    assert.equal(pos.rule60Count(), 116);
    pos.undoMove(uciMove('a9a5'));
    // Under AsianRule the same game was lost long ago by perpetual check.
    assert.equal(judge(pos, cfg('AsianRule')).reason, 'perpetual check');
  });
});

describe('DrawRule', () => {
  const repDraw = (dr: DrawRule) => {
    const game = judgeMoves(PROTECTED, CHASE_CYCLE.split(' '), cfg('AsianRule', dr));
    assert.ok(game.ok, game.ok ? '' : game.error.message);
    return game.value.judgement;
  };
  it('converts repetition draws', () => {
    assert.deepEqual(repDraw('None'), { result: 'draw', code: 'repetition', byDrawRule: false, reason: 'repetition' });
    assert.deepEqual(repDraw('DrawAsBlackWin'), {
      result: 'black',
      code: 'repetition',
      byDrawRule: true,
      reason: 'repetition, counted as a black win by DrawRule',
    });
    assert.equal(repDraw('DrawAsRedWin').result, 'red');
    assert.equal(repDraw('DrawRepAsBlackWin').result, 'black');
    assert.equal(repDraw('DrawRepAsRedWin').result, 'red');
  });
  it('converts 60-move draws only with DrawAs*', () => {
    const pos = play(START_118, 'h2e2 h9g7');
    assert.equal(judge(pos, cfg('AsianRule', 'DrawAsBlackWin')).result, 'black');
    assert.equal(judge(pos, cfg('AsianRule', 'DrawAsRedWin')).result, 'red');
    assert.equal(judge(pos, cfg('AsianRule', 'DrawRepAsBlackWin')).result, 'draw');
    // In the search the converted draw is a mate score for the favoured side (red to move here).
    assert.equal(searchScore(pos, 4, cfg('AsianRule', 'DrawAsRedWin')), mateIn(4));
    assert.equal(searchScore(pos, 4, cfg('AsianRule', 'DrawAsBlackWin')), matedIn(4));
    assert.equal(searchScore(pos, 4, cfg('AsianRule', 'DrawRepAsBlackWin')), VALUE_DRAW);
  });
});

describe('insufficient material', () => {
  it('no attacking pieces at all is a draw under every judging rule set', () => {
    const pos = new Position('3ak4/4a4/9/9/9/9/9/9/4A4/3K5 w - - 0 1');
    assert.deepEqual(judge(pos, cfg('ComputerRule')), {
      result: 'draw',
      code: 'insufficient-material',
      byDrawRule: false,
      reason: 'insufficient material',
    });
    assert.equal(judge(pos, cfg('AsianRule')).result, 'draw');
  });
  it("ComputerRule: Pikafish's cannon endings", () => {
    // A lone cannon without advisors against a bare king: direct draw.
    assert.equal(
      judge(new Position('4k4/9/9/9/9/9/9/9/4C4/3K5 w - - 0 1'), cfg('ComputerRule')).reason,
      'insufficient material',
    );
    assert.equal(judge(new Position('4k4/9/9/9/9/9/9/9/4C4/3K5 w - - 0 1'), cfg('AsianRule')).result, 'none');
    // Cannon against two advisors: a draw unless a move mates at once...
    assert.equal(judge(new Position('3aka3/9/9/9/9/9/9/2C6/9/3K5 w - - 0 1'), cfg('ComputerRule')).result, 'draw');
    // ...which c2c9 does here (the advisor d9 is the screen, e8 is blocked)...
    assert.equal(judge(new Position('3ak4/4a4/9/9/9/9/9/2C6/9/4K4 w - - 0 1'), cfg('ComputerRule')).result, 'none');
    // ...and with a bishop of its own the cannon side can still win.
    assert.equal(judge(new Position('3aka3/9/9/9/9/9/9/2C6/9/2BK5 w - - 0 1'), cfg('ComputerRule')).result, 'none');
    // A pawn anywhere keeps the game going.
    assert.equal(judge(new Position('3ak4/4a4/9/9/9/9/4P4/9/9/4K4 w - - 0 1'), cfg('ComputerRule')).result, 'none');
  });
});

describe('repetitions inside the search', () => {
  it('AsianRule judges the first recurrence, also at the root', () => {
    const pos = play(CHASE, CHASE_CYCLE);
    // Red (to move) chased the knight with every move: red loses.
    assert.equal(searchScore(pos, 0, cfg('AsianRule')), matedIn(0));
    assert.equal(searchScore(pos, 6, cfg('AsianRule')), matedIn(6));
    assert.equal(searchScore(pos, 6, cfg('AllowChase')), VALUE_DRAW);
    assert.equal(searchScore(pos, 6, cfg('NoJudgement')), VALUE_DRAW);
    assert.equal(searchScore(pos, 0, cfg('NoJudgement')), VALUE_NONE);
  });
  it('ComputerRule: two-fold inside the tree gives a hint, three-fold is final', () => {
    const pos = play(CHASE, CHASE_CYCLE);
    assert.equal(searchScore(pos, 0, cfg('ComputerRule')), VALUE_NONE);
    assert.equal(verdict.provisional, 0);
    assert.equal(searchScore(pos, 5, cfg('ComputerRule')), VALUE_NONE);
    assert.equal(verdict.provisional, -1);
    const again = play(CHASE, `${CHASE_CYCLE} ${CHASE_CYCLE}`);
    assert.equal(searchScore(again, 0, cfg('ComputerRule')), matedIn(0));
    assert.equal(searchScore(again, 9, cfg('ComputerRule')), matedIn(9));
  });
  it('the perpetual checker is the one who loses, whoever is to move', () => {
    const pos = play(CHECKS, 'a0a9 e9e8 a9a8 e8e9 a8a9 e9e8');
    assert.equal(searchScore(pos, 3, cfg('AsianRule')), matedIn(3)); // red to move loses
    pos.doMove(uciMove('a9a8'));
    assert.equal(searchScore(pos, 3, cfg('AsianRule')), mateIn(3)); // black to move wins
  });
  it('leaves the position as it found it', () => {
    const pos = play(CHASE, `${CHASE_CYCLE} ${CHASE_CYCLE}`);
    const fen = pos.fen(),
      key = pos.keyHex(),
      sp = pos.sp;
    for (const r of REPETITION_RULES) {
      searchScore(pos, 3, cfg(r, 'None', 120, 2));
      judge(pos, cfg(r));
    }
    assert.equal(pos.fen(), fen);
    assert.equal(pos.keyHex(), key);
    assert.equal(pos.sp, sp);
    assert.equal(pos.validate(), null);
  });
});

describe('the verdict record', () => {
  it('says who wins, why and on which cycle, with the moves as classified', () => {
    const pos = play(CHASE, CHASE_CYCLE);
    const v = new RuleVerdict();
    assert.equal(ruleJudge(pos, 6, cfg('AsianRule'), v), matedIn(6));
    assert.equal(v.score, matedIn(6));
    assert.equal(v.result, 'loss');
    assert.equal(v.code, 'perpetual-chase');
    assert.equal(v.byDrawRule, false);
    assert.equal(v.provisional, 0);
    assert.equal(v.cycleLength, 4);
    // Index 0 is the latest move (h9g7, black); red's rook moves chase the knight on both.
    const c = v.cycle;
    assert.equal(c.length, 4);
    assert.deepEqual([...c.side.subarray(0, 4)], [BLACK, RED, BLACK, RED]);
    assert.deepEqual([...c.check.subarray(0, 4)], [0, 0, 0, 0]);
    assert.equal(c.chased[0] | c.chased[2], 0);
    assert.notEqual(c.chased[1], 0);
    assert.equal(c.chased[1], c.chased[3]);
  });
  it('a perpetual check rests on its cycle without a classification', () => {
    const pos = play(CHECKS, 'a0a9 e9e8 a9a8 e8e9 a8a9 e9e8');
    const v = new RuleVerdict();
    assert.equal(ruleJudge(pos, 3, cfg('AsianRule'), v), matedIn(3));
    assert.equal(v.code, 'perpetual-check');
    assert.equal(v.cycleLength, 4);
    assert.equal(v.cycle.length, 0);
  });
  it("keeps ComputerRule's provisional verdict with its reason, and DrawRule's conversion", () => {
    const v = new RuleVerdict();
    assert.equal(ruleJudge(play(CHASE, CHASE_CYCLE), 5, cfg('ComputerRule'), v), VALUE_NONE);
    assert.equal(v.result, 'none');
    assert.equal(v.provisional, -1);
    assert.equal(v.code, 'perpetual-chase');
    assert.equal(v.cycleLength, 4);
    assert.equal(ruleJudge(play(START_118, 'h2e2 h9g7'), 4, cfg('AsianRule', 'DrawAsBlackWin'), v), matedIn(4));
    assert.equal(v.result, 'loss');
    assert.equal(v.code, 'rule60');
    assert.equal(v.byDrawRule, true);
    assert.equal(v.cycleLength, 0);
  });
  it('carries nothing from one judgement to the next', () => {
    const v = new RuleVerdict();
    ruleJudge(play(CHASE, CHASE_CYCLE), 5, cfg('SkyRule'), v);
    assert.notEqual(v.cycle.length, 0);
    assert.equal(ruleJudge(play(CHASE, 'h2g2'), 5, cfg('SkyRule'), v), VALUE_NONE);
    assert.deepEqual(
      [v.score, v.result, v.code, v.byDrawRule, v.provisional, v.cycleLength, v.cycle.length],
      [VALUE_NONE, 'none', 'none', false, 0, 0, 0],
    );
  });
});
