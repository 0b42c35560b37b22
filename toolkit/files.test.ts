import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { readTextFile, repoPath, repoRoot } from './files.js';

test('repoRoot, repoPath and readTextFile', () => {
  assert.ok(existsSync(join(repoRoot(), 'package.json')));
  assert.equal(repoPath('data', 'openings'), join(repoRoot(), 'data', 'openings'));
  const text = readTextFile(repoPath('package.json'));
  assert.ok(text.ok && text.value.includes('"name": "kirin-xiangqi"'));
  const missing = readTextFile(repoPath('no-such-file.txt'));
  assert.ok(!missing.ok && missing.error.code === 'file' && missing.error.message.includes('no-such-file.txt'));
});
