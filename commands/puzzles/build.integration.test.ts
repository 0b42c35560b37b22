// kirin explorer build and kirin puzzles build from a small committed game set
// (test/data/games/ccpd-mates.pgn: 12 games, 11 distinct, of the Chinese Chess Practical
// Dataset's mating-attack collection, Big5 as published), end to end: the
// explorer counts the games, the puzzle set reads back and every puzzle's line
// is legal and wins.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { Explorer, Position, legalMoves, moveToUci, readPuzzles } from '../../src/index.js';
import { repoPath } from '../../toolkit/files.js';

const dir = mkdtempSync(join(tmpdir(), 'kirin-puzzles-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const GAMES = repoPath('test', 'data', 'games', 'ccpd-mates.pgn');

function kirin(...args: string[]) {
  return spawnSync(process.execPath, [repoPath('bin', 'kirin.js'), ...args], { encoding: 'utf8', timeout: 600_000 });
}

test('kirin explorer build counts the committed games', () => {
  const out = join(dir, 'mates.explorer');
  const r = kirin('explorer', 'build', '--out', out, '--min-games', '1', GAMES);
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /from 11 games \(1 files, 12 games read, 1 duplicates, 0 problems\)/);
  const x = Explorer.fromBytes(readFileSync(out));
  assert.ok(x.ok);
  const start = x.value.probe(new Position());
  assert.ok(start !== null);
  assert.equal(start.games + 0, start.redWins + start.draws + start.blackWins);
  assert.ok(start.games >= 8 && start.games <= 12, `${start.games} games from the start position`);
  assert.ok(start.notable.length > 0 && start.notable[0].red !== '');
});

test('kirin puzzles build finds puzzles in the committed games: each legal, each won by its line', () => {
  const out = join(dir, 'puzzles.json');
  const r = kirin(
    'puzzles',
    'build',
    '--out',
    out,
    '--target',
    '4',
    '--verify-nodes',
    '20000',
    '--threads',
    '2',
    GAMES,
  );
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /puzzles\.json: \d+ puzzles \(.*\) from \d+ games, \d+ candidates; rejected: /);
  const set = readPuzzles(readFileSync(out));
  assert.ok(set.ok, set.ok ? '' : set.error.message);
  const puzzles = set.value.puzzles;
  assert.ok(puzzles.length >= 4, `${puzzles.length} puzzles`);
  assert.equal(set.value.description.puzzles, puzzles.length);
  for (const p of puzzles) {
    assert.ok(p.themes.length > 0 && p.rating >= 600 && p.rating <= 2800, JSON.stringify(p));
    assert.match(p.source, /, move \d+$/);
    // A mate puzzle's line ends with the defender lost.
    const pos = Position.fromFen(p.fen);
    assert.ok(pos.ok);
    for (const m of p.moves) pos.value.doMove(legalMoves(pos.value).find((x) => moveToUci(x) === m)!);
    if (p.mateIn !== null) assert.equal(legalMoves(pos.value).length, 0, `${p.id} ends in mate`);
  }
});
