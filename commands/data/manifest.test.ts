import assert from 'node:assert/strict';
import { test } from 'node:test';
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { unwrap } from '../../test/support/fixtures.js';
import { repoPath } from '../../toolkit/files.js';
import { addToManifest, checkManifest, MANIFEST, readManifest, SELFPLAY_DIR } from './manifest.js';

/** Bytes under a folder, recursively. */
function folderBytes(dir: string): number {
  let n = 0;
  for (const e of readdirSync(dir, { withFileTypes: true }))
    n += e.isDirectory() ? folderBytes(join(dir, e.name)) : statSync(join(dir, e.name)).size;
  return n;
}

test("every self-play file in data/selfplay agrees with the manifest (SHA-256, bytes, games, positions); data/ stays under 150 MB", () => {
  const m = readManifest(join(SELFPLAY_DIR, MANIFEST));
  assert.ok(m.ok, m.ok ? '' : m.error.message);
  assert.ok(m.ok && m.value.length > 0);
  // Records (a replay of every game) only for the small files: the rest are fixed by their SHA-256.
  const r = checkManifest(SELFPLAY_DIR, 4 << 20);
  assert.ok(r.ok);
  if (r.ok) assert.deepEqual(r.value, []);
  assert.ok(folderBytes(repoPath('data')) < 150e6);
});

test('the manifest check finds a changed, missing or unlisted file and wrong counts', () => {
  const dir = mkdtempSync(join(tmpdir(), 'kirin-manifest-'));
  try {
    const file = join(dir, 'a.kc');
    const [entry] = unwrap(readManifest(join(SELFPLAY_DIR, MANIFEST)));
    assert.ok(entry, 'the manifest has an entry');
    copyFileSync(join(SELFPLAY_DIR, entry.file), file);
    const about = { command: 'kirin datagen ...', commit: 'abc1234', network: 'n', seed: 5 };
    const added = addToManifest(file, about);
    assert.ok(added.ok);
    if (!added.ok) return;
    assert.deepEqual(
      [added.value.games, added.value.positions, added.value.records, added.value.sha256],
      [entry.games, entry.positions, entry.records, entry.sha256],
    );
    const check = () => {
      const r = checkManifest(dir);
      assert.ok(r.ok);
      return r.ok ? r.value.join('\n') : '';
    };
    assert.equal(check(), '');
    // A changed byte: the block's CRC and the SHA-256 say so.
    const bytes = readFileSync(file);
    bytes[bytes.length - 5] ^= 1;
    writeFileSync(file, bytes);
    assert.match(check(), /a\.kc: block at byte \d+: damaged/);
    copyFileSync(join(SELFPLAY_DIR, entry.file), file);
    // Wrong counts in the manifest.
    const m = JSON.parse(readFileSync(join(dir, MANIFEST), 'utf8')) as { files: Record<string, unknown>[] };
    m.files[0].games = 1;
    m.files[0].records = 2;
    writeFileSync(join(dir, MANIFEST), JSON.stringify(m));
    assert.match(check(), /games \d+, the manifest says 1[^]*records \d+, the manifest says 2/);
    // An unlisted chain file, a listed one missing.
    copyFileSync(file, join(dir, 'b.kc'));
    rmSync(file);
    assert.match(check(), /a\.kc: missing[^]*b\.kc: not in manifest\.json/);
    // A manifest entry without its fields.
    writeFileSync(join(dir, MANIFEST), JSON.stringify({ files: [{ file: 'b.kc' }] }));
    const bad = checkManifest(dir);
    assert.ok(!bad.ok && /entry 0: "command" is not a string/.test(bad.error.message));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
