import assert from 'node:assert/strict';
import { test } from 'node:test';
import { gauntletSummary, parseGauntletArgs, relativeSprt, type GauntletResult } from './gauntlet.js';
import { emptyStats, type MatchStats } from './match.js';
import { unwrap } from '../../test/support/fixtures.js';

test('parseGauntletArgs: each candidate against each opponent, the baseline first', () => {
  const plan = unwrap(
    parseGauntletArgs([
      '--engine',
      'node new.js',
      '--name',
      '1:kirin-17',
      '--engine',
      'node old.js',
      '--name',
      '2:kirin-11',
      '--engine-option',
      '2:EvalFile=k11.knet',
      '--opponent',
      'hce=/bin/hce',
      '--opponent',
      'fairy=node fairy.js --native /usr/games/fairy-stockfish',
      '--opponent-option',
      'hce:Threads=1',
      '--opponent-tc',
      'fairy:20+0.2',
      '--tc',
      '10+0.1',
      '--games',
      '200',
      '--concurrency',
      '2',
      '--option',
      'Hash=16',
      '--openings',
      'o.txt',
      '--openings-order',
      'random',
      '--seed',
      '7',
      '--sprt',
      'elo0=0',
      'elo1=10',
      '--log-dir',
      '/tmp/g',
    ]),
  );
  assert.deepEqual(
    plan.matches.map((m) => `${m.candidate}/${m.opponent}`),
    ['kirin-11/hce', 'kirin-17/hce', 'kirin-11/fairy', 'kirin-17/fairy'],
  );
  const [base, cand, , candFairy] = plan.matches.map((m) => m.args);
  // The same openings, order and seed in every match; each player's own options and time control.
  for (const a of plan.matches.map((m) => m.args)) {
    assert.equal(a.openingsFile, 'o.txt');
    assert.equal(a.order, 'random');
    assert.equal(a.seed, 7);
    assert.equal(a.games, 200);
    assert.equal(a.tc[0].baseMs, 10000);
    // The SPRT is relative to the baseline's result: set when its match is done, not before.
    assert.equal(a.sprt, null);
  }
  assert.deepEqual(base.engines[0].options, [
    ['Hash', '16'],
    ['EvalFile', 'k11.knet'],
  ]);
  assert.deepEqual(cand.engines[0].options, [['Hash', '16']]);
  assert.deepEqual(cand.engines[1].options, [
    ['Hash', '16'],
    ['Threads', '1'],
  ]);
  assert.equal(cand.engines[1].name, 'hce');
  assert.equal(cand.tc[1].baseMs, 10000);
  assert.equal(candFairy.tc[1].baseMs, 20000);
  assert.equal(candFairy.tc[1].incMs, 200);
  assert.equal(candFairy.logFile, '/tmp/g/kirin-17-vs-fairy.log');
  assert.deepEqual(plan.sprt, { elo0: 0, elo1: 10, alpha: 0.05, beta: 0.05 });
  assert.deepEqual(relativeSprt(plan.sprt!, 80), { elo0: 80, elo1: 90, alpha: 0.05, beta: 0.05 });

  // One candidate: its matches carry the SPRT as given.
  const one = unwrap(
    parseGauntletArgs([
      '--engine',
      'a',
      '--opponent',
      'x=b',
      '--nodes',
      '100',
      '--sprt',
      'elo0=0',
      'elo1=5',
      '--log-dir',
      'd',
    ]),
  );
  assert.equal(one.matches.length, 1);
  assert.equal(one.matches[0].candidate, 'candidate');
  assert.deepEqual(one.matches[0].args.sprt, { elo0: 0, elo1: 5, alpha: 0.05, beta: 0.05 });
});

test('parseGauntletArgs: what is wrong is said', () => {
  const refused = (argv: string[], message: RegExp): void => {
    const r = parseGauntletArgs(argv);
    assert.ok(!r.ok && r.error.code === 'arguments', argv.join(' '));
    assert.match(r.error.message, message);
  };
  const base = ['--tc', '1+0', '--log-dir', 'd'];
  refused(['--opponent', 'x=b', ...base], /one or two --engine/);
  refused(['--engine', 'a', ...base], /at least one --opponent/);
  refused(['--engine', 'a', '--opponent', 'b', ...base], /NAME=COMMAND/);
  refused(['--engine', 'a', '--opponent', 'x=b', '--opponent', 'x=c', ...base], /name is taken/);
  refused(['--engine', 'a', '--opponent', 'x=b', '--opponent-tc', 'y:5+0', ...base], /one of the opponents \(x\)/);
  refused(['--engine', 'a', '--opponent', 'x=b', '--tc', '1+0'], /--log-dir/);
  refused(['--engine', 'a', '--opponent', 'x=b', '--log', 'g.log', ...base], /one log per match/);
  refused(
    ['--engine', 'a', '--engine', 'b', '--name', '1:same', '--name', '2:same', '--opponent', 'x=c', ...base],
    /different --name/,
  );
  refused(['--engine', 'a', '--opponent', 'x=b', '--log-dir', 'd'], /x: give a time control/);
  refused(['--engine', 'a', '--opponent', 'x=b', '--opponent-tc', 'x:soon', ...base], /bad time control/);
});

function stats(pairs: number[]): MatchStats {
  const s = emptyStats();
  s.pairs = pairs;
  // Each pair's two games: 2 points = two wins, 1.5 = win + draw, 1 = two draws, 0.5 = draw + loss, 0 = two losses.
  const games: [number, number, number][] = [
    [0, 0, 2],
    [0, 1, 1],
    [0, 2, 0],
    [1, 1, 0],
    [2, 0, 0],
  ];
  pairs.forEach((n, k) => {
    s.wins += n * games[k][0];
    s.draws += n * games[k][1];
    s.losses += n * games[k][2];
  });
  return s;
}

test('gauntletSummary: every match, and the candidate against the baseline per opponent', () => {
  const results: GauntletResult[] = [
    { candidate: 'old', opponent: 'hce', stats: stats([5, 10, 40, 25, 20]) },
    { candidate: 'new', opponent: 'hce', stats: stats([5, 10, 30, 30, 25]) },
    { candidate: 'old', opponent: 'fairy', stats: stats([0, 10, 40, 30, 20]) },
    { candidate: 'new', opponent: 'fairy', stats: stats([0, 10, 40, 30, 20]) },
  ];
  const lines = gauntletSummary(results, ['new', 'old']);
  assert.equal(lines.length, 2 + 4 + 1 + 3);
  assert.match(lines[3], /^\| new \| hce \| 200 \| 80-20-100 \| \+\d+\.\d \+\/- \d+\.\d \| .* \| 0\/0 \|$/);
  const hce = /new - old against hce: \+(\d+\.\d) \+\/- (\d+\.\d)/.exec(lines[7]);
  assert.ok(hce, lines[7]);
  assert.ok(Number(hce[1]) > 10 && Number(hce[2]) > 30, lines[7]);
  // The same results against fairy: no difference; the average halves the hce difference.
  assert.match(lines[8], /new - old against fairy: \+0\.0 \+\/- /);
  const avg = /on average over 2 opponents: \+(\d+\.\d)/.exec(lines[9]);
  assert.ok(avg, lines[9]);
  assert.ok(Math.abs(Number(avg[1]) - Number(hce[1]) / 2) < 0.11, lines[9]);
  // One candidate: the table only.
  assert.equal(gauntletSummary(results.slice(0, 1), ['old']).length, 3);
});
