// kirin data manifest archive/restore, in a temporary git repository (runs git).

import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { test } from 'node:test';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { unwrap } from '../../test/support/fixtures.js';
import {
  addToManifest,
  archiveInManifest,
  checkManifest,
  MANIFEST,
  readManifest,
  restoreFromArchive,
  SELFPLAY_DIR,
} from './manifest.js';

const HAS_GIT = spawnSync('git', ['--version']).status === 0;

test('archive takes a committed file out of the tree, restore brings it back from git', { skip: !HAS_GIT && 'git is not installed' }, () => {
  const repo = mkdtempSync(join(tmpdir(), 'kirin-archive-'));
  const git = (...args: string[]) =>
    execFileSync('git', ['-C', repo, '-c', 'user.name=kirin', '-c', 'user.email=kirin@example.invalid', '-c', 'commit.gpgsign=false', ...args])
      .toString()
      .trim();
  try {
    git('init', '-q');
    const dir = join(repo, 'data', 'selfplay');
    mkdirSync(dir, { recursive: true });
    const file = join(dir, 'a.kc');
    const [entry] = unwrap(readManifest(join(SELFPLAY_DIR, MANIFEST)));
    assert.ok(entry, 'the manifest has an entry');
    copyFileSync(join(SELFPLAY_DIR, entry.file), file);
    assert.ok(addToManifest(file, { command: 'kirin datagen ...', commit: 'abc1234', network: 'n', seed: 5 }).ok);
    const refused = (r: ReturnType<typeof archiveInManifest>, why: RegExp) => {
      assert.ok(!r.ok, 'refused');
      if (!r.ok) assert.match(r.error.message, why);
    };
    // Not committed yet: refused, the file stays.
    refused(archiveInManifest(file), /a\.kc: not committed as it is at HEAD/);
    git('add', '-A');
    git('commit', '-q', '-m', 'data');
    const head = git('rev-parse', 'HEAD');
    refused(restoreFromArchive(file), /a\.kc: not archived/);
    const archived = archiveInManifest(file);
    assert.ok(archived.ok && archived.value.archived === head);
    assert.ok(!existsSync(file));
    refused(archiveInManifest(file), /already archived/);
    // The check accepts the archived file's absence.
    const check = () => {
      const r = checkManifest(dir);
      assert.ok(r.ok);
      return r.ok ? r.value.join('\n') : '';
    };
    assert.equal(check(), '');
    git('commit', '-q', '-am', 'archive');
    const restored = restoreFromArchive(file);
    assert.ok(restored.ok);
    assert.equal(readFileSync(file).equals(readFileSync(join(SELFPLAY_DIR, entry.file))), true);
    refused(restoreFromArchive(file), /already in/);
    // A restored file is checked like any other.
    assert.equal(check(), '');
    const bytes = readFileSync(file);
    bytes[bytes.length - 5] ^= 1;
    writeFileSync(file, bytes);
    assert.match(check(), /a\.kc: block at byte \d+: damaged/);
    // An entry naming a commit that lacks the file.
    rmSync(file);
    const m = JSON.parse(readFileSync(join(dir, MANIFEST), 'utf8')) as { files: Record<string, unknown>[] };
    m.files[0].archived = git('rev-parse', 'HEAD');
    writeFileSync(join(dir, MANIFEST), JSON.stringify(m));
    refused(restoreFromArchive(file), /git show [0-9a-f]{40}:data\/selfplay\/a\.kc: /);
    m.files[0].archived = 'HEAD~1';
    writeFileSync(join(dir, MANIFEST), JSON.stringify(m));
    refused(archiveInManifest(file), /entry 0: "archived" is not a commit hash/);
  } finally {
    rmSync(repo, { recursive: true, force: true });
  }
});
