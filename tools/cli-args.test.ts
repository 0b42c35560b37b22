import assert from 'node:assert/strict';
import { test } from 'node:test';
import { optionReader, optionValue } from './cli-args.js';

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
