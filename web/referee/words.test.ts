import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Position, addMove, judgeGame, newGame, parseLegalMove, type Game } from '../../src/browser/index.js';
import { joinCatalogs, translator } from '../i18n/i18n.js';
import { ROOM_MESSAGES } from '../i18n/rooms.js';
import { LANGUAGES } from '../i18n/catalog.js';
import { gameMoveWords, verdictText } from './words.js';

/** A game from a FEN and UCI moves. */
function game(fen: string, moves: string): Game {
  const g = newGame(fen);
  const pos = new Position(fen);
  let tree: Game | ReturnType<typeof addMove> = g;
  for (const u of moves.split(' ')) {
    const m = parseLegalMove(pos, u);
    assert.ok(m.ok, u);
    tree = addMove(tree, m.value);
    pos.doMove(m.value);
  }
  return g;
}

const catalogs = joinCatalogs(ROOM_MESSAGES);

// The rule book's figure 2 (ChineseRule: a chase, a chase won by a check, an idle move, a chase back)
// and figure 6 (a perpetual check answered), as src/referee/judge.test.ts has them.
const FIGURE_2 = game(
  '1r2kab1r/2c1a4/n1c1b1n2/4p2N1/p1p6/1C4P2/P1P1P4/2N1B3C/4A4/1RBAK2R1 w - - 0 1',
  'h6i4 i9h9 i4h6 h9i9',
);
const FIGURE_6 = game('2b6/4k4/9/9/9/9/9/9/2p6/3K1RBc1 w - - 0 1', 'f0e0 e8f8 e0f0 f8e8');

const said = (g: Game, lang: 'zh-Hans' | 'zh-Hant' | 'en'): string[][] => {
  const v = judgeGame(g, { rule: 'ChineseRule' });
  assert.ok(v.ok);
  return verdictText(
    translator(catalogs, lang),
    v.value,
    gameMoveWords(g, { notation: 'chinese', traditional: lang === 'zh-Hant' }),
  );
};

test('the referee in Chinese: who chases what with what, who idles, who must change, the result', () => {
  assert.deepEqual(said(FIGURE_2, 'zh-Hans'), [
    [
      '第 1 至 4 着回到开始的局面，4 着一个循环：',
      '红方马二退一捉黑车（i9），用红炮（i2）。',
      '黑方车9平8是闲着。',
      '红方马一进二捉黑车（h9）（红马（h6）将军得之）。',
      '黑方车8平9捉红炮（i2），用黑车（i9）。',
      '红方每着都捉子。',
      '黑方捉子 1 次和闲着 1 次。',
      '红方必须变着：长捉判负；红方若继续重复，判黑方胜。',
    ],
    ['规则在第 4 着后结束对局：黑胜（长捉）。'],
  ]);
  assert.deepEqual(said(FIGURE_6, 'zh-Hans')[0].slice(1, 3), [
    '红方车四平五将军（红车（e0））。',
    '黑方将5平6应将（闲着）。',
  ]);
  // Traditional: the moves and the pieces too.
  assert.equal(said(FIGURE_6, 'zh-Hant')[0][1], '紅方車四平五將軍（紅車（e0））。');
});

test('the referee in English', () => {
  assert.deepEqual(said(FIGURE_6, 'en'), [
    [
      'Plies 1-4 repeat the start position, a cycle of 4 plies:',
      'Red 车四平五 checks (the red rook on e0).',
      'Black 将5平6 answers the check (idle).',
      'Red 车五平四 checks (the red rook on f0).',
      'Black 将6平5 answers the check (idle).',
      'Red checks on every move.',
      'Black makes only idle moves.',
      'Red must change: a perpetual check loses; Black wins if Red repeats.',
    ],
    ['The rules end the game after ply 4: Black wins (perpetual check).'],
  ]);
});

test('every sentence of every verdict is said in all three languages, every placeholder filled', () => {
  for (const g of [FIGURE_2, FIGURE_6])
    for (const lang of LANGUAGES)
      for (const s of said(g, lang).flat()) {
        assert.notEqual(s, '', lang);
        assert.doesNotMatch(s, /\{\w+\}|referee\.|game\./, `${lang}: ${s}`);
      }
});
