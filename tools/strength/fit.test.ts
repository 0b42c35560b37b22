import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fitRatings, parsePairs, parseSetting, settingLabel, settingOptions, slope } from './fit.js';

test('settings parse from their labels and select the right options', () => {
  assert.deepEqual(parseSetting('1500'), { kind: 'elo', elo: 1500 });
  assert.deepEqual(parseSetting('L7'), { kind: 'level', level: 7 });
  assert.deepEqual(parseSetting('full'), { kind: 'full' });
  for (const bad of ['L21', '15', 'fast', '']) assert.equal(parseSetting(bad), null, bad);
  const s = parseSetting('2100');
  assert.ok(s);
  assert.equal(settingLabel(s), '2100');
  assert.deepEqual(settingOptions(s), [
    ['UCI_LimitStrength', 'true'],
    ['UCI_Elo', '2100'],
  ]);
});

test('pairs: chain, all, or a list of labels', () => {
  const labels = ['1500', '1800', 'full'];
  assert.deepEqual(parsePairs('chain', labels), [
    [0, 1],
    [1, 2],
  ]);
  assert.equal(parsePairs('all', labels)?.length, 3);
  assert.deepEqual(parsePairs('1500-full', labels), [[0, 2]]);
  assert.equal(parsePairs('1500-2000', labels), null);
  assert.equal(parsePairs('1500-1500', labels), null);
});

test('the fit recovers ratings from consistent differences and weighs by error', () => {
  const truth = [1500, 1700, 2100, 2900];
  const res = [
    [0, 1],
    [1, 2],
    [2, 3],
    [0, 3],
  ].map(([a, b]) => ({ a, b, elo: truth[a] - truth[b], error: 50 }));
  const r = fitRatings(4, res, 0, 1500);
  r.forEach((x, i) => assert.ok(Math.abs(x - truth[i]) < 1e-6, `${i}: ${x}`));
  // Two contradicting measurements of one gap: the precise one wins.
  const r2 = fitRatings(
    2,
    [
      { a: 1, b: 0, elo: 300, error: 20 },
      { a: 1, b: 0, elo: 100, error: 200 },
    ],
    0,
    0,
  );
  assert.ok(r2[1] > 290 && r2[1] < 300, `${r2[1]}`);
  assert.throws(() => fitRatings(3, [{ a: 0, b: 1, elo: 0, error: 10 }], 0, 0), /connect/);
  assert.ok(Math.abs(slope(truth.map((x) => ({ x, y: 2 * x + 5 }))) - 2) < 1e-12);
});
