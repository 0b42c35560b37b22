#!/usr/bin/env node
// Speed of the NNUE kernels: calls per second of propagate, of a typical incremental
// update (2 piece-square rows added and 2 removed, plus 3 threat rows added and 3
// removed) and of a full refresh (32 piece-square + 24 threat rows), for the
// WebAssembly SIMD kernels, the portable kernels (when built) and the plain scalar
// reference of the tests. Needs `npm run build` first.
//
//   node tools/nnue/kernel-bench.mjs [--seconds S]     (per measurement, default 0.5)
//
// The weights are the synthetic seed-1 network when the loader (dist/src/eval/nnue/loader.js)
// is built, else random weights of the same magnitudes. The accumulators come from
// random feature sets, so about a tenth of the transformed features are non-zero, as
// with the synthetic net on real positions.

import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const dist = (p) => join(root, 'dist', p);
const load = async (p) => import(pathToFileURL(dist(p)).href);

let seconds = 0.5;
const args = process.argv.slice(2);
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--seconds') seconds = Number(args[++i]);
  else {
    console.error('usage: node tools/nnue/kernel-bench.mjs [--seconds S]');
    process.exit(2);
  }
}

const L = await load('src/eval/nnue/layout.js');
const { createWasmKernels, wasmKernelsUnavailableReason } = await load('src/eval/nnue/kernels-wasm.js');
const { referenceKernels } = await load('test/support/nnue-reference-kernels.js');

// Work area after the weights: 2 x 64 accumulators, feature lists, scratch.
const SETS = 64;
const ACCS = L.WEIGHTS_END;
const LISTS = ACCS + 2 * SETS * L.ACC_BYTES;
const LIST_BYTES = 4 * 64;
const SCRATCH = LISTS + 3 * SETS * LIST_BYTES;
const END = SCRATCH + L.SCRATCH_BYTES;
const memory = new WebAssembly.Memory({ initial: Math.ceil(END / 65536) });
const view = new DataView(memory.buffer);

let state = 0x9e3779b9;
const rand = () => {
  state ^= state << 13;
  state ^= state >>> 17;
  state ^= state << 5;
  return (state >>>= 0);
};
/** Roughly normal integers: a sum of 4 uniforms, scaled. */
const normal = (sd) => Math.round((((rand() & 0xffff) + (rand() & 0xffff) + (rand() & 0xffff) + (rand() & 0xffff)) / 65536 - 2) * sd * 1.732);

let weights = 'random weights of the synthetic net\'s magnitudes';
const loaderPath = dist('src/eval/nnue/loader.js');
let loaded = false;
if (existsSync(loaderPath)) {
  const loader = await load('src/eval/nnue/loader.js');
  if (typeof loader.parsePayload === 'function') {
    const { makeSyntheticNet } = await load('test/support/nnue-synthetic.js');
    const r = loader.parsePayload(makeSyntheticNet(1, { container: 'none' }), memory.buffer, 'seed-1 synthetic net');
    if (r.ok) {
      loaded = true;
      weights = 'synthetic seed-1 net (loader)';
    } else {
      console.error(`loader: ${r.error.message}; using random weights`);
    }
  }
}
if (!loaded) {
  for (let j = 0; j < L.L1; j++) view.setInt16(L.FT_BIAS + 2 * j, normal(64) - 24, true);
  const ft = new Int8Array(memory.buffer, L.FT_WEIGHTS, L.FEATURE_ROWS * L.L1);
  for (let i = 0; i < ft.length; i++) ft[i] = normal(6);
  const psqt = new Int32Array(memory.buffer, L.FT_PSQT, L.FEATURE_ROWS * L.PSQT_BUCKETS);
  for (let i = 0; i < psqt.length; i++) psqt[i] = normal(500);
  for (let s = 0; s < L.LAYER_STACKS; s++) {
    const b = L.STACKS + s * L.STACK_BYTES;
    for (let i = 0; i < L.L2; i++) view.setInt32(b + L.FC0_BIAS + 4 * i, normal(1000), true);
    for (let i = 0; i < L.L2 * L.L1; i++) view.setInt8(b + L.FC0_WEIGHTS + i, normal(i >= 30 * L.L1 ? 20 : 40));
    for (let i = 0; i < L.L3; i++) view.setInt32(b + L.FC1_BIAS + 4 * i, normal(1000), true);
    for (let i = 0; i < 2 * L.L2 * L.L3; i++) view.setInt8(b + L.FC1_WEIGHTS + i, normal(16));
    view.setInt32(b + L.FC2_BIAS, normal(500), true);
    for (let i = 0; i < 2 * L.L2 + 2 * L.L3; i++) view.setInt8(b + L.FC2_WEIGHTS + i, normal(16));
  }
}

const psqRow = () => rand() % L.PSQ_DIMS;
const threatRow = () => L.PSQ_DIMS + (rand() % L.THREAT_DIMS);
const list = (set, which) => LISTS + (which * SETS + set) * LIST_BYTES;
const writeList = (at, rows) => rows.forEach((r, i) => view.setInt32(at + 4 * i, r, true));
const acc = (set, side) => ACCS + (2 * set + side) * L.ACC_BYTES;
// Per set: a full feature list (32 + 24 rows), an added list and a removed list (2 + 3 each).
for (let s = 0; s < SETS; s++) {
  writeList(list(s, 0), [...Array.from({ length: 32 }, psqRow), ...Array.from({ length: 24 }, threatRow)]);
  writeList(list(s, 1), [psqRow(), psqRow(), threatRow(), threatRow(), threatRow()]);
  writeList(list(s, 2), [psqRow(), psqRow(), threatRow(), threatRow(), threatRow()]);
}

const kernelSets = [];
const wasm = createWasmKernels(memory);
if (wasm) kernelSets.push(wasm);
else console.log(`wasm-simd: unavailable (${wasmKernelsUnavailableReason()})`);
if (existsSync(dist('src/eval/nnue/kernels-portable.js'))) {
  const { PortableKernels } = await load('src/eval/nnue/kernels-portable.js');
  kernelSets.push(new PortableKernels(memory.buffer));
}
kernelSets.push(referenceKernels(memory));

/** Calls per second of fn(i) over about `seconds`, after a warm-up. */
function rate(fn) {
  for (let i = 0; i < 2000; i++) fn(i);
  let n = 0;
  let batch = 64;
  const t0 = performance.now();
  let t = t0;
  while (t - t0 < seconds * 1000) {
    for (let k = 0; k < batch; k++) fn(n++);
    t = performance.now();
    if (t - t0 < 50) batch *= 2;
  }
  return (n * 1000) / (t - t0);
}

const fmt = (x) => (x >= 1e6 ? `${(x / 1e6).toFixed(2)}M` : x >= 1e3 ? `${(x / 1e3).toFixed(1)}k` : x.toFixed(0));
console.log(`weights: ${weights}; ${seconds}s per measurement; node ${process.version}`);
console.log('kernels            propagate/s    update/s   refresh/s');
const nnzShare = [];
for (const k of kernelSets) {
  // Fresh accumulators from the full lists (also the inputs of propagate).
  for (let s = 0; s < SETS; s++) for (let side = 0; side < 2; side++) k.refresh(acc(s, side), list((s + side) % SETS, 0), 56);
  if (nnzShare.length === 0) {
    let nz = 0;
    let groups = 0;
    for (let s = 0; s < SETS; s++) {
      for (let side = 0; side < 2; side++) {
        for (let g = 0; g < L.L1 / 2; g += 8) {
          let any = 0;
          for (let j = g; j < g + 8; j++) {
            const a = view.getInt16(acc(s, side) + 2 * j, true);
            const b = view.getInt16(acc(s, side) + 2 * (j + L.L1 / 2), true);
            if (Math.min(255, Math.max(0, a)) * Math.min(255, Math.max(0, b)) >= 512) nz++, any = 1;
          }
          groups += any;
        }
      }
    }
    nnzShare.push(nz / (SETS * L.L1), groups / ((SETS * L.L1) / 8));
  }
  const propagate = rate((i) => {
    const s = i & (SETS - 1);
    return k.propagate(acc(s, 0), acc(s, 1), L.STACKS + (i & 15) * L.STACK_BYTES, SCRATCH);
  });
  // In place: add then remove the same rows every other call keeps the values bounded.
  const update = rate((i) => {
    const s = (i >> 1) & (SETS - 1);
    const [a, r] = i & 1 ? [2, 1] : [1, 2];
    k.update(acc(s, 0), acc(s, 0), list(s, a), 5, list(s, r), 5);
  });
  const refresh = rate((i) => k.refresh(acc(i & (SETS - 1), 1), list(i & (SETS - 1), 0), 56));
  console.log(`${k.name.padEnd(18)} ${fmt(propagate).padStart(11)} ${fmt(update).padStart(11)} ${fmt(refresh).padStart(11)}`);
}
console.log(`non-zero transformed features: ${(100 * nnzShare[0]).toFixed(1)}%, `
  + `non-zero 8-feature groups (what fc_0 of the WASM kernels visits): ${(100 * nnzShare[1]).toFixed(1)}%`);
