// `kirin match gauntlet` with the runner's fake engines: two candidates against
// two opponents, one log per match in the folder, the summary with the
// candidate against the baseline, and `kirin match report` reading a log back.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { repoPath } from '../../toolkit/files.js';
import { fakeEngineCommand } from '../../test/support/fake-config.js';

const kirin = repoPath('bin', 'kirin.js');

test('kirin match gauntlet: each candidate against each opponent, logs and the comparison', () => {
  const dir = mkdtempSync(join(tmpdir(), 'kirin-gauntlet-'));
  try {
    const logDir = join(dir, 'logs');
    const r = spawnSync(
      process.execPath,
      [
        kirin,
        'match',
        'gauntlet',
        '--engine',
        fakeEngineCommand('--name Mater --mode mate --seed 1'),
        '--name',
        '1:mater',
        '--engine',
        fakeEngineCommand('--name First --mode first'),
        '--name',
        '2:first',
        '--opponent',
        `rnd=${fakeEngineCommand('--name Rnd --mode random --seed 3')}`,
        '--opponent',
        `last=${fakeEngineCommand('--name Last --mode last')}`,
        '--opponent-tc',
        'last:depth=2',
        '--depth',
        '1',
        '--games',
        '4',
        '--max-plies',
        '60',
        '--rating-interval',
        '0',
        '--log-dir',
        logDir,
      ],
      { encoding: 'utf8', timeout: 120_000 },
    );
    assert.equal(r.status, 0, r.stdout + r.stderr);
    const out = r.stdout;
    // The baseline plays first against each opponent.
    const order = [...out.matchAll(/# Gauntlet match (\d) of 4: (\S+) vs (\S+)/g)].map((m) => `${m[2]}/${m[3]}`);
    assert.deepEqual(order, ['first/rnd', 'mater/rnd', 'first/last', 'mater/last']);
    for (const name of ['first-vs-rnd', 'mater-vs-rnd', 'first-vs-last', 'mater-vs-last']) {
      const log = join(logDir, `${name}.log`);
      assert.ok(existsSync(log), log);
      assert.equal(readFileSync(log, 'utf8').trim().split('\n').length, 4, log);
    }
    assert.match(out, /^\| mater \| rnd \| 4 \| \d+-\d+-\d+ \| [+-]/m);
    assert.match(out, /^mater - first against rnd: [+-]/m);
    assert.match(out, /^mater - first on average over 2 opponents: [+-]/m);
    // The logs are ordinary match logs.
    const rep = spawnSync(process.execPath, [kirin, 'match', 'report', join(logDir, 'mater-vs-last.log')], {
      encoding: 'utf8',
      timeout: 60_000,
    });
    assert.equal(rep.status, 0, rep.stdout + rep.stderr);
    assert.match(rep.stdout, /Score of mater vs last/);
    // Bad arguments: exit 2 with the usage.
    const bad = spawnSync(process.execPath, [kirin, 'match', 'gauntlet', '--engine', 'x', '--tc', '1+0'], {
      encoding: 'utf8',
      timeout: 60_000,
    });
    assert.equal(bad.status, 2);
    assert.match(bad.stderr, /at least one --opponent/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
