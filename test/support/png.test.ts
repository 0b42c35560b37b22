// The PNG reader of the page tests, on files made here: every filter type, each
// colour type it reads, and the files it refuses.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { deflateSync } from 'node:zlib';
import { decodePng } from './png.js';

function crcless(type: string, data: Uint8Array): Buffer {
  // The reader does not check CRCs; a zero CRC keeps the encoder short.
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  return Buffer.concat([head, Buffer.from(data), Buffer.alloc(4)]);
}

/** A PNG of `rows` (bytes per row = width * channels), row y filtered with filters[y % filters.length]. */
function encode(width: number, colour: number, channels: number, rows: number[][], filters: number[]): Buffer {
  const stride = width * channels;
  const raw: number[] = [];
  rows.forEach((row, y) => {
    const f = filters[y % filters.length];
    raw.push(f);
    const up = y > 0 ? rows[y - 1] : new Array<number>(stride).fill(0);
    for (let i = 0; i < stride; i++) {
      const a = i >= channels ? row[i - channels] : 0;
      const b = up[i];
      const c = i >= channels ? up[i - channels] : 0;
      const p = a + b - c;
      const pred = [
        0,
        a,
        b,
        (a + b) >> 1,
        Math.abs(p - a) <= Math.abs(p - b) && Math.abs(p - a) <= Math.abs(p - c)
          ? a
          : Math.abs(p - b) <= Math.abs(p - c)
            ? b
            : c,
      ][f];
      raw.push((row[i] - pred) & 255);
    }
  });
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(rows.length, 4);
  ihdr[8] = 8;
  ihdr[9] = colour;
  return Buffer.concat([
    Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]),
    crcless('IHDR', ihdr),
    crcless('IDAT', deflateSync(Buffer.from(raw))),
    crcless('IEND', new Uint8Array(0)),
  ]);
}

test('decodePng reads RGBA rows under every filter type', () => {
  const width = 5;
  const rows = Array.from({ length: 10 }, (_, y) =>
    Array.from({ length: width * 4 }, (_, i) => (y * 37 + i * 11 + ((i * y) % 7) * 29) & 255),
  );
  const png = decodePng(encode(width, 6, 4, rows, [0, 1, 2, 3, 4]));
  assert.equal(png.width, 5);
  assert.equal(png.height, 10);
  assert.deepEqual([...png.rgba], rows.flat());
});

test('decodePng reads RGB and greyscale as RGBA, opaque', () => {
  const rgb = decodePng(
    encode(
      2,
      2,
      3,
      [
        [10, 20, 30, 40, 50, 60],
        [70, 80, 90, 100, 110, 120],
      ],
      [4, 3],
    ),
  );
  assert.deepEqual([...rgb.rgba], [10, 20, 30, 255, 40, 50, 60, 255, 70, 80, 90, 255, 100, 110, 120, 255]);
  const grey = decodePng(encode(3, 0, 1, [[0, 128, 255]], [1]));
  assert.deepEqual([...grey.rgba], [0, 0, 0, 255, 128, 128, 128, 255, 255, 255, 255, 255]);
});

test('decodePng refuses what it cannot read, with a reason', () => {
  assert.throws(() => decodePng(new Uint8Array([1, 2, 3])), /not a PNG/);
  const sixteen = encode(1, 6, 4, [[1, 2, 3, 4]], [0]);
  sixteen[8 + 8 + 8] = 16; // IHDR bit depth
  assert.throws(() => decodePng(sixteen), /bit depth 16/);
  const badFilter = encode(1, 6, 4, [[1, 2, 3, 4]], [0]);
  // Replace the IDAT with one whose row has filter type 9.
  const idat = deflateSync(Buffer.from([9, 1, 2, 3, 4]));
  const fixed = Buffer.concat([badFilter.subarray(0, 33), crcless('IDAT', idat), crcless('IEND', new Uint8Array(0))]);
  assert.throws(() => decodePng(fixed), /filter type 9/);
});
