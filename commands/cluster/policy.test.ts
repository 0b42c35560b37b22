import assert from 'node:assert/strict';
import { realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { test } from 'node:test';
import { repoPath, repoRoot } from '../../toolkit/files.js';
import {
  DEFAULT_OPTIONS,
  canonicalCommand,
  defaultEngines,
  engineAllowed,
  optionAllowed,
  optionWithinLimits,
  workerPolicy,
} from './policy.js';

const root = repoRoot();
const canon = (command: string, cwd = root): string => {
  const r = canonicalCommand(command, cwd);
  assert.ok(r.ok, command);
  return r.value.join(' ');
};

test('canonicalCommand: one command however its paths are written; another command stays another', () => {
  const kirin = realpathSync(repoPath('bin', 'kirin.js'));
  const same = [
    'node bin/kirin.js',
    'node ./bin/kirin.js',
    `node ${kirin}`,
    `node ${root}/bin/../bin/kirin.js`,
    `"node" 'bin/kirin.js'`,
    'node   bin/kirin.js  ',
  ];
  const want = canon(same[0]);
  assert.ok(want.endsWith(` ${kirin}`), want);
  assert.ok(!want.startsWith('node '), `node found on PATH: ${want}`);
  for (const c of same) assert.equal(canon(c), want, c);
  for (const c of [
    'node bin/kirin.js --debug',
    'node dist/test/support/fake-engine.js',
    "sh -c 'node bin/kirin.js'",
    'python3 bin/kirin.js',
  ])
    assert.notEqual(canon(c), want, c);
  // Relative paths are the folder's own: from elsewhere, bin/kirin.js is another file.
  assert.notEqual(canon('node bin/kirin.js', tmpdir()), want);
  const bad = canonicalCommand('node "bin/kirin.js', root);
  assert.ok(!bad.ok && /unterminated quote/.test(bad.error.message));
});

test("engineAllowed: the worker's list by what it runs; 'any' runs everything", () => {
  const policy = workerPolicy({ cwd: root });
  assert.deepEqual(policy.engines, defaultEngines());
  for (const c of ['node bin/kirin.js', 'node ./bin/kirin.js', `node ${repoPath('bin', 'kirin.js')}`, 'bin/kirin.js'])
    assert.equal(engineAllowed(c, policy), true, c);
  for (const c of ['node dist/test/support/fake-engine.js', 'node bin/kirin.js x', 'touch PWNED', ''])
    assert.equal(engineAllowed(c, policy), false, c);
  // The same list from another folder: a relative command there names another file.
  assert.equal(engineAllowed('node bin/kirin.js', { ...policy, cwd: tmpdir() }), false);
  assert.equal(engineAllowed('anything at all', { ...policy, engines: ['any'] }), true);
});

test("optionAllowed and optionWithinLimits: the usual options, the owner's extra ones, never Debug Log File", () => {
  const policy = workerPolicy({ extraOptions: ['EvalFile', 'Debug Log File'], maxHash: 64, maxThreads: 2 });
  for (const o of DEFAULT_OPTIONS) assert.equal(optionAllowed(o, policy), true, o);
  assert.equal(optionAllowed('hash', policy), true, 'case does not matter');
  assert.equal(optionAllowed('EvalFile', policy), true);
  assert.equal(optionAllowed('EvalFile', workerPolicy()), false, 'reads a file: only when its owner says so');
  assert.equal(optionAllowed('Debug Log File', policy), false, 'writes a file: never');
  assert.equal(optionAllowed(' debug log file ', workerPolicy({ options: ['Debug Log File'] })), false);
  assert.equal(optionAllowed('SyzygyPath', policy), false);
  assert.ok(optionWithinLimits('Hash', '64', policy).ok);
  const hash = optionWithinLimits('Hash', '65', policy);
  assert.ok(!hash.ok && hash.error.message === 'option Hash=65: this worker allows at most 64 (--max-hash)');
  assert.ok(!optionWithinLimits('Threads', '3', policy).ok);
  assert.ok(!optionWithinLimits('Threads', 'many', policy).ok);
  assert.ok(optionWithinLimits('MultiPV', '500', policy).ok, 'other options have no limit here');
});
