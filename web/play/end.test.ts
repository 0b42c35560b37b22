import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  BLACK,
  Position,
  RED,
  parseLegalMove,
  ruleConfigFrom,
  type Color,
  type RuleConfig,
} from '../../src/browser/index.js';
import {
  AGREED_DRAW,
  endOfRecord,
  endWords,
  flagEnd,
  hasAttackers,
  judgeEnd,
  pgnResult,
  pgnTermination,
  resignEnd,
} from './end.js';
import type { EndReason, GameEnd } from './end.js';
import type { Translate } from './host.js';
import { PLAY_MESSAGES } from './messages.js';

/** The catalog's text for a key with its placeholders filled; a missing key or value throws. */
function translator(lang: keyof typeof PLAY_MESSAGES): Translate {
  return (key, params = {}) => {
    const text = PLAY_MESSAGES[lang][key];
    if (text === undefined) throw new Error(`no message ${key} in ${lang}`);
    return text.replace(/\{(\w+)\}/g, (_, name: string) => {
      if (!(name in params)) throw new Error(`${key} needs {${name}}`);
      return String(params[name]);
    });
  };
}
const zh = translator('zh-Hans');
const hant = translator('zh-Hant');
const en = translator('en');

const rules = (repetitionRule: string, drawRule = 'None'): RuleConfig =>
  ruleConfigFrom({ repetitionRule, drawRule, rule60MaxPly: 120, mateThreatDepth: 0 });

function position(fen: string, moves = ''): Position {
  const r = Position.fromFen(fen);
  assert.ok(r.ok);
  const p = r.value;
  for (const uci of moves.split(' ').filter(Boolean)) {
    const m = parseLegalMove(p, uci);
    assert.ok(m.ok, uci);
    p.doMove(m.value);
  }
  return p;
}

test("the rules core's verdicts as game ends: the loser is the side the reason is about", () => {
  const mated = judgeEnd(position('4k4/1R7/9/9/R8/9/9/9/9/3K5 w - - 0 1', 'a5a9'), rules('AsianRule'));
  assert.deepEqual(mated, { result: 'red', reason: 'checkmate', side: BLACK, byDrawRule: false });
  assert.equal(endWords(mated!, zh), '红胜：黑方被将死');
  assert.equal(endWords(mated!, hant), '紅勝：黑方被將死');
  assert.equal(endWords(mated!, en), 'Red wins: Black is checkmated');

  const stalemated = judgeEnd(position('4k4/R8/9/9/9/9/9/9/5R3/3K5 w - - 0 1', 'f1f0'), rules('AsianRule'));
  assert.deepEqual(stalemated, { result: 'red', reason: 'stalemate', side: BLACK, byDrawRule: false });
  assert.equal(endWords(stalemated!, zh), '红胜：黑方困毙（无着可走）');

  // Red checks with the rook again and again: under AsianRule the perpetual checker loses.
  const checks = position('4k4/9/9/9/9/9/9/9/9/R4K3 w - - 0 1', 'a0a9 e9e8 a9a8 e8e9 a8a9 e9e8 a9a8 e8e9');
  const perpetual = judgeEnd(checks, rules('AsianRule'));
  assert.deepEqual(perpetual, { result: 'black', reason: 'perpetual-check', side: RED, byDrawRule: false });
  assert.equal(endWords(perpetual!, zh), '黑胜：红方长将判负');
  assert.equal(endWords(perpetual!, hant), '黑勝：紅方長將判負');
  assert.equal(endWords(perpetual!, en), 'Black wins: Red loses by perpetual check');
  // NoJudgement lets it go on.
  assert.equal(judgeEnd(checks, rules('NoJudgement')), null);

  const bare = position('3ak4/4a4/9/9/9/9/9/9/4A4/3K5 w - - 0 1');
  const material = judgeEnd(bare, rules('AsianRule'));
  assert.deepEqual(material, { result: 'draw', reason: 'insufficient-material', side: null, byDrawRule: false });
  assert.equal(endWords(material!, zh), '和棋：双方均无进攻子力');
  // DrawRule counts the draw as Black's win, and the words say so.
  const counted = judgeEnd(bare, rules('AsianRule', 'DrawAsBlackWin'));
  assert.deepEqual(counted, { result: 'black', reason: 'insufficient-material', side: null, byDrawRule: true });
  assert.equal(endWords(counted!, zh), '黑胜：双方均无进攻子力 （和局按 DrawRule 规则计为胜局）');
  assert.equal(pgnResult(counted!), '0-1');

  // Knights out and back on both sides: nobody checks or chases, the position repeats: a draw.
  const shuffled = position(
    'rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1',
    'h0g2 h9g7 g2h0 g7h9',
  );
  const repeated = judgeEnd(shuffled, rules('AsianRule'));
  assert.deepEqual(repeated, { result: 'draw', reason: 'repetition', side: null, byDrawRule: false });
  assert.equal(endWords(repeated!, zh), '和棋：双方不变作和');
  assert.equal(judgeEnd(new Position(), rules('AsianRule')), null);
});

test('a flag loses, unless the other side has nothing left to attack with', () => {
  const start = new Position();
  assert.deepEqual(flagEnd(start, RED), { result: 'black', reason: 'flag', side: RED, byDrawRule: false });
  assert.equal(endWords(flagEnd(start, RED), zh), '黑胜：红方超时判负');
  assert.equal(endWords(flagEnd(start, BLACK), hant), '紅勝：黑方超時判負');
  assert.equal(endWords(flagEnd(start, BLACK), en), 'Red wins: Black lost on time');
  // Black has only its king, advisors and bishops: Red's flag is a draw; Black's flag still loses.
  const bare = position('2bak4/4a4/4b4/9/9/9/9/9/4R4/3K5 w - - 0 1');
  assert.equal(hasAttackers(bare, RED), true);
  assert.equal(hasAttackers(bare, BLACK), false);
  const drawn = flagEnd(bare, RED);
  assert.deepEqual(drawn, { result: 'draw', reason: 'flag-no-material', side: RED, byDrawRule: false });
  assert.equal(endWords(drawn, zh), '和棋：红方超时，但黑方已无进攻子力，判和');
  assert.equal(endWords(drawn, en), 'Draw: Red ran out of time, but Black has no attacking piece left');
  assert.equal(flagEnd(bare, BLACK).result, 'red');
  assert.equal(pgnTermination(drawn), 'time forfeit');
  // A pawn, a knight, a cannon or a rook each count as attackers.
  for (const fen of ['3ak4/9/9/9/9/4p4/9/9/9/3K5', '3ak4/9/9/9/9/4n4/9/9/9/3K5', '3ak4/9/9/9/9/4c4/9/9/9/3K5'])
    assert.equal(hasAttackers(position(`${fen} w - - 0 1`), BLACK), true, fen);
});

test('every way a game ends has its words in all three languages, with the sides named', () => {
  const reasons: EndReason[] = [
    'checkmate',
    'stalemate',
    'perpetual-check',
    'perpetual-chase',
    'perpetual-mate-threat',
    'forbidden-cycle',
    'check-limit',
    'repetition',
    'rule60',
    'insufficient-material',
    'flag',
    'flag-no-material',
    'resign',
    'agreement',
  ];
  const draws = new Set<EndReason>(['repetition', 'rule60', 'insufficient-material', 'agreement', 'flag-no-material']);
  const expectedZh: Record<EndReason, string> = {
    checkmate: '红胜：黑方被将死',
    stalemate: '红胜：黑方困毙（无着可走）',
    'perpetual-check': '红胜：黑方长将判负',
    'perpetual-chase': '红胜：黑方长捉判负',
    'perpetual-mate-threat': '红胜：黑方长杀判负',
    'forbidden-cycle': '红胜：黑方走禁着判负',
    'check-limit': '红胜：黑方连续将军超限判负',
    repetition: '和棋：双方不变作和',
    rule60: '和棋：六十回合未吃子，自然限着作和',
    'insufficient-material': '和棋：双方均无进攻子力',
    flag: '红胜：黑方超时判负',
    'flag-no-material': '和棋：黑方超时，但红方已无进攻子力，判和',
    resign: '红胜：黑方认输',
    agreement: '和棋：双方议和',
  };
  for (const reason of reasons) {
    const draw = draws.has(reason);
    const side: Color | null = reason === 'flag-no-material' ? BLACK : draw ? null : BLACK;
    const end: GameEnd = { result: draw ? 'draw' : 'red', reason, side, byDrawRule: false };
    assert.equal(endWords(end, zh), expectedZh[reason], reason);
    for (const t of [hant, en]) {
      const words = endWords(end, t);
      assert.ok(!/[{}]/.test(words), words);
      assert.ok(words.startsWith(t(draw ? 'play.result.draw' : 'play.result.redWins')), words);
    }
  }
  assert.equal(endWords(resignEnd(RED), en), 'Black wins: Red resigned');
  assert.equal(endWords(AGREED_DRAW, hant), '和棋：雙方議和');
  assert.equal(pgnResult(AGREED_DRAW), '1/2-1/2');
  assert.equal(pgnTermination(resignEnd(RED)), 'normal');
  assert.equal(
    pgnTermination({ result: 'red', reason: 'perpetual-chase', side: BLACK, byDrawRule: false }),
    'rules infraction',
  );
});

test("a played game's end read back from its record: the rules' verdict, else its Result and Termination", () => {
  const asian = rules('AsianRule');
  const start = new Position();
  const after = position('rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1', 'h2e2');
  // Black to move ran out of time; Red to move resigned; a draw agreed.
  assert.deepEqual(endOfRecord({ Termination: 'time forfeit' }, '1-0', after, asian), flagEnd(after, BLACK));
  assert.equal(endWords(endOfRecord({ Termination: 'time forfeit' }, '1-0', after, asian)!, zh), '红胜：黑方超时判负');
  assert.deepEqual(endOfRecord({ Termination: 'normal' }, '0-1', start, asian), resignEnd(RED));
  assert.deepEqual(endOfRecord({ Termination: 'normal' }, '1/2-1/2', start, asian), AGREED_DRAW);
  // A flag whose result does not fit the position (the record was edited) says nothing.
  assert.equal(endOfRecord({ Termination: 'time forfeit' }, '0-1', after, asian), null);
  // A mate is the mate, whatever the Termination.
  const mated = position('4k4/1R7/9/9/R8/9/9/9/9/3K5 w - - 0 1', 'a5a9');
  assert.equal(endOfRecord({ Termination: 'normal' }, '1-0', mated, asian)?.reason, 'checkmate');
  // Red's perpetual check under AsianRule: a rules infraction, read from the position.
  const checks = position('4k4/9/9/9/9/9/9/9/9/R4K3 w - - 0 1', 'a0a9 e9e8 a9a8 e8e9 a8a9 e9e8 a9a8 e8e9');
  assert.equal(endOfRecord({ Termination: 'rules infraction' }, '0-1', checks, asian)?.reason, 'perpetual-check');
  // Not the play room's (no Termination), or no result: nothing.
  assert.equal(endOfRecord({}, '1-0', start, asian), null);
  assert.equal(endOfRecord({ Termination: 'normal' }, '*', start, asian), null);
});
