// The WebAssembly SIMD kernels against the plain scalar reference
// (toolkit/nnue/reference-kernels.ts) and the portable kernels (kernels-portable.ts)
// on random weights in a fresh memory: refresh, update and propagate must give identical
// bytes and values, including i16 wrap-around, i32 wrap-around, clamp edges, empty
// inputs and extreme layer sums.

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { referenceKernels } from '../../../toolkit/nnue/reference-kernels.js';
import type { NnueKernels } from './kernels.js';
import { PortableKernels } from './kernels-portable.js';
import { wasmSimdSupported } from '../../platform/simd.js';
import { createWasmKernels, type WasmMemory } from './kernels-wasm.js';
import {
  ACC_BYTES,
  ACC_PSQT,
  FC0_BIAS,
  FC0_WEIGHTS,
  FC1_BIAS,
  FC1_WEIGHTS,
  FC2_BIAS,
  FC2_WEIGHTS,
  FEATURE_ROWS,
  FT_BIAS,
  FT_PSQT,
  FT_WEIGHTS,
  L1,
  L2,
  L3,
  LAYER_STACKS,
  PSQT_BUCKETS,
  SCRATCH_BYTES,
  STACK_BYTES,
  STACKS,
  WEIGHTS_END,
} from './layout.js';

// Work area after the weights.
const ACC_A = WEIGHTS_END;
const ACC_B = ACC_A + ACC_BYTES;
const ACC_C = ACC_B + ACC_BYTES;
const ACC_D = ACC_C + ACC_BYTES;
const ACC_E = ACC_D + ACC_BYTES;
const LIST_1 = ACC_E + ACC_BYTES;
const LIST_2 = LIST_1 + 4 * 2048;
const SCRATCH = LIST_2 + 4 * 2048;
const END = SCRATCH + SCRATCH_BYTES;

/** xorshift32: deterministic random u32. */
function rng(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>>= 0);
  };
}

type MemoryConstructor = new (d: { initial: number; maximum?: number; shared?: boolean }) => WasmMemory;
const WasmMemoryCtor = (globalThis as unknown as { WebAssembly: { Memory: MemoryConstructor } }).WebAssembly.Memory;

function newMemory(shared: boolean): WasmMemory {
  const pages = Math.ceil(END / 65536);
  return shared
    ? new WasmMemoryCtor({ initial: pages, maximum: pages, shared: true })
    : new WasmMemoryCtor({ initial: pages });
}

interface Setup {
  memory: WasmMemory;
  bytes: Uint8Array;
  view: DataView;
  wasm: NnueKernels;
  ref: NnueKernels;
  portable: NnueKernels;
  next: () => number;
}

let cached: Setup | null = null;

/** A memory with random weights (uniform bytes everywhere), the two kernel sets on it. */
function setup(shared = false): Setup {
  if (cached && !shared) return cached;
  const memory = newMemory(shared);
  const created = createWasmKernels(memory);
  assert.ok(created.ok, `WebAssembly kernels unavailable: ${created.ok ? '' : created.error.message}`);
  const wasm = created.value;
  assert.equal(wasm.name, 'wasm-simd');
  const next = rng(0x6b6972);
  const words = new Uint32Array(memory.buffer, 0, WEIGHTS_END / 4);
  for (let i = 0; i < words.length; i++) words[i] = next();
  // Stacks 8..15 get the magnitudes of a real net (uniform random weights saturate
  // every activation), so that the activation shifts and clips are exercised too.
  const view = new DataView(memory.buffer);
  const small = (sd: number): number => (next() % (2 * sd + 1)) - sd;
  for (let st = 8; st < LAYER_STACKS; st++) {
    const base = STACKS + st * STACK_BYTES;
    for (let i = 0; i < L2; i++) view.setInt32(base + FC0_BIAS + 4 * i, small(3000), true);
    for (let i = 0; i < L2 * L1; i++) view.setInt8(base + FC0_WEIGHTS + i, small(25));
    for (let i = 0; i < L3; i++) view.setInt32(base + FC1_BIAS + 4 * i, small(3000), true);
    for (let i = 0; i < 2 * L2 * L3; i++) view.setInt8(base + FC1_WEIGHTS + i, small(25));
    view.setInt32(base + FC2_BIAS, small(1000), true);
    for (let i = 0; i < 2 * L2 + 2 * L3; i++) view.setInt8(base + FC2_WEIGHTS + i, small(25));
  }
  const s = {
    memory,
    bytes: new Uint8Array(memory.buffer),
    view,
    wasm,
    ref: referenceKernels(memory),
    portable: new PortableKernels(memory.buffer),
    next,
  };
  if (!shared) cached = s;
  return s;
}

const skip = !wasmSimdSupported() && 'no WebAssembly SIMD in this JavaScript engine';

function writeList(s: Setup, at: number, rows: number[]): void {
  rows.forEach((r, i) => s.view.setInt32(at + 4 * i, r, true));
}

function randomRows(s: Setup, n: number): number[] {
  const rows: number[] = [];
  for (let i = 0; i < n; i++) {
    const r = s.next() % 8;
    rows.push(r === 0 ? 0 : r === 1 ? FEATURE_ROWS - 1 : s.next() % FEATURE_ROWS);
  }
  return rows;
}

function accBytes(s: Setup, acc: number): Uint8Array {
  return s.bytes.slice(acc, acc + ACC_PSQT + 4 * PSQT_BUCKETS);
}

test('wasm kernels: refresh equals the scalar reference (random rows, i16 and i32 wrap)', { skip }, () => {
  const s = setup();
  let wrapped = 0;
  for (let trial = 0; trial < 40; trial++) {
    const rows = randomRows(s, trial < 2 ? trial : s.next() % 120);
    writeList(s, LIST_1, rows);
    s.wasm.refresh(ACC_A, LIST_1, rows.length);
    s.ref.refresh(ACC_B, LIST_1, rows.length);
    s.portable.refresh(ACC_E, LIST_1, rows.length);
    assert.deepEqual(accBytes(s, ACC_A), accBytes(s, ACC_B), `trial ${trial}`);
    assert.deepEqual(accBytes(s, ACC_E), accBytes(s, ACC_B), `portable, trial ${trial}`);
    // Count lanes where the plain sum left the i16 range (the wrap was exercised).
    for (let j = 0; j < L1; j++) {
      let sum = s.view.getInt16(FT_BIAS + 2 * j, true);
      for (const r of rows) sum += s.view.getInt8(FT_WEIGHTS + r * L1 + j);
      if (sum > 32767 || sum < -32768) wrapped++;
    }
  }
  assert.ok(wrapped > 0, 'some lanes wrapped around');
});

test('wasm kernels: refresh with one row repeated 600 times (multiple i16 wraps) and PSQT overflow', { skip }, () => {
  const s = setup();
  const row = 12345;
  const saved = s.bytes.slice(FT_WEIGHTS + row * L1, FT_WEIGHTS + (row + 1) * L1);
  const savedPsqt = s.bytes.slice(FT_PSQT + row * 64, FT_PSQT + row * 64 + 64);
  try {
    for (let j = 0; j < L1; j++) s.view.setInt8(FT_WEIGHTS + row * L1 + j, j % 2 ? 127 : -128);
    for (let k = 0; k < PSQT_BUCKETS; k++)
      s.view.setInt32(FT_PSQT + row * 64 + 4 * k, k % 2 ? 0x7fffffff : -0x80000000, true);
    const rows = new Array<number>(600).fill(row);
    writeList(s, LIST_1, rows);
    s.wasm.refresh(ACC_A, LIST_1, rows.length);
    s.ref.refresh(ACC_B, LIST_1, rows.length);
    s.portable.refresh(ACC_E, LIST_1, rows.length);
    assert.deepEqual(accBytes(s, ACC_A), accBytes(s, ACC_B));
    assert.deepEqual(accBytes(s, ACC_E), accBytes(s, ACC_B), 'portable');
    const bias = s.view.getInt16(FT_BIAS + 2, true);
    assert.equal(s.view.getInt16(ACC_A + 2, true), ((bias + 600 * 127) << 16) >> 16);
  } finally {
    s.bytes.set(saved, FT_WEIGHTS + row * L1);
    s.bytes.set(savedPsqt, FT_PSQT + row * 64);
  }
});

test('wasm kernels: update equals the scalar reference, in place and not, and agrees with refresh', { skip }, () => {
  const s = setup();
  for (let trial = 0; trial < 40; trial++) {
    // A random source accumulator (any i16 / i32 values).
    const src = s.bytes.subarray(ACC_C, ACC_C + ACC_BYTES);
    for (let i = 0; i < src.length; i++) src[i] = s.next() & 0xff;
    const added = randomRows(s, trial === 0 ? 0 : s.next() % 12);
    const removed = randomRows(s, trial === 1 ? 0 : s.next() % 12);
    writeList(s, LIST_1, added);
    writeList(s, LIST_2, removed);
    s.wasm.update(ACC_A, ACC_C, LIST_1, added.length, LIST_2, removed.length);
    s.ref.update(ACC_B, ACC_C, LIST_1, added.length, LIST_2, removed.length);
    s.portable.update(ACC_E, ACC_C, LIST_1, added.length, LIST_2, removed.length);
    assert.deepEqual(accBytes(s, ACC_A), accBytes(s, ACC_B), `trial ${trial}`);
    assert.deepEqual(accBytes(s, ACC_E), accBytes(s, ACC_B), `portable, trial ${trial}`);
    // In place (dst = src).
    s.bytes.copyWithin(ACC_D, ACC_C, ACC_C + ACC_BYTES);
    s.wasm.update(ACC_D, ACC_D, LIST_1, added.length, LIST_2, removed.length);
    assert.deepEqual(accBytes(s, ACC_D), accBytes(s, ACC_B), `in place, trial ${trial}`);
  }
  // refresh(F) then update(+A, -R) equals refresh(F + A - R).
  const base = randomRows(s, 40);
  const added = randomRows(s, 3);
  const removed = base.slice(5, 8);
  writeList(s, LIST_1, base);
  s.wasm.refresh(ACC_A, LIST_1, base.length);
  writeList(s, LIST_1, added);
  writeList(s, LIST_2, removed);
  s.wasm.update(ACC_A, ACC_A, LIST_1, added.length, LIST_2, removed.length);
  const final = [...base.slice(0, 5), ...base.slice(8), ...added];
  writeList(s, LIST_1, final);
  s.wasm.refresh(ACC_B, LIST_1, final.length);
  assert.deepEqual(accBytes(s, ACC_A), accBytes(s, ACC_B));
});

/** Fills an accumulator's i16 part with values from `gen`. */
function fillAcc(s: Setup, acc: number, gen: (j: number) => number): void {
  for (let j = 0; j < L1; j++) s.view.setInt16(acc + 2 * j, gen(j), true);
}

test('wasm kernels: propagate equals the scalar reference on every stack and input shape', { skip }, () => {
  const s = setup();
  const shapes: [string, (j: number) => number][] = [
    ['uniform i16', () => (s.next() << 16) >> 16],
    ['clamp edges', () => -40 + (s.next() % 336)],
    ['zero', () => 0],
    ['all 255', () => 255],
    ['sparse', () => (s.next() % 10 === 0 ? s.next() % 300 : -(s.next() % 100))],
    ['exact edges', (j) => [-1, 0, 1, 254, 255, 256, 32767, -32768][j % 8]],
  ];
  const results = new Set<number>();
  let compared = 0;
  for (let stackIndex = 0; stackIndex < LAYER_STACKS; stackIndex++) {
    const stack = STACKS + stackIndex * STACK_BYTES;
    for (const [name, gen] of shapes) {
      for (let rep = 0; rep < 3; rep++) {
        fillAcc(s, ACC_A, gen);
        fillAcc(s, ACC_B, gen);
        const w = s.wasm.propagate(ACC_A, ACC_B, stack, SCRATCH);
        const r = s.ref.propagate(ACC_A, ACC_B, stack, SCRATCH);
        assert.equal(w, r, `stack ${stackIndex}, ${name}, rep ${rep}`);
        assert.equal(
          s.portable.propagate(ACC_A, ACC_B, stack, SCRATCH),
          r,
          `portable, stack ${stackIndex}, ${name}, rep ${rep}`,
        );
        results.add(w);
        compared++;
      }
    }
  }
  assert.ok(results.size > compared / 4, `varied outputs (${results.size} distinct of ${compared})`);
});

test('wasm kernels: propagate with moderate and extreme layer weights (clips, i32 wrap, i64 scaling)', { skip }, () => {
  const s = setup();
  const stack = STACKS + 3 * STACK_BYTES;
  const saved = s.bytes.slice(stack, stack + STACK_BYTES);
  const setI8 = (at: number, n: number, gen: () => number): void => {
    for (let i = 0; i < n; i++) s.view.setInt8(stack + at + i, gen());
  };
  const setI32 = (at: number, n: number, gen: () => number): void => {
    for (let i = 0; i < n; i++) s.view.setInt32(stack + at + 4 * i, gen(), true);
  };
  const small = (sd: number) => (): number => (s.next() % (2 * sd + 1)) - sd;
  const cases: [string, () => void][] = [
    [
      'moderate weights (realistic net magnitudes)',
      () => {
        setI32(FC0_BIAS, L2, small(2000));
        setI8(FC0_WEIGHTS, L2 * L1, small(40));
        setI32(FC1_BIAS, L3, small(2000));
        setI8(FC1_WEIGHTS, L3 * 2 * L2, small(30));
        setI32(FC2_BIAS, 1, small(1000));
        setI8(FC2_WEIGHTS, 2 * L2 + 2 * L3, small(30));
      },
    ],
    [
      'max weights',
      () => {
        setI8(FC0_WEIGHTS, L2 * L1, () => 127);
        setI8(FC1_WEIGHTS, L3 * 2 * L2, () => 127);
        setI8(FC2_WEIGHTS, 2 * L2 + 2 * L3, () => 127);
      },
    ],
    [
      'min weights',
      () => {
        setI8(FC0_WEIGHTS, L2 * L1, () => -128);
        setI8(FC1_WEIGHTS, L3 * 2 * L2, () => -128);
        setI8(FC2_WEIGHTS, 2 * L2 + 2 * L3, () => -128);
      },
    ],
    [
      'biases at the i32 limits',
      () => {
        setI32(FC0_BIAS, L2, () => (s.next() & 1 ? 0x7fffffff : -0x80000000));
        setI32(FC1_BIAS, L3, () => (s.next() & 1 ? 0x7fffffff : -0x80000000));
        setI32(FC2_BIAS, 1, () => 0x7fff0000);
      },
    ],
    [
      'large negative sums',
      () => {
        setI32(FC0_BIAS, L2, () => -(s.next() % 50000000));
        setI8(FC0_WEIGHTS, L2 * L1, () => -(s.next() % 129));
        setI32(FC2_BIAS, 1, () => -2000000000);
      },
    ],
  ];
  try {
    for (const [name, prepare] of cases) {
      s.bytes.set(saved, stack);
      prepare();
      // The portable kernels keep a reordered copy of fc_0 made on first use: a fresh
      // instance sees the changed weights.
      const portable = new PortableKernels(s.memory.buffer);
      for (let rep = 0; rep < 6; rep++) {
        const gen = rep % 2 ? (): number => 255 : (): number => -60 + (s.next() % 400);
        fillAcc(s, ACC_A, gen);
        fillAcc(s, ACC_B, gen);
        const w = s.wasm.propagate(ACC_A, ACC_B, stack, SCRATCH);
        const r = s.ref.propagate(ACC_A, ACC_B, stack, SCRATCH);
        assert.equal(w, r, `${name}, rep ${rep}`);
        assert.equal(portable.propagate(ACC_A, ACC_B, stack, SCRATCH), r, `portable, ${name}, rep ${rep}`);
      }
    }
  } finally {
    s.bytes.set(saved, stack);
  }
});

test('wasm kernels: a shared memory gets the shared-memory module, with the same numbers', { skip }, () => {
  const s = setup(true);
  assert.ok(s.memory.buffer instanceof SharedArrayBuffer);
  for (let trial = 0; trial < 4; trial++) {
    const rows = randomRows(s, 30 + trial);
    writeList(s, LIST_1, rows);
    s.wasm.refresh(ACC_A, LIST_1, rows.length);
    s.ref.refresh(ACC_C, LIST_1, rows.length);
    assert.deepEqual(accBytes(s, ACC_A), accBytes(s, ACC_C));
    fillAcc(s, ACC_B, () => -40 + (s.next() % 336));
    const stack = STACKS + trial * STACK_BYTES;
    assert.equal(s.wasm.propagate(ACC_A, ACC_B, stack, SCRATCH), s.ref.propagate(ACC_A, ACC_B, stack, SCRATCH));
  }
});

test(
  'wasm kernels: a module that is not the kernel module, or a plain buffer, is refused with a reason',
  { skip },
  () => {
    const memory = new WasmMemoryCtor({ initial: 1 });
    const garbage = createWasmKernels(memory, new Uint8Array([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0, 0xff]));
    assert.equal(garbage.ok, false);
    assert.equal(!garbage.ok && garbage.error.code, 'module-invalid');
    // An empty but valid module has no layout exports.
    const empty = createWasmKernels(memory, new Uint8Array([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0]));
    assert.equal(!empty.ok && empty.error.code, 'layout-mismatch');
    const plain = createWasmKernels({ buffer: new ArrayBuffer(65536) });
    assert.equal(!plain.ok && plain.error.code, 'not-wasm-memory');
    assert.match(plain.ok ? '' : plain.error.message, /not a WebAssembly.Memory/);
  },
);
