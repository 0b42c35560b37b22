// What the browser entry says a browser lacks, and that the library keeps
// working where it lacks it: without SharedArrayBuffer (a page that is not
// cross-origin isolated) an Engine is made and answers everything but a search,
// which is refused with the reason; without WebAssembly (node --jitless, as a
// browser with it switched off) a network loads and evaluates with the portable
// kernels, to the same numbers.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { syntheticNetFile } from '../../lab/nnue/synthetic.js';
import { legalMoves } from '../core/movegen.js';
import { Position } from '../core/position.js';
import { playUciMoves } from '../core/ucimove.js';
import { browserSupport, judgeSupport } from './support.js';

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

test('browserSupport reads this runtime: Node has all of it', () => {
  const s = browserSupport();
  assert.equal(s.sharedArrayBuffer, true);
  assert.equal(s.webAssembly, true);
  assert.equal(s.wasmSimd, true);
  assert.equal(s.canSearch, true);
});

const library = new URL('../index.js', import.meta.url).href;

/** Runs `code` as an ES module file in a fresh Node (with `flags`); its search threads inherit the flags. */
function runModule(code: string, flags: string[] = []): { status: number | null; stdout: string; stderr: string } {
  const dir = mkdtempSync(join(tmpdir(), 'kirin-support-'));
  try {
    writeFileSync(join(dir, 'run.mjs'), code);
    const r = spawnSync(process.execPath, [...flags, join(dir, 'run.mjs')], { encoding: 'utf8', timeout: 60_000 });
    return { status: r.status, stdout: r.stdout, stderr: r.stderr };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test('without SharedArrayBuffer an Engine still works, and a search is refused with the reason', () => {
  const r = runModule(`
    delete globalThis.SharedArrayBuffer;
    const k = await import(${JSON.stringify(library)});
    const engine = new k.Engine({ warmup: true });
    const set = engine.setPosition(null, ['h2e2']);
    console.log(set.ok, k.legalMoves(engine.position()).length);
    for (const ask of [() => engine.go({ depth: 1, startTime: Date.now() }), () => engine.searchThreadEvaluation()])
      await ask().then(() => console.log('searched'), (e) => console.log(e.message));
  `);
  assert.equal(r.status, 0, r.stderr);
  const lines = r.stdout.trim().split('\n');
  const pos = new Position();
  assert.ok(playUciMoves(pos, ['h2e2']).ok);
  assert.equal(lines[0], `true ${legalMoves(pos).length}`);
  for (const line of lines.slice(1))
    assert.match(line, /^Kirin cannot search here: this runtime has no SharedArrayBuffer/);
  assert.equal(lines.length, 3);
});

test('without WebAssembly (node --jitless) a network loads and evaluates as with the SIMD kernels', () => {
  const code = `
    const k = await import(${JSON.stringify(library)});
    const { readFileSync } = await import('node:fs');
    const engine = new k.Engine();
    const r = engine.loadNetworkBytes(readFileSync(${JSON.stringify(syntheticNetFile(1))}), 'seed1.nnue');
    if (!r.ok) throw new Error(r.error.message);
    engine.setPosition(null, ['h2e2', 'h9g7']);
    const e = await engine.searchThreadEvaluation();
    console.log(typeof WebAssembly, e.evaluation.includes('portable') ? 'portable' : 'wasm-simd', e.value);
    await engine.close();
  `;
  const jitless = runModule(code, ['--jitless']);
  assert.equal(jitless.status, 0, jitless.stderr);
  const plain = runModule(code);
  assert.equal(plain.status, 0, plain.stderr);
  const [wasmJ, kernelsJ, valueJ] = jitless.stdout.trim().split(' ');
  const [wasmP, kernelsP, valueP] = plain.stdout.trim().split(' ');
  assert.deepEqual([wasmJ, kernelsJ], ['undefined', 'portable']);
  assert.deepEqual([wasmP, kernelsP], ['object', 'wasm-simd']);
  assert.equal(valueJ, valueP);
  assert.ok(Number.isInteger(Number(valueJ)));
});
