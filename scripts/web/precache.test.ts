import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { repoRoot } from '../../toolkit/files.js';
import { LAZY_FILES, PAGE_FILES, pageFiles, precacheOf, precacheUrl, precacheVersion } from './precache.js';

const bytes = (s: string): Uint8Array => new TextEncoder().encode(s);

test('precacheVersion: 16 hex digits of the names and contents, whatever their order', () => {
  const a = { url: 'dist/app.js', bytes: bytes('app') };
  const b = { url: './', bytes: bytes('<html>') };
  const v = precacheVersion([a, b]);
  assert.match(v, /^[0-9a-f]{16}$/);
  assert.equal(precacheVersion([b, a]), v);
  // One byte, one name, or one file more or less gives another version.
  assert.notEqual(precacheVersion([{ ...a, bytes: bytes('apq') }, b]), v);
  assert.notEqual(precacheVersion([{ ...a, url: 'dist/app2.js' }, b]), v);
  assert.notEqual(precacheVersion([a]), v);
  assert.notEqual(precacheVersion([a, b, { url: 'x', bytes: bytes('') }]), v);
  // A byte moved from one file's end to the next file's start is another build too.
  assert.notEqual(
    precacheVersion([
      { url: 'a', bytes: bytes('xy') },
      { url: 'b', bytes: bytes('z') },
    ]),
    precacheVersion([
      { url: 'a', bytes: bytes('x') },
      { url: 'b', bytes: bytes('yz') },
    ]),
  );
});

test('precacheUrl: index.html is kept as the folder itself', () => {
  assert.equal(precacheUrl('index.html'), './');
  assert.equal(precacheUrl('style.css'), 'style.css');
  assert.equal(precacheUrl('icons/icon-192.png'), 'icons/icon-192.png');
});

test('LAZY_FILES: the explorer and the puzzles, which the library fetches only when asked', () => {
  assert.deepEqual([...LAZY_FILES].sort(), ['masters.explorer', 'puzzles.json']);
});

test("pageFiles: web/'s page, stylesheets, manifest and icons", () => {
  const files = pageFiles(join(repoRoot(), 'web'));
  for (const f of [...PAGE_FILES, 'style.css', 'icons/icon-192.png', 'icons/apple-touch-icon.png'])
    assert.ok(files.includes(f), f);
  assert.ok(!files.some((f) => f.endsWith('.ts')), 'no sources');
});

test("precacheOf: a site's files and its dist/'s, their bytes, and a version that follows their contents", () => {
  const dir = mkdtempSync(join(tmpdir(), 'kirin-precache-'));
  try {
    assert.throws(() => pageFiles(dir), /the page's index\.html is not in/);
    for (const f of PAGE_FILES) writeFileSync(join(dir, f), f);
    writeFileSync(join(dir, 'b.css'), 'b{}');
    writeFileSync(join(dir, 'a.css'), 'a{}');
    writeFileSync(join(dir, 'notes.txt'), 'not the page');
    mkdirSync(join(dir, 'icons'));
    writeFileSync(join(dir, 'icons', 'i.png'), 'png');
    mkdirSync(join(dir, 'dist'));
    writeFileSync(join(dir, 'dist', 'app.js'), 'app');
    writeFileSync(join(dir, 'dist', 'kirin.knet'), 'net');
    writeFileSync(join(dir, 'dist', 'masters.explorer'), 'explorer');
    const p = precacheOf(dir, join(dir, 'dist'), ['app.js', 'kirin.knet', 'masters.explorer']);
    assert.deepEqual(p.urls, [
      './',
      'manifest.webmanifest',
      'glyphs-OFL.txt',
      'a.css',
      'b.css',
      'icons/i.png',
      'dist/app.js',
      'dist/kirin.knet',
    ]);
    const pageBytes = PAGE_FILES.reduce((n, f) => n + f.length, 0);
    assert.equal(p.bytes, pageBytes + 3 + 3 + 3 + 3 + 3);
    // The explorer is not stored on install but kept when first fetched; it is of the build's version.
    assert.deepEqual(p.lazy, ['dist/masters.explorer']);
    assert.equal(p.lazyBytes, 'explorer'.length);
    const files = ['app.js', 'kirin.knet', 'masters.explorer'];
    assert.equal(precacheOf(dir, join(dir, 'dist'), files).version, p.version);
    writeFileSync(join(dir, 'dist', 'masters.explorer'), 'explorer2');
    const q = precacheOf(dir, join(dir, 'dist'), files);
    assert.notEqual(q.version, p.version);
    writeFileSync(join(dir, 'dist', 'kirin.knet'), 'net2');
    assert.notEqual(precacheOf(dir, join(dir, 'dist'), files).version, q.version);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
