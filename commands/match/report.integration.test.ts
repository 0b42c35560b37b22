import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { unwrap } from '../../test/support/fixtures.js';
import { runMatchCli } from './cli.js';
import { fakeMatchConfig } from '../../test/support/fake-config.js';
import { runMatch, summaryLines, type MatchStats } from './match.js';
import { parseOpenings } from './openings.js';
import { logStats, parseGameLog, parseReportArgs, reportLines } from './report.js';

const dir = mkdtempSync(join(tmpdir(), 'kirin-report-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** A match of fake engines (fake-engine.ts) and its game log. */
async function loggedMatch(a: string, b: string, games: number) {
  const lines: string[] = [];
  const config = fakeMatchConfig(a, b, {
    games,
    concurrency: 2,
    openings: unwrap(parseOpenings('h2e2 h9g7\nc3c4 g6g5\ng0e2\n')),
    maxPlies: 60,
    gameLog: (l) => lines.push(l),
  });
  const out = await runMatch(config);
  assert.equal(out.error, null);
  return { stats: out.stats, log: lines.join('\n') + '\n' };
}

const counts = (s: MatchStats) => ({
  wins: s.wins,
  draws: s.draws,
  losses: s.losses,
  pairs: s.pairs,
  forfeits: s.forfeits,
  terminations: s.terminations,
});

test("kirin match report: the statistics read back from game logs are the runner's own, in either engine order", async () => {
  // Random moves against random moves (wins, losses and draws by the 60-ply cap);
  // then the same engines the other way round, B crashing on its first move (forfeits).
  const m1 = await loggedMatch('--name A --mode random --seed 3', '--name B --mode random --seed 4', 10);
  const m2 = await loggedMatch('--name B --crash-at 1', '--name A --mode random --seed 5', 4);
  const g1 = unwrap(parseGameLog(m1.log, 'one.log'));
  const g2 = unwrap(parseGameLog(m2.log, 'two.log'));
  assert.equal(g1.length, 10);
  assert.deepEqual(counts(logStats([g1], 'A')), counts(m1.stats));
  assert.deepEqual(counts(logStats([g2], 'B')), counts(m2.stats));
  // Together, from A's side: m2's wins are A's losses, its pairs reversed, its forfeits swapped.
  const terminations: Record<string, number> = { ...m1.stats.terminations };
  for (const [k, v] of Object.entries(m2.stats.terminations)) terminations[k] = (terminations[k] ?? 0) + v;
  const all = logStats([g1, g2], 'A');
  assert.deepEqual(counts(all), {
    wins: m1.stats.wins + m2.stats.losses,
    draws: m1.stats.draws + m2.stats.draws,
    losses: m1.stats.losses + m2.stats.wins,
    pairs: m1.stats.pairs.map((p, i) => p + m2.stats.pairs[4 - i]),
    forfeits: [m1.stats.forfeits[0] + m2.stats.forfeits[1], m1.stats.forfeits[1] + m2.stats.forfeits[0]],
    terminations,
  });
  assert.equal(all.forfeits[1], 4);
  assert.equal(
    all.pairs.reduce((x, y) => x + y, 0),
    7,
  );

  // The report: each log, then all of them, the SPRT over all games only.
  const sprt = { elo0: 0, elo1: 10, alpha: 0.05, beta: 0.05 };
  const logs = [
    { name: 'one.log', games: g1 },
    { name: 'two.log', games: g2 },
  ];
  const lines = unwrap(reportLines(logs, null, sprt, 'pentanomial'));
  const text = lines.join('\n');
  assert.ok(lines.includes('one.log: 10 games'));
  assert.ok(lines.includes('two.log: 4 games'));
  assert.ok(lines.includes('All 2 logs: 14 games'));
  for (const l of summaryLines(['A', 'B'], all, sprt, 'pentanomial')) assert.ok(lines.includes(l), l);
  assert.equal(lines.filter((l) => l.startsWith('SPRT')).length, 1);
  assert.match(text, /^Endings: .*crash 4/m);
  // Each engine's thinking, from the thinking field the runner writes: one.log's 10 games have moves.
  assert.match(text, /^Thinking: A: [\d,]+ moves, [\d,]+ ms a move \(median [\d,]+, longest [\d,]+\), depth \d+\.\d$/m);
  assert.match(text, /^Thinking: B: [\d,]+ moves/m);
  // From B's side the same games read the other way.
  const fromB = unwrap(reportLines(logs, 'B', null, 'pentanomial'));
  assert.ok(
    fromB.includes(
      `Score of B vs A: ${all.losses} - ${all.wins} - ${all.draws}  [${((all.losses + all.draws / 2) / 14).toFixed(3)}] 14  (W - L - D)`,
    ),
  );

  // The command line, on files.
  writeFileSync(join(dir, 'one.log'), m1.log);
  writeFileSync(join(dir, 'two.log'), m2.log);
  assert.equal(await runMatchCli(['report', join(dir, 'one.log'), join(dir, 'two.log'), '--first', 'B']), 0);
});

test('kirin match report: logs it cannot use are refused with the file and line', () => {
  const line = (n: number, players: string, result = '1-0') =>
    `game ${n} | ${players} | ${result} | checkmate | opening h2e2 | moves h0g2 | end rules`;
  const bad = (text: string) => {
    const r = parseGameLog(text, 'x.log');
    assert.ok(!r.ok);
    return r.error.message;
  };
  assert.equal(bad(''), 'x.log: no games');
  assert.match(bad(`${line(1, 'A vs B')}\nhello\n`), /^x\.log:2: not a game-log line/);
  assert.match(bad(line(1, 'A vs B', '2-0')), /^x\.log:1: not a game-log line/);
  assert.match(bad('game 1 | A vs B | 1-0 | checkmate'), /^x\.log:1: not a game-log line/);
  assert.match(bad(`${line(1, 'A vs B')}\n${line(1, 'B vs A')}`), /^x\.log:2: game 1 is in the log twice/);
  const g = unwrap(parseGameLog(`${line(1, 'A vs B')}\n${line(2, 'B vs A', '0-1')}\n`, 'x.log'));
  assert.deepEqual(g[1], {
    game: 2,
    red: 'B',
    black: 'A',
    result: 'black',
    reason: 'checkmate',
    termination: 'rules',
    fen: null,
    moves: ['h2e2', 'h0g2'],
    thinking: null,
  });
  const c = unwrap(parseGameLog(line(3, 'A vs C'), 'y.log'));
  const other = reportLines(
    [
      { name: 'x.log', games: g },
      { name: 'y.log', games: c },
    ],
    null,
    null,
    'pentanomial',
  );
  assert.ok(!other.ok);
  assert.equal(other.error.message, 'y.log: game 3 is A vs C, not a game of A and B');
  const same = reportLines(
    [{ name: 's.log', games: unwrap(parseGameLog(line(1, 'K vs K'), 's.log')) }],
    null,
    null,
    'pentanomial',
  );
  assert.ok(!same.ok);
  assert.match(same.error.message, /^s\.log: both engines are named K, so the log cannot tell them apart/);
  const first = reportLines([{ name: 'x.log', games: g }], 'Z', null, 'pentanomial');
  assert.ok(!first.ok);
  assert.match(first.error.message, /--first Z: not an engine of x\.log/);
});

test('kirin match report: its command line', async () => {
  const a = unwrap(parseReportArgs(['a.log', 'b.log', '--sprt', 'elo0=0', 'elo1=5', '--sprt-model', 'trinomial']));
  assert.deepEqual(a.files, ['a.log', 'b.log']);
  assert.deepEqual(a.sprt, { elo0: 0, elo1: 5, alpha: 0.05, beta: 0.05 });
  assert.equal(a.sprtModel, 'trinomial');
  assert.equal(a.first, null);
  const refused = (argv: string[]) => {
    const r = parseReportArgs(argv);
    assert.ok(!r.ok);
    return r.error;
  };
  assert.equal(refused([]).code, 'arguments');
  assert.equal(refused(['--help']).code, 'help');
  assert.match(refused(['a.log', '--sprt-model', 'x']).message, /pentanomial or trinomial/);
  assert.match(refused(['a.log', '--sprt', 'elo9=1']).message, /bad SPRT parameter/);
  assert.equal(await runMatchCli(['report', '--sprt-model', 'x', 'a.log']), 2);
  assert.equal(await runMatchCli(['report', join(dir, 'none.log')]), 1);
});
