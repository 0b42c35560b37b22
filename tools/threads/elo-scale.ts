#!/usr/bin/env node
// Measures how far apart UCI_Elo settings really play, and fits the UCI_Elo ->
// skill-level mapping of src/search/skill.ts to the measurement.
//
// Method: the settings (default 1500, 1800, 2100, 2400 and full strength) play
// matches with the in-project match runner (`kirin match`, game pairs from
// data/openings/openings.txt): every setting against the next one up and
// against full strength (or, with --all-pairs, every pair). Each match gives a
// score, hence an Elo difference (logistic). Ratings are the least-squares fit
// of those differences (each weighted by its game count), anchored so that full
// strength keeps its nominal 3133. The table printed is
//   UCI_Elo setting | skill level it maps to now | measured rating
// and the fit: measured gaps against nominal gaps (the slope: 1.0 means a
// 300-point UCI_Elo step is 300 Elo in games), then new calibration points for
// skill.ts (ELO_POINTS = the measured ratings at the levels the settings map to,
// so that asking for Elo X gives the level that measured X).
//
// It is CPU-heavy: hundreds of games for errors below ~50 Elo. On a shared
// machine run it short (--games 20) only to see that it works.
//
//   node dist/tools/threads/elo-scale.js [--elos 1500,1800,2100,2400] [--games 40] [--tc 5+0.05]
//       [--concurrency 1] [--all-pairs] [--json]

import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { repoRoot } from '../../test/support/fixtures.js';
import { eloToLevel, ELO_MAX } from '../../src/search/skill.js';
import { eloFromScore } from '../match/elo.js';

const argv = process.argv.slice(2);
const opt = (name: string, def: string): string => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 && i + 1 < argv.length ? argv[i + 1] : def;
};
const elos = opt('elos', '1500,1800,2100,2400')
  .split(',')
  .map(Number)
  .filter((x) => Number.isFinite(x));
const games = Number(opt('games', '40'));
const tc = opt('tc', '5+0.05');
const concurrency = opt('concurrency', '1');
const allPairs = argv.includes('--all-pairs');
const json = argv.includes('--json');
const root = repoRoot();
const kirin = join(root, 'bin', 'kirin.js');
const FULL = 0; // the setting "full strength" (UCI_LimitStrength false)

interface Player {
  setting: number; // UCI_Elo, or FULL
  nominal: number;
}
const players: Player[] = elos.map((e) => ({ setting: e, nominal: e }));
players.push({ setting: FULL, nominal: ELO_MAX });

function engineOptions(n: 1 | 2, p: Player): string[] {
  return p.setting === FULL
    ? ['--engine-option', `${n}:UCI_LimitStrength=false`]
    : ['--engine-option', `${n}:UCI_LimitStrength=true`, '--engine-option', `${n}:UCI_Elo=${p.setting}`];
}
const label = (p: Player): string => (p.setting === FULL ? 'full' : `elo${p.setting}`);

interface Result {
  a: number;
  b: number;
  wins: number;
  losses: number;
  draws: number;
  diff: number;
}

function play(a: Player, b: Player): Promise<{ wins: number; losses: number; draws: number }> {
  const args = [
    kirin,
    'match',
    '--engine',
    `"${process.execPath}" "${kirin}"`,
    '--engine',
    `"${process.execPath}" "${kirin}"`,
    '--name',
    `1:${label(a)}`,
    '--name',
    `2:${label(b)}`,
    ...engineOptions(1, a),
    ...engineOptions(2, b),
    '--tc',
    tc,
    '--games',
    String(games),
    '--concurrency',
    concurrency,
    '--openings',
    join(root, 'data', 'openings', 'openings.txt'),
    '--openings-order',
    'random',
    '--rating-interval',
    '0',
  ];
  return new Promise((resolve, reject) => {
    execFile(process.execPath, args, { maxBuffer: 1 << 26, cwd: root }, (error, stdout, stderr) => {
      const m = /Score of \S+ vs \S+: (\d+) - (\d+) - (\d+)/.exec(stdout);
      if (!m)
        reject(new Error(`match ${label(a)} vs ${label(b)} failed: ${error?.message ?? ''}\n${stdout}\n${stderr}`));
      else resolve({ wins: Number(m[1]), losses: Number(m[2]), draws: Number(m[3]) });
    });
  });
}

/** Least-squares ratings from pairwise differences (weights = games), with the last player anchored. */
function fitRatings(n: number, results: readonly Result[], anchor: number): number[] {
  // Normal equations of sum w (r_a - r_b - d)^2 over r_0..r_{n-2}, r_{n-1} = anchor.
  const m = n - 1;
  const A = Array.from({ length: m }, () => new Array<number>(m).fill(0));
  const y = new Array<number>(m).fill(0);
  for (const r of results) {
    const w = r.wins + r.losses + r.draws;
    const terms: [number, number][] = [
      [r.a, 1],
      [r.b, -1],
    ];
    let rhs = r.diff;
    for (const [i, c] of terms) if (i === n - 1) rhs -= c * anchor;
    for (const [i, ci] of terms) {
      if (i === n - 1) continue;
      y[i] += w * ci * rhs;
      for (const [j, cj] of terms) if (j !== n - 1) A[i][j] += w * ci * cj;
    }
  }
  // Gaussian elimination (tiny system).
  for (let c = 0; c < m; c++) {
    let p = c;
    for (let r = c + 1; r < m; r++) if (Math.abs(A[r][c]) > Math.abs(A[p][c])) p = r;
    [A[c], A[p]] = [A[p], A[c]];
    [y[c], y[p]] = [y[p], y[c]];
    if (Math.abs(A[c][c]) < 1e-12) throw new Error('the matches do not connect every setting');
    for (let r = 0; r < m; r++) {
      if (r === c) continue;
      const f = A[r][c] / A[c][c];
      for (let k = c; k < m; k++) A[r][k] -= f * A[c][k];
      y[r] -= f * y[c];
    }
  }
  const out = y.map((v, i) => v / A[i][i]);
  out.push(anchor);
  return out;
}

const pairs: [number, number][] = [];
const full = players.length - 1;
for (let i = 0; i < players.length - 1; i++) {
  if (allPairs) for (let j = i + 1; j < players.length; j++) pairs.push([i, j]);
  else {
    pairs.push([i, i + 1]);
    if (i + 1 !== full) pairs.push([i, full]);
  }
}

const results: Result[] = [];
for (const [a, b] of pairs) {
  const r = await play(players[a], players[b]);
  const n = r.wins + r.losses + r.draws;
  // A clean sweep has no finite Elo: clamp the score to half a game from the edge.
  const score = Math.min(n - 0.5, Math.max(0.5, r.wins + r.draws / 2)) / n;
  results.push({ a, b, ...r, diff: eloFromScore(score) });
  if (!json)
    console.log(
      `${label(players[a])} vs ${label(players[b])}: +${r.wins} -${r.losses} =${r.draws}  Elo ${eloFromScore(score).toFixed(0)}`,
    );
}
const ratings = fitRatings(players.length, results, ELO_MAX);
const rows = players.map((p, i) => ({
  setting: p.setting === FULL ? 'full' : p.setting,
  level: p.setting === FULL ? 20 : Math.round(eloToLevel(p.setting) * 100) / 100,
  measured: Math.round(ratings[i]),
}));
// Slope of measured against nominal over the limited settings.
const lim = players.map((p, i) => ({ x: p.nominal, y: ratings[i] })).slice(0, -1);
const mx = lim.reduce((a, p) => a + p.x, 0) / lim.length,
  my = lim.reduce((a, p) => a + p.y, 0) / lim.length;
const slope =
  lim.reduce((a, p) => a + (p.x - mx) * (p.y - my), 0) /
  Math.max(
    1e-9,
    lim.reduce((a, p) => a + (p.x - mx) ** 2, 0),
  );
const summary = {
  tc,
  gamesPerMatch: games,
  results,
  rows,
  slope: Math.round(slope * 100) / 100,
  // New calibration points for skill.ts: measured rating -> level.
  suggestedEloPoints: rows.filter((r) => r.setting !== 'full').map((r) => [r.measured, r.level]),
};
if (json) process.stdout.write(JSON.stringify(summary) + '\n');
else {
  console.log('\nUCI_Elo | level | measured');
  for (const r of rows)
    console.log(`${String(r.setting).padStart(7)} | ${String(r.level).padStart(5)} | ${r.measured}`);
  console.log(`measured gap per nominal gap (slope): ${summary.slope} (1.0 = honest)`);
  console.log(`suggested ELO_POINTS -> LEVEL_POINTS: ${JSON.stringify(summary.suggestedEloPoints)}`);
}
