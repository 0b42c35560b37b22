import assert from 'node:assert/strict';
import { test } from 'node:test';
import { crc32 } from './crc32.js';

test("CRC-32 is zlib's (IEEE), and continues over pieces", () => {
  const bytes = new TextEncoder().encode('123456789');
  assert.equal(crc32(bytes), 0xcbf43926);
  assert.equal(crc32(new Uint8Array(0)), 0);
  assert.equal(crc32(bytes.subarray(4), crc32(bytes.subarray(0, 4))), 0xcbf43926);
  const flipped = bytes.slice();
  flipped[3] ^= 1;
  assert.notEqual(crc32(flipped), 0xcbf43926);
});
