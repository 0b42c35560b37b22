import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { ELO_CALIBRATION, ELO_MAX, ELO_MIN } from '../../src/search/skill.js';
import { readEmbeddedNetwork } from '#platform/files';
import { repoRoot } from '../../toolkit/files.js';
import { eloEstimate, pentanomial, trinomial } from '../../commands/match/elo.js';
import {
  calibrationPoints,
  fitRatings,
  mergeMeasurements,
  pairEstimate,
  parsePairs,
  parseSetting,
  settingLabel,
  settingOptions,
  slope,
  type SavedPair,
} from './fit.js';
import { unwrap } from '../../test/support/fixtures.js';

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
  const r = unwrap(fitRatings(4, res, 0, 1500));
  r.forEach((x, i) => assert.ok(Math.abs(x - truth[i]) < 1e-6, `${i}: ${x}`));
  // Two contradicting measurements of one gap: the precise one wins.
  const r2 = unwrap(
    fitRatings(
      2,
      [
        { a: 1, b: 0, elo: 300, error: 20 },
        { a: 1, b: 0, elo: 100, error: 200 },
      ],
      0,
      0,
    ),
  );
  assert.ok(r2[1] > 290 && r2[1] < 300, `${r2[1]}`);
  const apart = fitRatings(3, [{ a: 0, b: 1, elo: 0, error: 10 }], 0, 0);
  assert.ok(!apart.ok && apart.error.code === 'fit-disconnected' && /connect/.test(apart.error.message));
  const noBase = calibrationPoints([{ level: 5, rating: 1800 }], 1280, 3133);
  assert.ok(!noBase.ok && noBase.error.code === 'fit-no-level-0');
  assert.ok(Math.abs(slope(truth.map((x) => ({ x, y: 2 * x + 5 }))) - 2) < 1e-12);
});

test('calibration points follow the measured ratings from level 0 and end at the top of the range', () => {
  // Measured: level 0, 2, 5, 9 and full strength (20).
  const rows = [
    { level: 0, rating: -500 },
    { level: 2, rating: -100 },
    { level: 5, rating: 300 },
    { level: 9, rating: 900 },
    { level: 20, rating: 1900 },
  ];
  const p = unwrap(calibrationPoints(rows, 1280, 3133));
  assert.deepEqual(p.slice(0, 4), [
    [1280, 0],
    [1680, 2],
    [2080, 5],
    [2680, 9],
  ]);
  // 3133 is 453 above level 9 of the 1000 between level 9 and full strength.
  assert.deepEqual(p[4], [3133, 13.98]);
  // A noisy level that measured weaker than the one below is left out.
  const noisy = unwrap(
    calibrationPoints(
      [
        { level: 0, rating: 0 },
        { level: 2, rating: 300 },
        { level: 4, rating: 250 },
        { level: 20, rating: 900 },
      ],
      1280,
      3133,
    ),
  );
  assert.deepEqual(noisy, [
    [1280, 0],
    [1580, 2],
    [3133, 19],
  ]);
});

test('a pair estimate: pentanomial from the game pairs, a clean sweep half a game short, no finite bound as 1000', () => {
  // 20 game pairs: 4 lost 0-2, 6 split 1-1, 10 won 1.5-0.5 or 2-0.
  const pairs = [4, 0, 6, 6, 4];
  const e = pairEstimate(22, 12, 6, pairs);
  const penta = eloEstimate(pentanomial(pairs));
  assert.equal(e.sweep, 0);
  assert.equal(e.elo, penta.elo);
  assert.equal(e.error, penta.error);
  assert.ok(e.elo > 0 && e.error > 0 && e.error < 1000);
  // Without complete pairs: the trinomial estimate.
  assert.equal(pairEstimate(3, 1, 1, [0, 0, 0, 0, 0]).elo, eloEstimate(trinomial(3, 1, 1)).elo);
  // A clean sweep either way: finite, as 29 wins and a draw (or the mirror).
  const up = pairEstimate(30, 0, 0, [0, 0, 0, 0, 15]);
  assert.equal(up.sweep, 1);
  assert.equal(up.elo, eloEstimate(trinomial(29, 1, 0)).elo);
  const down = pairEstimate(0, 0, 30, [15, 0, 0, 0, 0]);
  assert.equal(down.sweep, -1);
  assert.ok(Math.abs(down.elo + up.elo) < 1e-9);
  // Every pair lost or split: the score's interval reaches 0, no finite error.
  const near = pairEstimate(2, 0, 28, [13, 0, 2, 0, 0]);
  assert.equal(near.sweep, 0);
  assert.ok(near.elo < -300);
  assert.equal(near.error, 1000);
});

test('measurements of several runs join into one fit by their labels', () => {
  const low = { pairs: [{ first: 'L0', second: 'L1', elo: -100, error: 60 }] };
  const high = {
    pairs: [
      { first: 'l1', second: 'l2', elo: -150, error: 70 },
      { first: 'L2', second: 'full', elo: -400, error: 90 },
    ],
  };
  const m = mergeMeasurements([low, high]);
  assert.ok(m);
  assert.deepEqual(m.labels, ['l0', 'l1', 'l2', 'full']);
  assert.deepEqual(
    m.results.map((r) => [r.a, r.b, r.elo]),
    [
      [0, 1, -100],
      [1, 2, -150],
      [2, 3, -400],
    ],
  );
  assert.deepEqual(unwrap(fitRatings(4, m.results, 0, 1280)).map(Math.round), [1280, 1380, 1530, 1930]);
  assert.equal(mergeMeasurements([low, { pairs: [] }]), null);
});

test('calibration points with stairs: a level that follows a measured level starts halfway between their ratings', () => {
  const rows = [
    { level: 0, rating: 0 },
    { level: 1, rating: 200 },
    { level: 2, rating: 300 },
    { level: 6, rating: 700 },
    { level: 20, rating: 2500 },
  ];
  // Levels 1 and 2 follow a measured level: their depth takes over halfway; level 6 does not.
  assert.deepEqual(unwrap(calibrationPoints(rows, 1280, 3133, 19, true)), [
    [1280, 0],
    [1380, 1],
    [1530, 2],
    [1980, 6],
    [3133, 14.97],
  ]);
  // Without stairs the same rows give the points at the ratings (the default).
  assert.deepEqual(unwrap(calibrationPoints(rows, 1280, 3133)).slice(0, 4), [
    [1280, 0],
    [1480, 1],
    [1580, 2],
    [1980, 6],
  ]);
  // Full strength (level 20) is no stair: after level 19 the top still follows the ratings (3133 is
  // halfway from level 19 to full strength; a stair would put full strength's point at 3133).
  const top = unwrap(
    calibrationPoints(
      [
        { level: 0, rating: 0 },
        { level: 19, rating: 1653 },
        { level: 20, rating: 2053 },
      ],
      1280,
      3133,
      20,
      true,
    ),
  );
  assert.deepEqual(top, [
    [1280, 0],
    [2933, 19],
    [3133, 19.5],
  ]);
});

test('ELO_CALIBRATION of skill.ts is what the stored measurement gives (test/data/strength-scale.json)', () => {
  const data = JSON.parse(readFileSync(join(repoRoot(), 'test', 'data', 'strength-scale.json'), 'utf8')) as {
    runs: { pairs: SavedPair[] }[];
  };
  const m = mergeMeasurements(data.runs);
  assert.ok(m);
  const ratings = unwrap(fitRatings(m.labels.length, m.results, m.labels.indexOf('l0'), ELO_MIN));
  const rows = m.labels.map((label, i) => {
    const s = parseSetting(label);
    assert.ok(s && s.kind !== 'elo', label);
    return { level: s.kind === 'full' ? 20 : s.level, rating: ratings[i] };
  });
  assert.deepEqual(
    unwrap(calibrationPoints(rows, ELO_MIN, ELO_MAX, 19.99, true)),
    ELO_CALIBRATION.map(([e, l]) => [e, l]),
  );
});

test('the stored scale was measured with the embedded network (test/data/strength-scale.json)', () => {
  const data = JSON.parse(readFileSync(join(repoRoot(), 'test', 'data', 'strength-scale.json'), 'utf8')) as {
    network?: { name?: string; sha256?: string };
  };
  const stored = data.network?.sha256;
  assert.ok(
    stored && /^[0-9a-f]{64}$/.test(stored),
    'strength-scale.json names no network SHA-256 ("network": {"name", "sha256"})',
  );
  const bytes = readEmbeddedNetwork();
  assert.ok(bytes, 'no embedded network in dist/browser/kirin.knet: run npm run build');
  const sha = createHash('sha256').update(bytes).digest('hex');
  assert.equal(
    sha,
    stored,
    `the embedded network (SHA-256 ${sha}) is not the one the UCI_Elo scale was measured with ` +
      `(${data.network?.name ?? 'unnamed'}, ${stored}): measure the scale again (docs/STRENGTH.md), ` +
      'then update test/data/strength-scale.json and ELO_CALIBRATION in src/search/skill.ts',
  );
});
