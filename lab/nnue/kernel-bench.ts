// Speed of the NNUE kernels: calls per second of propagate, of a typical incremental
// update (2 piece-square rows added and 2 removed, plus 3 threat rows added and 3
// removed) and of a full refresh (32 piece-square + 24 threat rows), for the
// WebAssembly SIMD kernels, the portable kernels and the plain scalar reference of
// the tests, on the synthetic seed-1 network. Needs `npm run build` first.
//
//   node dist/lab/nnue/kernel-bench.js [--seconds S] [--rounds N] [--against FILE.wasm]
//
// --seconds: per measurement (default 0.5). --against: also measures the kernels of
// another build of kernels.wasm (say the last commit's, copied aside) on the same
// memory, to compare kernel changes. --rounds: measures every kernel set N times,
// interleaved, and prints the median of each (default 1; use 5 or more with
// --against, as the machine's speed drifts between measurements).
//
// The accumulators come from random feature sets, so about a tenth of the
// transformed features are non-zero, as with the synthetic net on real positions.

import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { xorshift32 } from '../../src/core/prng.js';
import { PortableKernels } from '../../src/eval/nnue/kernels-portable.js';
import { createWasmKernels, type WasmMemory } from '../../src/eval/nnue/kernels-wasm.js';
import { type NnueKernels } from '../../src/eval/nnue/kernels.js';
import {
  ACC_BYTES,
  L1,
  PSQ_DIMS,
  SCRATCH_BYTES,
  STACK_BYTES,
  STACKS,
  THREAT_DIMS,
  WEIGHTS_END,
} from '../../src/eval/nnue/layout.js';
import { allocateNetworkMemory, parsePayload } from '../../src/eval/nnue/loader.js';
import { referenceKernels } from '../../toolkit/nnue/reference-kernels.js';
import { makeSyntheticNet } from '../../toolkit/nnue/synthetic-net.js';
import { commandSpec, scriptCommandLine } from '../../toolkit/command-line.js';
import { interleave, medianOf } from '../timing.js';

const cl = scriptCommandLine(
  process.argv.slice(2),
  commandSpec({
    name: 'kernel-bench',
    usage:
      'usage: node dist/lab/nnue/kernel-bench.js [--seconds S] [--rounds N] [--against FILE.wasm]\n' +
      '  --seconds S         per measurement (default 0.5)\n' +
      '  --rounds N          measure every kernel set N times, interleaved, and print medians (default 1)\n' +
      "  --against FILE      also measure another build's kernels.wasm on the same memory",
    options: { seconds: { type: 'string' }, rounds: { type: 'string' }, against: { type: 'string' } },
  }),
);
const seconds = cl.number('seconds', 0.5, { min: 0.001 });
const rounds = cl.integer('rounds', 1, { min: 1, max: 1000 });
const against = cl.string('against', '');

// Work area after the weights: 2 x 64 accumulators, feature lists, scratch.
const SETS = 64;
const ACCS = WEIGHTS_END;
const LISTS = ACCS + 2 * SETS * ACC_BYTES;
const LIST_BYTES = 4 * 64;
const SCRATCH = LISTS + 3 * SETS * LIST_BYTES;
const END = SCRATCH + SCRATCH_BYTES;
const memory = allocateNetworkMemory(END - WEIGHTS_END, false);
const loaded = parsePayload(makeSyntheticNet(1, { container: 'none' }), memory.buffer, 'seed-1 synthetic net');
if (!loaded.ok) {
  process.stderr.write(`kernel-bench: ${loaded.error.message}\n`);
  process.exit(1);
}
const view = new DataView(memory.buffer);

let state = 0x9e3779b9 | 0;
const rand = (): number => (state = xorshift32(state)) >>> 0;
const psqRow = (): number => rand() % PSQ_DIMS;
const threatRow = (): number => PSQ_DIMS + (rand() % THREAT_DIMS);
const list = (set: number, which: number): number => LISTS + (which * SETS + set) * LIST_BYTES;
const writeList = (at: number, rows: number[]): void => rows.forEach((r, i) => view.setInt32(at + 4 * i, r, true));
const acc = (set: number, side: number): number => ACCS + (2 * set + side) * ACC_BYTES;
const rows = (n: number, f: () => number): number[] => Array.from({ length: n }, f);
// Per set: a full feature list (32 + 24 rows), an added list and a removed list (2 + 3 each).
for (let s = 0; s < SETS; s++) {
  writeList(list(s, 0), [...rows(32, psqRow), ...rows(24, threatRow)]);
  writeList(list(s, 1), [...rows(2, psqRow), ...rows(3, threatRow)]);
  writeList(list(s, 2), [...rows(2, psqRow), ...rows(3, threatRow)]);
}

const kernelSets: Array<{ label: string; k: NnueKernels }> = [];
const wasm = createWasmKernels(memory as unknown as WasmMemory);
if (wasm.ok) kernelSets.push({ label: wasm.value.name, k: wasm.value });
else process.stdout.write(`wasm-simd: unavailable (${wasm.error.message})\n`);
if (against) {
  let bytes: Uint8Array;
  try {
    bytes = readFileSync(against);
  } catch (e) {
    process.stderr.write(`kernel-bench: cannot read ${against}: ${(e as Error).message}\n`);
    process.exit(1);
  }
  const other = createWasmKernels(memory as unknown as WasmMemory, bytes);
  if (!other.ok) {
    process.stderr.write(`kernel-bench: ${against}: ${other.error.message}\n`);
    process.exit(1);
  }
  kernelSets.push({ label: basename(against), k: other.value });
} else {
  kernelSets.push({ label: 'portable', k: new PortableKernels(memory.buffer) });
  kernelSets.push({ label: 'scalar-reference', k: referenceKernels(memory) });
}

/** Calls per second of fn(i) over about `seconds`, after a warm-up. */
function rate(fn: (i: number) => void): number {
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

/** Shares of non-zero transformed features and of non-zero 8-feature groups (what fc_0 visits). */
function nonZeroShares(): [number, number] {
  let nz = 0;
  let groups = 0;
  for (let s = 0; s < SETS; s++) {
    for (let side = 0; side < 2; side++) {
      for (let g = 0; g < L1 / 2; g += 8) {
        let any = 0;
        for (let j = g; j < g + 8; j++) {
          const a = view.getInt16(acc(s, side) + 2 * j, true);
          const b = view.getInt16(acc(s, side) + 2 * (j + L1 / 2), true);
          if (Math.min(255, Math.max(0, a)) * Math.min(255, Math.max(0, b)) >= 512) {
            nz++;
            any = 1;
          }
        }
        groups += any;
      }
    }
  }
  return [nz / (SETS * L1), groups / ((SETS * L1) / 8)];
}

const fmt = (x: number): string =>
  x >= 1e6 ? `${(x / 1e6).toFixed(2)}M` : x >= 1e3 ? `${(x / 1e3).toFixed(1)}k` : x.toFixed(0);
process.stdout.write(
  `weights: synthetic seed-1 net; ${seconds}s per measurement, ${rounds} round(s); node ${process.version}\n`,
);
process.stdout.write('kernels            propagate/s    update/s   refresh/s\n');

/** Calls per second of propagate, update and refresh of one kernel set. */
function measure(k: NnueKernels): [number, number, number] {
  // Fresh accumulators from the full lists (also the inputs of propagate).
  for (let s = 0; s < SETS; s++)
    for (let side = 0; side < 2; side++) k.refresh(acc(s, side), list((s + side) % SETS, 0), 56);
  const propagate = rate((i) => {
    const s = i & (SETS - 1);
    k.propagate(acc(s, 0), acc(s, 1), STACKS + (i & 15) * STACK_BYTES, SCRATCH);
  });
  // In place: add then remove the same rows every other call keeps the values bounded.
  const update = rate((i) => {
    const s = (i >> 1) & (SETS - 1);
    const [a, r] = i & 1 ? [2, 1] : [1, 2];
    k.update(acc(s, 0), acc(s, 0), list(s, a), 5, list(s, r), 5);
  });
  const refresh = rate((i) => k.refresh(acc(i & (SETS - 1), 1), list(i & (SETS - 1), 0), 56));
  return [propagate, update, refresh];
}

let shares: [number, number] | null = null;
const results = await interleave(kernelSets, rounds, ({ k }) => {
  const m = measure(k);
  shares ??= nonZeroShares();
  return m;
});
kernelSets.forEach(({ label }, i) => {
  const [p, u, f] = [0, 1, 2].map((j) => medianOf(results[i], (m) => m[j]));
  process.stdout.write(`${label.padEnd(18)} ${fmt(p).padStart(11)} ${fmt(u).padStart(11)} ${fmt(f).padStart(11)}\n`);
});
if (shares) {
  process.stdout.write(
    `non-zero transformed features: ${(100 * shares[0]).toFixed(1)}%, ` +
      `non-zero 8-feature groups (what fc_0 of the WASM kernels visits): ${(100 * shares[1]).toFixed(1)}%\n`,
  );
}
