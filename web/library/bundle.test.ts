import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { mainLine, parseGames } from '../../src/browser/index.js';
import { bundlePgn, readManyGames } from './bundle.js';
import { recordFromGame, type GameRecord } from './record.js';

const bytes = (name: string): Uint8Array =>
  new Uint8Array(readFileSync(new URL(`../../../test/data/games/${name}`, import.meta.url)));

test('many files read at once: every game, and each error named by its file', () => {
  const r = readManyGames([
    { name: 'xqdb-wxf.pgn', bytes: bytes('xqdb-wxf.pgn') },
    { name: 'bing.pgn', bytes: bytes('hbsxcjp-bing.pgn') },
    { name: 'empty.pgn', bytes: new Uint8Array() },
    { name: 'bad.pgn', bytes: new TextEncoder().encode('1. 炮二进九 *') },
  ]);
  assert.equal(r.games.length, 5);
  assert.equal(r.errors.length, 2);
  assert.match(r.errors[0], /^empty\.pgn: no game in it$/);
  assert.match(r.errors[1], /^bad\.pgn: /);
});

test('the bundle: every record as one PGN in the notation asked for, reading back to the same games', () => {
  const games = readManyGames([{ name: 'xqdb-chinese.pgn', bytes: bytes('xqdb-chinese.pgn') }]).games;
  const records = games.map((g, i) => {
    const r = recordFromGame(g, { id: `r${i}`, source: 'imported', now: i });
    assert.ok(r.ok);
    return r.value;
  });
  for (const notation of ['chinese', 'wxf', 'iccs'] as const) {
    const b = bundlePgn(records, notation);
    assert.equal(b.games, 4);
    assert.deepEqual(b.errors, []);
    const back = parseGames(b.pgn);
    assert.equal(back.length, 4, notation);
    back.forEach((g, i) => {
      assert.ok(g.ok);
      assert.deepEqual(mainLine(g.value), mainLine(games[i]), `${notation} game ${i}`);
      assert.equal(g.value.headers.Red, games[i].headers.Red);
    });
  }
  // A damaged record is left out and said; the others go out.
  const damaged: GameRecord = { ...records[0], id: 'bad', pgn: '1. Z9-Z9 *' };
  const b = bundlePgn([damaged, records[1]], 'chinese');
  assert.equal(b.games, 1);
  assert.equal(b.errors.length, 1);
  assert.match(b.errors[0], /^game bad: /);
});
