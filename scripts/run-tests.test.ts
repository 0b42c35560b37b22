// The test levels: a file's level comes from its name, every test file of the
// repository has one, and the unit level's guard refuses processes and servers
// with a message that says where such a test belongs.

import assert from 'node:assert/strict';
import childProcess, { execFileSync, spawn } from 'node:child_process';
import { createServer } from 'node:http';
import { test } from 'node:test';
import { Worker } from 'node:worker_threads';
import { repoRoot } from '../toolkit/files.js';
import { LEVELS, levelOf, testSources } from './run-tests.js';

test('a test file names its level: unit by default, integration and browser by suffix', () => {
  assert.equal(levelOf('src/core/fen.test.ts'), 'unit');
  assert.equal(levelOf('src/protocol/uci.integration.test.ts'), 'integration');
  assert.equal(levelOf('test/page.browser.test.ts'), 'browser');
  assert.equal(levelOf('src/integration.test.ts'), 'unit', 'a name, not a suffix');
  const files = testSources(repoRoot());
  assert.ok(files.includes('scripts/run-tests.test.ts'));
  for (const level of LEVELS)
    assert.ok(
      files.some((f) => levelOf(f) === level),
      level,
    );
});

test('the unit guard refuses processes and servers, naming the suffix a test needs; threads are allowed', async () => {
  // The unit level preloads it; running this file alone loads it here.
  await import('./unit-guard.js');
  const needs = /name the file \*\.integration\.test\.ts/;
  assert.throws(() => execFileSync('true'), needs);
  assert.throws(() => spawn(process.execPath, ['-e', '0']), needs);
  assert.throws(() => childProcess.fork('x.js'), needs);
  assert.throws(() => createServer().listen(0), /a server listening/);
  const w = new Worker('require("node:worker_threads").parentPort.postMessage(6 * 7)', { eval: true });
  assert.equal(await new Promise((resolve) => w.once('message', resolve)), 42);
  await w.terminate();
});
