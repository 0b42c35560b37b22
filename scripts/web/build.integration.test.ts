// The browser build without a browser (runs everywhere, CI included): the
// bundles build for platform=browser (a Node built-in anywhere in their path
// fails the build) and contain no `node:` import (src/platform/twins.test.ts
// checks that each browser twin can stand for its Node module).

import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { repoRoot } from '../../toolkit/files.js';
import { ASSET_URLS } from '../../src/platform/browser/assets.js';
import { LAZY_FILES } from './precache.js';
import {
  assetDir,
  assetFile,
  assetReferences,
  buildPackageBrowser,
  buildSite,
  buildWeb,
  nodeImports,
} from './build.js';

test('nodeImports finds the forms a bundle could use', () => {
  assert.deepEqual(nodeImports(`import{a}from"node:fs";import("node:path");require('node:url');x="node:y"`), [
    'node:fs',
    'node:path',
    'node:url',
  ]);
  assert.deepEqual(nodeImports('const s = "no node here"; import x from "./kirin.js";'), []);
});

test('the browser bundles build and import no Node built-in', async () => {
  const out = mkdtempSync(join(tmpdir(), 'kirin-web-build-'));
  try {
    const r = await buildWeb(out);
    for (const f of ['kirin.js', 'worker.js', 'app.js']) {
      const code = readFileSync(join(out, f), 'utf8');
      assert.deepEqual(nodeImports(code), [], f);
      assert.ok(r.sizes[f] > 1000, `${f} is a real bundle`);
    }
    // The page loads the library, not a copy of it.
    const app = readFileSync(join(out, 'app.js'), 'utf8');
    assert.match(app, /["']\.\/kirin\.js["']/);
    assert.ok(r.sizes['kernels-shared.wasm'] > 0);
    // The glyphs' licence notice survives minification.
    assert.match(app, /SIL Open Font License 1\.1/);
    // The boot script is a classic script; the service worker beside the bundles carries what it keeps offline.
    const boot = readFileSync(join(out, 'boot.js'), 'utf8');
    assert.doesNotMatch(boot, /\bimport\b|\bexport\b/);
    assert.match(boot, /sw\.js/);
    const sw = readFileSync(join(out, 'sw.js'), 'utf8');
    assert.equal(r.serviceWorker.path, join(out, 'sw.js'));
    assert.ok(sw.includes(`"${r.precache.version}"`), 'sw.js carries the version');
    for (const u of ['./', 'style.css', 'manifest.webmanifest', 'dist/boot.js', 'dist/kirin.knet', 'dist/kirin.book'])
      assert.ok(r.precache.urls.includes(u) && sw.includes(`"${u}"`), u);
    assert.ok(!r.precache.urls.some((u) => u.endsWith('.map')), 'no source maps kept offline');
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
});

test('buildSite writes a whole site for a static host: the page files, dist/, sw.js beside index.html', async () => {
  const site = mkdtempSync(join(tmpdir(), 'kirin-web-site-'));
  try {
    const r = await buildSite(site);
    for (const f of ['index.html', 'style.css', 'manifest.webmanifest', 'icons/icon-512.png', 'sw.js', 'dist/app.js'])
      assert.ok(existsSync(join(site, f)), f);
    assert.ok(!existsSync(join(site, 'dist', 'sw.js')), 'one service worker, at the root');
    assert.equal(r.serviceWorker.path, join(site, 'sw.js'));
    assert.equal(r.outdir, join(site, 'dist'));
    // The offline copy is every file the build wrote into dist/ and the page's own, the lazily
    // fetched ones (the explorer, the puzzles) kept when first used instead of on install.
    const written = Object.keys(r.sizes).map((f) => `dist/${f}`);
    const lazy = LAZY_FILES.map((f) => `dist/${f}`);
    assert.deepEqual(
      r.precache.urls.filter((u) => u.startsWith('dist/')).sort(),
      written.filter((u) => !lazy.includes(u)).sort(),
    );
    assert.deepEqual([...r.precache.lazy].sort(), lazy.filter((u) => written.includes(u)).sort());
    assert.equal(r.precache.lazy.length, 2, 'masters.explorer and puzzles.json');
    assert.ok(r.precache.bytes > 1_000_000, 'with the network and the book');
  } finally {
    rmSync(site, { recursive: true, force: true });
  }
});

test('assetReferences finds the files a bundle names beside itself, minified or not', () => {
  const code =
    'const a = new URL("./worker.js", import.meta.url);b=new URL(\'./kernels.wasm\',import.meta.url).href;' +
    'c = new URL(`./x.knet`, import.meta.url); new URL("./worker.js", import.meta.url);' +
    // Not beside the module, or not relative to it:
    'new URL("../up.js", import.meta.url); new URL("./a/b.wasm", import.meta.url); new URL("./c.wasm", base);';
  assert.deepEqual(assetReferences(code), ['worker.js', 'kernels.wasm', 'x.knet']);
  assert.throws(() => assetFile(assetDir(), 'no-such-file.knet'), /there is no .*dist\/browser\/no-such-file\.knet/);
  assert.equal(assetFile(assetDir(), 'kernels.wasm'), join(repoRoot(), 'dist', 'browser', 'kernels.wasm'));
});

test("the package's browser build: kirin.js names exactly src/platform/browser/assets.ts's files, all of them beside it", async () => {
  const out = mkdtempSync(join(tmpdir(), 'kirin-browser-build-'));
  try {
    const r = await buildPackageBrowser(out);
    const kirin = readFileSync(join(out, 'kirin.js'), 'utf8');
    const named = Object.values(ASSET_URLS).map((u) => u.slice(u.lastIndexOf('/') + 1));
    assert.deepEqual(assetReferences(kirin).sort(), [...named].sort());
    for (const f of named) assert.ok(existsSync(join(out, f)), `${f} is beside kirin.js`);
    assert.match(
      readFileSync(join(out, 'zstd.wasm.LICENSE'), 'utf8'),
      /MIT License[\s\S]*BSD License/,
      'with its licences',
    );
    assert.deepEqual(r.assets.sort(), named.filter((f) => f !== 'worker.js').sort());
    // The search thread looks nothing up relative to itself: a bundler may put it anywhere.
    assert.doesNotMatch(readFileSync(join(out, 'worker.js'), 'utf8'), /import\.meta/);
    assert.equal(r.sizes['app.js'], undefined, 'no page in the package');
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
});
