import assert from 'node:assert/strict';
import { test } from 'node:test';
import { EXTRA_MAX_MS, warmupJobs } from './warmup.js';

test('warmupJobs: the usual searches, then extraNodes more in searches of at most 30,000 nodes', () => {
  const usual = [...warmupJobs()].map((j) => j());
  assert.equal(usual.length, 17, 'four kinds of limit on four positions, then the deeper search');
  const more = [...warmupJobs(100_000)].map((j) => j());
  assert.deepEqual(
    more.slice(0, usual.length).map((j) => j.fen),
    usual.map((j) => j.fen),
  );
  const extra = more.slice(usual.length);
  assert.deepEqual(
    extra.map((j) => j.limits.nodes),
    [30000, 30000, 30000, 10000],
  );
  assert.equal(extra[0].fen, usual[0].fen);
  assert.notEqual(extra[1].fen, extra[0].fen, 'two positions in turn');
  assert.ok(extra.every((j) => j.limits.depth === undefined && typeof j.limits.startTime === 'number'));
});

test('warmupJobs: no extra search starts after EXTRA_MAX_MS of warm-up', () => {
  let clock = 0;
  const jobs: number[] = [];
  for (const job of warmupJobs(1_000_000, () => clock)) {
    const j = job();
    jobs.push(j.limits.nodes ?? 0);
    clock += 100; // every search takes 100 ms here
  }
  const extra = jobs.length - 17;
  assert.equal(extra, EXTRA_MAX_MS / 100 - 17, 'the extra searches stop when the warm-up has run EXTRA_MAX_MS');
});
