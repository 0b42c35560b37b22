import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { repoPath } from '../../toolkit/files.js';
import { parseMatchArgs } from './args.js';
import { runMatchCli } from './cli.js';
import { fakeEngineCommand, fakeMatchConfig } from '../../test/support/fake-config.js';
import { addGame, emptyStats, runMatch } from './match.js';
import { parseOpenings, scheduleGames } from './openings.js';
import { UciEngine } from './uci-engine.js';
import type { GameRecord } from './game.js';
import { unwrap } from '../../test/support/fixtures.js';

test('parseMatchArgs: engines, options, time controls, SPRT', () => {
  const a = unwrap(
    parseMatchArgs([
      '--engine',
      'node a.js',
      '--engine',
      'node b.js',
      '--tc',
      '10+0.1',
      '--games',
      '200',
      '--concurrency',
      '2',
      '--openings',
      'o.txt',
      '--sprt',
      'elo0=0',
      'elo1=10',
      'alpha=0.05',
      'beta=0.05',
      '--option',
      'Hash=16',
      '--engine-option',
      '1:Hash=64',
      '--engine-option',
      '2:Threads=1',
      '--name',
      '2:Other',
      '--engine-tc',
      '2:5+0.05',
      '--log',
      'g.log',
    ]),
  );
  assert.equal(a.engines.length, 2);
  assert.equal(a.engines[0].command, 'node a.js');
  assert.deepEqual(a.engines[0].options, [['Hash', '64']]);
  assert.deepEqual(a.engines[1].options, [
    ['Hash', '16'],
    ['Threads', '1'],
  ]);
  assert.equal(a.engines[1].name, 'Other');
  assert.equal(a.tc[0].baseMs, 10000);
  assert.equal(a.tc[1].baseMs, 5000);
  assert.equal(a.tc[1].incMs, 50);
  assert.deepEqual(a.sprt, { elo0: 0, elo1: 10, alpha: 0.05, beta: 0.05 });
  assert.equal(a.games, 200);
  assert.equal(a.concurrency, 2);
  assert.equal(a.logFile, 'g.log');
  const b = unwrap(
    parseMatchArgs([
      '--engine',
      'x',
      '--engine',
      'y',
      '--nodes',
      '1000',
      '--repetition-rule',
      'computerrule',
      '--rule60',
      '0',
      '--resign',
      'movecount=3',
      'score=800',
      '--draw',
      'movenumber=30',
      'movecount=6',
      'score=10',
      '--sprt-model',
      'trinomial',
      '--debug',
    ]),
  );
  assert.equal(b.debug, true);
  assert.equal(b.tc[0].nodes, 1000);
  assert.equal(b.rules.repetitionRule, 'ComputerRule');
  assert.equal(b.rules.rule60MaxPly, 0);
  assert.equal(b.rules.mateThreatDepth, 4, 'the rule book referee judges mate threats within 4 moves');
  const c = unwrap(parseMatchArgs(['--engine', 'x', '--engine', 'y', '--tc', '1', '--mate-threat-depth', '2']));
  assert.equal(c.rules.mateThreatDepth, 2);
  assert.deepEqual(b.adjudication, {
    resignMoves: 3,
    resignScore: 800,
    drawMoveNumber: 30,
    drawMoves: 6,
    drawScore: 10,
  });
  assert.equal(b.sprtModel, 'trinomial');
  const refused = (argv: string[], message: RegExp): void => {
    const r = parseMatchArgs(argv);
    assert.ok(!r.ok && r.error.code === 'arguments', argv.join(' '));
    assert.match(r.error.message, message);
  };
  refused(['--engine', 'x', '--tc', '1+0'], /two --engine/);
  refused(['--engine', 'x', '--engine', 'y'], /time control/);
  refused(['--engine', 'x', '--engine', 'y', '--tc', 'soon'], /bad time control/);
  refused(['--engine', 'x', '--engine', 'y', '--tc', '1', '--bogus'], /Unknown option '--bogus'/);
  refused(['--engine', 'x', '--engine', 'y', '--tc', '1', '--games'], /'--games <value>' argument missing/);
  refused(['--engine', 'x', '--engine', 'y', '--tc', '1', '--games', 'many'], /--games many: not an integer/);
  refused(['--engine', 'x', '--engine', 'y', '--tc', '1', 'stray'], /unexpected argument 'stray'/);
  refused(['--engine', 'x', '--engine', 'y', '--tc', '1', '--sprt', 'elo0=5', 'elo1=1'], /elo1 > elo0/);
  refused(['--engine', 'x', '--engine', 'y', '--tc', '1', '--repetition-rule', 'Nope'], /repetition rule/);
  refused(
    ['--engine', 'x', '--engine', 'y', '--tc', '1', '--mate-threat-depth', '11'],
    /--mate-threat-depth 11: above 10/,
  );
  // --debug takes an optional file; --help wins wherever it stands.
  const dbg = parseMatchArgs(['--engine', 'x', '--engine', 'y', '--tc', '1', '--debug', 'e.log']);
  assert.equal(dbg.ok && dbg.value.debug, 'e.log');
  const help = parseMatchArgs(['--engine', 'x', '--bogus', '--help']);
  assert.ok(!help.ok && help.error.code === 'help');
});

test('runMatchCli: bad arguments give exit code 2', async () => {
  const write = process.stderr.write;
  let err = '';
  process.stderr.write = ((s: string) => {
    err += s;
    return true;
  }) as typeof process.stderr.write;
  try {
    assert.equal(await runMatchCli(['--engine', 'only-one']), 2);
  } finally {
    process.stderr.write = write;
  }
  assert.match(err, /Usage: kirin match/);
});

test('a line break in an engine option or an opening reaches no engine: kirin match and runMatch refuse it', async () => {
  // Kirin writes its whole UCI traffic to a `Debug Log File`: an injected `setoption` would leave the file behind.
  const dir = mkdtempSync(join(tmpdir(), 'kirin-match-inject-'));
  const kirin = `"${process.execPath}" "${repoPath('bin', 'kirin.js')}"`;
  const write = process.stderr.write;
  let err = '';
  process.stderr.write = ((s: string) => {
    err += s;
    return true;
  }) as typeof process.stderr.write;
  try {
    const trap = join(dir, 'trap.log');
    const inject = `16\nsetoption name Debug Log File value ${trap}`;
    const engines = ['--engine', kirin, '--engine', kirin, '--nodes', '50', '--games', '2'];
    assert.equal(await runMatchCli([...engines, '--engine-option', `1:Hash=${inject}`]), 2);
    assert.match(err, /kirin match: engine 1: option "Hash" value: LF at offset 2 \(control characters/);
    assert.equal(await runMatchCli([...engines, '--option', `Hash=${inject}`]), 2);
    assert.equal(
      await runMatchCli([...engines, '--option', `Hash\r\nsetoption name Debug Log File value ${trap}=1`]),
      2,
    );
    assert.match(err, /option name: CR at offset 4/);
    // The runner itself (a spec that did not come through the command line): refused before any engine starts.
    const optioned = await runMatch({
      ...fakeMatchConfig('', ''),
      engines: [
        { command: kirin, options: [['Hash', inject]] },
        { command: kirin, options: [] },
      ],
    });
    assert.match(optioned.error ?? '', /^engine 1: option "Hash" value: LF at offset 2/);
    assert.equal(optioned.stats.finished.length, 0);
    // An opening whose FEN carries a command (the FEN reader stops at the side to move and reads on).
    const fen = 'rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w';
    const opened = await runMatch({
      ...fakeMatchConfig('', ''),
      engines: [
        { command: kirin, options: [] },
        { command: kirin, options: [] },
      ],
      games: 2,
      openings: [{ fen: `${fen}\nsetoption name Debug Log File value ${trap}`, moves: [], name: 'trap', line: 1 }],
    });
    assert.match(opened.error ?? '', /^opening "trap": FEN: LF at offset \d+/);
    assert.equal(opened.stats.finished.length, 0);
    assert.ok(!existsSync(trap), 'no engine was told to write the file');
  } finally {
    process.stderr.write = write;
    rmSync(dir, { recursive: true, force: true });
  }
});

test('pair statistics: pentanomial counts from both games of a pair', () => {
  const set = unwrap(parseOpenings('h2e2\nc3c4\n'));
  const games = scheduleGames(set, 4);
  const rec = (result: GameRecord['result']): GameRecord => ({
    result,
    reason: '',
    termination: 'rules',
    forfeit: null,
    moves: [],
    thinking: [],
    redName: 'a',
    blackName: 'b',
    durationMs: 0,
    finalFen: '',
  });
  const st = emptyStats();
  // Pair 0: engine 0 wins as red, draws as black -> 1.5 points. Pair 1: loses both -> 0.
  addGame(st, { game: games[0], record: rec('red'), score: 1 });
  assert.deepEqual(st.pairs, [0, 0, 0, 0, 0]);
  addGame(st, { game: games[1], record: rec('draw'), score: 0.5 });
  addGame(st, { game: games[3], record: rec('red'), score: 0 });
  addGame(st, { game: games[2], record: rec('black'), score: 0 });
  assert.deepEqual(st.pairs, [1, 0, 0, 1, 0]);
  assert.deepEqual([st.wins, st.draws, st.losses], [1, 1, 2]);
});

test('a small match: colors alternate per opening, W/D/L add up, one log line per game', async () => {
  const lines: string[] = [];
  const printed: string[] = [];
  const openings = unwrap(parseOpenings('h2e2 h9g7 # one\nc3c4 g6g5 # two\ng0e2 # three\n'));
  const out = await runMatch(
    fakeMatchConfig('--name A --mode mate', '--name B --mode random --seed 9', {
      games: 6,
      concurrency: 2,
      openings,
      gameLog: (l) => lines.push(l),
      print: (l) => printed.push(l),
    }),
  );
  assert.equal(out.error, null);
  assert.deepEqual(out.names, ['A', 'B']);
  const st = out.stats;
  assert.equal(st.wins + st.draws + st.losses, 6);
  assert.equal(
    st.pairs.reduce((x, y) => x + y, 0),
    3,
  );
  assert.equal(st.finished.length, 6);
  for (const f of st.finished) {
    assert.equal(f.record.redName, f.game.redEngine === 0 ? 'A' : 'B');
    assert.equal(f.game.opening, openings[f.game.pair % 3]);
  }
  assert.equal(lines.length, 6);
  for (const l of lines)
    assert.match(
      l,
      /^game \d \| (A vs B|B vs A) \| (1-0|0-1|1\/2-1\/2) \| [^|]+ \| opening [^|]+ \| moves [a-i0-9 ]* \| thinking( \d+\/\d+\/(\d+|-))* \| end (rules|adjudication|maxplies)$/,
    );
  assert.ok(printed.some((l) => /^Finished game 6 /.test(l)));
  assert.equal(out.stoppedEarly, false);
});

test('SPRT stops the match as soon as it decides', async () => {
  const printed: string[] = [];
  const out = await runMatch(
    fakeMatchConfig('--name Good --mode mate', '--name Bad --mode illegal', {
      games: 200,
      concurrency: 1,
      sprt: { elo0: 0, elo1: 100, alpha: 0.05, beta: 0.05 },
      sprtModel: 'trinomial',
      print: (l) => printed.push(l),
    }),
  );
  assert.equal(out.sprt?.decision, 'H1');
  assert.ok(out.stoppedEarly);
  // log(s(100)/s(0)) = 0.247 per win: 12 wins cross log(19) = 2.944.
  assert.equal(out.stats.wins, 12);
  assert.equal(out.stats.forfeits[1], 12);
  assert.ok(printed.some((l) => l === 'SPRT: H1 was accepted'));
});

test('a crashing engine forfeits every game and is restarted each time', async () => {
  const printed: string[] = [];
  const out = await runMatch(
    fakeMatchConfig('--name Stable', '--name Crashy --crash-at 1', { games: 4, print: (l) => printed.push(l) }),
  );
  assert.equal(out.error, null);
  assert.deepEqual([out.stats.wins, out.stats.draws, out.stats.losses], [4, 0, 0]);
  assert.deepEqual(out.stats.forfeits, [0, 4]);
  assert.equal(out.stats.terminations.crash, 4);
  assert.equal(printed.filter((l) => l.startsWith('Restarting Crashy')).length, 3);
});

test('an engine that cannot start stops the match before any game', async () => {
  const out = await runMatch({
    ...fakeMatchConfig('', ''),
    engines: [
      { command: fakeEngineCommand(''), options: [] },
      { command: '/nonexistent/engine', options: [] },
    ],
  });
  assert.ok(out.error);
  assert.equal(out.stats.finished.length, 0);
});

test('engines run in their own process group: a Ctrl-C (SIGINT to the match group) does not reach them', async () => {
  const e = new UciEngine({ command: fakeEngineCommand(''), options: [] });
  unwrap(await e.start(10000));
  try {
    const pid = e.pid;
    assert.ok(pid !== null && pid > 0);
    // A group with the engine's pid as its id exists only when the engine leads its own group.
    assert.doesNotThrow(() => process.kill(-pid, 0));
    assert.notEqual(pid, process.pid);
  } finally {
    await e.quit();
  }
  assert.equal(e.pid, null);
});

test('quit ends an engine that ignores it: the process group (with a child holding its stderr) is killed', async () => {
  const e = new UciEngine({ command: fakeEngineCommand('--stubborn'), options: [] });
  unwrap(await e.start(10000));
  const pid = e.pid;
  assert.ok(pid !== null && pid > 0);
  const t0 = Date.now();
  await e.quit(300);
  assert.equal(e.alive, false, 'quit resolves only once the engine has ended');
  assert.ok(Date.now() - t0 < 5000);
  assert.match(e.deathMessage, /killed|SIGKILL/);
  // Nothing of the group is left: neither the engine nor the child that shared its stderr.
  let gone = false;
  for (let i = 0; i < 50 && !gone; i++) {
    try {
      process.kill(-pid, 0);
      await new Promise((r) => setTimeout(r, 100));
    } catch {
      gone = true;
    }
  }
  assert.ok(gone, `process group ${pid} still exists`);
});

test('quit of a well-behaved engine: alive is false as soon as quit resolves', async () => {
  for (let i = 0; i < 3; i++) {
    const e = new UciEngine({ command: fakeEngineCommand(''), options: [] });
    unwrap(await e.start(10000));
    await e.quit();
    assert.equal(e.alive, false);
    assert.match(e.deathMessage, /exited with code 0/);
  }
});
