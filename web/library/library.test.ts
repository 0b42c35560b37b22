import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { before, test } from 'node:test';
import {
  Engine,
  mainLine,
  moveToUci,
  parseGames,
  reviewGame,
  type Game,
  type Review,
} from '../../src/browser/index.js';
import { GameLibrary } from './library.js';
import { MemoryStore } from './store.js';

const file = (name: string): Uint8Array =>
  new Uint8Array(readFileSync(new URL(`../../../test/data/games/${name}`, import.meta.url)));

function game(pgn: string): Game {
  const g = parseGames(pgn)[0];
  assert.ok(g.ok);
  return g.value;
}

/** A library in memory with a hand-moved clock and numbered ids. */
function library(): { lib: GameLibrary; store: MemoryStore; tick: () => void } {
  let now = 1000;
  let n = 0;
  const store = new MemoryStore();
  return { lib: new GameLibrary(store, { now: () => now, newId: () => `g${++n}` }), store, tick: () => (now += 1000) };
}

const PLAYED = '[Red "棋手"]\n[Black "Kirin"]\n1. 炮二平五 {中炮} 马８进７ 2. 马二进三 (2. 兵七进一) 车９平８ 1-0';

let review: Review;
before(async () => {
  // A real review of the game's main line (a few hundred nodes a position).
  const engine = new Engine();
  try {
    const r = await reviewGame(engine, { moves: mainLine(game(PLAYED)).map(moveToUci) }, { nodes: 300 });
    assert.ok(r.ok);
    review = r.value;
  } finally {
    await engine.close();
  }
});

test('a played game is kept with its headers, comments, variations and review, and opened again', async () => {
  const { lib } = library();
  let changes = 0;
  lib.onChange = () => changes++;
  const saved = await lib.save(game(PLAYED), { source: 'played', review });
  assert.ok(saved.ok);
  assert.equal(saved.value.id, 'g1');
  assert.equal(changes, 1);
  const opened = await lib.open('g1');
  assert.ok(opened.ok);
  const g = opened.value.game;
  assert.equal(g.headers.Red, '棋手');
  assert.equal(g.children[0].comment, '中炮');
  assert.equal(g.children[0].children[0].children.length, 2, 'the variation 2. 兵七进一 is kept');
  assert.equal(g.result, '1-0');
  assert.deepEqual(opened.value.review, review, 'the review comes back whole');
  const missing = await lib.open('nope');
  assert.ok(!missing.ok);
  assert.equal(missing.error.code, 'library-missing');
});

test('update keeps the name and the review while it fits; rename and delete', async () => {
  const { lib, tick } = library();
  const saved = await lib.save(game(PLAYED), { source: 'played', review });
  assert.ok(saved.ok);
  tick();
  const renamed = await lib.rename('g1', '  与 Kirin 的第一盘  ');
  assert.ok(renamed.ok);
  assert.equal(renamed.value.title, '与 Kirin 的第一盘');
  assert.equal(renamed.value.updated, 2000);
  const tooLong = await lib.rename('g1', '长'.repeat(201));
  assert.ok(!tooLong.ok);
  assert.equal(tooLong.error.code, 'library-title');
  // A comment written and a move added after the reviewed ones: the review still fits.
  const longer = game(`${PLAYED.replace(' 1-0', '')} 3. 车一平二 *`);
  longer.children[0].comment = '中炮开局';
  tick();
  const updated = await lib.update('g1', longer);
  assert.ok(updated.ok);
  assert.equal(updated.value.title, '与 Kirin 的第一盘');
  assert.equal(updated.value.created, 1000);
  assert.equal(updated.value.plies, 5);
  assert.deepEqual(updated.value.review, review);
  // Another main line: the review no longer fits and is dropped.
  const other = game('1. 兵七进一 *');
  const dropped = await lib.update('g1', other);
  assert.ok(dropped.ok);
  assert.equal(dropped.value.review, null);
  await lib.remove('g1');
  assert.deepEqual(await lib.list(), []);
  const gone = await lib.update('g1', other);
  assert.ok(!gone.ok);
});

test('import many: every game of the files, duplicates once, bad games said; export all as one PGN', async () => {
  const { lib } = library();
  const report = await lib.importFiles([
    { name: 'xqdb-chinese.pgn', bytes: file('xqdb-chinese.pgn') },
    { name: 'study.pgn', bytes: file('hbsxcjp-01-chinese.pgn') },
    { name: 'again.pgn', bytes: file('xqdb-chinese.pgn') },
    { name: 'broken.pgn', bytes: new TextEncoder().encode('[Event "x"]\n1. 炮二平五 马９进９ *') },
  ]);
  assert.equal(report.saved.length, 5);
  assert.equal(report.duplicates, 4);
  assert.equal(report.errors.length, 1);
  assert.match(report.errors[0], /^broken\.pgn: /);
  const list = await lib.list({ text: 'ZHAO' });
  assert.equal(list.length, 1);
  assert.equal(list[0].source, 'imported');
  const played = await lib.save(game(PLAYED), { source: 'played', review });
  assert.ok(played.ok);
  const all = await lib.exportAll('chinese');
  assert.equal(all.games, 6);
  assert.deepEqual(all.errors, []);
  const back = parseGames(all.pgn);
  assert.equal(back.length, 6);
  assert.ok(back.every((r) => r.ok));
  // The reviewed game goes out with its review (the summary comment, the annotator).
  const reviewed = back.find((r) => r.ok && r.value.headers.Red === '棋手');
  assert.ok(reviewed?.ok);
  assert.equal(reviewed.value.headers.Annotator, 'Kirin');
  assert.match(reviewed.value.comment, /accuracy/i);
  // Only what a query finds.
  const some = await lib.exportAll('wxf', { source: 'played' });
  assert.equal(some.games, 1);
  assert.match(some.pgn, /\[Format "WXF"\]/);
});

test('the session: the open game and the move shown come back after a reload, until the game is deleted', async () => {
  const { lib, store } = library();
  assert.equal(await lib.restoreSession(), null);
  const saved = await lib.save(game(PLAYED), { source: 'played', review });
  assert.ok(saved.ok);
  await lib.saveSession({ id: saved.value.id, ply: 3 });
  // A reload: a new library over the same store.
  const reloaded = new GameLibrary(store);
  const s = await reloaded.restoreSession();
  assert.ok(s);
  assert.equal(s.ply, 3);
  assert.equal(s.record.id, 'g1');
  assert.deepEqual(s.review, review);
  assert.equal(mainLine(s.game).length, 4);
  // A ply beyond the game is brought back to its end.
  await lib.saveSession({ id: 'g1', ply: 99 });
  assert.equal((await reloaded.restoreSession())?.ply, 4);
  await reloaded.remove('g1');
  assert.equal(await lib.restoreSession(), null);
  await lib.saveSession(null);
  assert.equal(await lib.restoreSession(), null);
});

test('games imported under the board are kept once: the same game again is the record kept before', async () => {
  const { lib } = library();
  let changes = 0;
  lib.onChange = () => changes++;
  const two = [game(PLAYED), game('[Red "甲"]\n[Black "乙"]\n1. 炮二平五 马８进７ 0-1')];
  const first = await lib.keepAll(two);
  assert.deepEqual(
    first.map((r) => (r.ok ? [r.value.id, r.value.source, r.value.red] : r.error.code)),
    [
      ['g1', 'imported', '棋手'],
      ['g2', 'imported', '甲'],
    ],
  );
  assert.equal(changes, 1);
  const again = await lib.keepAll([game(PLAYED)]);
  assert.ok(again[0].ok);
  assert.equal(again[0].value.id, 'g1', 'the record kept before');
  assert.equal(changes, 1, 'nothing new saved');
  assert.equal((await lib.list()).length, 2);
  // Its comments and variations are kept with it.
  const opened = await lib.open('g1');
  assert.ok(opened.ok);
  assert.equal(opened.value.game.children[0].comment, '中炮');
});
