import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  eloEstimate,
  eloFromScore,
  normalCdf,
  normalQuantile,
  pentanomial,
  scoreFromElo,
  scoreStats,
  trinomial,
} from './elo.js';
import { assertClose } from '../../test/support/fixtures.js';

test('Elo from score: 50% is 0, 75% is about +191, symmetric, inverse of scoreFromElo', () => {
  assert.equal(eloFromScore(0.5), 0);
  assertClose(eloFromScore(0.75), 400 * Math.log10(3), 1e-9);
  assertClose(eloFromScore(0.75), 190.85, 0.01);
  assertClose(eloFromScore(0.25), -190.85, 0.01);
  for (const e of [-400, -35, 0, 10, 123.4, 700]) assertClose(eloFromScore(scoreFromElo(e)), e, 1e-9);
  assert.equal(eloFromScore(1), Infinity);
  assert.equal(eloFromScore(0), -Infinity);
});

test('normal quantile and CDF', () => {
  assertClose(normalQuantile(0.975), 1.959963984540054, 1e-6);
  assertClose(normalQuantile(0.5), 0, 1e-12);
  assertClose(normalQuantile(0.01), -2.3263478740408408, 5e-5);
  assertClose(normalCdf(1.959963984540054), 0.975, 1e-6);
  assertClose(normalCdf(0), 0.5, 1e-6);
  for (const p of [0.001, 0.2, 0.7, 0.999]) assertClose(normalCdf(normalQuantile(p)), p, 1e-5);
});

test('trinomial Elo and 95% interval (60 W, 20 D, 20 L)', () => {
  // mean 0.7, per-game variance 0.16, stderr 0.04
  const st = scoreStats(trinomial(60, 20, 20));
  assertClose(st.mean, 0.7, 1e-12);
  assertClose(st.variance, 0.16, 1e-12);
  const e = eloEstimate(trinomial(60, 20, 20));
  assertClose(e.elo, 147.19, 0.01);
  assertClose(e.lower, 86.23, 0.02);
  assertClose(e.upper, 218.25, 0.02);
  assertClose(e.error, (218.25 - 86.23) / 2, 0.02);
  assert.ok(e.los > 0.999);
});

test('even results give 0 Elo with a symmetric interval and LOS 50%', () => {
  const e = eloEstimate(trinomial(30, 40, 30));
  assertClose(e.elo, 0, 1e-9);
  assertClose(e.lower, -e.upper, 1e-9);
  assert.ok(e.upper > 10 && e.upper < 100);
  assertClose(e.los, 0.5, 1e-6);
});

test('pentanomial: pair scores and a narrower interval when pairs are correlated', () => {
  // 100 pairs all 1-1 with one of each kind: variance from pair structure.
  const p = pentanomial([5, 10, 70, 10, 5]);
  const st = scoreStats(p);
  assert.equal(st.n, 100);
  assertClose(st.mean, 0.5, 1e-12);
  // variance = (5*.25 + 10*.0625)*2 / 100
  assertClose(st.variance, (2 * (5 * 0.25 + 10 * 0.0625)) / 100, 1e-12);
  const e = eloEstimate(p);
  assertClose(e.elo, 0, 1e-9);
  // Same games counted as a trinomial: each 1-1 pair could be W+L or D+D; here the
  // pentanomial interval is what the pairs give, and it must be finite and positive.
  assert.ok(e.error > 0 && Number.isFinite(e.error));
  assert.throws(() => pentanomial([1, 2, 3]));
});

test('no games: neutral estimate', () => {
  const e = eloEstimate(trinomial(0, 0, 0));
  assert.equal(e.elo, 0);
  assert.equal(e.error, 0);
});
