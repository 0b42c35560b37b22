import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { test } from 'node:test';
import { repoRoot } from './lib.js';
import { checkToolArgs, optionReader, optionValue } from './cli-args.js';

test('optionValue: the value after --name, else the default', () => {
  const argv = ['--runs', '5', '--json', '--engine', 'node bin/kirin.js', '--runs', '7', '--seed'];
  assert.equal(optionValue(argv, 'runs', '10'), '5', 'the first occurrence wins');
  assert.equal(optionValue(argv, 'engine', ''), 'node bin/kirin.js');
  assert.equal(optionValue(argv, 'movetime', '1000'), '1000', 'absent');
  assert.equal(optionValue(argv, 'seed', '1'), '1', 'last, with no value after it');
  assert.equal(optionValue(argv, 'run', 'x'), 'x', 'names match whole');
  assert.equal(optionValue(argv, 'json', 'd'), '--engine', 'the next argument is taken as it is');
  assert.equal(optionValue([], 'runs', ''), '');
});

test('optionReader reads the command line it was given', () => {
  const opt = optionReader(['--games', '1', '--tc', '1+0.01']);
  assert.equal(opt('games', '1000'), '1');
  assert.equal(opt('tc', '2+0.02'), '1+0.01');
  assert.equal(opt('concurrency', '2'), '2');
});

test('checkToolArgs: --help wins, unknown options and missing values are refused, the rest is fine', () => {
  const spec = { name: 't', usage: 'usage: t [--runs N] [--json]', values: ['runs', 'engine'], flags: ['json'] };
  assert.deepEqual(checkToolArgs([], spec), { kind: 'ok' });
  assert.deepEqual(checkToolArgs(['--runs', '5', '--json', '--engine', 'node bin/kirin.js'], spec), { kind: 'ok' });
  assert.deepEqual(checkToolArgs(['--runs', '5', '--help'], spec), { kind: 'help' });
  assert.deepEqual(checkToolArgs(['-h'], spec), { kind: 'help' });
  assert.deepEqual(checkToolArgs(['--run', '5'], spec), { kind: 'error', message: 'unknown option --run' });
  assert.deepEqual(checkToolArgs(['--runs'], spec), { kind: 'error', message: 'option --runs needs a value' });
  assert.deepEqual(checkToolArgs(['--runs', '--json'], spec), {
    kind: 'error',
    message: 'option --runs needs a value',
  });
  assert.deepEqual(checkToolArgs(['5'], spec), { kind: 'error', message: 'unexpected argument "5"' });
  assert.deepEqual(checkToolArgs(['--json', 'x'], spec), { kind: 'error', message: 'unexpected argument "x"' });
});

test('every tool answers --help with its usage and refuses an unknown option before running anything', () => {
  const tools = [
    'strength/elo-scale',
    'protocol/uci-stress',
    'protocol/fuzz-protocol',
    'protocol/first-move-bench',
    'protocol/soak',
    'threads/scaling',
  ];
  for (const t of tools) {
    const script = join(repoRoot(), 'dist', 'tools', `${t}.js`);
    const help = spawnSync(process.execPath, [script, '--help'], { encoding: 'utf8', timeout: 30000 });
    assert.equal(help.status, 0, `${t} --help`);
    assert.match(help.stdout, new RegExp(`^usage: node dist/tools/${t}\\.js`), t);
    const typo = spawnSync(process.execPath, [script, '--gmaes', '3'], { encoding: 'utf8', timeout: 30000 });
    assert.equal(typo.status, 2, `${t} --gmaes`);
    assert.match(typo.stderr, /unknown option --gmaes\nusage: /, t);
  }
});
