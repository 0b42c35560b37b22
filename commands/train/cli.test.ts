// kirin train's command line and progress line (the runs themselves, as a
// process: cli.integration.test.ts).

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseTrainArgs, progressLine } from './cli.js';

test('parseTrainArgs: defaults, lists of files, and refusals naming the option', () => {
  const a = parseTrainArgs(['--data', 'a.bin,b.bin', '--data', 'c.bin', '--out', 'n.knet', '--keep-check']);
  assert.ok(a.ok);
  assert.deepEqual(a.value.data, ['a.bin', 'b.bin', 'c.bin']);
  assert.equal(a.value.checkpoint, 'n.knet.ckpt');
  assert.equal(a.value.filter.dropCheck, false);
  assert.equal(a.value.filter.dropCaptures, true);
  assert.equal(a.value.config.shape.hidden, 256);
  assert.equal(a.value.config.batch, 16384);
  assert.equal(a.value.k, 0);
  const bad: [string[], RegExp][] = [
    [['--data', 'a', '--out', 'n', '--bogus', '1'], /Unknown option '--bogus'/],
    [['--data', 'a', '--out', 'n', 'extra'], /unexpected argument 'extra'/i],
    [['--data'], /argument missing/],
    [['--out', 'n'], /--data FILE is required/],
    [['--data', 'a'], /--out NET.knet is required/],
    [['--data', 'a', '--out', 'n', '--lr', 'fast'], /--lr fast: not a number/],
    [['--data', 'a', '--out', 'n', '--hidden', '20'], /hidden size 20/],
    [['--data', 'a', '--out', 'n', '--epochs', '2.5'], /--epochs 2.5: not an integer/],
    [['--data', 'a', '--out', 'n', '--lambda', '2'], /--lambda 2: above 1/],
    [['--data', 'a', '--out', 'n', '--threads', '0'], /--threads 0: below 1/],
    [['--data', 'a', '--out', 'n', '--schedule', 'linear'], /--schedule must be cosine or step/],
    [['--data', 'a', '--out', 'n', '--kernel', 'gpu'], /--kernel must be wasm or js/],
    [['--data', 'a', '--out', 'n', '--resume', 'yes'], /unexpected argument 'yes'/i],
  ];
  for (const [argv, why] of bad) {
    const r = parseTrainArgs(argv);
    assert.ok(!r.ok && r.error.code === 'arguments', argv.join(' '));
    assert.match(r.error.message, why);
  }
  // --help wins anywhere, as in every tool.
  for (const argv of [['--help'], ['-h', '--bogus'], ['--data', 'a', '--help']]) {
    const r = parseTrainArgs(argv);
    assert.ok(!r.ok && r.error.code === 'help', argv.join(' '));
  }
});

test('the progress line', () => {
  const line = progressLine({ epoch: 2, epochs: 10, done: 500, total: 1000, rate: 123456, loss: 0.0123, left: 3725 });
  assert.equal(line, '[##########..........] epoch 2/10 50% 123.5k pos/s loss 0.01230 left 1h02m');
});
