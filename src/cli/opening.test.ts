import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { test } from 'node:test';
import { readGames } from '../notation/files.js';
import { parseGames, writePgn } from '../notation/pgn.js';
import { runOpeningCli } from './opening.js';

const dir = new URL('../../../test/data/openings/ccgc/', import.meta.url);

function run(argv: string[]): { code: number; out: string; err: string } {
  let out = '';
  let err = '';
  const code = runOpeningCli(argv, {
    stdout: { write: (s: string) => (out += s) },
    stderr: { write: (s: string) => (err += s) },
  });
  return { code, out, err };
}

test('kirin opening: one line per game, code, opening and variation, as xqbase tagged its own games', () => {
  const files = readdirSync(dir)
    .sort()
    .map((f) => new URL(f, dir).pathname);
  assert.equal(files.length, 5);
  const r = run(files);
  assert.equal(r.code, 0, r.err);
  assert.equal(r.err, '');
  // The files' own [ECCO] [Opening] [Variation] tags (GBK, written by xqbase's tools).
  const tagged = files.map((f) => {
    const g = readGames(readFileSync(f), f)[0];
    assert.ok(g.ok);
    return `${g.value.headers.ECCO}\t${g.value.headers.Opening}\t${g.value.headers.Variation}`;
  });
  assert.deepEqual(r.out.trim().split('\n'), tagged);
  assert.ok(tagged.some((t) => t.startsWith('C46\t')));
});

test('kirin opening: a game it cannot name keeps its line, with the reason on stderr', () => {
  const bad = run(['/no/such/file.pgn']);
  assert.equal(bad.code, 2);
  assert.match(bad.err, /^kirin opening: cannot read \/no\/such\/file\.pgn: /);
  assert.equal(run([]).code, 2);
  assert.equal(run(['--frobnicate']).code, 2);
  assert.match(run(['--help']).out, /^usage: kirin opening \[--encoding NAME\] FILE\.\.\.\n/);
});

test('PGN written by Kirin carries the ECCO, Opening and Variation tags', () => {
  const [game] = parseGames('[Event "x"]\n\n1. h2e2 h7e7 2. h0g2 h9g7 3. b0c2 i9i8 *\n');
  assert.ok(game.ok);
  const text = writePgn(game.value, { notation: 'uci' });
  assert.ok(text.ok);
  assert.match(text.value, /\[ECCO "D01"\]\n\[Opening "顺炮缓开车对横车"\]\n/);
  assert.doesNotMatch(text.value, /\[Variation/, 'D01 has no variation');
  // The game's own non-empty tags stay; empty ones are filled.
  const [own] = parseGames('[ECCO "Z99"]\n[Opening ""]\n\n1. h2e2 h7e7 *\n');
  assert.ok(own.ok);
  const written = writePgn(own.value);
  assert.ok(written.ok);
  assert.match(written.value, /\[ECCO "Z99"\]\n\[Opening "顺炮缓开车对其他"\]/);
  // Not from the start position: no ECCO opening.
  const [fen] = parseGames('[FEN "4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1"]\n\n1. d0d1 *\n');
  assert.ok(fen.ok);
  const none = writePgn(fen.value);
  assert.ok(none.ok);
  assert.doesNotMatch(none.value, /ECCO|Opening/);
});
