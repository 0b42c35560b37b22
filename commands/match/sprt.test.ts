import assert from 'node:assert/strict';
import { test } from 'node:test';
import { pentanomial, scoreFromElo, trinomial, type ScoreDistribution } from './elo.js';
import { constrainedMle, parseSprtParams, sprtBounds, sprtLlr, sprtLlrApprox, sprtStatus } from './sprt.js';
import { assertClose } from '../../test/support/fixtures.js';

const P = { elo0: 0, elo1: 10, alpha: 0.05, beta: 0.05 };

test('bounds are log(beta/(1-alpha)) and log((1-beta)/alpha)', () => {
  const b = sprtBounds(P);
  assertClose(b.lower, -2.9444389791664403, 1e-12);
  assertClose(b.upper, 2.9444389791664403, 1e-12);
  const c = sprtBounds({ elo0: 0, elo1: 5, alpha: 0.05, beta: 0.1 });
  assertClose(c.lower, Math.log(0.1 / 0.95), 1e-12);
  assertClose(c.upper, Math.log(0.9 / 0.05), 1e-12);
});

test('without draws the GSPRT LLR is the binomial log-likelihood ratio', () => {
  // With only wins and losses the constrained MLE is Bernoulli(s) itself.
  const s0 = scoreFromElo(0),
    s1 = scoreFromElo(10);
  for (const [w, l] of [
    [30, 20],
    [20, 30],
    [100, 100],
    [7, 3],
  ]) {
    const ref = w * Math.log(s1 / s0) + l * Math.log((1 - s1) / (1 - s0));
    assertClose(sprtLlr(trinomial(w, 0, l), 0, 10), ref, 2e-3 * Math.max(1, Math.abs(ref)), `W${w} L${l}`);
  }
  assertClose(sprtLlr(trinomial(30, 0, 20), 0, 10), 0.267115456008299, 1e-3);
});

test('constrained MLE: sums to 1, has the target mean, and beats nearby distributions', () => {
  const scores = [0, 0.5, 1];
  const freq = [0.2, 0.3, 0.5];
  const s = 0.55;
  const p = constrainedMle(scores, freq, s);
  assertClose(
    p.reduce((a, b) => a + b, 0),
    1,
    1e-9,
  );
  assertClose(
    p.reduce((a, x, i) => a + x * scores[i], 0),
    s,
    1e-9,
  );
  const ll = (q: number[]): number => freq.reduce((a, f, i) => a + f * Math.log(q[i]), 0);
  // Perturbations that keep sum and mean: direction (1, -2, 1) * eps.
  for (const eps of [-0.01, -0.001, 0.001, 0.01]) {
    const q = [p[0] + eps, p[1] - 2 * eps, p[2] + eps];
    assert.ok(ll(q) < ll(p), `eps ${eps}`);
  }
});

test('GSPRT agrees with the normal approximation on large samples', () => {
  const d: ScoreDistribution = trinomial(2100, 4000, 1900);
  const exact = sprtLlr(d, 0, 10),
    approx = sprtLlrApprox(d, 0, 10);
  assertClose(exact, approx, 0.05 * Math.abs(approx) + 0.02);
  const pd = pentanomial([50, 700, 1500, 800, 60]);
  assertClose(sprtLlr(pd, 0, 5), sprtLlrApprox(pd, 0, 5), 0.05 * Math.abs(sprtLlrApprox(pd, 0, 5)) + 0.02);
});

test('pure wins cross the upper bound, pure losses the lower, an even run stays undecided', () => {
  let n = 0;
  for (; n < 1000; n++) if (sprtStatus(trinomial(n, 0, 0), P).decision === 'H1') break;
  // Each win adds about log(s1 / s0) = 0.0284, so about 104 wins are needed.
  assert.ok(n > 90 && n < 120, `wins needed: ${n}`);
  assert.equal(sprtStatus(trinomial(n - 1, 0, 0), P).decision, null);
  const losses = sprtStatus(trinomial(0, 0, 200), P);
  assert.equal(losses.decision, 'H0');
  assert.ok(losses.llr < losses.lower);
  const even = sprtStatus(trinomial(100, 100, 100), P);
  assert.equal(even.decision, null);
  // mean 0.5 lies below (s0 + s1) / 2, so the LLR leans to H0 but stays inside.
  assert.ok(even.llr < 0 && even.llr > even.lower, `llr ${even.llr}`);
  assertClose(even.llr, sprtLlrApprox(trinomial(100, 100, 100), 0, 10), 0.02);
  const pairWins = sprtStatus(pentanomial([0, 0, 0, 0, 120]), P);
  assert.equal(pairWins.decision, 'H1');
  assert.equal(sprtStatus(pentanomial([0, 0, 0, 0, 20]), P).decision, null);
  const pairEven = sprtStatus(pentanomial([10, 20, 40, 20, 10]), P);
  assert.equal(pairEven.decision, null);
});

test('LLR is antisymmetric when the hypotheses are swapped', () => {
  const d = trinomial(40, 35, 25);
  assertClose(sprtLlr(d, 0, 10), -sprtLlr(d, 10, 0), 1e-9);
  assert.ok(sprtLlr(d, 0, 10) > 0);
});

test('parseSprtParams', () => {
  assert.deepEqual(parseSprtParams(['elo0=-1', 'elo1=4', 'alpha=0.05', 'beta=0.1']), {
    ok: true,
    value: { elo0: -1, elo1: 4, alpha: 0.05, beta: 0.1 },
  });
  assert.deepEqual(parseSprtParams([]), { ok: true, value: { elo0: 0, elo1: 10, alpha: 0.05, beta: 0.05 } });
  const code = (tokens: string[]): string | undefined => {
    const r = parseSprtParams(tokens);
    return r.ok ? undefined : r.error.code;
  };
  assert.equal(code(['elo0=5', 'elo1=0']), 'sprt-bounds');
  assert.equal(code(['gamma=1']), 'sprt-syntax');
  assert.equal(code(['alpha=1.5']), 'sprt-bounds');
});
