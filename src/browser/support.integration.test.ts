// The engine in runtimes that lack what browserSupport() asks about, each in a
// fresh Node: without SharedArrayBuffer (an Engine works, searches are refused
// with the reason) and without WebAssembly (node --jitless: the portable
// kernels give the SIMD kernels' evaluation).

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { syntheticNetFile } from '../../toolkit/nnue/synthetic-net.js';
import { legalMoves } from '../core/movegen.js';
import { Position } from '../core/position.js';
import { playUciMoves } from '../core/ucimove.js';

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
