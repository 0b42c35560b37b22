import assert from 'node:assert/strict';
import { test } from 'node:test';
import { legalMoves } from '../../core/movegen.js';
import { Position } from '../../core/position.js';
import { mulberry32 } from '../../core/prng.js';
import { FILE_OF, KING, MOVE_NULL } from '../../core/types.js';
import { computeAndCheck, randomFens } from '../../../test/support/fixtures.js';
import { randomKirinNet } from '../../../test/support/kirinnet-random.js';
import { DEFAULT_SHAPE, INPUTS, mirrorFor } from './arch.js';
import { encodeKirinNet } from './format.js';
import { PortableKirinKernels } from './kernels.js';
import { KirinEvaluator, KirinNetwork } from './network.js';
import { referenceEvaluate } from './reference.js';

const weights = randomKirinNet(2026, DEFAULT_SHAPE);
const net = KirinNetwork.fromWeights(weights, 'random.knet');

test('the network loads from its file bytes and names itself', () => {
  const r = KirinNetwork.fromBytes(encodeKirinNet(weights), '/some/dir/random.knet');
  assert.ok(r.ok);
  assert.match(r.value.label(), /^random\.knet \(Kirin network 1260x2-256-8 buckets\)$/);
  const bad = KirinNetwork.fromBytes(new Uint8Array(10), 'x.knet');
  assert.ok(!bad.ok);
  assert.equal(bad.error.code, 'not-knet');
});

test('WebAssembly SIMD and portable kernels give the reference evaluation on random positions', () => {
  const wasm = new KirinEvaluator(net, 0);
  assert.equal(wasm.kernels.name, 'wasm-simd', 'this Node has WebAssembly SIMD; the kernels must be used');
  const portable = new KirinEvaluator(net, 1, new PortableKirinKernels(net.memory.buffer, net.layout));
  for (const fen of randomFens(120, 9)) {
    const pos = new Position(fen);
    const want = referenceEvaluate(weights, pos.board, pos.side);
    wasm.computeFull(pos);
    portable.computeFull(pos);
    assert.equal(wasm.raw, want, fen);
    assert.equal(portable.raw, want, fen);
    wasm.compute(pos);
    assert.equal(wasm.raw, want, fen);
  }
});

test('the kernels agree at the edges: accumulators that wrap int16, clamp limits, hidden sizes not a multiple of 64', () => {
  for (const [hidden, ftRange, seed] of [
    [16, 20000, 1],
    [48, 9000, 2],
    [80, 300, 3],
    [256, 32767, 4],
  ]) {
    const w = randomKirinNet(seed, { inputs: INPUTS, hidden, outputBuckets: 3 }, ftRange, 512);
    w.outWeights[0] = -512;
    w.outWeights[1] = 512;
    const n = KirinNetwork.fromWeights(w, 'edge.knet');
    const wasm = new KirinEvaluator(n, 0);
    const portable = new KirinEvaluator(n, 1, new PortableKirinKernels(n.memory.buffer, n.layout));
    for (const fen of randomFens(25, seed)) {
      const pos = new Position(fen);
      wasm.computeFull(pos);
      portable.computeFull(pos);
      const want = referenceEvaluate(w, pos.board, pos.side);
      assert.equal(wasm.raw, want, `${hidden}: ${fen}`);
      assert.equal(portable.raw, want, `${hidden}: ${fen}`);
    }
  }
});

test('incremental accumulators equal a full refresh along random games (captures, king moves across the palace, null moves, undo)', () => {
  for (const kernels of ['wasm', 'portable'] as const) {
    const ev = new KirinEvaluator(
      net,
      2,
      kernels === 'portable' ? new PortableKirinKernels(net.memory.buffer, net.layout) : undefined,
    );
    const rnd = mulberry32(7);
    let nodes = 0,
      mirrorChanges = 0,
      captures = 0,
      undos = 0,
      nullMoves = 0;
    for (let game = 0; game < 6; game++) {
      const pos = new Position();
      const played: number[] = [];
      for (let step = 0; step < 160; step++) {
        const moves = legalMoves(pos);
        if (moves.length === 0 || (played.length && rnd() < 0.2)) {
          const k = 1 + Math.floor(rnd() * 3);
          for (let u = 0; u < k && played.length; u++) {
            const m = played.pop()!;
            if (m === MOVE_NULL) pos.undoNullMove();
            else pos.undoMove(m);
          }
          undos++;
        } else if (!pos.inCheck() && rnd() < 0.05) {
          pos.doNullMove();
          played.push(MOVE_NULL);
          nullMoves++;
        } else {
          const caps = moves.filter((m) => pos.isCapture(m));
          const kings = moves.filter((m) => (pos.movedPiece(m) & 7) === KING);
          const r = rnd();
          const pool = caps.length && r < 0.3 ? caps : kings.length && r < 0.5 ? kings : moves;
          const m = pool[Math.floor(rnd() * pool.length)];
          const before = mirrorFor(FILE_OF[pos.kingSq[pos.side]]);
          if (pos.isCapture(m)) captures++;
          const side = pos.side;
          pos.doMove(m);
          if (mirrorFor(FILE_OF[pos.kingSq[side]]) !== before) mirrorChanges++;
          played.push(m);
        }
        if (rnd() < 0.6) {
          computeAndCheck(ev, pos, () =>
            assert.equal(ev.raw, referenceEvaluate(weights, pos.board, pos.side), pos.fen()),
          );
          nodes++;
        }
      }
    }
    assert.ok(
      nodes > 400 && mirrorChanges > 10 && captures > 20 && undos > 20 && nullMoves > 10,
      `coverage: ${nodes} nodes, ${mirrorChanges} mirror changes, ${captures} captures, ${undos} undos, ${nullMoves} null moves`,
    );
    assert.ok(ev.stats.incremental > 2 * ev.stats.refresh, JSON.stringify(ev.stats));
    assert.ok(
      ev.stats.walked > 30,
      `updates across several plies (parents computed first): ${JSON.stringify(ev.stats)}`,
    );
    assert.ok(ev.stats.parents > 20, `parents computed first: ${JSON.stringify(ev.stats)}`);
  }
});

test('search threads share the weights through a handle; each uses its own slot', () => {
  const copy = KirinNetwork.fromHandle(net.handle());
  assert.equal(copy.memory, net.memory);
  assert.ok(copy.ensureSlots(6));
  const ev = new KirinEvaluator(copy, 5);
  const pos = new Position();
  ev.compute(pos);
  assert.equal(ev.raw, referenceEvaluate(weights, pos.board, pos.side));
  assert.throws(() => new KirinEvaluator(copy, 1000), /slot 1000 out of range/);
});
