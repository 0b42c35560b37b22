import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Position } from '../../core/position.js';
import { flipFilesFen, mirrorFen, randomFens } from '../../../test/support/fixtures.js';
import { randomKirinNet } from '../../../test/support/kirinnet-random.js';
import { DEFAULT_SHAPE, INPUTS, featureIndex, outputBucket } from './arch.js';
import { decodeKirinNet, encodeKirinNet, fnv1a, isKirinNet, type KirinNetWeights } from './format.js';
import { referenceEvaluate } from './reference.js';

const small = { inputs: INPUTS, hidden: 32, outputBuckets: 4 };

function assertSameNet(a: KirinNetWeights, b: KirinNetWeights): void {
  assert.deepEqual(b.shape, a.shape);
  assert.equal(b.description, a.description);
  assert.deepEqual(b.ftWeights, a.ftWeights);
  assert.deepEqual(b.ftBias, a.ftBias);
  assert.deepEqual(b.outWeights, a.outWeights);
  assert.deepEqual(b.outBias, a.outBias);
}

/** Rewrites the trailing hash so that a deliberate edit is judged on its content. */
function rehash(bytes: Uint8Array): Uint8Array {
  const out = bytes.slice();
  new DataView(out.buffer).setUint32(out.length - 4, fnv1a(out, out.length - 4), true);
  return out;
}

test('a network survives encode/decode, raw and LEB128, with extreme values', () => {
  const net = randomKirinNet(7, small);
  net.ftWeights[0] = 32767;
  net.ftWeights[1] = -32768;
  net.outBias[0] = -2147483648;
  net.outBias[1] = 2147483647;
  for (const leb of [false, true]) {
    const bytes = encodeKirinNet(net, leb);
    assert.ok(isKirinNet(bytes));
    const r = decodeKirinNet(bytes, 'x.knet');
    assert.ok(r.ok, r.ok ? '' : r.error.message);
    assertSameNet(net, r.value);
  }
});

test('LEB128 is chosen when it is smaller (small weights), raw otherwise', () => {
  const quiet = randomKirinNet(3, small, 30, 40);
  assert.ok(encodeKirinNet(quiet).length < encodeKirinNet(quiet, false).length);
  const loud = randomKirinNet(3, small, 30000, 512);
  assert.equal(encodeKirinNet(loud).length, encodeKirinNet(loud, false).length);
});

test('damaged or foreign files are refused with a code and the file name', () => {
  const good = encodeKirinNet(randomKirinNet(5, small), true);
  const code = (bytes: Uint8Array) => {
    const r = decodeKirinNet(bytes, 'net.knet');
    assert.ok(!r.ok);
    assert.match(r.error.message, /^net\.knet: /);
    return r.error.code;
  };
  assert.equal(code(new Uint8Array([1, 2, 3])), 'not-knet');
  assert.equal(code(good.subarray(0, 30)), 'truncated');
  assert.equal(code(good.subarray(0, good.length - 100)), 'truncated');
  const flipped = good.slice();
  flipped[200] ^= 1;
  assert.equal(code(flipped), 'bad-hash');
  const version = good.slice();
  version[8] = 9;
  assert.equal(code(rehash(version)), 'bad-version');
  const hidden = good.slice();
  hidden[16] = 17; // 17 hidden units: not a multiple of 16
  assert.equal(code(rehash(hidden)), 'bad-shape');
  const inputs = good.slice();
  inputs[12] = 0;
  assert.equal(code(rehash(inputs)), 'bad-shape');
  const qa = good.slice();
  qa[28] = 1;
  assert.equal(code(rehash(qa)), 'bad-quantisation');
  const longer = new Uint8Array(good.length + 3);
  longer.set(good.subarray(0, good.length - 4));
  assert.equal(code(rehash(longer)), 'trailing-bytes');
  // Raw tensors read as LEB128: the values do not fill their tensors exactly.
  const raw = encodeKirinNet(randomKirinNet(5, small), false);
  raw[36] = 1;
  assert.equal(code(rehash(raw)), 'bad-tensor');
  const cut = encodeKirinNet(randomKirinNet(5, small), false);
  assert.equal(code(cut.subarray(0, cut.length - 4)), 'truncated');
});

test('output weights beyond +-512 cannot be written or read', () => {
  const net = randomKirinNet(9, small);
  net.outWeights[5] = 513;
  assert.throws(() => encodeKirinNet(net), /output weight 5 is 513/);
  net.outWeights[5] = 512;
  const bytes = encodeKirinNet(net, false);
  // Raise the stored value to 513 behind the encoder's back: the reader refuses it.
  const at = bytes.length - 4 - (4 + 4 * 4) - 2 * net.outWeights.length + 2 * 5;
  new DataView(bytes.buffer).setInt16(at, 513, true);
  const r = decodeKirinNet(rehash(bytes), 'x.knet');
  assert.ok(!r.ok && r.error.code === 'bad-tensor' && /outside \+-512/.test(r.error.message));
});

test('feature indices: distinct per piece and square, in range, the two perspectives see colour-flipped boards', () => {
  const seen = new Set<number>();
  for (let pc = 1; pc < 16; pc++) {
    if ((pc & 7) === 0) continue;
    for (let s = 0; s < 90; s++) {
      const f = featureIndex(0, pc, s, 0);
      assert.ok(f >= 0 && f < INPUTS);
      assert.ok(!seen.has(f));
      seen.add(f);
      const flipped = (9 - Math.floor(s / 9)) * 9 + (s % 9);
      assert.equal(featureIndex(1, pc ^ 8, flipped, 0), f);
    }
  }
  assert.equal(seen.size, INPUTS);
});

test('output buckets run 0..B-1 with the piece count', () => {
  assert.equal(outputBucket(2, 8), 0);
  assert.equal(outputBucket(32, 8), 7);
  assert.equal(outputBucket(17, 8), 3);
  assert.equal(outputBucket(20, 1), 0);
});

test('the evaluation is symmetric: colours flipped with the other side to move, and files mirrored', () => {
  const net = randomKirinNet(11, DEFAULT_SHAPE);
  let mirroredKings = 0;
  for (const fen of randomFens(200, 4)) {
    const a = new Position(fen);
    const b = new Position(mirrorFen(fen));
    assert.equal(referenceEvaluate(net, b.board, b.side), referenceEvaluate(net, a.board, a.side), fen);
    // Files mirrored: the same features whenever neither king stands on the centre file.
    if (a.kingSq[0] % 9 !== 4 && a.kingSq[1] % 9 !== 4) {
      mirroredKings++;
      const c = new Position(flipFilesFen(fen));
      assert.equal(referenceEvaluate(net, c.board, c.side), referenceEvaluate(net, a.board, a.side), fen);
    }
  }
  assert.ok(mirroredKings > 5);
});
