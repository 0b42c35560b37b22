import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createHash } from 'node:crypto';
import { closeSync, openSync, readSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { assertSameEntries, everyKindOfEntry, randomGame } from '../../test/support/chain-games.js';
import { MANIFEST, readManifest, SELFPLAY_DIR } from '../data/manifest.js';
import { BLOCK_HEADER_SIZE, blockEntries, makeBlock, makeChainHeader, readBlockHeader } from './chain-codec.js';
import { HEADER_SIZE } from './format.js';

const sha256 = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

/** makeBlock's block, checked to be one. */
function block(...args: Parameters<typeof makeBlock>): Uint8Array {
  const b = makeBlock(...args);
  assert.ok(b.ok, b.ok ? '' : b.error.message);
  return b.ok ? b.value : new Uint8Array(0);
}

test('games, starts, raw records and cut games come back from a block as they went in, compressed or stored', () => {
  const entries = everyKindOfEntry();
  for (const quality of [11, 1, -1]) {
    const back = blockEntries(block(entries, quality));
    assert.ok(back.ok, back.ok ? '' : back.error.message);
    if (back.ok) assertSameEntries(back.value, entries);
  }
  // The header counts the games (a raw record is one) and the scored positions (a raw record is one).
  const info = readBlockHeader(block(entries), 0);
  assert.ok(info.ok);
  const scored = entries.reduce((s, e) => s + (e.kind === 'raw' ? 1 : e.scored.reduce((x, y) => x + y, 0)), 0);
  if (info.ok) assert.deepEqual([info.value.games, info.value.positions], [entries.length, scored]);
});

// The bytes of these blocks as the codec wrote them when it moved out of
// chain.ts (files written before then hold the same bytes): a change of any
// byte the writer makes shows here.
test('the codec writes the bytes it always wrote', () => {
  const entries = everyKindOfEntry();
  assert.equal(sha256(block(entries)), '15c0ef096050cbaa6de27272fdd88adf28b5e604dfbd9d752415c746757d94f4');
  assert.equal(sha256(block(entries, 5)), 'b94c51552f60fbe12350910576293586e98b95d636582a4dd8404f1c043ca23b');
  assert.equal(sha256(block(entries, -1)), '0d8ba3146ab66f4fdb70544a5be3e45f220f412bc0222b0a63061c75798a598c');
  const many = Array.from({ length: 40 }, (_, i) => randomGame(100 + i, 80, 0.9));
  assert.equal(sha256(block(many)), 'b698d3b04e4caaae862fd03065d6e76564f1ca1f90242cc2208be6e75f6fdeba');
  assert.equal(sha256(makeChainHeader()), 'cf698dc2d63fce05df0c895baa1d3e1fab6252b7cbfc9ded5ba56e1ad6fd60ee');
});

test('the first block of a committed self-play file decodes and encodes again to the same bytes', () => {
  // The smallest file in the tree that `kirin datagen` wrote (a converted file's blocks are cut elsewhere).
  const m = readManifest(join(SELFPLAY_DIR, MANIFEST));
  assert.ok(m.ok, m.ok ? '' : m.error.message);
  if (!m.ok) return;
  const written = m.value.filter((e) => !e.archived && e.command.startsWith('kirin datagen'));
  assert.ok(written.length > 0, 'data/selfplay holds a file that kirin datagen wrote');
  const file = join(SELFPLAY_DIR, written.sort((a, b) => a.bytes - b.bytes)[0].file);
  const fd = openSync(file, 'r');
  let first: Uint8Array;
  try {
    const head = new Uint8Array(BLOCK_HEADER_SIZE);
    readSync(fd, head, 0, BLOCK_HEADER_SIZE, HEADER_SIZE);
    const info = readBlockHeader(head, HEADER_SIZE);
    assert.ok(info.ok, info.ok ? '' : info.error.message);
    if (!info.ok) return;
    assert.ok(HEADER_SIZE + BLOCK_HEADER_SIZE + info.value.stored <= statSync(file).size);
    first = new Uint8Array(BLOCK_HEADER_SIZE + info.value.stored);
    readSync(fd, first, 0, first.length, HEADER_SIZE);
  } finally {
    closeSync(fd);
  }
  const entries = blockEntries(first);
  assert.ok(entries.ok, entries.ok ? '' : entries.error.message);
  if (!entries.ok) return;
  assert.ok(entries.value.length > 100, `${entries.value.length} games`);
  const again = block(entries.value);
  assert.equal(again.length, first.length);
  assert.ok(Buffer.from(again).equals(first), `${file}: the first block is written again byte for byte`);
});

test('a damaged or cut block is refused', () => {
  const good = block([randomGame(1, 40, 1), randomGame(2, 40, 1)]);
  const refused = (bytes: Uint8Array, re: RegExp) => {
    const r = blockEntries(bytes);
    assert.ok(!r.ok);
    if (!r.ok) assert.match(r.error.message, re);
  };
  const flipped = good.slice();
  flipped[BLOCK_HEADER_SIZE + 5] ^= 4;
  refused(flipped, /damaged block \(CRC-32 mismatch\)/);
  const header = good.slice();
  header[12] ^= 1;
  refused(header, /damaged header \(CRC-32 mismatch\)/);
  const magic = good.slice();
  magic[0] = 0;
  refused(magic, /bad block magic/);
  refused(good.subarray(0, good.length - 3), /payload bytes, its header says/);
  refused(good.subarray(0, 10), /a block of 10 bytes/);
});
