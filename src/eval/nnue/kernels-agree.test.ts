// The WebAssembly SIMD kernels inside the real evaluator, on the synthetic seed-1
// network: every reference position of test/data/nnue/seed1-evals.tsv (native
// Pikafish's numbers) exactly, all 16 layer stacks equal to the portable kernels, and
// incremental updates along random games equal to the portable path's full refresh.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';

import { legalMoves } from '../../core/movegen.js';
import { Position } from '../../core/position.js';
import { mulberry32 } from '../../core/prng.js';
import { repoRoot } from '../../../toolkit/files.js';
import { syntheticNetFile } from '../../../toolkit/nnue/synthetic-net.js';
import { PortableKernels } from './kernels-portable.js';
import { wasmSimdSupported } from '../../platform/simd.js';
import { createWasmKernels } from './kernels-wasm.js';
import { NnueEvaluator, NnueNetwork } from './network.js';

const skip = !wasmSimdSupported() && 'no WebAssembly SIMD in this JavaScript engine';

let net: NnueNetwork | null = null;
function network(): NnueNetwork {
  if (net) return net;
  const loaded = NnueNetwork.load(syntheticNetFile(1));
  if (!loaded.ok) throw new Error(`the seed-1 test network could not be loaded: ${loaded.error.message}`);
  net = loaded.value;
  return net;
}

const rows = readFileSync(join(repoRoot(), 'test', 'data', 'nnue', 'seed1-evals.tsv'), 'utf8')
  .split('\n')
  .filter((l) => l && !l.startsWith('fen\t') && !l.startsWith('#'))
  .map((l) => {
    const [fen, psqt, positional, final] = l.split('\t');
    return { fen, psqt: Number(psqt), positional: Number(positional), final: Number(final) };
  });

test(
  'wasm kernels in the evaluator: all seed-1 reference positions exactly, every layer stack as the portable kernels',
  { skip },
  () => {
    const n = network();
    const created = createWasmKernels(n.memory);
    assert.ok(created.ok, `WebAssembly kernels unavailable: ${created.ok ? '' : created.error.message}`);
    const wasm = created.value;
    assert.equal(rows.length, 200);
    const full = new NnueEvaluator(n, 0, wasm);
    const incr = new NnueEvaluator(n, 1, wasm);
    const portable = new NnueEvaluator(n, 2, new PortableKernels(n.memory.buffer));
    const positionals = new Set<number>();
    for (const r of rows) {
      const p = new Position(r.fen);
      full.computeFull(p);
      const f = full.evaluate(p, 0);
      incr.compute(p);
      const got = `${full.psqt} ${full.positional} ${f} / ${incr.psqt} ${incr.positional}`;
      const want = `${r.psqt} ${r.positional} ${r.final} / ${r.psqt} ${r.positional}`;
      assert.equal(got, want, r.fen);
      const w = full.traceBuckets(p);
      const q = portable.traceBuckets(p);
      assert.deepEqual(w, q, `all layer stacks, ${r.fen}`);
      for (const v of w.positional) positionals.add(v);
    }
    assert.ok(positionals.size > 100, `varied layer-stack outputs (${positionals.size})`);
  },
);

test(
  'wasm kernels in the evaluator: incremental updates along random games equal a portable full refresh',
  { skip },
  () => {
    const n = network();
    const created = createWasmKernels(n.memory);
    assert.ok(created.ok, `WebAssembly kernels unavailable: ${created.ok ? '' : created.error.message}`);
    const wasm = created.value;
    const ev = new NnueEvaluator(n, 3, wasm);
    const check = new NnueEvaluator(n, 2, new PortableKernels(n.memory.buffer));
    const rnd = mulberry32(7_2026);
    let nodes = 0;
    for (let game = 0; game < 4; game++) {
      const pos = new Position();
      const played: number[] = [];
      for (let step = 0; step < 120; step++) {
        const moves = legalMoves(pos);
        if (moves.length === 0 || (played.length && rnd() < 0.15)) {
          for (let u = 1 + Math.floor(rnd() * 3); u > 0 && played.length; u--) pos.undoMove(played.pop()!);
        } else {
          const caps = moves.filter((m) => pos.isCapture(m));
          const pool = caps.length && rnd() < 0.3 ? caps : moves;
          const m = pool[Math.floor(rnd() * pool.length)];
          pos.doMove(m);
          played.push(m);
        }
        if (rnd() < 0.6) {
          ev.compute(pos);
          assert.ok(ev.matchesRefresh(pos), `accumulators differ from a refresh after ${pos.fen()}`);
          check.computeFull(pos);
          assert.equal(`${ev.psqt} ${ev.positional}`, `${check.psqt} ${check.positional}`, pos.fen());
          nodes++;
        }
      }
    }
    assert.ok(nodes > 200, `${nodes} nodes compared`);
    assert.ok(
      ev.stats.incremental > ev.stats.refresh,
      `incremental ${ev.stats.incremental}, refresh ${ev.stats.refresh}`,
    );
  },
);
