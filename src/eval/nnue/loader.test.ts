import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';

import { syntheticNetFile } from '../../../toolkit/nnue/synthetic-net.js';
import { WEIGHTS_END } from './layout.js';
import {
  NETWORK_HASH,
  NNUE_VERSION,
  allocateNetworkMemory,
  parsePayload,
  unpackContainer,
  type NnueLoadCode,
  type PayloadSource,
} from './loader.js';
import { NnueNetwork } from './network.js';
import { candidatePaths } from '#platform/files';

// Every kind of bad network file gets its own code and a message that names the
// file, the problem and the expected format - and never an exception.

const fileBytes = readFileSync(syntheticNetFile(1));
const unpacked = unpackContainer(fileBytes, 'seed1');
if (!unpacked.ok) throw new Error(unpacked.error.message);
const payload = unpacked.value.payload;
const dir = mkdtempSync(join(tmpdir(), 'kirin-nnue-'));
after(() => rmSync(dir, { recursive: true, force: true }));

function expectError(r: ReturnType<typeof NnueNetwork.load>, code: NnueLoadCode, name: string, detail: RegExp): void {
  assert.equal(r.ok, false, `expected ${code}`);
  if (r.ok) return;
  assert.equal(r.error.code, code, r.error.message);
  assert.ok(r.error.message.includes(name), `the message names the file: ${r.error.message}`);
  assert.match(r.error.message, detail);
  assert.match(r.error.message, /expected a Pikafish NNUE network: version 0x6A448AFA, architecture hash 0x40C70FA6/);
}

const bytesWith = (edit: (b: Uint8Array, v: DataView) => void, base: Uint8Array = payload): Uint8Array => {
  const b = new Uint8Array(base);
  edit(b, new DataView(b.buffer));
  return b;
};

/** Offset of the first LEB128 block (after the header and the description). */
const descLen = new DataView(payload.buffer, payload.byteOffset).getUint32(8, true);
const firstLeb = 12 + descLen + 4;

test('the seed-1 file and its plain payload both load', () => {
  const z = NnueNetwork.fromBytes(fileBytes, 'seed1.nnue');
  assert.ok(z.ok && z.value.data.compressed && z.value.data.description.includes('seed=1'));
  const p = NnueNetwork.fromBytes(payload, 'seed1-plain.nnue');
  assert.ok(p.ok && !p.value.data.compressed && p.value.data.payloadBytes === 65832348);
});

test('missing file: not-found, with every place that was searched', () => {
  const r = NnueNetwork.load(join(dir, 'no-such-net.nnue'));
  expectError(r, 'not-found', 'no-such-net.nnue', /was not found \(looked for .*no-such-net\.nnue/);
  const c = candidatePaths('pikafish.nnue', ['/opt/kirin/bin']);
  assert.deepEqual(c.slice(1), ['/opt/kirin/bin/pikafish.nnue']);
});

test('empty file: empty', () => {
  const path = join(dir, 'empty.nnue');
  writeFileSync(path, new Uint8Array(0));
  expectError(NnueNetwork.load(path), 'empty', 'empty.nnue', /is empty/);
});

test('truncated files: truncated (plain) and bad-zstd (compressed)', () => {
  expectError(
    NnueNetwork.fromBytes(payload.subarray(0, payload.length >> 1), 'half.nnue'),
    'truncated',
    'half.nnue',
    /is truncated: the threat weights needs/,
  );
  expectError(NnueNetwork.fromBytes(payload.subarray(0, 7), 'seven.nnue'), 'truncated', 'seven.nnue', /truncated/);
  expectError(
    NnueNetwork.fromBytes(payload.subarray(0, payload.length - 1), 'short.nnue'),
    'truncated',
    'short.nnue',
    /fc_2 weights of stack 15/,
  );
  expectError(
    NnueNetwork.fromBytes(fileBytes.subarray(0, 1000), 'cut.nnue'),
    'bad-zstd',
    'cut.nnue',
    /not valid zstd data/,
  );
});

test('flipped bytes: damaged zstd block header, damaged LEB128 data and marker', () => {
  // Block header at byte 10 of the frame: set the block type to the reserved value 3.
  expectError(
    NnueNetwork.fromBytes(
      bytesWith((b) => (b[10] |= 6), fileBytes),
      'flipped-zstd.nnue',
    ),
    'bad-zstd',
    'flipped-zstd.nnue',
    /not valid zstd data/,
  );
  // A continuation bit flipped inside the first LEB128 block: the values no longer fill it exactly.
  expectError(
    NnueNetwork.fromBytes(
      bytesWith((b) => (b[firstLeb + 21] ^= 0x80)),
      'flipped-leb.nnue',
    ),
    'bad-leb128',
    'flipped-leb.nnue',
    /LEB128/,
  );
  expectError(
    NnueNetwork.fromBytes(
      bytesWith((b) => (b[firstLeb + 3] ^= 0x01)),
      'marker.nnue',
    ),
    'bad-leb128',
    'marker.nnue',
    /COMPRESSED_LEB128 marker/,
  );
});

test('wrong version and wrong hashes', () => {
  expectError(
    NnueNetwork.fromBytes(
      bytesWith((_b, v) => v.setUint32(0, NNUE_VERSION + 1, true)),
      'v.nnue',
    ),
    'bad-version',
    'v.nnue',
    /has version 0x6A448AFB/,
  );
  expectError(
    NnueNetwork.fromBytes(
      bytesWith((_b, v) => v.setUint32(4, NETWORK_HASH ^ 1, true)),
      'h.nnue',
    ),
    'bad-hash',
    'h.nnue',
    /architecture hash 0x40C70FA7/,
  );
  expectError(
    NnueNetwork.fromBytes(
      bytesWith((b) => (b[12 + descLen] ^= 0xff)),
      'ft.nnue',
    ),
    'bad-hash',
    'ft.nnue',
    /feature-transformer hash/,
  );
  expectError(
    NnueNetwork.fromBytes(
      bytesWith((b) => (b[payload.length - 35208] ^= 1)),
      'stack.nnue',
    ),
    'bad-hash',
    'stack.nnue',
    /layer-stack hash .* in stack 15/,
  );
});

test('plain garbage: bad-version (and bad-zstd behind a zstd magic)', () => {
  const garbage = new Uint8Array(100000);
  let x = 12345;
  for (let i = 0; i < garbage.length; i++) garbage[i] = (x = (Math.imul(x, 1103515245) + 12345) >>> 0) >>> 24;
  garbage[0] = 0x42; // not a zstd magic
  expectError(NnueNetwork.fromBytes(garbage, 'garbage.nnue'), 'bad-version', 'garbage.nnue', /has version/);
  const zgarbage = bytesWith((b) => b.set([0x28, 0xb5, 0x2f, 0xfd], 0), garbage);
  expectError(NnueNetwork.fromBytes(zgarbage, 'zgarbage.nnue'), 'bad-zstd', 'zgarbage.nnue', /not valid zstd data/);
  expectError(
    NnueNetwork.fromBytes(new TextEncoder().encode('hello, I am not a network\n'), 'text.nnue'),
    'bad-version',
    'text.nnue',
    /has version/,
  );
});

test('absurd sizes in the header: too-large, without allocating them', () => {
  expectError(
    NnueNetwork.fromBytes(
      bytesWith((_b, v) => v.setUint32(8, 0xffffffff, true)),
      'desc.nnue',
    ),
    'too-large',
    'desc.nnue',
    /claims a description of 4294967295 bytes/,
  );
  expectError(
    NnueNetwork.fromBytes(
      bytesWith((_b, v) => v.setUint32(firstLeb + 17, 0x7fffffff, true)),
      'leb.nnue',
    ),
    'too-large',
    'leb.nnue',
    /claims 2147483647 LEB128 bytes/,
  );
});

test('trailing bytes after the last layer stack: trailing-bytes', () => {
  const longer = new Uint8Array(payload.length + 1);
  longer.set(payload);
  expectError(
    NnueNetwork.fromBytes(longer, 'long.nnue'),
    'trailing-bytes',
    'long.nnue',
    /1 bytes after the last layer stack/,
  );
});

test('a payload parsed from pieces of any size gives the same weights as the whole; a source short of its size throws', () => {
  const whole = allocateNetworkMemory(0, false);
  assert.ok(parsePayload(payload, whole.buffer, 'whole').ok);
  // Pieces of 4093 bytes, reused: every field and LEB128 value may straddle two pieces.
  const piece = new Uint8Array(4093);
  let at = 0;
  const source: PayloadSource = {
    total: payload.length,
    next: () => {
      if (at >= payload.length) return null;
      const n = Math.min(piece.length, payload.length - at);
      piece.set(payload.subarray(at, at + n));
      at += n;
      return piece.subarray(0, n);
    },
  };
  let allocated = 0;
  const pieced = allocateNetworkMemory(0, false);
  const r = parsePayload(
    source,
    () => {
      allocated++;
      return pieced.buffer;
    },
    'pieces',
  );
  assert.ok(r.ok && r.value.includes('seed=1'));
  assert.equal(allocated, 1);
  const a = Buffer.from(new Uint8Array(whole.buffer, 0, WEIGHTS_END));
  assert.ok(a.equals(Buffer.from(new Uint8Array(pieced.buffer, 0, WEIGHTS_END))), 'same weights');
  // A wrong header costs no allocation.
  const bad = bytesWith((_b, v) => v.setUint32(4, NETWORK_HASH ^ 1, true));
  let badAllocated = 0;
  const rb = parsePayload(bad, () => (badAllocated++, new ArrayBuffer(0)), 'bad');
  assert.ok(!rb.ok && rb.error.code === 'bad-hash' && badAllocated === 0);
  // A source that ends before its declared size throws (the loader then reads the whole file).
  let given = false;
  const short: PayloadSource = {
    total: payload.length,
    next: () => (given ? null : ((given = true), payload.subarray(0, 1 << 20))),
  };
  assert.throws(() => parsePayload(short, allocateNetworkMemory(0, false).buffer, 'short'));
});

test('loads into a shared memory, with the helper thread touching its pages ahead of the parser, give the same weights', async () => {
  const whole = allocateNetworkMemory(0, false);
  assert.ok(parsePayload(payload, whole.buffer, 'whole').ok);
  const expected = Buffer.from(new Uint8Array(whole.buffer, 0, WEIGHTS_END));
  for (const [bytes, name] of [
    [fileBytes, 'seed1.nnue'],
    [payload, 'seed1-plain.nnue'],
  ] as const) {
    const net = NnueNetwork.fromBytes(bytes, name);
    assert.ok(net.ok, name);
    const buffer = net.value.handle().memory.buffer;
    assert.ok(buffer instanceof SharedArrayBuffer, 'a shared memory, which the helper touches');
    // The helper may still be running: wait until it has passed every page, then compare.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    assert.ok(expected.equals(Buffer.from(new Uint8Array(buffer, 0, WEIGHTS_END))), `${name}: same weights`);
  }
});
