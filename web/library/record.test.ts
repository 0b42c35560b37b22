import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { mainLine, moveToUci, newGame, parseGames, writePgn, type Game } from '../../src/browser/index.js';
import { gameFromRecord, recordFromGame, reviewFits, type GameRecord } from './record.js';

const games = (file: string): Game[] =>
  parseGames(readFileSync(new URL(`../../../test/data/games/${file}`, import.meta.url), 'utf8')).map((r) => {
    assert.ok(r.ok);
    return r.value;
  });

test('a game kept as a record: its headers, opening, result and length are the fields the list shows', () => {
  const [game] = games('xqdb-chinese.pgn');
  const r = recordFromGame(game, { id: 'a', source: 'imported', now: 1000 });
  assert.ok(r.ok);
  const rec = r.value;
  assert.equal(rec.red, 'ZHAO GuoRong');
  assert.equal(rec.black, 'KE YongQing');
  assert.equal(rec.event, 'Zhongli Cup TV fast game Champion 1997');
  assert.equal(rec.date, '');
  assert.equal(rec.plies, mainLine(game).length);
  assert.match(rec.eccoCode, /^[A-E]\d\d$/);
  assert.match(rec.opening, /[\u4e00-\u9fff]/);
  assert.equal(rec.result, game.result);
  assert.deepEqual([rec.created, rec.updated, rec.title, rec.source, rec.review], [1000, 1000, '', 'imported', null]);
  assert.match(rec.pgn, /\[Format "ICCS"\]/);
});

test('a record gives its game back: moves, variations, comments and headers', () => {
  const [study] = games('hbsxcjp-01-chinese.pgn');
  const r = recordFromGame(study, { id: 'study', source: 'imported', now: 5 });
  assert.ok(r.ok);
  // A study from a set-up position: no ECCO name, the header's opening (empty here).
  assert.equal(r.value.eccoCode, '');
  const back = gameFromRecord(r.value);
  assert.ok(back.ok);
  const g = back.value;
  assert.equal(g.fen, study.fen);
  assert.deepEqual(mainLine(g), mainLine(study));
  assert.equal(g.children.length, study.children.length, 'the first move keeps its variations');
  assert.equal(g.children[0].comment, study.children[0].comment);
  assert.equal(g.headers.TitleA, '第01局');
  // Written again, the game reads the same.
  const again = writePgn(g, { notation: 'iccs' });
  assert.ok(again.ok);
  assert.equal(again.value, r.value.pgn);
});

test('a game with an illegal move, and a damaged record, are refused with the reason', () => {
  const bad = newGame();
  bad.children.push({ move: (0 << 7) | 45, commentBefore: '', comment: '', nags: [], children: [] });
  const r = recordFromGame(bad, { id: 'x', source: 'analysis', now: 1 });
  assert.ok(!r.ok);
  assert.equal(r.error.code, 'library-game');
  assert.match(r.error.message, /a0a5/);
  const good = recordFromGame(games('xqdb-chinese.pgn')[1], { id: 'y', source: 'imported', now: 1 });
  assert.ok(good.ok);
  const damaged: GameRecord = { ...good.value, pgn: good.value.pgn.replace(/1\. \S+/, '1. Z9-Z9') };
  const back = gameFromRecord(damaged);
  assert.ok(!back.ok);
  assert.equal(back.error.code, 'library-record');
  assert.match(back.error.message, /^game y: /);
});

test('a review fits the game whose main line starts with its moves', () => {
  const [game] = games('xqdb-chinese.pgn');
  const moves = mainLine(game).map(moveToUci);
  const review = { startFen: game.fen, moves: moves.slice(0, 10) };
  assert.equal(reviewFits(game, review), true);
  assert.equal(reviewFits(game, { ...review, moves }), true);
  assert.equal(reviewFits(game, { ...review, moves: [...moves, 'a0a1'] }), false);
  assert.equal(reviewFits(game, { ...review, moves: ['h2e2', 'b9c7'] }), moves[1] === 'b9c7' && moves[0] === 'h2e2');
  assert.equal(reviewFits(game, { ...review, startFen: '4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1' }), false);
});
