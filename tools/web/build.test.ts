// The browser build without a browser (runs everywhere, CI included): the
// bundles build for platform=browser (a Node built-in anywhere in their path
// fails the build), contain no `node:` import, and every browser twin exports
// exactly the names of the Node module it replaces.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { repoRoot } from '../lib.js';
import { ASSET_URLS } from '../../src/browser/assets.js';
import { assetReferences, buildPackageBrowser, buildWeb, findUnique, nodeImports } from './build.js';
import { BROWSER_TWINS } from './twins.js';

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
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
});

test('assetReferences finds the files a bundle names beside itself, minified or not', () => {
  const code =
    'const a = new URL("./worker.js", import.meta.url);b=new URL(\'./kernels.wasm\',import.meta.url).href;' +
    'c = new URL(`./x.knet`, import.meta.url); new URL("./worker.js", import.meta.url);' +
    // Not beside the module, or not relative to it:
    'new URL("../up.js", import.meta.url); new URL("./a/b.wasm", import.meta.url); new URL("./c.wasm", base);';
  assert.deepEqual(assetReferences(code), ['worker.js', 'kernels.wasm', 'x.knet']);
  assert.throws(() => findUnique(join(repoRoot(), 'dist', 'src'), 'no-such-file.knet'), /no no-such-file\.knet under/);
  assert.throws(() => findUnique(join(repoRoot(), 'dist', 'src'), 'index.js'), /has \d+ files of that name/);
});

test("the package's browser build: kirin.js names exactly src/browser/assets.ts's files, all of them beside it", async () => {
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

/** What a twin adds for the browser (the kernel module, the embedded network and book and the zstd decoder arrive by fetch, not from a file). */
const BROWSER_ONLY = [
  'provideKernelModule',
  'fetchKernelModule',
  'fetchEmbeddedNetwork',
  'fetchEmbeddedBook',
  'provideZstdModuleUrl',
];

test('each browser twin exports the names of the Node module it replaces', async () => {
  for (const [nodeModule, twin] of Object.entries(BROWSER_TWINS)) {
    if (twin === 'browser/thread-host.js') continue; // needs a worker's `self`; checked by the browser test
    const a = Object.keys(await import(`../../src/${nodeModule}`)).sort();
    const b = Object.keys(await import(`../../src/${twin}`))
      .filter((k) => !BROWSER_ONLY.includes(k))
      .sort();
    assert.deepEqual(b, a, `${twin} vs ${nodeModule}`);
  }
});

test('the page type-checks (web/tsconfig.json: web/app.ts with the DOM library)', () => {
  const tsc = join(repoRoot(), 'node_modules', 'typescript', 'bin', 'tsc');
  const r = spawnSync(process.execPath, [tsc, '-p', join(repoRoot(), 'web', 'tsconfig.json')], {
    encoding: 'utf8',
    timeout: 120_000,
  });
  assert.equal(r.status, 0, r.stdout + r.stderr);
});
