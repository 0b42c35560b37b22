// `kirin explorer build` and `probe` in process: a build from a directory of
// game files, the probe of its positions in each notation, the shipped explorer
// of master games, and the refusals with their exit codes.

import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { Position } from '../core/position.js';
import { unwrap } from '../../test/support/fixtures.js';
import { Explorer } from '../explorer/explorer.js';
import { readMastersExplorer, runExplorerCli } from './explorer.js';

const dir = mkdtempSync(join(tmpdir(), 'kirin-explorer-'));
after(() => rmSync(dir, { recursive: true, force: true }));

function run(argv: string[]): { code: number; out: string; err: string } {
  let out = '';
  let err = '';
  const code = runExplorerCli(argv, {
    stdout: { write: (s: string) => (out += s) },
    stderr: { write: (s: string) => (err += s) },
  });
  return { code, out, err };
}

test('kirin explorer build over a directory, then probe its positions in any notation', () => {
  const games = join(dir, 'games');
  mkdirSync(join(games, 'more'), { recursive: true });
  writeFileSync(
    join(games, 'a.pgn'),
    '[Red "甲"][Black "乙"][Date "2001"][Result "1-0"]\n1. 炮二平五 马8进7 2. 马二进三 1-0\n\n' +
      '[Red "丙"][Black "丁"][Result "0-1"]\n1. C2=5 H8+7 0-1\n',
  );
  writeFileSync(join(games, 'more', 'b.pgn'), '[Result "1/2-1/2"]\n1. h2e2 h7e7 1/2-1/2\n');
  writeFileSync(join(games, 'notes.txt'), 'not a game file');
  const out = join(dir, 't.explorer');
  const b = run(['build', '--out', out, '--min-games', '1', '--name', 'test set', games]);
  assert.equal(b.code, 0, b.err);
  assert.match(
    b.out,
    /t\.explorer: \d+ bytes, 5 positions, 4 moves, 3 notable games, from 3 games \(2 files, 3 games read, 0 duplicates, 0 problems\)/,
  );
  const x = unwrap(Explorer.fromBytes(readFileSync(out)));
  assert.equal(x.description.name, 'test set');
  assert.equal(x.probe(new Position())?.games, 3);

  const p = run(['probe', '--file', out, '炮二平五']);
  assert.equal(p.code, 0, p.err);
  assert.deepEqual(p.out.trim().split('\n'), [
    'explorer: t.explorer (3 games, 5 positions)',
    'position: rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1',
    'opening: B00 中炮局',
    'move          games    red   draw  black',
    '(all)             3  33.3%  33.3%  33.3%',
    '马8进7            2  50.0%   0.0%  50.0%',
    '炮8平5            1   0.0% 100.0%   0.0%',
    'notable games:',
    '  甲 - 乙, 2001: 1-0 (3 plies)',
    '  丙 - 丁: 0-1 (2 plies)',
    '  ? - ?: 1/2-1/2 (2 plies)',
  ]);
  const wxf = run(['probe', '--file', out, '--notation', 'wxf', 'startpos', 'moves', 'h2e2']);
  assert.match(wxf.out, /^H8\+7 +2 +50\.0%/m);
  const fen = run([
    'probe',
    '--file',
    out,
    'rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR',
    'b',
    '-',
    '-',
    '1',
    '1',
    'h9g7',
  ]);
  assert.match(fen.out, /^position: rnbakab1r\/9\/1c4nc1\//m);
  assert.match(fen.out, /^马二进三 +1 +100\.0%/m);
  const none = run(['probe', '--file', out, 'c3c4']);
  assert.equal(none.code, 0);
  assert.match(none.out, /not in the explorer/);
});

test("kirin explorer probe: Kirin's master games, shipped beside the book", () => {
  const bytes = readMastersExplorer();
  assert.ok(bytes !== null, 'dist/browser/masters.explorer (assembly/build.js copies it)');
  const x = unwrap(Explorer.fromBytes(bytes, 'masters.explorer'));
  assert.ok(bytes.length < 1.5e6, `${bytes.length} bytes`);
  assert.equal(x.description.games, 27927);
  const start = x.probe(new Position())!;
  assert.equal(start.games, 27927);
  assert.equal(start.moves[0].uci, 'h2e2', '炮二平五, the most played first move');
  assert.ok(start.moves[0].games > 15000);
  assert.equal(start.redWins + start.draws + start.blackWins, start.games);
  assert.ok(start.notable.length === 2 && start.notable.every((g) => g.red !== '' && g.moves.length > 20));
  const p = run(['probe', '炮二平五', '马8进7']);
  assert.equal(p.code, 0, p.err);
  assert.match(p.out, /^explorer: masters\.explorer \(27927 games, \d+ positions\)$/m);
  assert.match(p.out, /^马二进三 +\d{4,}/m);
});

test('kirin explorer: bad command lines, moves, files and game files, with the exit codes of every command', () => {
  const empty = join(dir, 'empty.pgn');
  writeFileSync(empty, '');
  const good = join(dir, 'good.pgn');
  writeFileSync(good, '1. h2e2 h9g7 *\n\n[Red "X"]\n1. h2e2 h2e2 *\n');
  const cases: [string[], number, RegExp][] = [
    [['build', good], 2, /--out FILE is required/],
    [['build', '--out', join(dir, 'x.explorer'), empty], 2, /no game in .*empty\.pgn/],
    [['build', '--out', join(dir, 'x.explorer'), good], 1, /good\.pgn: game 2 \(X vs \?\): move 1 \(Black\)/],
    [['build', '--out', join(dir, 'x.explorer'), '--depth', '0', good], 2, /--depth 0: below 1/],
    [['build', '--out', join(dir, 'x.explorer'), join(dir, 'missing')], 2, /missing: ENOENT/],
    [['probe', '--file', good], 2, /damaged explorer file at byte 0: not a Kirin explorer file/],
    [['probe', 'h2e2', 'h2e2'], 2, /after 1 moves: 'h2e2'/],
    [['probe', '--notation', 'fen'], 2, /--notation fen: one of/],
    [['probe', 'rnbakabnr/9 w'], 2, /FEN/],
    [['frob'], 2, /unknown command 'frob' \(build or probe\)/],
  ];
  for (const [argv, code, message] of cases) {
    const r = run(argv);
    assert.equal(r.code, code, `${argv.join(' ')}: ${r.err}`);
    assert.match(r.err, message, argv.join(' '));
  }
});
