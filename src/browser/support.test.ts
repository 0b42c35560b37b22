// What the browser entry says a browser lacks (judgeSupport, runtimeSupport).
// That the library keeps working where it lacks it (no SharedArrayBuffer, no
// WebAssembly): support.integration.test.ts, in fresh Node processes.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { judgeSupport, runtimeSupport } from './support.js';

const all = { crossOriginIsolated: true, sharedArrayBuffer: true, webAssembly: true, wasmSimd: true };

test('judgeSupport: nothing missing, nothing said', () => {
  const s = judgeSupport(all);
  assert.equal(s.canSearch, true);
  assert.deepEqual(s.problems, []);
  assert.ok(Object.isFrozen(s) && Object.isFrozen(s.problems));
  // Node has no notion of isolation (undefined): it searches.
  assert.equal(judgeSupport({ ...all, crossOriginIsolated: undefined }).canSearch, true);
});

test('judgeSupport: a page that is not cross-origin isolated cannot search, and is told which headers', () => {
  const s = judgeSupport({ ...all, crossOriginIsolated: false, sharedArrayBuffer: false });
  assert.equal(s.canSearch, false);
  assert.equal(s.problems.length, 1);
  assert.equal(s.problems[0].blocking, true);
  assert.match(s.problems[0].message, /not cross-origin isolated/);
  assert.match(s.problems[0].message, /Cross-Origin-Embedder-Policy: require-corp/);
  const noShared = judgeSupport({ ...all, sharedArrayBuffer: false });
  assert.equal(noShared.canSearch, false);
  assert.match(noShared.problems[0].message, /no SharedArrayBuffer/);
});

test('judgeSupport: no SIMD, or no WebAssembly at all, plays slower and says so', () => {
  const noSimd = judgeSupport({ ...all, wasmSimd: false });
  assert.equal(noSimd.canSearch, true);
  assert.deepEqual(
    noSimd.problems.map((p) => p.blocking),
    [false],
  );
  assert.match(noSimd.problems[0].message, /lacks WebAssembly SIMD.*portable kernels/);
  const noWasm = judgeSupport({ ...all, webAssembly: false, wasmSimd: false });
  assert.equal(noWasm.problems.length, 1);
  assert.match(noWasm.problems[0].message, /runs no WebAssembly/);
  // Both kinds at once: the blocking problem first.
  const both = judgeSupport({
    crossOriginIsolated: false,
    sharedArrayBuffer: false,
    webAssembly: true,
    wasmSimd: false,
  });
  assert.deepEqual(
    both.problems.map((p) => p.blocking),
    [true, false],
  );
});

test('judgeSupport: files kirin.js could not fetch are problems that name them, not blocking', () => {
  const missing = [
    'NNUE kernels not loaded: https://app.example/assets/kernels-shared.wasm: HTTP 404 Not Found',
    'embedded network not loaded: https://app.example/assets/kirin.knet: HTTP 404 Not Found',
  ];
  const s = judgeSupport({ ...all, crossOriginIsolated: false, sharedArrayBuffer: false }, missing);
  assert.equal(s.canSearch, false);
  assert.deepEqual(
    s.problems.map((p) => p.blocking),
    [true, false, false],
  );
  assert.match(s.problems[1].message, /kernels-shared\.wasm: HTTP 404.*dist\/browser\/ files belong beside the bundle/);
  assert.match(s.problems[2].message, /kirin\.knet: HTTP 404/);
  assert.equal(judgeSupport(all, missing).canSearch, true);
});

test('runtimeSupport reads this runtime: Node has all of it', () => {
  const s = runtimeSupport();
  assert.equal(s.sharedArrayBuffer, true);
  assert.equal(s.webAssembly, true);
  assert.equal(s.wasmSimd, true);
  assert.equal(s.canSearch, true);
});
