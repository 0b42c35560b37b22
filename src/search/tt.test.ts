import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  MOVE_NONE,
  VALUE_MATE,
  VALUE_MATE_IN_MAX_PLY,
  VALUE_MATED_IN_MAX_PLY,
  VALUE_NONE,
  mateIn,
  matedIn,
} from '../core/types.js';
import {
  BOUND_EXACT,
  BOUND_LOWER,
  BOUND_NONE,
  BOUND_UPPER,
  DEPTH_NONE,
  DEPTH_QS,
  DEPTH_UNSEARCHED,
  TranspositionTable,
  valueFromTT,
  valueToTT,
} from './tt.js';
import { mulberry32 } from '../core/prng.js';

test('store and probe round trip keeps every field', () => {
  const tt = new TranspositionTable(1);
  tt.newSearch();
  const cases: Array<[number, number, number, boolean, number, number, number, number]> = [
    // keyLo, keyHi, value, pv, bound, depth, move, eval
    [0x12345678, 0x0badf00d, 123, false, BOUND_LOWER, 7, (10 << 7) | 20, -45],
    [-5, -7, -2999, true, BOUND_UPPER, 1, (89 << 7) | 0, 3000],
    [77, 1, VALUE_NONE, false, BOUND_NONE, DEPTH_UNSEARCHED, MOVE_NONE, 12],
    [0x7fffffff, -0x80000000, matedIn(20), true, BOUND_EXACT, 245, (45 << 7) | 44, VALUE_NONE],
    [99, 4242, 0, false, BOUND_EXACT, DEPTH_QS, (3 << 7) | 4, -32000 + 300],
  ];
  for (const [lo, hi, v, pv, b, d, m, ev] of cases) {
    let e = tt.probe(lo, hi);
    assert.equal(tt.hit, false, 'empty table has no hit');
    assert.equal(tt.value, VALUE_NONE);
    assert.equal(tt.depth, DEPTH_NONE);
    tt.write(e, lo, v, pv, b, d, m, ev);
    e = tt.probe(lo, hi);
    assert.equal(tt.hit, true);
    assert.equal(tt.value, v);
    assert.equal(tt.eval, ev);
    assert.equal(tt.isPv, pv);
    assert.equal(tt.bound, b);
    assert.equal(tt.depth, d);
    assert.equal(tt.move, m);
    // Other check bits (the key's low 16) in the same cluster are not a hit.
    tt.probe(lo ^ 1, hi);
    assert.equal(tt.hit, false);
  }
});

test('replacement: deeper data wins, exact always writes, the old move is kept when none is given', () => {
  const tt = new TranspositionTable(1);
  tt.newSearch();
  const lo = 1234567,
    hi = 89;
  let e = tt.probe(lo, hi);
  tt.write(e, lo, 50, false, BOUND_LOWER, 20, (1 << 7) | 2, 0);
  e = tt.probe(lo, hi);
  // A much shallower non-exact result does not overwrite...
  tt.write(e, lo, -70, false, BOUND_UPPER, 3, MOVE_NONE, 0);
  tt.probe(lo, hi);
  assert.equal(tt.depth, 20);
  assert.equal(tt.value, 50);
  assert.equal(tt.move, (1 << 7) | 2);
  // ...but an exact one does, and keeps the move if it brings none.
  e = tt.probe(lo, hi);
  tt.write(e, lo, 10, true, BOUND_EXACT, 2, MOVE_NONE, 0);
  tt.probe(lo, hi);
  assert.equal(tt.depth, 2);
  assert.equal(tt.bound, BOUND_EXACT);
  assert.equal(tt.value, 10);
  assert.equal(tt.move, (1 << 7) | 2);
  // Entries of older searches are replaced even by shallow data.
  tt.newSearch();
  e = tt.probe(lo, hi);
  tt.write(e, lo, 5, false, BOUND_UPPER, 1, (3 << 7) | 4, 0);
  tt.probe(lo, hi);
  assert.equal(tt.depth, 1);
  assert.equal(tt.move, (3 << 7) | 4);
  // penalize lowers the depth; at zero the entry reads as empty.
  e = tt.probe(lo, hi);
  tt.penalize(e, 1 - DEPTH_NONE);
  tt.probe(lo, hi);
  assert.equal(tt.hit, false);
});

test('mate scores are stored relative to the node and restored relative to the root', () => {
  for (const ply of [0, 1, 5, 30]) {
    for (const dist of [1, 2, 9, 40]) {
      const win = mateIn(ply + dist),
        loss = matedIn(ply + dist);
      // In the table the distance is counted from the node.
      assert.equal(valueToTT(win, ply), mateIn(dist));
      assert.equal(valueToTT(loss, ply), matedIn(dist));
      assert.equal(valueFromTT(valueToTT(win, ply), ply, 0), win);
      assert.equal(valueFromTT(valueToTT(loss, ply), ply, 0), loss);
      // Probed from another ply, the same entry means a mate at another root distance.
      assert.equal(valueFromTT(valueToTT(win, ply), ply + 3, 0), win - 3);
    }
  }
  for (const v of [0, 1, -1, 500, -31000 + 1000, VALUE_MATE_IN_MAX_PLY - 1, VALUE_MATED_IN_MAX_PLY + 1]) {
    assert.equal(valueToTT(v, 17), v);
    assert.equal(valueFromTT(v, 17, 0), v);
  }
  assert.equal(valueFromTT(VALUE_NONE, 3, 0), VALUE_NONE);
});

test('mate scores that the 60-move rule could falsify are downgraded', () => {
  // Mate in 30 plies with 100 plies already on the counter: 30 > 120 - 100.
  assert.equal(valueFromTT(mateIn(30), 0, 100), VALUE_MATE_IN_MAX_PLY - 1);
  assert.equal(valueFromTT(matedIn(30), 0, 100), VALUE_MATED_IN_MAX_PLY + 1);
  // Close enough: kept.
  assert.equal(valueFromTT(mateIn(15), 2, 100), mateIn(17));
  // With the rule off (0) nothing is downgraded; another limit moves the threshold.
  assert.equal(valueFromTT(mateIn(30), 0, 100, 0), mateIn(30));
  assert.equal(valueFromTT(mateIn(30), 0, 100, 200), mateIn(30));
  assert.equal(VALUE_MATE - mateIn(30), 30);
});

test('hashfull counts entries of the current search in permill, clear empties', () => {
  const tt = new TranspositionTable(2);
  tt.newSearch();
  assert.equal(tt.hashfull(), 0);
  const rnd = mulberry32(5);
  const n = tt.clusterCount * 3;
  for (let i = 0; i < n; i++) {
    const lo = (rnd() * 4294967296) | 0,
      hi = (rnd() * 4294967296) | 0;
    const e = tt.probe(lo, hi);
    tt.write(e, lo, 1, false, BOUND_LOWER, 5, MOVE_NONE, 0);
  }
  const full = tt.hashfull();
  assert.ok(full > 500 && full <= 1000, `hashfull ${full}`);
  // A new search ages everything: nothing belongs to it yet.
  tt.newSearch();
  assert.equal(tt.hashfull(), 0);
  assert.ok(tt.hashfull(1) >= full - 1);
  tt.clear();
  assert.equal(tt.hashfull(1), 0);
});

test('size follows the MB setting and lives on a SharedArrayBuffer', () => {
  const tt = new TranspositionTable(1);
  const c1 = tt.clusterCount;
  tt.resize(4);
  assert.equal(tt.clusterCount, 4 * c1);
  assert.ok(tt.buffer instanceof SharedArrayBuffer);
  assert.ok(tt.table.byteLength <= 4 * 1024 * 1024);
  // Another table attached to the same buffer sees the same data.
  tt.newSearch();
  const e = tt.probe(42, 43);
  tt.write(e, 42, 777, false, BOUND_EXACT, 9, MOVE_NONE, 0);
  const other = new TranspositionTable(1);
  other.attach(tt.buffer);
  other.setGeneration(tt.generation());
  other.probe(42, 43);
  assert.equal(other.hit, true);
  assert.equal(other.value, 777);
  // Cluster indices stay in range for extreme keys.
  for (const lo of [0, -1, 0x7fffffff, -0x80000000, 1])
    for (const hi of [0, -1, 0x7fffffff, -0x80000000, 1]) {
      const i = tt.firstEntry(lo, hi);
      assert.ok(i >= 0 && i + 16 <= tt.table.length * 2);
    }
});

test("the table is Pikafish's: 32-byte clusters, the cluster from mul_hi64(key, clusters), 16 check bits", () => {
  const tt = new TranspositionTable(16);
  assert.equal(tt.clusterCount, (16 * 1024 * 1024) / 32);
  assert.equal(tt.table.byteLength, 16 * 1024 * 1024);
  const rnd = mulberry32(11);
  for (const mb of [1, 3, 16, 1000]) {
    const t = new TranspositionTable(0);
    const n = Math.floor((mb * 1024 * 1024) / 32);
    t.clusterCount = n; // firstEntry reads only the count
    for (let k = 0; k < 2000; k++) {
      const lo = k < 4 ? [0, -1, 1, -1][k] : (rnd() * 4294967296) | 0;
      const hi = k < 4 ? [0, -1, -1, 0][k] : (rnd() * 4294967296) | 0;
      const key = (BigInt(hi >>> 0) << 32n) | BigInt(lo >>> 0);
      const cluster = Number((key * BigInt(n)) >> 64n);
      assert.equal(t.firstEntry(lo, hi), cluster * 16, `${mb} MB, key ${key.toString(16)}`);
    }
  }
  // Two keys of one cluster with the same low 16 bits are the same entry to the table (as in Pikafish).
  tt.newSearch();
  const e = tt.probe(0x00012345, 0x40000000);
  tt.write(e, 0x00012345, 33, false, BOUND_LOWER, 4, MOVE_NONE, 0);
  tt.probe(0x7fff2345, 0x40000000);
  assert.equal(tt.hit, true);
  assert.equal(tt.value, 33);
  tt.probe(0x00012346, 0x40000000);
  assert.equal(tt.hit, false);
});

test('the branch-free mate score conversions equal their definitions for every score', () => {
  // The definitions, written with branches (Pikafish's value_to_tt / value_from_tt).
  const toTT = (v: number, ply: number) =>
    v >= VALUE_MATE_IN_MAX_PLY ? v + ply : v <= VALUE_MATED_IN_MAX_PLY ? v - ply : v;
  const fromTT = (v: number, ply: number, r60c: number, rule60Max: number) => {
    if (v === VALUE_NONE) return VALUE_NONE;
    const limit = rule60Max > 0 ? rule60Max - r60c : 1 << 30;
    if (v >= VALUE_MATE_IN_MAX_PLY) return 32000 - v > limit ? VALUE_MATE_IN_MAX_PLY - 1 : v - ply;
    if (v <= VALUE_MATED_IN_MAX_PLY) return 32000 + v > limit ? VALUE_MATED_IN_MAX_PLY + 1 : v + ply;
    return v;
  };
  let checked = 0;
  for (let v = -32001; v <= 32001; v += v > -31000 && v < 31000 ? 97 : 1)
    for (const ply of [0, 1, 7, 60, 245])
      for (const [r60c, max] of [
        [0, 120],
        [100, 120],
        [119, 120],
        [130, 120],
        [0, 0],
        [50, 200],
      ]) {
        assert.equal(valueToTT(v, ply), toTT(v, ply), `valueToTT(${v}, ${ply})`);
        assert.equal(
          valueFromTT(v, ply, r60c, max),
          fromTT(v, ply, r60c, max),
          `valueFromTT(${v}, ${ply}, ${r60c}, ${max})`,
        );
        checked++;
      }
  assert.ok(checked > 50_000, `${checked} cases`);
});
