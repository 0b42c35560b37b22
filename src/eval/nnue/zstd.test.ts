import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';

import { syntheticNetFile } from '../../../toolkit/nnue/synthetic-net.js';
import { repoPath } from '../../../toolkit/files.js';
import { WEIGHTS_END } from './layout.js';
import { allocateNetworkMemory, parsePayload, prepareNetworkDecoder, unpackContainer } from './loader.js';
import { NnueNetwork } from './network.js';

// The two zstd decoders (the WebAssembly one of zstd-wasm.ts once prepared, the
// JavaScript fzstd otherwise) give the same bytes, and a damaged file gets a clear error
// whichever decoder met it.

const network = readFileSync(syntheticNetFile(1));
/** The first 163,840 payload bytes of the seed-1 network, compressed by the zstd tool (test/data/nnue/README.md). */
const head = readFileSync(repoPath('test', 'data', 'nnue', 'seed1-head.zst'));

const unpack = (bytes: Uint8Array, js = false) => {
  const r = unpackContainer(bytes, 'test.nnue', js);
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
};

test('the WebAssembly decoder compiles on Node and unpacks what the JavaScript one does, byte for byte', async () => {
  assert.equal(await prepareNetworkDecoder(), true);
  const js = unpack(network, true);
  const wasm = unpack(network);
  assert.equal(js.decoder, 'fzstd');
  assert.equal(wasm.decoder, 'zstddec');
  assert.equal(wasm.payload.length, 65832348);
  assert.ok(Buffer.from(wasm.payload).equals(Buffer.from(js.payload)), 'same payload (stored blocks)');

  // Compressed blocks (Huffman literals, FSE sequences, a checksum), as published networks are.
  const hjs = unpack(head, true);
  const hwasm = unpack(head);
  assert.equal(hwasm.decoder, 'zstddec');
  assert.equal(hwasm.payload.length, 163840);
  assert.ok(Buffer.from(hwasm.payload).equals(Buffer.from(hjs.payload)), 'same bytes (compressed blocks)');
  assert.ok(
    Buffer.from(hwasm.payload).equals(Buffer.from(js.payload.subarray(0, 163840))),
    'the payload they came from',
  );

  const net = NnueNetwork.fromBytes(network, 'seed1.nnue');
  assert.ok(net.ok && net.value.data.decoder === 'zstddec' && net.value.data.description.includes('seed=1'));
});

test('damaged compressed files get a clear bad-zstd error from either decoder, and the next good file still loads', async () => {
  const damaged: [string, Uint8Array][] = [];
  // A bit flipped in the middle of the compressed data (the checksum, or the entropy decoding, fails).
  const flipped = new Uint8Array(head);
  flipped[flipped.length >> 1] ^= 0x10;
  damaged.push(['flipped.nnue', flipped]);
  // Cut short.
  damaged.push(['cut.nnue', head.subarray(0, head.length - 1000)]);
  // A block header of the network set to the reserved block type.
  const reserved = new Uint8Array(network);
  reserved[10] |= 6;
  damaged.push(['reserved.nnue', reserved]);
  for (const [name, bytes] of damaged) {
    for (const js of [false, true]) {
      if (!js) assert.equal(await prepareNetworkDecoder(), true);
      const r = unpackContainer(bytes, name, js);
      assert.equal(r.ok, false, `${name} (${js ? 'fzstd' : 'zstddec'}) is refused`);
      if (r.ok) continue;
      assert.equal(r.error.code, 'bad-zstd', r.error.message);
      assert.match(r.error.message, new RegExp(`network file '${name}' is not valid zstd data`));
      assert.match(r.error.message, /expected a Pikafish NNUE network/);
    }
  }
  // Each stream frees its decoder state, refused or not: the WebAssembly decoder unpacks the next file.
  const next = unpack(head);
  assert.equal(next.decoder, 'zstddec');
  assert.ok(Buffer.from(next.payload).equals(Buffer.from(unpack(head, true).payload)));
});

test('a compressed network file read in pieces through the WebAssembly decoder has the weights of its whole payload', async () => {
  assert.equal(await prepareNetworkDecoder(), true);
  const payload = unpack(network, true).payload;
  const reference = allocateNetworkMemory(0, false);
  const parsed = parsePayload(payload, reference.buffer, 'seed1 payload');
  assert.ok(parsed.ok);
  const streamed = NnueNetwork.load(syntheticNetFile(1));
  assert.ok(streamed.ok, streamed.ok ? '' : streamed.error.message);
  assert.equal(streamed.value.data.decoder, 'zstddec');
  assert.equal(streamed.value.data.payloadBytes, payload.length);
  const a = new Uint8Array(reference.buffer, 0, WEIGHTS_END);
  const b = new Uint8Array(streamed.value.memory.buffer, 0, WEIGHTS_END);
  assert.ok(Buffer.from(a).equals(Buffer.from(b)), 'same weights');
});

test('damaged compressed network files on disk are refused as bad-zstd, and the next good file still loads', async (t) => {
  assert.equal(await prepareNetworkDecoder(), true);
  const dir = mkdtempSync(join(tmpdir(), 'kirin-zstd-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const reserved = new Uint8Array(network);
  reserved[10] |= 6; // a block header set to the reserved block type
  const cut = network.subarray(0, network.length - 1000); // declares more than it holds
  for (const [name, bytes] of [
    ['reserved.nnue', reserved],
    ['cut.nnue', cut],
  ] as const) {
    const path = join(dir, name);
    writeFileSync(path, bytes);
    const r = NnueNetwork.load(path);
    assert.equal(r.ok, false, `${name} is refused`);
    if (r.ok) continue;
    assert.equal(r.error.code, 'bad-zstd', r.error.message);
    assert.match(r.error.message, new RegExp(`network file '.*${name}' is not valid zstd data`));
  }
  const good = NnueNetwork.load(syntheticNetFile(1));
  assert.ok(good.ok && good.value.data.decoder === 'zstddec');
});
