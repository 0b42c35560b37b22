// The page's local server on a socket: the isolation headers by default and
// none with isolated: false (--plain), ETags and 304 Not Modified, and the
// build's sw.js served from its dist/ folder as /sw.js.

import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { ISOLATION_HEADERS, serveWeb } from './serve.js';

function site(): { dir: string; dist: string } {
  const dir = mkdtempSync(join(tmpdir(), 'kirin-serve-'));
  const dist = join(dir, 'build');
  mkdirSync(dist);
  writeFileSync(join(dir, 'index.html'), '<!doctype html><title>page</title>');
  writeFileSync(join(dir, 'manifest.webmanifest'), '{}');
  writeFileSync(join(dir, 'sw.js'), '// the site root copy');
  writeFileSync(join(dist, 'app.js'), 'export {};');
  return { dir, dist };
}

test('isolated by default, plain without the headers; ETags and 304; the manifest type', async () => {
  const { dir, dist } = site();
  const isolated = await serveWeb({ port: 0, webDir: dir, distDir: dist });
  const plain = await serveWeb({ port: 0, webDir: dir, distDir: dist, isolated: false });
  try {
    const a = await fetch(isolated.url);
    assert.equal(a.status, 200);
    for (const [h, v] of Object.entries(ISOLATION_HEADERS)) assert.equal(a.headers.get(h), v, h);
    const b = await fetch(plain.url);
    assert.equal(await b.text(), '<!doctype html><title>page</title>');
    for (const h of Object.keys(ISOLATION_HEADERS)) assert.equal(b.headers.get(h), null, h);
    // A copy the browser has is revalidated: 304 without a body; a stale one gets the file.
    const etag = b.headers.get('etag')!;
    assert.match(etag, /^W\/"[0-9a-f]+-[0-9a-f]+"$/);
    const again = await fetch(plain.url, { headers: { 'If-None-Match': etag } });
    assert.equal(again.status, 304);
    assert.equal(await again.text(), '');
    const stale = await fetch(plain.url, { headers: { 'If-None-Match': 'W/"0-0"' } });
    assert.equal(stale.status, 200);
    const m = await fetch(`${plain.url}manifest.webmanifest`);
    assert.equal(m.headers.get('content-type'), 'application/manifest+json');
    assert.equal((await fetch(`${plain.url}dist/app.js`)).status, 200);
  } finally {
    isolated.server.close();
    plain.server.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test("/sw.js is the build's (dist/'s) where it has one, else the site's", async () => {
  const { dir, dist } = site();
  const s = await serveWeb({ port: 0, webDir: dir, distDir: dist });
  const whole = await serveWeb({ port: 0, webDir: dir, distDir: null });
  try {
    assert.equal(await (await fetch(`${s.url}sw.js`)).text(), '// the site root copy');
    writeFileSync(join(dist, 'sw.js'), '// the build copy');
    assert.equal(await (await fetch(`${s.url}sw.js`)).text(), '// the build copy');
    // A site served whole (dist/ a folder of it) has its own.
    assert.equal(await (await fetch(`${whole.url}sw.js`)).text(), '// the site root copy');
  } finally {
    s.server.close();
    whole.server.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
