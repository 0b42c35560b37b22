import assert from 'node:assert/strict';
import { test } from 'node:test';
import { BENCH_FENS } from '../../src/protocol/benchpositions.js';
import { ReplayingSearcher, searchPass } from './free-eval.js';

test('free-eval: a replayed evaluation searches the same trees, asking for exactly the values recorded', () => {
  const searcher = new ReplayingSearcher(4);
  searcher.setNetwork(null);
  const fens = BENCH_FENS.slice(0, 4);
  const plain = searchPass(searcher, fens, 6, 'plain', 'AsianRule');
  const record = searchPass(searcher, fens, 6, 'record', 'AsianRule');
  const { recorded } = searcher.counts();
  const replay = searchPass(searcher, fens, 6, 'replay', 'AsianRule');
  assert.ok(recorded > 1000, `only ${recorded} evaluations recorded`);
  assert.deepEqual(record.perPosition, plain.perPosition);
  assert.deepEqual(replay.perPosition, plain.perPosition);
  assert.deepEqual(searcher.counts(), { recorded, replayed: recorded });
});

test('free-eval: a replay that runs past its record fails instead of searching on', () => {
  const searcher = new ReplayingSearcher(4);
  searcher.setNetwork(null);
  searchPass(searcher, BENCH_FENS.slice(0, 1), 4, 'record', 'AsianRule');
  assert.throws(() => searchPass(searcher, BENCH_FENS.slice(0, 2), 4, 'replay', 'AsianRule'), /more evaluations/);
});
