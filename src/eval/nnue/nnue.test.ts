import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';

import { legalMoves } from '../../core/movegen.js';
import { Position } from '../../core/position.js';
import { KING, MOVE_NULL } from '../../core/types.js';
import { mulberry32 } from '../../core/prng.js';
import { repoRoot } from '../../../toolkit/files.js';
import { syntheticNetFile } from '../../../toolkit/nnue/synthetic-net.js';
import { computeAndCheck } from '../../../test/support/fixtures.js';
import {
  INDEX_MAP,
  KING_BUCKETS,
  PSQ_OFFSETS,
  THREAT_COUNT,
  THREAT_FIRST,
  VALID,
  appendRawThreats,
  featureBuckets,
  midEncoding,
  midEncodings,
  midEncodingsAfterMove,
  ThreatDelta,
} from './features.js';
import { PortableKernels } from './kernels-portable.js';
import type { NnueKernels } from './kernels.js';
import { FT_HASH, NETWORK_HASH, STACK_HASH } from './loader.js';
import { NnueEvaluator, NnueNetwork, createKernels } from './network.js';

// The synthetic seed-1 network (make_random_net.py --seed 1) and native Pikafish's
// numbers for it (test/data/nnue/seed1-evals.tsv).
const loaded = NnueNetwork.load(syntheticNetFile(1));
if (!loaded.ok) throw new Error(`the seed-1 test network could not be loaded: ${loaded.error.message}`);
const net = loaded.value;

/** Every kernel path this platform has (the default one and the portable reference). */
function kernelPaths(): NnueKernels[] {
  const def = createKernels(net.memory);
  return def.name === 'portable' ? [def] : [def, new PortableKernels(net.memory.buffer)];
}

const rows = readFileSync(join(repoRoot(), 'test', 'data', 'nnue', 'seed1-evals.tsv'), 'utf8')
  .split('\n')
  .filter((l) => l && !l.startsWith('fen\t'))
  .map((l) => {
    const [fen, psqt, positional, final] = l.split('\t');
    return { fen, psqt: Number(psqt), positional: Number(positional), final: Number(final) };
  });

test('architecture constants: hashes as Pikafish computes them', () => {
  assert.equal(FT_HASH, 0x23f47eb0);
  assert.equal(STACK_HASH, 0x63337116);
  assert.equal(NETWORK_HASH, 0x40c70fa6);
});

test('feature tables: 689 squares per bucket, 45,547 threats, per-attacker first indices as in Pikafish', () => {
  let valid = 0;
  for (let i = 0; i < VALID.length; i++) valid += VALID[i];
  assert.equal(valid, 689);
  assert.equal(PSQ_OFFSETS[15 * 90 + 86], 688); // enemy king on f9: the last square of the last piece
  const counts = [0, 10030, 60, 7920, 642, 3860, 128, 0, 0, 10081, 68, 7960, 657, 3878, 128, 135];
  const first = [-1, 0, 10030, 10090, 18010, 18652, 22512, -1, -1, 22640, 32721, 32789, 40749, 41406, 45284, 45412];
  assert.deepEqual(Array.from(THREAT_COUNT), counts);
  assert.deepEqual(Array.from(THREAT_FIRST), first);
  // Mirror and flip maps: e0 <-> e0 under mirror, a0 <-> i9 with both.
  assert.equal(INDEX_MAP[(1 * 2 + 1) * 90 + 0], 89);
  assert.equal(KING_BUCKETS[3], 0);
  assert.equal(KING_BUCKETS[4], 1);
  assert.equal(KING_BUCKETS[5], 8);
});

test('start position: 14 threat features per perspective, both kings on e, balanced encodings, no mirror', () => {
  const p = new Position();
  const raws = new Int32Array(256);
  const n = appendRawThreats(p, raws, 0);
  assert.ok(n >= 14);
  assert.equal(midEncoding(p, 0), 0xa4a92a74e989d3a7n);
  assert.equal(midEncoding(p, 1), 0xa4a92a74e989d3a7n);
  const fb = new Int32Array(4);
  featureBuckets(p, fb);
  assert.deepEqual(Array.from(fb), [1 * 4 + 3, 0, 1 * 4 + 3, 0]);
  // Red's right rook one rank up makes Red lean right: Red mirrors, and so does
  // Black, whose own pieces are balanced, so the opponent's decide.
  const q = new Position('rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/8R/RNBAKABN1 w - - 0 1');
  featureBuckets(q, fb);
  assert.equal(fb[1], 1);
  assert.equal(fb[3], 1);
  // With Black's left rook also up one rank, Black leans left and does not mirror.
  const q2 = new Position('1nbakabnr/r8/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/8R/RNBAKABN1 w - - 0 1');
  featureBuckets(q2, fb);
  assert.equal(fb[1], 1);
  assert.equal(fb[3], 0);
  // Midencoding: value = balance + sum of contributions (checked against a BigInt recomputation).
  assert.notEqual(midEncoding(q, 0), 0xa4a92a74e989d3a7n);
});

/**
 * Plays 30 random games of up to 120 plies from the start position (a capture
 * whenever one is drawn from the captures, 40% of the moves where there are any):
 * `play` gets each move before it is made and makes it.
 */
function randomGames(seed: number, play: (pos: Position, m: number, game: number) => void): void {
  const rnd = mulberry32(seed);
  for (let game = 0; game < 30; game++) {
    const pos = new Position();
    for (let ply = 0; ply < 120; ply++) {
      const list = legalMoves(pos);
      if (list.length === 0) break;
      const caps = list.filter((m) => pos.isCapture(m));
      const pool = caps.length && rnd() < 0.4 ? caps : list;
      play(pos, pool[Math.floor(rnd() * pool.length)], game);
    }
  }
}

test('mid-mirror encodings after a move, from the parent and the move, equal the whole sum (random games, every capture)', () => {
  const before = new Float64Array(4),
    after = new Float64Array(4),
    whole = new Float64Array(4),
    fbGiven = new Int32Array(4),
    fbOwn = new Int32Array(4);
  let moves = 0,
    captures = 0;
  randomGames(2026, (pos, m, game) => {
    midEncodings(pos, before, 0);
    const pc = pos.movedPiece(m),
      captured = pos.board[m & 127];
    pos.doMove(m);
    midEncodingsAfterMove(before, 0, after, 0, pc, m >> 7, m & 127, captured);
    midEncodings(pos, whole, 0);
    assert.deepEqual(Array.from(after), Array.from(whole), `after ${m} in game ${game}`);
    for (let c = 0; c < 2; c++)
      assert.equal((BigInt(after[2 * c + 1]) << 32n) | BigInt(after[2 * c]), midEncoding(pos, c));
    featureBuckets(pos, fbGiven, after, 0);
    featureBuckets(pos, fbOwn);
    assert.deepEqual(Array.from(fbGiven), Array.from(fbOwn));
    moves++;
    if (captured) captures++;
  });
  assert.ok(moves > 2000 && captures > 300, `coverage: ${moves} moves, ${captures} captures`);
});

test('raw threats after a move, from the parent list and the touched squares, equal the whole list (random games, every capture)', () => {
  const delta = new ThreatDelta();
  const before = new Int32Array(256),
    after = new Int32Array(256),
    whole = new Int32Array(256);
  const sorted = (a: Int32Array, n: number) => Array.from(a.subarray(0, n)).sort((x, y) => x - y);
  let moves = 0,
    changed = 0;
  randomGames(2027, (pos, m, game) => {
    const nb = appendRawThreats(pos, before, 0);
    pos.doMove(m);
    const na = delta.update(pos, m >> 7, m & 127, before, 0, nb, after, 0);
    const nw = appendRawThreats(pos, whole, 0);
    assert.deepEqual(sorted(after, na), sorted(whole, nw), `list after ${m} in game ${game}`);
    // The difference: what is new and what is gone, each exactly once.
    const old = new Set(before.subarray(0, nb)),
      now = new Set(whole.subarray(0, nw));
    const added = [...now].filter((t) => !old.has(t)).sort((x, y) => x - y);
    const removed = [...old].filter((t) => !now.has(t)).sort((x, y) => x - y);
    assert.deepEqual(sorted(delta.added, delta.nAdded), added, `added after ${m} in game ${game}`);
    assert.deepEqual(sorted(delta.removed, delta.nRemoved), removed, `removed after ${m} in game ${game}`);
    // The same from the two whole lists (an update from further back).
    delta.diff(before, 0, nb, whole, 0, nw);
    assert.deepEqual(sorted(delta.added, delta.nAdded), added);
    assert.deepEqual(sorted(delta.removed, delta.nRemoved), removed);
    moves++;
    changed += added.length + removed.length;
  });
  assert.ok(moves > 2000 && changed > 2 * moves, `coverage: ${moves} moves, ${changed} changed threats`);
});

for (const kernels of kernelPaths()) {
  test(`seed-1 network: psqt, positional and final of all ${rows.length} reference positions exactly (${kernels.name} kernels)`, () => {
    assert.equal(rows.length, 200);
    const full = new NnueEvaluator(net, 0, kernels);
    const incr = new NnueEvaluator(net, 1, kernels);
    let mismatches = 0;
    for (const r of rows) {
      const p = new Position(r.fen);
      full.computeFull(p);
      const f = full.evaluate(p, 0); // evaluate() runs compute() (incremental state of slot 0)
      incr.compute(p);
      const got = `${full.psqt} ${full.positional} ${f} / ${incr.psqt} ${incr.positional}`;
      const want = `${r.psqt} ${r.positional} ${r.final} / ${r.psqt} ${r.positional}`;
      if (got !== want) assert.fail(`${r.fen}: got ${got}, Pikafish ${want}`);
      mismatches += got === want ? 0 : 1;
    }
    assert.equal(mismatches, 0);
  });
}

test('incremental accumulators equal a full refresh at every node of random games (captures, king moves, null moves, undo, parents computed first); the position is left as it was', () => {
  const ev = new NnueEvaluator(net, 2);
  const check = new NnueEvaluator(net, 3);
  const rnd = mulberry32(20261201);
  let nodes = 0,
    kingMoves = 0,
    captures = 0,
    bucketChanges = 0,
    undos = 0,
    nullMoves = 0;
  const fb = new Int32Array(4),
    fb2 = new Int32Array(4);
  for (let game = 0; game < 6; game++) {
    const pos = new Position();
    const played: number[] = [];
    for (let step = 0; step < 160; step++) {
      const moves = legalMoves(pos);
      if (moves.length === 0 || (played.length && rnd() < 0.2)) {
        // Undo one to three moves now and then (and when the game is over).
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
        const pool = caps.length && r < 0.3 ? caps : kings.length && r < 0.45 ? kings : moves;
        const m = pool[Math.floor(rnd() * pool.length)];
        featureBuckets(pos, fb);
        if (pos.isCapture(m)) captures++;
        if ((pos.movedPiece(m) & 7) === KING) kingMoves++;
        pos.doMove(m);
        played.push(m);
        featureBuckets(pos, fb2);
        if (fb[0] !== fb2[0] || fb[1] !== fb2[1] || fb[2] !== fb2[2] || fb[3] !== fb2[3]) bucketChanges++;
      }
      // Evaluate only at some nodes, as a search does, so updates span several plies.
      if (rnd() < 0.6) {
        computeAndCheck(ev, pos, () => {
          check.computeFull(pos);
          assert.equal(ev.psqt, check.psqt);
          assert.equal(ev.positional, check.positional);
        });
        nodes++;
      }
    }
  }
  assert.ok(
    nodes > 500 && kingMoves > 20 && captures > 20 && bucketChanges > 20 && undos > 20 && nullMoves > 10,
    `coverage: ${nodes} nodes, ${kingMoves} king moves, ${captures} captures, ${bucketChanges} bucket changes, ${undos} undos, ${nullMoves} null moves`,
  );
  assert.ok(
    ev.stats.incremental > ev.stats.refresh,
    `incremental ${ev.stats.incremental}, refresh ${ev.stats.refresh}`,
  );
  assert.ok(ev.stats.parents > 20, `parents computed first: ${JSON.stringify(ev.stats)}`);
});

test('the weights live in one shared memory that search threads receive without copying', () => {
  assert.ok(net.memory.buffer instanceof SharedArrayBuffer);
  const h = net.handle();
  assert.equal(h.memory, net.memory);
  const again = NnueNetwork.fromHandle(structuredClone(h));
  // A structured clone (what postMessage does) of a shared memory is the same memory.
  const a = new Uint8Array(net.memory.buffer),
    b = new Uint8Array(again.memory.buffer);
  const at = a.length - 1,
    old = a[at];
  a[at] = old ^ 0x5a;
  assert.equal(b[at], old ^ 0x5a);
  a[at] = old;
});
