// kirin book as a command: build a book from a game file, probe it (the pure
// parts: build.test.ts).

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { repoPath } from '../../toolkit/files.js';

const dir = mkdtempSync(join(tmpdir(), 'kirin-book-cli-'));
after(() => rmSync(dir, { recursive: true, force: true }));

test('kirin book build and probe', () => {
  const pgn = join(dir, 'games.pgn');
  writeFileSync(pgn, '[Result "1-0"]\n1. h2e2 h9g7 2. h0g2 1-0\n\n[Result "0-1"]\n1. c3c4 g6g5 0-1\n');
  const out = join(dir, 'x.book');
  const kirin = (...args: string[]) =>
    spawnSync(process.execPath, [repoPath('bin', 'kirin.js'), 'book', ...args], { encoding: 'utf8' });
  const b = kirin('build', '--out', out, '--min-games', '1', '--min-score', '0', pgn);
  assert.equal(b.status, 0, b.stderr);
  assert.match(
    b.stdout,
    /x\.book: \d+ bytes, 5 moves in 4 positions, from 2 games \(1 files, 2 games read, 0 duplicates, 0 problems\)/,
  );
  const p = kirin('probe', '--book', out, 'h2e2');
  assert.equal(p.status, 0, p.stderr);
  assert.deepEqual(p.stdout.trim().split('\n'), [
    'book: x.book (5 entries, 2 games)',
    'position: rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1',
    'opening: B00 中炮局',
    'move  weight   games    wins   draws  losses  score',
    'h9g7    0.0%       1       0       0       1   0.0%',
  ]);
  const fen = kirin('probe', '--book', out, '4k4/9/9/9/9/9/9/9/9/3K5', 'w', '-', '-', '0', '1');
  assert.equal(fen.status, 0, fen.stderr);
  assert.match(fen.stdout, /no book moves/);
  const bad = kirin('probe', '--book', join(dir, 'games.pgn'));
  assert.equal(bad.status, 2);
  assert.match(bad.stderr, /games\.pgn: damaged opening book at byte 0: not a Kirin opening book/);
  const missing = kirin('build', pgn);
  assert.equal(missing.status, 2);
  assert.match(missing.stderr, /--out FILE is required/);
});

test('kirin book build: the exit codes of every command that reads game files', () => {
  const kirin = (...args: string[]) =>
    spawnSync(process.execPath, [repoPath('bin', 'kirin.js'), 'book', 'build', ...args], { encoding: 'utf8' });
  const good = join(dir, 'good.pgn');
  writeFileSync(good, '[Result "1-0"]\n1. h2e2 h9g7 1-0\n');
  const some = join(dir, 'some.pgn');
  writeFileSync(some, '[Result "1-0"]\n1. h2e2 h9g7 1-0\n\n[Red "B"]\n1. h2e2 h2e2 *\n');
  const empty = join(dir, 'empty.pgn');
  writeFileSync(empty, '');
  const out = join(dir, 'codes.book');
  assert.equal(kirin('--out', out, good).status, 0);
  const partial = kirin('--out', out, good, some);
  assert.equal(partial.status, 1, partial.stderr);
  assert.match(partial.stderr, /some\.pgn: game 2 \(B vs \?\): move 1 \(Black\)/);
  const nothing = kirin('--out', out, good, empty);
  assert.equal(nothing.status, 2);
  assert.match(nothing.stderr, /kirin book build: no game in .*empty\.pgn/);
  const encoding = kirin('--out', out, '--encoding', 'latin1', good);
  assert.equal(encoding.status, 2);
  assert.match(encoding.stderr, /--encoding unknown encoding 'latin1'/);
});
