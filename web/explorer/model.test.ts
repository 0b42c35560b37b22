// The explorer panel's data: percentages that sum to 100, rows in the
// player's notation, notable games in one line, messages filled, and the
// catalog's keys the same in every language.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Position, buildExplorer, explorerGame, parseGames, Explorer } from '../../src/library.js';
import { LANGUAGES } from '../i18n/catalog.js';
import { EXPLORER_MESSAGES } from './messages.js';
import { explorerRows, fill, notableLine, wdlPercents } from './model.js';

test('wdlPercents: whole percents summing to 100', () => {
  assert.deepEqual(wdlPercents({ games: 3, redWins: 1, draws: 1, blackWins: 1 }), [34, 33, 33]);
  assert.deepEqual(wdlPercents({ games: 7, redWins: 2, draws: 4, blackWins: 1 }), [29, 57, 14]);
  assert.deepEqual(wdlPercents({ games: 0, redWins: 0, draws: 0, blackWins: 0 }), [0, 0, 0]);
  for (let g = 1; g < 40; g++)
    for (let r = 0; r <= g; r++) {
      const p = wdlPercents({ games: g, redWins: r, draws: g - r, blackWins: 0 });
      assert.equal(p[0] + p[1] + p[2], 100);
    }
});

test('explorerRows: the moves in the notation, their shares and bars; notable games in one line', () => {
  const games = parseGames(
    '[Red "甲"][Black "乙"][Event "全国赛"][Date "1980"][Result "1-0"]\n1. h2e2 h9g7 1-0\n\n' +
      '[Result "0-1"]\n1. h2e2 h7e7 0-1\n\n[Result "1/2-1/2"]\n1. c3c4 1/2-1/2\n',
  ).map((g, i) => (g.ok ? explorerGame(g.value, `g${i}`) : assert.fail('game')));
  const x = Explorer.fromBytes(buildExplorer(games, { depth: 5, minGames: 1, notable: 2, dedupe: true }).bytes);
  assert.ok(x.ok);
  const pos = new Position();
  const here = x.value.probe(pos)!;
  assert.deepEqual(explorerRows(pos, here, { notation: 'chinese' }), [
    { uci: 'h2e2', text: '炮二平五', games: 2, share: 67, wdl: [50, 0, 50] },
    { uci: 'c3c4', text: '兵七进一', games: 1, share: 33, wdl: [0, 100, 0] },
  ]);
  assert.equal(explorerRows(pos, here, { notation: 'wxf' })[0].text, 'C2=5');
  assert.equal(notableLine(here.notable[0]), '甲 – 乙 · 全国赛 · 1980 · 1-0');
  assert.equal(fill('{games} 局', { games: 27927 }), '27927 局');
  assert.equal(fill('{a} and {b}', { a: 1 }), '1 and {b}');
});

test('the messages have the same keys in every language', () => {
  const keys = Object.keys(EXPLORER_MESSAGES.en).sort();
  for (const l of LANGUAGES) assert.deepEqual(Object.keys(EXPLORER_MESSAGES[l]).sort(), keys, l);
  assert.ok(keys.every((k) => k.startsWith('explorer.')));
});
