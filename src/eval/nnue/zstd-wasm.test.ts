import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';

import { repoPath } from '../../../toolkit/files.js';
import { syntheticNetFile } from '../../../toolkit/nnue/synthetic-net.js';
import { loadZstdModule } from '#platform/files';
import { unpackContainer } from './loader.js';
import { missingZstdExports, WasmZstd, ZstdError, type ZstdStream } from './zstd-wasm.js';

// The WebAssembly zstd decoder driven step by step: its output in any input
// pieces is the JavaScript decoder's (fzstd), damaged data is an error, and
// every stream frees what it used.

/** The first 163,840 payload bytes of the seed-1 network, compressed by the zstd tool (compressed blocks, a checksum). */
const head = readFileSync(repoPath('test', 'data', 'nnue', 'seed1-head.zst'));
const reference = (bytes: Uint8Array): Uint8Array => {
  const r = unpackContainer(bytes, 'reference', true);
  if (!r.ok) throw new Error(r.error.message);
  return r.value.payload;
};

function* pieces(bytes: Uint8Array, size: number): Generator<Uint8Array> {
  for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size);
}

/** All of a stream's output, and whether it ended complete. */
function drain(stream: ZstdStream): { out: Buffer; complete: boolean } {
  const parts: Buffer[] = [];
  try {
    for (let p = stream.next(); p !== null; p = stream.next()) parts.push(Buffer.from(p)); // copies: a piece is a view
    return { out: Buffer.concat(parts), complete: stream.complete };
  } finally {
    stream.close();
  }
}

test('the WebAssembly zstd decoder gives the JavaScript decoder bytes, in any input pieces, over many output steps', async () => {
  const zstd = await WasmZstd.create(await loadZstdModule());
  const want = Buffer.from(reference(head));
  for (const size of [1, 7, 4096, head.length])
    for (const outBytes of [1000, 1 << 20]) {
      // Output steps smaller than a block: the decoder gives out what it holds after the input is all in.
      const { out, complete } = drain(zstd.stream(pieces(head, size), outBytes));
      assert.ok(complete, `complete in ${size}-byte pieces, ${outBytes}-byte steps`);
      assert.ok(out.equals(want), `same bytes in ${size}-byte pieces, ${outBytes}-byte steps`);
    }
  // A frame without a checksum whose last block is RLE: 1 input byte for 5,000 output bytes, so the
  // decoder still holds most of them after the input is all in (magic; single segment, 2-byte content
  // size 5000 - 256; block header: last, RLE, size 5000; the byte).
  const rle = new Uint8Array([0x28, 0xb5, 0x2f, 0xfd, 0x60, 0x88, 0x12, 0x43, 0x9c, 0x00, 0x5a]);
  const rleOut = drain(zstd.stream([rle], 1000));
  assert.ok(rleOut.complete);
  assert.ok(rleOut.out.equals(Buffer.from(reference(rle))) && rleOut.out.equals(Buffer.alloc(5000, 0x5a)));

  // The seed-1 network: 65,832,348 bytes of stored blocks, dozens of full output buffers.
  const net = readFileSync(syntheticNetFile(1));
  const { out, complete } = drain(zstd.stream(pieces(net, 1 << 20)));
  assert.ok(complete);
  assert.ok(out.equals(Buffer.from(reference(net))));
});

test('damaged or cut zstd data: an error or an incomplete stream, and its memory is freed', async () => {
  const zstd = await WasmZstd.create(await loadZstdModule());
  const flipped = new Uint8Array(head);
  flipped[flipped.length >> 1] ^= 0x10;
  assert.throws(() => drain(zstd.stream([flipped])), /^ZstdError: zstd error \d+$/);
  const cut = drain(zstd.stream([head.subarray(0, head.length - 1000)]));
  assert.equal(cut.complete, false, 'a cut stream is not complete');
  assert.ok(cut.out.length < 163840);
  // A second frame after the first is decoded too (the loader refuses it by its declared size).
  const twice = drain(zstd.stream([head, head]));
  assert.equal(twice.out.length, 2 * 163840);
  // Streams abandoned half-way, refused or cut, many times over: the memory stays as it was.
  const before = zstd.memoryBytes;
  for (let i = 0; i < 40; i++) {
    const s = zstd.stream(pieces(head, 4096));
    s.next();
    s.close();
    assert.throws(() => drain(zstd.stream([flipped])), ZstdError);
    drain(zstd.stream([head.subarray(0, 5000)]));
  }
  assert.equal(zstd.memoryBytes, before);
  assert.ok(drain(zstd.stream([head])).out.equals(Buffer.from(reference(head))), 'and it still decodes');
});

test('a module that is not the zstd decoder is refused by name of what it lacks; the shipped zstd.wasm is accepted', async () => {
  // A valid module exporting only a memory: header, memory section (one memory, 1 page), export "memory".
  const memoryOnly = Uint8Array.from([
    0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00, 0x05, 0x03, 0x01, 0x00, 0x01, 0x07, 0x0a, 0x01, 0x06, 0x6d, 0x65,
    0x6d, 0x6f, 0x72, 0x79, 0x02, 0x00,
  ]);
  await assert.rejects(
    WasmZstd.create(memoryOnly),
    /^Error: zstd\.wasm lacks malloc, free, ZSTD_createDCtx, ZSTD_freeDCtx, ZSTD_decompressStream$/,
  );
  await WasmZstd.create(await loadZstdModule()); // the shipped one
  assert.deepEqual(missingZstdExports(['memory', 'malloc']), [
    'free',
    'ZSTD_createDCtx',
    'ZSTD_freeDCtx',
    'ZSTD_decompressStream',
  ]);
});
