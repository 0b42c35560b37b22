#!/usr/bin/env node
// Measures how far apart strength settings really play, to calibrate the
// UCI_Elo -> skill level mapping of src/search/skill.ts (method and results:
// docs/STRENGTH.md).
//
// Players are settings of this build: "1500" (UCI_LimitStrength + UCI_Elo
// 1500), "L7" (Skill Level 7) or "full". The pairs that meet ("chain": each
// player with the next one; "all"; or a list "1500-1800,2400-full") play game
// pairs with the in-project match runner over data/openings/openings.txt in a
// random order. Each match gives W/D/L and the Elo difference with its 95%
// error (pentanomial, from the game pairs). Ratings are the weighted least-
// squares fit of the differences (weights 1/error^2; a clean sweep is counted
// half a game short of it), anchored with --anchor LABEL=RATING (default: the
// first UCI_Elo player at its nominal value). The slope of the fitted ratings
// against the nominal UCI_Elo values says how honest the scale is (1.0 = a
// 300-point step in UCI_Elo is 300 Elo in games). With a level-0 player in the
// list it also prints calibration points for src/search/skill.ts (UCI_Elo =
// 1280 + the measured Elo above level 0; see calibrationPoints in fit.ts).
//
//   node dist/tools/strength/elo-scale.js [--players 1500,1800,2100,2400,full] [--pairs chain]
//       [--games 100] [--tc 2+0.02] [--concurrency 2] [--seed 1] [--anchor 1500=1500] [--json] [--out FILE.json]
//
// CPU-heavy: run it through the shared lock on a shared machine.

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../../test/support/fixtures.js';
import { DEFAULT_RULES } from '../../src/core/rules.js';
import { ELO_MAX, ELO_MIN, eloToLevel } from '../../src/search/skill.js';
import { eloEstimate, pentanomial, trinomial } from '../match/elo.js';
import { NO_ADJUDICATION, parseTimeControl } from '../match/game.js';
import { runMatch } from '../match/match.js';
import { loadOpenings, shuffled } from '../match/openings.js';
import {
  calibrationPoints,
  fitRatings,
  parsePairs,
  parseSetting,
  settingLabel,
  settingOptions,
  slope,
  type PairResult,
  type Setting,
} from './fit.js';

function fail(message: string): never {
  process.stderr.write(`elo-scale: ${message}\n`);
  process.exit(2);
}

const argv = process.argv.slice(2);
const opt = (name: string, def: string): string => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 && i + 1 < argv.length ? argv[i + 1] : def;
};
const players: Setting[] = opt('players', '1500,1800,2100,2400,full')
  .split(',')
  .map((t) => parseSetting(t) ?? fail(`bad player "${t}" (1500, L7 or full)`));
const labels = players.map(settingLabel).map((l) => l.toLowerCase());
const pairs = parsePairs(opt('pairs', 'chain'), labels) ?? fail('bad --pairs (chain, all, or A-B,C-D)');
const games = Number(opt('games', '100'));
if (!(Number.isInteger(games) && games >= 2)) fail('--games needs an integer >= 2');
const tc = parseTimeControl(opt('tc', '2+0.02'));
if (!tc.ok) fail(tc.error.message);
const concurrency = Number(opt('concurrency', '2'));
const seed = Number(opt('seed', '1'));
const json = argv.includes('--json');
const firstElo = players.findIndex((p) => p.kind === 'elo');
const anchorText = opt(
  'anchor',
  firstElo >= 0 ? `${labels[firstElo]}=${(players[firstElo] as { elo: number }).elo}` : '',
);
const am = /^([^=]+)=(-?\d+)$/.exec(anchorText);
const anchorIdx = am ? labels.indexOf(am[1].toLowerCase()) : -1;
if (!am || anchorIdx < 0) fail('--anchor LABEL=RATING names one of the players');
const anchor = Number(am[2]);

const root = repoRoot();
const kirin = join(root, 'bin', 'kirin.js');
const openings = shuffled(loadOpenings(join(root, 'data', 'openings', 'openings.txt'), DEFAULT_RULES), seed);
const log = (line: string): void => {
  if (!json) process.stdout.write(line + '\n');
};

/** Level that a setting plays at (fractional for UCI_Elo). */
const levelOf = (s: Setting): number => (s.kind === 'full' ? 20 : s.kind === 'level' ? s.level : eloToLevel(s.elo));

interface Row extends PairResult {
  wins: number;
  draws: number;
  losses: number;
  pairs: number[];
  seconds: number;
}
const rows: Row[] = [];
log(`elo-scale: ${argv.join(' ')}`);
for (const [a, b] of pairs) {
  const t0 = Date.now();
  const out = await runMatch({
    engines: [
      { command: `"${process.execPath}" "${kirin}"`, name: labels[a], options: settingOptions(players[a]) },
      { command: `"${process.execPath}" "${kirin}"`, name: labels[b], options: settingOptions(players[b]) },
    ],
    tc: [tc.value, tc.value],
    games,
    concurrency,
    openings,
    rules: DEFAULT_RULES,
    timeMarginMs: 100,
    moveTimeoutMs: 60000,
    maxPlies: 600,
    repetitions: 3,
    adjudication: NO_ADJUDICATION,
    sprt: null,
    sprtModel: 'pentanomial',
    print: () => {},
    gameLog: null,
    engineLog: null,
    ratingInterval: 0,
    startTimeoutMs: 15000,
  });
  if (out.error) fail(`${labels[a]} vs ${labels[b]}: ${out.error}`);
  const s = out.stats;
  const n = s.wins + s.draws + s.losses;
  // A clean sweep has no finite Elo: count it as half a game short.
  const sweep = s.wins + s.draws / 2 >= n - 0.25 ? 1 : s.losses + s.draws / 2 >= n - 0.25 ? -1 : 0;
  const e = sweep
    ? eloEstimate(trinomial(s.wins - (sweep > 0 ? 1 : 0), 1, s.losses - (sweep < 0 ? 1 : 0)))
    : s.pairs.some((c) => c > 0)
      ? eloEstimate(pentanomial(s.pairs))
      : eloEstimate(trinomial(s.wins, s.draws, s.losses));
  const row: Row = {
    a,
    b,
    elo: e.elo,
    error: Number.isFinite(e.error) ? e.error : 1000,
    wins: s.wins,
    draws: s.draws,
    losses: s.losses,
    pairs: s.pairs.slice(),
    seconds: Math.round((Date.now() - t0) / 1000),
  };
  rows.push(row);
  log(
    `${labels[a]} vs ${labels[b]}: ${n} games, W/D/L ${s.wins}/${s.draws}/${s.losses}, ` +
      `Elo ${row.elo >= 0 ? '+' : ''}${row.elo.toFixed(0)} +/- ${row.error.toFixed(0)}${sweep ? ' (sweep)' : ''}, ${row.seconds} s`,
  );
}

const ratings = fitRatings(players.length, rows, anchorIdx, anchor);
const limited = players
  .map((p, i) => ({ p, i }))
  .filter(({ p }) => p.kind === 'elo')
  .map(({ p, i }) => ({ x: (p as { elo: number }).elo, y: ratings[i] }));
const table = players.map((p, i) => ({
  player: labels[i],
  level: Math.round(levelOf(p) * 100) / 100,
  rating: Math.round(ratings[i]),
}));
// Calibration points that would make this measurement honest (needs a level-0 player).
let calibration: [number, number][] | null = null;
if (players.some((p) => levelOf(p) === 0))
  calibration = calibrationPoints(
    players.map((p, i) => ({ level: levelOf(p), rating: ratings[i] })),
    ELO_MIN,
    ELO_MAX,
  );
const summary = { args: argv, tc: opt('tc', '2+0.02'), games, pairs: rows, table, slope: slope(limited), calibration };
const outFile = opt('out', '');
if (outFile) writeFileSync(outFile, JSON.stringify(summary) + '\n');
if (json) process.stdout.write(JSON.stringify(summary) + '\n');
else {
  log('\nplayer | level | fitted rating');
  for (const r of table) log(`${r.player.padStart(6)} | ${r.level.toFixed(2).padStart(5)} | ${r.rating}`);
  log(`slope of fitted against nominal UCI_Elo: ${summary.slope.toFixed(2)} (1.0 = honest)`);
  if (calibration) log(`calibration points [UCI_Elo, level] for skill.ts: ${JSON.stringify(calibration)}`);
}
