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
// first UCI_Elo player at its nominal value, or else level 0 at 1280). The
// slope of the fitted ratings against the nominal UCI_Elo values says how
// honest the scale is (1.0 = a 300-point step in UCI_Elo is 300 Elo in
// games). With a level-0 player in the list it also prints calibration points
// for src/search/skill.ts (UCI_Elo = 1280 + the measured Elo above level 0;
// see calibrationPoints in fit.ts; --stairs puts the point of a level that
// follows a measured level halfway between their ratings, where the search
// depth changes; --max-level caps the level of the top point, 19 unless set).
//
//   node dist/lab/strength/elo-scale.js [--players 1500,1800,2100,2400,full] [--pairs chain]
//       [--games 100] [--tc 2+0.02] [--concurrency 2] [--seed 1] [--anchor 1500=1500]
//       [--pair-seconds S] [--stairs] [--max-level 19] [--json] [--out FILE.json]
//   node dist/lab/strength/elo-scale.js --from A.json,B.json [--anchor L0=1280] [--stairs] [--max-level 19]
//       [--json] [--out FILE.json]
//
// --out is rewritten after every pair, so a run cut short keeps what it
// measured. --pair-seconds stops a pair after S seconds (the games in progress
// are abandoned; those finished count). SIGINT ends the pair in progress the
// same way, skips the rest and fits what was measured (a second SIGINT more
// than a second later ends at once). --from plays nothing:
// it joins the pairs of earlier --out files (e.g. the weak levels measured in
// one run and the strong ones in another) and fits them together.
//
// CPU-heavy (except --from): run it through the shared lock on a shared machine.

import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { commandSpec, scriptCommandLine } from '../../toolkit/command-line.js';
import { repoRoot } from '../../toolkit/files.js';
import { DEFAULT_RULES } from '../../src/dev.js';
import { ELO_MAX, ELO_MIN, eloToLevel } from '../../src/search/skill.js';
import { NO_ADJUDICATION, parseTimeControl } from '../../commands/match/game.js';
import { runMatch } from '../../commands/match/match.js';
import { loadOpenings, shuffled } from '../../commands/match/openings.js';
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
  type PairResult,
  type SavedPair,
  type Setting,
} from './fit.js';

function fail(message: string): never {
  process.stderr.write(`elo-scale: ${message}\n`);
  process.exit(2);
}

const argv = process.argv.slice(2);
const USAGE = `usage: node dist/lab/strength/elo-scale.js [--players 1500,1800,2100,2400,full] [--pairs chain]
           [--games 100] [--tc 2+0.02] [--concurrency 2] [--seed 1] [--anchor 1500=1500]
           [--pair-seconds S] [--stairs] [--max-level 19] [--json] [--out FILE.json]
       node dist/lab/strength/elo-scale.js --from A.json,B.json [--anchor L0=1280] [--stairs] [--max-level 19]
           [--json] [--out FILE.json]`;
const cl = scriptCommandLine(
  argv,
  commandSpec({
    name: 'elo-scale',
    usage: USAGE,
    options: {
      players: { type: 'string' },
      pairs: { type: 'string' },
      games: { type: 'string' },
      tc: { type: 'string' },
      concurrency: { type: 'string' },
      seed: { type: 'string' },
      anchor: { type: 'string' },
      'pair-seconds': { type: 'string' },
      'max-level': { type: 'string' },
      out: { type: 'string' },
      from: { type: 'string' },
      json: { type: 'boolean' },
      stairs: { type: 'boolean' },
    },
  }),
);
const json = cl.flag('json');
const outFile = cl.string('out', '');
const log = (line: string): void => {
  if (!json) process.stdout.write(line + '\n');
};

/** Level that a setting plays at (fractional for UCI_Elo). */
const levelOf = (s: Setting): number => (s.kind === 'full' ? 20 : s.kind === 'level' ? s.level : eloToLevel(s.elo));

interface Row extends PairResult, SavedPair {
  wins: number;
  draws: number;
  losses: number;
  pairs: number[];
  seconds: number;
  /** True when the pair was cut short (--pair-seconds or SIGINT). */
  stopped: boolean;
}

let players: Setting[];
let labels: string[];
const rows: PairResult[] = [];
const played: Row[] = [];
const fromFiles = cl.string('from', '');

if (fromFiles) {
  const runs = fromFiles.split(',').map((f) => {
    try {
      return JSON.parse(readFileSync(f, 'utf8')) as { pairs: SavedPair[] };
    } catch (e) {
      return fail(`cannot read ${f}: ${(e as Error).message}`);
    }
  });
  const merged = mergeMeasurements(runs) ?? fail('a --from file has no measured pairs');
  labels = merged.labels;
  players = labels.map((l) => parseSetting(l) ?? fail(`bad player "${l}" in a --from file`));
  rows.push(...merged.results);
  for (const r of merged.results)
    log(`${labels[r.a]} vs ${labels[r.b]}: Elo ${r.elo.toFixed(0)} +/- ${r.error.toFixed(0)}`);
} else {
  players = cl
    .string('players', '1500,1800,2100,2400,full')
    .split(',')
    .map((t) => parseSetting(t) ?? fail(`bad player "${t}" (1500, L7 or full)`));
  labels = players.map(settingLabel).map((l) => l.toLowerCase());
}

const firstElo = players.findIndex((p) => p.kind === 'elo');
const levelZero = players.findIndex((p) => p.kind === 'level' && p.level === 0);
const anchorText = cl.string(
  'anchor',
  firstElo >= 0
    ? `${labels[firstElo]}=${(players[firstElo] as { elo: number }).elo}`
    : levelZero >= 0
      ? `${labels[levelZero]}=${ELO_MIN}`
      : '',
);
const am = /^([^=]+)=(-?\d+)$/.exec(anchorText);
const anchorIdx = am ? labels.indexOf(am[1].toLowerCase()) : -1;
if (!am || anchorIdx < 0) fail('--anchor LABEL=RATING names one of the players');
const anchor = Number(am[2]);

/** Ratings, slope and calibration points from the pairs measured so far (null while they do not connect everyone). */
function summarize(): object | null {
  const fitted = fitRatings(players.length, rows, anchorIdx, anchor);
  if (!fitted.ok) return null;
  const ratings = fitted.value;
  const limited = players
    .map((p, i) => ({ p, i }))
    .filter(({ p }) => p.kind === 'elo')
    .map(({ p, i }) => ({ x: (p as { elo: number }).elo, y: ratings[i] }));
  const table = players
    .map((p, i) => ({ player: labels[i], level: Math.round(levelOf(p) * 100) / 100, rating: Math.round(ratings[i]) }))
    .sort((x, y) => x.level - y.level);
  // Calibration points that would make this measurement honest (needs a level-0 player).
  const calibration = calibrationPoints(
    players.map((p, i) => ({ level: levelOf(p), rating: ratings[i] })),
    ELO_MIN,
    ELO_MAX,
    cl.number('max-level', 19),
    cl.flag('stairs'),
  );
  return { table, slope: slope(limited), calibration: calibration.ok ? calibration.value : null };
}

function save(): object {
  const fitted = summarize();
  const summary = {
    args: argv,
    tc: cl.string('tc', '2+0.02'),
    games: cl.number('games', 100),
    players: labels,
    pairs: fromFiles ? rows.map((r) => ({ ...r, first: labels[r.a], second: labels[r.b] })) : played,
    ...(fitted ?? { table: null, slope: NaN, calibration: null }),
  };
  if (outFile) writeFileSync(outFile, JSON.stringify(summary) + '\n');
  return summary;
}

if (!fromFiles) {
  const pairs = parsePairs(cl.string('pairs', 'chain'), labels) ?? fail('bad --pairs (chain, all, or A-B,C-D)');
  const games = cl.number('games', 100);
  if (!(Number.isInteger(games) && games >= 2)) fail('--games needs an integer >= 2');
  const tc = parseTimeControl(cl.string('tc', '2+0.02'));
  if (!tc.ok) fail(tc.error.message);
  const concurrency = cl.number('concurrency', 2);
  const seed = cl.number('seed', 1);
  const pairSeconds = cl.number('pair-seconds', Infinity);
  if (!(pairSeconds > 0)) fail('--pair-seconds needs a positive number');
  let interrupted = false;
  let interruptedAt = 0;
  process.on('SIGINT', () => {
    // `timeout -s INT` may deliver the signal twice at once (to the process and its group): only a
    // second SIGINT a second later ends at once.
    if (interrupted && Date.now() - interruptedAt > 1000) process.exit(130);
    if (interrupted) return;
    interrupted = true;
    interruptedAt = Date.now();
    log('elo-scale: interrupted; ending the pair in progress');
  });

  const root = repoRoot();
  const kirin = join(root, 'bin', 'kirin.js');
  const book = loadOpenings(join(root, 'data', 'openings', 'openings.txt'), DEFAULT_RULES);
  if (!book.ok) fail(book.error.message);
  const openings = shuffled(book.value, seed);

  log(`elo-scale: ${argv.join(' ')}`);
  for (const [a, b] of pairs) {
    if (interrupted) break;
    const t0 = Date.now();
    let cut = false;
    const out = await runMatch(
      {
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
      },
      () => (cut ||= interrupted || Date.now() - t0 > pairSeconds * 1000),
    );
    if (out.error) fail(`${labels[a]} vs ${labels[b]}: ${out.error}`);
    const s = out.stats;
    const n = s.wins + s.draws + s.losses;
    if (n === 0) {
      log(`${labels[a]} vs ${labels[b]}: no game finished`);
      continue;
    }
    const e = pairEstimate(s.wins, s.draws, s.losses, s.pairs);
    const row: Row = {
      a,
      b,
      first: labels[a],
      second: labels[b],
      elo: e.elo,
      error: e.error,
      wins: s.wins,
      draws: s.draws,
      losses: s.losses,
      pairs: s.pairs.slice(),
      seconds: Math.round((Date.now() - t0) / 1000),
      stopped: out.stoppedEarly,
    };
    rows.push(row);
    played.push(row);
    save();
    log(
      `${labels[a]} vs ${labels[b]}: ${n} games, W/D/L ${s.wins}/${s.draws}/${s.losses}, ` +
        `Elo ${row.elo >= 0 ? '+' : ''}${row.elo.toFixed(0)} +/- ${row.error.toFixed(0)}${e.sweep ? ' (sweep)' : ''}, ` +
        `${row.seconds} s${row.stopped ? ' (cut short)' : ''}`,
    );
  }
}

const summary = save() as {
  table: { player: string; level: number; rating: number }[] | null;
  slope: number;
  calibration: [number, number][] | null;
};
if (json) process.stdout.write(JSON.stringify(summary) + '\n');
else if (!summary.table) log('\nthe measured pairs do not connect every player: no fit');
else {
  log('\nplayer | level | fitted rating');
  for (const r of summary.table) log(`${r.player.padStart(6)} | ${r.level.toFixed(2).padStart(5)} | ${r.rating}`);
  log(`slope of fitted against nominal UCI_Elo: ${summary.slope.toFixed(2)} (1.0 = honest)`);
  if (summary.calibration)
    log(`calibration points [UCI_Elo, level] for skill.ts: ${JSON.stringify(summary.calibration)}`);
}
