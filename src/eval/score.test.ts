import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Position } from '../core/position.js';
import { VALUE_MATE } from '../core/types.js';
import {
  CLASSICAL_WIN_RATE,
  PIKAFISH_WIN_RATE,
  formatScore,
  materialCount,
  mateInMoves,
  toCp,
  wdl,
  winRate,
  winRateParams,
} from './score.js';

test('material count of the start position', () => {
  // 4 rooks, 4 knights, 4 cannons, 4 bishops, 4 advisors, 10 pawns.
  assert.equal(materialCount(new Position()), 40 + 20 + 20 + 12 + 8 + 10);
});

test('mate scores are shown in moves, positive when the side to move mates', () => {
  assert.equal(mateInMoves(VALUE_MATE - 1), 1);
  assert.equal(mateInMoves(VALUE_MATE - 3), 2);
  assert.equal(mateInMoves(-VALUE_MATE + 2), -1);
  assert.equal(mateInMoves(-VALUE_MATE), 0);
  assert.equal(formatScore(VALUE_MATE - 5, 110, 'Raw'), 'mate 3');
});

test('score types change only the display', () => {
  const m = 110;
  assert.equal(toCp(250, m, 'Raw'), 250);
  const a = winRateParams(m).a;
  assert.equal(toCp(250, m, 'PawnValueNormalized'), Math.round((100 * 250) / a));
  // A value at the model's 50% point (v = a) normalizes to 100 cp.
  assert.equal(toCp(Math.round(a), m, 'PawnValueNormalized'), 100);
  assert.equal(toCp(0, m, 'Elo'), 0);
  assert.ok(toCp(300, m, 'Elo') > 0 && toCp(-300, m, 'Elo') < 0);
  assert.equal(toCp(300, m, 'Elo'), -toCp(-300, m, 'Elo'));
});

test('wdl sums to 1000 and is symmetric', () => {
  for (const v of [-2000, -300, 0, 120, 900]) {
    const [w, d, l] = wdl(v, 80);
    assert.equal(w + d + l, 1000);
    assert.deepEqual(wdl(-v, 80), [l, d, w]);
  }
  assert.ok(wdl(900, 80)[0] > wdl(100, 80)[0]);
});

test("Pikafish's model is the default and its polynomials are uci.cpp's", () => {
  // uci.cpp win_rate_params at material 65 (m = 1): a = sum(as), b = sum(bs).
  const { a, b } = winRateParams(65);
  assert.ok(Math.abs(a - (220.59891365 - 810.3573043 + 928.68185198 + 79.83955423)) < 1e-9);
  assert.ok(Math.abs(b - (61.99287416 - 233.72674182 + 325.85508322 - 68.72720854)) < 1e-9);
  assert.deepEqual(winRateParams(80), winRateParams(80, PIKAFISH_WIN_RATE));
  // The material count is clamped to [17, 110].
  assert.deepEqual(winRateParams(5, CLASSICAL_WIN_RATE), winRateParams(17, CLASSICAL_WIN_RATE));
  assert.deepEqual(winRateParams(130, CLASSICAL_WIN_RATE), winRateParams(110, CLASSICAL_WIN_RATE));
});

test('the classical model: its 50 % point is its fitted a, which is what cp 100 shows', () => {
  // a of the fit (kirin tune --scale-report on dg-g2 + dg-g3, docs/DATAGEN.md), at some material counts.
  for (const [material, fittedA] of FITTED_A) {
    const { a, b } = winRateParams(material, CLASSICAL_WIN_RATE);
    assert.ok(b > 0);
    assert.ok(Math.abs(a - fittedA) < 0.06, `material ${material}: a ${a} vs ${fittedA}`);
    assert.equal(winRate(Math.round(a), material, CLASSICAL_WIN_RATE), 500);
    assert.equal(toCp(Math.round(a), material, 'PawnValueNormalized', CLASSICAL_WIN_RATE), 100);
    assert.ok(winRate(Math.round(a) - 20, material, CLASSICAL_WIN_RATE) < 500);
    assert.ok(winRate(Math.round(a) + 20, material, CLASSICAL_WIN_RATE) > 500);
  }
  // Over the whole range a and b stay positive: a value shown with the right sign.
  for (let material = 17; material <= 110; material++) {
    const { a, b } = winRateParams(material, CLASSICAL_WIN_RATE);
    assert.ok(a > 0 && b > 0, `material ${material}: a ${a}, b ${b}`);
    assert.ok(toCp(300, material, 'PawnValueNormalized', CLASSICAL_WIN_RATE) > 0);
  }
});

test('the same internal value is shown by the model of the evaluation', () => {
  for (const material of [30, 110]) {
    const v = 400;
    const pk = toCp(v, material, 'PawnValueNormalized', PIKAFISH_WIN_RATE);
    const cl = toCp(v, material, 'PawnValueNormalized', CLASSICAL_WIN_RATE);
    assert.equal(pk, Math.round((100 * v) / winRateParams(material, PIKAFISH_WIN_RATE).a));
    assert.equal(cl, Math.round((100 * v) / winRateParams(material, CLASSICAL_WIN_RATE).a));
    assert.notEqual(pk, cl);
    assert.equal(formatScore(v, material, 'PawnValueNormalized', CLASSICAL_WIN_RATE), `cp ${cl}`);
    assert.equal(formatScore(v, material, 'Raw', CLASSICAL_WIN_RATE), `cp ${v}`);
    const w = wdl(v, material, CLASSICAL_WIN_RATE);
    assert.equal(w[0] + w[1] + w[2], 1000);
    assert.notDeepEqual(w, wdl(v, material, PIKAFISH_WIN_RATE));
    assert.ok(toCp(v, material, 'Elo', CLASSICAL_WIN_RATE) > 0);
  }
});

/** The fitted model's a at some material counts, as `kirin tune --scale-report` printed it (docs/DATAGEN.md). */
const FITTED_A: readonly [number, number][] = [
  [20, 728.7],
  [30, 618.9],
  [65, 323.7],
  [110, 254.2],
];
