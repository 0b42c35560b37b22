// `kirin convert`: every game of every file in one notation, the unreadable
// ones named on stderr.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { repoPath } from '../../toolkit/files.js';
import { mainLine } from '../notation/game.js';
import { parseGames } from '../notation/pgn.js';
import { runConvertCli } from './convert.js';

function io() {
  const out: string[] = [],
    errs: string[] = [];
  return {
    io: { stdout: { write: (t: string) => out.push(t) }, stderr: { write: (t: string) => errs.push(t) } },
    out: () => out.join(''),
    err: () => errs.join(''),
  };
}

const UCI = repoPath('test', 'data', 'games', 'xqdb-uci.pgn');
const WXF = repoPath('test', 'data', 'games', 'xqdb-wxf.pgn');

test('kirin convert: the games of two files in Chinese, the same moves as read', () => {
  const t = io();
  assert.equal(runConvertCli(['--notation', 'chinese', UCI, WXF], t.io), 0, t.err());
  assert.equal(t.err(), '');
  const out = parseGames(t.out());
  const source = [...parseGames(readFileSync(UCI)), ...parseGames(readFileSync(WXF))];
  assert.equal(out.length, source.length);
  assert.equal(out.length, 7);
  out.forEach((g, i) => {
    const s = source[i];
    assert.ok(g.ok && s.ok);
    assert.deepEqual(mainLine(g.value), mainLine(s.value), `game ${i + 1}`);
    assert.equal(g.value.headers.Format, 'Chinese');
  });
  assert.match(t.out(), /炮二平五/);
  // UCI and WXF too; the default is Chinese.
  for (const [notation, first] of [
    ['uci', /1\. h2e2 h9g7/],
    ['wxf', /1\. C2=5 H8\+7/],
    ['iccs', /1\. H2-E2 H9-G7/],
  ] as const) {
    const u = io();
    assert.equal(runConvertCli(['--notation', notation, UCI], u.io), 0);
    assert.match(u.out(), first);
  }
  const d = io();
  assert.equal(runConvertCli([UCI], d.io), 0);
  assert.match(d.out(), /\[Format "Chinese"\]/);
});

test('kirin convert: a bad game or file is named and the others are written', () => {
  const files: Record<string, Uint8Array> = {
    'good.pgn': new TextEncoder().encode(
      '[Event "a"]\n1. h2e2 h9g7 *\n\n[Event "b"]\n1. h2e2 h2e2 *\n\n[Event "c"]\n1. b2e2 *\n',
    ),
    'empty.pgn': new Uint8Array(0),
  };
  const read = (path: string): Uint8Array => {
    const f = files[path];
    if (f === undefined) throw new Error(`ENOENT: no such file, open '${path}'`);
    return f;
  };
  const t = io();
  assert.equal(runConvertCli(['--notation', 'uci', 'good.pgn', 'missing.pgn', 'empty.pgn'], t.io, read), 2);
  assert.equal(parseGames(t.out()).length, 2);
  assert.deepEqual(
    t
      .err()
      .trim()
      .split('\n')
      .map((l) => l.replace(/ in \S+ . - - \d+ \d+$/, '')),
    [
      "kirin convert: good.pgn: game 2 (b): move 1 (Black): 'h2e2' is not a legal move of Black",
      "kirin convert: cannot read missing.pgn: ENOENT: no such file, open 'missing.pgn'",
      'kirin convert: no game in empty.pgn',
    ],
  );
  const bad = io();
  assert.equal(runConvertCli(['--notation', 'pgn', UCI], bad.io), 2);
  assert.match(bad.err(), /--notation pgn: one of chinese, wxf, iccs, uci/);
  assert.equal(runConvertCli([], io().io), 2);
});
