// The synthetic network generator against the reference script make_random_net.py.
// The SHA-256 values below were computed from the files the reference script writes
// (python3 make_random_net.py --seed 1 --out F; --container none; --seed 2;
// --seed 7 --no-sort-ft --no-material); the seed-1 value is the one FORMAT.md gives.

import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename } from 'node:path';
import { test } from 'node:test';

import {
  ftHash,
  makeSyntheticNet,
  networkHash,
  normalQuantile,
  stackHash,
  syntheticNetFile,
  zstdStoredFrame,
} from './synthetic-net.js';

const SEED1_SHA256 = 'f7cacaf5deca72e610e741e06e7e074b3704137e9e9337269e01d23abde53454';
const SEED1_PAYLOAD_SHA256 = 'd90e0b7589a794cedca34682e3090eb00b44ea37f6c5903e15ffd163fcb40610';
const SEED2_SHA256 = '3a6a57473cc00eae2a923b619524110e8426d8e8503d929fcc96a6e00af6c492';
const SEED7_RAW_SHA256 = '521b8b390977d6d85bc66fa5a8e997aa0ac97ad393aa1aea0e9a8ef57a1371db';

const sha256 = (b: Uint8Array): string => createHash('sha256').update(b).digest('hex');

/** Decodes a zstd stream made only of raw and RLE blocks (what the generator writes). */
function zstdDecodeStored(data: Uint8Array): Uint8Array {
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  assert.equal(view.getUint32(0, true), 0xfd2fb528, 'zstd magic');
  const fhd = data[4];
  const fcsFlag = fhd >> 6;
  const single = (fhd >> 5) & 1;
  assert.equal(fhd & 3, 0, 'no dictionary id');
  assert.equal((fhd >> 2) & 1, 0, 'no checksum');
  let pos = 5 + (single ? 0 : 1);
  const fcsBytes = [single ? 1 : 0, 2, 4, 8][fcsFlag];
  const contentSize = fcsBytes === 4 ? view.getUint32(pos, true) : -1;
  pos += fcsBytes;
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const header = data[pos] | (data[pos + 1] << 8) | (data[pos + 2] << 16);
    pos += 3;
    const last = header & 1;
    const type = (header >> 1) & 3;
    const size = header >>> 3;
    assert.ok(size <= 128 * 1024, 'block size within the window');
    if (type === 0) {
      chunks.push(data.subarray(pos, pos + size));
      pos += size;
    } else {
      assert.equal(type, 1, 'only raw or RLE blocks');
      chunks.push(new Uint8Array(size).fill(data[pos]));
      pos += 1;
    }
    total += size;
    if (last) break;
  }
  assert.equal(pos, data.length, 'nothing after the frame');
  if (contentSize >= 0) assert.equal(total, contentSize, 'content size field');
  const out = new Uint8Array(total);
  let o = 0;
  for (const c of chunks) {
    out.set(c, o);
    o += c.length;
  }
  return out;
}

/** Walks the payload as Pikafish's loader does; returns the description and block sizes. */
function parsePayload(p: Uint8Array): { description: string; lebBytes: number[] } {
  const view = new DataView(p.buffer, p.byteOffset, p.byteLength);
  let pos = 0;
  const u32 = (): number => {
    const v = view.getUint32(pos, true);
    pos += 4;
    return v;
  };
  const leb = (count: number, bits: number): number => {
    assert.equal(Buffer.from(p.subarray(pos, pos + 17)).toString('latin1'), 'COMPRESSED_LEB128');
    pos += 17;
    const bytes = u32();
    const end = pos + bytes;
    for (let n = 0; n < count; n++) {
      let result = 0;
      let shift = 0;
      let byte: number;
      do {
        assert.ok(pos < end, 'LEB128 block too short');
        byte = p[pos++];
        result += (byte & 0x7f) * 2 ** shift;
        shift += 7;
      } while (byte & 0x80);
      if (byte & 0x40) result -= 2 ** shift;
      assert.ok(result >= -(2 ** (bits - 1)) && result < 2 ** (bits - 1), `LEB128 value ${result} fits ${bits} bits`);
    }
    assert.equal(pos, end, 'LEB128 byte count exact');
    return bytes;
  };
  assert.equal(u32(), 0x6a448afa, 'version');
  assert.equal(u32(), 0x40c70fa6, 'network hash');
  const n = u32();
  const description = Buffer.from(p.subarray(pos, pos + n)).toString('utf8');
  pos += n;
  assert.equal(u32(), 0x23f47eb0, 'feature transformer hash');
  const b1 = leb(1024, 16);
  pos += 45547 * 1024;
  const b2 = leb(45547 * 16, 32);
  pos += 16536 * 1024;
  const b3 = leb(16536 * 16, 32);
  for (let s = 0; s < 16; s++) {
    assert.equal(u32(), 0x63337116, `layer stack ${s} hash`);
    pos += 35208 - 4;
  }
  assert.equal(pos, p.length, 'the payload ends after the last layer stack');
  assert.equal(p.length, 64136399 + n + b1 + b2 + b3, 'FORMAT.md size formula');
  return { description, lebBytes: [b1, b2, b3] };
}

test('synthetic net: hash constants as in FORMAT.md', () => {
  assert.equal(ftHash(), 0x23f47eb0);
  assert.equal(stackHash(), 0x63337116);
  assert.equal(networkHash(), 0x40c70fa6);
});

test('synthetic net: normal quantiles as CPython computes them', () => {
  // Values of NormalDist().inv_cdf((u + 0.5) / 65536) printed by Python 3.11.
  assert.equal(normalQuantile(1000.5 / 65536), -2.1631084815747497);
  assert.equal(normalQuantile(40000.5 / 65536), 0.28025533429206007);
  assert.equal(normalQuantile(0.5 / 65536), -4.324919040826044);
  assert.equal(normalQuantile(0.5), 0);
});

test('synthetic net: seed 1 is the reference file byte for byte, and the bare payload is its content', () => {
  const file = makeSyntheticNet(1);
  assert.equal(file.length, 65833867);
  assert.equal(sha256(file), SEED1_SHA256);
  const payload = makeSyntheticNet(1, { container: 'none' });
  assert.equal(payload.length, 65832348);
  assert.equal(sha256(payload), SEED1_PAYLOAD_SHA256);
  assert.deepEqual(zstdDecodeStored(file), payload);
  assert.equal(sha256(zstdStoredFrame(payload)), SEED1_SHA256);
  const parsed = parsePayload(payload);
  assert.equal(parsed.description, 'random net, make_random_net.py seed=1');
});

test('synthetic net: another seed gives another valid net (seed 2 matches the script)', () => {
  const file = makeSyntheticNet(2);
  assert.notEqual(sha256(file), SEED1_SHA256);
  assert.equal(sha256(file), SEED2_SHA256);
  const parsed = parsePayload(zstdDecodeStored(file));
  assert.equal(parsed.description, 'random net, make_random_net.py seed=2');
});

test('synthetic net: options --no-sort-ft --no-material and a description', () => {
  assert.equal(sha256(makeSyntheticNet(7, { noSortFt: true, noMaterial: true })), SEED7_RAW_SHA256);
  const payload = makeSyntheticNet(3, { container: 'none', description: 'Kirin test net ✓' });
  assert.equal(parsePayload(payload).description, 'Kirin test net ✓');
  assert.throws(() => makeSyntheticNet(1.5), RangeError);
});

test('synthetic net: syntheticNetFile writes the seed-1 file once, atomically', () => {
  const path = syntheticNetFile();
  assert.ok(existsSync(path));
  assert.match(basename(path), /seed1-v\d+-[0-9a-f]{12}\.nnue$/);
  assert.equal(syntheticNetFile(1), path, 'same path on the second call');
  assert.equal(sha256(readFileSync(path)), SEED1_SHA256);
  const leftovers = readdirSync(tmpdir()).filter((f) => f.startsWith(basename(path)) && f.endsWith('.tmp'));
  assert.deepEqual(
    leftovers.filter((f) => f.includes(`.${process.pid}.`)),
    [],
    'no temporary file left behind',
  );
});
