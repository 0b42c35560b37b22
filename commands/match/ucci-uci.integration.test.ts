// The UCCI -> UCI adapter (commands/match/ucci-uci.ts) as a process: its
// command line's errors, and end to end with Kirin itself in UCCI mode as the
// wrapped engine: the handshake, a search on a clock, and two games through
// the match runner against Kirin UCI. No external binary is needed
// (ElephantEye is run by hand: docs/ANCHORS.md).

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { after, test } from 'node:test';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Position } from '../../src/core/position.js';
import { parseLegalMove, playUciMoves } from '../../src/core/ucimove.js';
import { KIRIN_BIN, killEngineProcesses } from '../../test/support/engine-process.js';
import { playRunnerGames } from '../../test/support/runner-games.js';
import { UciEngine } from './uci-engine.js';
import { unwrap } from '../../test/support/fixtures.js';

after(killEngineProcesses);

const here = dirname(fileURLToPath(import.meta.url));
const adapterJs = join(here, 'ucci-uci.js');
const q = (s: string): string => `"${s}"`;
/** Kirin in UCCI mode behind the adapter, as a command line for the runner. */
const WRAPPED_KIRIN = `${q(process.execPath)} ${q(adapterJs)} -- ${q(process.execPath)} ${q(KIRIN_BIN)}`;

test('the script: a bad command line is an error on stderr and exit code 2; an engine that cannot start, exit code 1', () => {
  const r = spawnSync(process.execPath, [adapterJs, '--option', 'x'], { encoding: 'utf8' });
  assert.equal(r.status, 2);
  assert.match(r.stderr, /ucci-uci: --option needs NAME=VALUE/);
  // An engine that cannot be started.
  const r2 = spawnSync(process.execPath, [adapterJs, '--', '/nonexistent/eleeye'], {
    encoding: 'utf8',
    input: 'uci\n',
  });
  assert.equal(r2.status, 1);
  assert.match(r2.stderr, /cannot start \/nonexistent\/eleeye/);
});

test('Kirin in UCCI mode behind the adapter: uciok, options, a clocked search with a legal move', async () => {
  const e = new UciEngine({ command: WRAPPED_KIRIN, options: [['Hash', '16']] });
  try {
    unwrap(await e.start(30000));
    assert.match(e.name, /^Kirin /);
    assert.ok(e.declaredOptions.has('hash'));
    assert.ok(e.declaredOptions.has('threads'));
    assert.ok(!e.declaredOptions.has('usemillisec'));
    assert.equal(await e.newGame(), true);
    const moves = ['h2e2', 'h9g7'];
    const r = await e.go(
      `position startpos moves ${moves.join(' ')}`,
      'go wtime 2000 btime 2000 winc 20 binc 20',
      10000,
    );
    assert.equal(r.kind, 'move');
    if (r.kind !== 'move') return;
    // Milliseconds reached Kirin as milliseconds: a 2 s clock is not read as 2000 s.
    assert.ok(r.elapsedMs < 2000, `${r.elapsedMs} ms`);
    assert.ok(r.infoCount > 0);
    const p = new Position();
    assert.ok(playUciMoves(p, moves).ok);
    assert.ok(parseLegalMove(p, r.move).ok, r.move);
    // A depth search reports scores the runner reads.
    const d = await e.go('position startpos', 'go depth 4', 20000);
    assert.equal(d.kind, 'move');
    if (d.kind === 'move') assert.ok(d.score !== null);
  } finally {
    await e.quit();
  }
  assert.equal(e.alive, false);
});

test('two games through the match runner: Kirin UCCI (adapter) against Kirin UCI, no forfeits', async () => {
  const wrapped = new UciEngine({ command: WRAPPED_KIRIN, name: 'Kirin-UCCI', options: [['Hash', '8']] });
  const plain = new UciEngine({
    command: `${q(process.execPath)} ${q(KIRIN_BIN)}`,
    name: 'Kirin-UCI',
    options: [['Hash', '8']],
  });
  try {
    unwrap(await wrapped.start(30000));
    unwrap(await plain.start(30000));
    await playRunnerGames(wrapped, plain, { moveTimeoutMs: 30000, minPlies: 8 });
  } finally {
    await wrapped.quit();
    await plain.quit();
  }
});
