import assert from 'node:assert/strict';
import { test } from 'node:test';
import { VALUE_INFINITE, VALUE_MATE, VALUE_MATE_IN_MAX_PLY, VALUE_MATED_IN_MAX_PLY } from '../core/types.js';
import { SharedSearch, chooseBestThread, type ThreadResult } from './threads.js';
import { TranspositionTable } from './tt.js';

const isDecisive = (v: number) => v >= VALUE_MATE_IN_MAX_PLY || v <= VALUE_MATED_IN_MAX_PLY;
const isLoss = (v: number) => v <= VALUE_MATED_IN_MAX_PLY;

function res(index: number, score: number, pv: number[], extra: Partial<ThreadResult> = {}): ThreadResult {
  return {
    index,
    score,
    lowerbound: false,
    upperbound: false,
    completedDepth: 10,
    rootDepth: 10,
    selDepth: 12,
    previousScore: score,
    averageScore: score,
    pv,
    ...extra,
  };
}

test('best thread: the move most threads vote for (weighted by score) wins; a longer PV breaks ties', () => {
  // Votes: move 1 gets (50-20+14) + (40-20+14) = 78; move 2 gets (60-20+14) = 54; move 3 gets 14.
  const r = [res(0, 50, [1, 5]), res(1, 60, [2, 6]), res(2, 40, [1]), res(3, 20, [3])];
  assert.equal(chooseBestThread(r, isDecisive, isLoss, -VALUE_INFINITE), 0);
  // Same move, same votes: the longer PV.
  const t = [res(0, 50, [1]), res(1, 50, [1, 7, 8])];
  assert.equal(chooseBestThread(t, isDecisive, isLoss, -VALUE_INFINITE), 1);
  // One thread alone: itself.
  assert.equal(chooseBestThread([res(0, 5, [9])], isDecisive, isLoss, -VALUE_INFINITE), 0);
});

test('best thread: a proven mate beats the vote, and the shortest mate wins', () => {
  const mateIn5 = VALUE_MATE - 9,
    mateIn2 = VALUE_MATE - 3;
  const r = [res(0, 100, [1, 2]), res(1, 90, [1, 3]), res(2, mateIn5, [4]), res(3, mateIn2, [5])];
  assert.equal(chooseBestThread(r, isDecisive, isLoss, -VALUE_INFINITE), 3);
  // A bound (aborted) mate score is not proven: a proven longer mate stays.
  const b = [res(0, mateIn5, [4]), res(1, mateIn2, [5], { lowerbound: true })];
  assert.equal(chooseBestThread(b, isDecisive, isLoss, -VALUE_INFINITE), 0);
});

test('shared search state: node counts sum over threads; a helper that never began is not waited for', () => {
  const s = SharedSearch.create(3);
  const again = new SharedSearch(s.buffer);
  assert.equal(again.threads, 3);
  s.publishNodes(1, 1000);
  s.publishNodes(2, 234);
  assert.equal(again.totalNodes(0, 5), 1239);
  // Helper 1 begins and finishes with a result; helper 2 never begins.
  assert.ok(again.begin(1));
  again.finish(
    1,
    {
      score: 33,
      lowerbound: true,
      upperbound: false,
      completedDepth: 7,
      rootDepth: 8,
      selDepth: 11,
      previousScore: 30,
      averageScore: 31,
      pv: [100, 200, 300],
    },
    5000,
  );
  s.waitHelpers(); // must return: helper 2 is claimed as done
  assert.equal(s.begin(2), false, 'a claimed helper may not begin any more');
  const r = s.result(1);
  assert.deepEqual(r && [r.score, r.lowerbound, r.upperbound, r.completedDepth, r.rootDepth, r.pv], [
    33,
    true,
    false,
    7,
    8,
    [100, 200, 300],
  ]);
  assert.equal(s.result(2), null);
  assert.equal(s.totalNodes(0, 0), 5234); // helper 1's final count, helper 2's last published one

  // A helper that began but does not finish is waited for at most the given time, and its result is not read.
  const t = SharedSearch.create(2);
  assert.ok(t.begin(1));
  const t0 = performance.now();
  t.waitHelpers(30);
  assert.ok(performance.now() - t0 >= 25);
  assert.equal(t.result(1), null);
});

test("shared search state: the helpers' best-move changes reach the main thread once each", () => {
  const s = SharedSearch.create(3);
  const helper1 = new SharedSearch(s.buffer),
    helper2 = new SharedSearch(s.buffer);
  assert.equal(s.takeBestMoveChanges(), 0);
  helper1.addBestMoveChange(1);
  helper1.addBestMoveChange(1);
  helper2.addBestMoveChange(2);
  assert.equal(s.takeBestMoveChanges(), 3);
  assert.equal(s.takeBestMoveChanges(), 0, 'taking resets them');
  // The records' other words are untouched.
  helper1.addBestMoveChange(1);
  assert.ok(helper1.begin(1));
  helper1.finish(
    1,
    {
      score: 5,
      lowerbound: false,
      upperbound: false,
      completedDepth: 3,
      rootDepth: 3,
      selDepth: 4,
      previousScore: 5,
      averageScore: 5,
      pv: [7],
    },
    10,
  );
  assert.deepEqual(s.result(1)?.pv, [7]);
  assert.equal(s.takeBestMoveChanges(), 1);
});

test('a torn table entry never yields a move off the board', () => {
  const tt = new TranspositionTable(1);
  tt.probe(12345, 777);
  const e = tt.probe(12345, 777);
  tt.write(e, 12345, 10, false, 3, 5, 0x3fff, 0); // a move word no writer would produce (from 127, to 127)
  tt.probe(12345, 777);
  assert.equal(tt.hit, true);
  assert.equal(tt.move, 0);
});
