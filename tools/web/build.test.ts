// The browser build without a browser (runs everywhere, CI included): the
// bundles build for platform=browser (a Node built-in anywhere in their path
// fails the build), contain no `node:` import, and every browser twin exports
// exactly the names of the Node module it replaces.

import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { buildWeb, nodeImports } from './build.js';
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
    assert.match(readFileSync(join(out, 'app.js'), 'utf8'), /["']\.\/kirin\.js["']/);
    assert.ok(r.sizes['kernels-shared.wasm'] > 0);
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
});

/** What a twin adds for the browser (the kernel module arrives by fetch, not from a file). */
const BROWSER_ONLY = ['provideKernelModule', 'fetchKernelModule'];

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
