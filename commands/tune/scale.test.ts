import assert from 'node:assert/strict';
import { test } from 'node:test';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Position } from '../../src/core/position.js';
import { mulberry32 } from '../../src/core/prng.js';
import { PIKAFISH_WIN_RATE, winRateParams } from '../../src/eval/score.js';
import { BENCH_FENS } from '../../src/protocol/benchpositions.js';
import { RECORD_SIZE, encodeRecord, makeHeader } from '../datagen/format.js';
import { runTuneCli } from './cli.js';
import {
  WdlHistogram,
  expectedScore,
  fitLogisticK,
  fitWdl,
  fitWinRatePolynomials,
  meanSd,
  polyEval,
  polyFit,
  quantiles,
  solveIncreasing,
  winProb,
} from './scale.js';
import { unwrap } from '../../test/support/fixtures.js';

/** Draws a result (1 / 0 / -1) for value v from the win-rate model (a, b). */
function draw(rnd: () => number, v: number, a: number, b: number): number {
  const u = rnd();
  const w = winProb(v, a, b),
    l = winProb(-v, a, b);
  return u < w ? 1 : u < w + l ? -1 : 0;
}

test('fitWdl recovers the (a, b) that generated the results', () => {
  for (const [a, b] of [
    [300, 120],
    [600, 250],
  ]) {
    const rnd = mulberry32(a + b);
    const h = new WdlHistogram();
    for (let i = 0; i < 60000; i++) {
      const v = Math.round((rnd() * 2 - 1) * 1500);
      h.add(v, draw(rnd, v, a, b));
    }
    const f = fitWdl(h.points());
    assert.ok(Math.abs(f.a - a) < 0.04 * a, `a ${f.a} vs ${a}`);
    assert.ok(Math.abs(f.b - b) < 0.08 * b, `b ${f.b} vs ${b}`);
  }
});

test('fitWdl stays bounded when the results do not depend on the value', () => {
  const rnd = mulberry32(5);
  const h = new WdlHistogram();
  for (let i = 0; i < 3000; i++) h.add(Math.round((rnd() * 2 - 1) * 1000), rnd() < 0.3 ? 1 : rnd() < 0.5 ? -1 : 0);
  const f = fitWdl(h.points());
  assert.ok(f.a > 0 && f.a <= 20000 && f.b > 0 && f.b <= 20000, `${f.a} ${f.b}`);
});

test("Texel's K is recovered from results drawn with sigmoid(v / 350)", () => {
  const rnd = mulberry32(11);
  const h = new WdlHistogram();
  for (let i = 0; i < 40000; i++) {
    const v = Math.round((rnd() * 2 - 1) * 1200);
    h.add(v, rnd() < 1 / (1 + Math.exp(-v / 350)) ? 1 : -1);
  }
  const k = fitLogisticK(h.points());
  assert.ok(Math.abs(k - 350) < 25, `K ${k}`);
});

test('the expected score of the model: 1/2 at 0, about 3/4 at a when draws are likely, and solved for', () => {
  assert.equal(expectedScore(0, 300, 100), 0.5);
  assert.ok(Math.abs(expectedScore(300, 300, 50) - 0.75) < 0.01);
  const v = solveIncreasing((x) => expectedScore(x, 400, 200), 0.75, 0, 20000);
  assert.ok(Math.abs(expectedScore(v, 400, 200) - 0.75) < 1e-9);
  assert.ok(v > 400, `with many decisive games the 3/4 point lies beyond a: ${v}`);
});

test('polyFit returns an exact cubic exactly and polyEval evaluates it (highest power first)', () => {
  const c = [220.5, -810.25, 928.75, 79.5];
  const xs = [0.3, 0.5, 0.8, 1.0, 1.2, 1.5, 1.7];
  const ys = xs.map((x) => polyEval(c, x));
  assert.equal(polyEval(c, 2), ((220.5 * 2 - 810.25) * 2 + 928.75) * 2 + 79.5);
  const f = polyFit(xs, ys, new Array<number>(xs.length).fill(1));
  c.forEach((ci, i) => assert.ok(Math.abs(f[i] - ci) < 1e-6, `${f[i]} vs ${ci}`));
  // Weights: a point with weight 0 does not count.
  const f2 = polyFit([...xs, 1.1], [...ys, 1e6], [...new Array<number>(xs.length).fill(1), 0]);
  c.forEach((ci, i) => assert.ok(Math.abs(f2[i] - ci) < 1e-6));
});

test("the win-rate polynomials are recovered from data generated with Pikafish's model", () => {
  const rnd = mulberry32(2026);
  const byMaterial = new Map<number, WdlHistogram>();
  for (let mat = 20; mat <= 110; mat += 6) {
    const { a, b } = winRateParams(mat, PIKAFISH_WIN_RATE);
    const h = new WdlHistogram(4);
    for (let i = 0; i < 8000; i++) {
      const v = Math.round((rnd() * 2 - 1) * 2.5 * a);
      h.add(v, draw(rnd, v, a, b));
    }
    byMaterial.set(mat, h);
  }
  const fit = unwrap(fitWinRatePolynomials(byMaterial, 500));
  assert.ok(fit.nll <= fit.nllStart);
  for (const mat of [26, 50, 65, 86, 104]) {
    const m = mat / 65;
    const { a, b } = winRateParams(mat, PIKAFISH_WIN_RATE);
    const fa = polyEval(fit.as, m),
      fb = polyEval(fit.bs, m);
    assert.ok(Math.abs(fa - a) < 0.05 * a, `material ${mat}: a ${fa} vs ${a}`);
    assert.ok(Math.abs(fb - b) < 0.2 * b, `material ${mat}: b ${fb} vs ${b}`);
  }
});

test('quantiles and mean / sd of a sample', () => {
  const s = [5, 1, 4, 2, 3];
  assert.deepEqual(quantiles(s, [0, 0.5, 1]), [1, 3, 5]);
  const { mean, sd } = meanSd(s);
  assert.equal(mean, 3);
  assert.ok(Math.abs(sd - Math.sqrt(2)) < 1e-12);
});

test('kirin tune --scale-report reads a datagen file and prints the tables', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'kirin-scale-'));
  try {
    const file = join(dir, 'd.bin');
    const fens = BENCH_FENS.filter((f) => !f.startsWith('setoption') && !new Position(f).inCheck()).slice(0, 8);
    const n = 400;
    const buf = new Uint8Array(16 + n * RECORD_SIZE);
    buf.set(makeHeader(), 0);
    for (let i = 0; i < n; i++) {
      const pos = new Position(fens[i % fens.length]);
      encodeRecord(buf, 16 + i * RECORD_SIZE, pos, 10 * (i % 7), 0, (i % 3) - 1, 0);
    }
    writeFileSync(file, buf);
    const lines: string[] = [];
    const write = process.stdout.write.bind(process.stdout);
    const ew = process.stderr.write.bind(process.stderr);
    process.stdout.write = ((s: string) => {
      lines.push(s);
      return true;
    }) as typeof process.stdout.write;
    process.stderr.write = (() => true) as typeof process.stderr.write;
    let rc: number;
    try {
      rc = await runTuneCli(['--scale-report', '--data', file, '--sweep', '2', '--sweep-depth', '2']);
    } finally {
      process.stdout.write = write;
      process.stderr.write = ew;
    }
    assert.equal(rc, 0);
    const text = lines.join('');
    assert.match(text, new RegExp(`Positions: ${n} `));
    assert.match(text, /\| all \| 400 \| /);
    assert.match(text, /\| 2 \| 2 \| /, 'the depth sweep has a row for depth 2 with 2 positions');
    assert.equal(await runTuneCli(['--scale-report', '--data', file, '--bogus', '1']), 2);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
