// End-to-end protocol tests: the real `kirin` binary in a child process.

import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Engine } from '../engine/engine.js';
import { Uci } from './uci.js';
import { repoRoot } from '../../toolkit/files.js';
import {
  ANSWER_DEADLINE_MS,
  EngineProcess,
  killEngineProcesses,
  trackProcess,
} from '../../test/support/engine-process.js';

after(killEngineProcesses);

test('uci handshake lists the options and uciok; isready answers', async () => {
  const e = new EngineProcess();
  e.send('uci');
  await e.waitFor(/^uciok$/);
  assert.match(e.lines[0], /^id name Kirin /);
  const opts = e.lines.filter((l) => l.startsWith('option name '));
  for (const name of [
    'Hash',
    'Clear Hash',
    'Ponder',
    'MultiPV',
    'Move Overhead',
    'nodestime',
    'UCI_ShowWDL',
    'LU_Output',
    'ScoreType',
    'Rule60MaxPly',
    'Repetition Rule',
    'DrawRule',
    'Mate Threat Depth',
  ]) {
    assert.ok(
      opts.some((l) => l.startsWith(`option name ${name} type `)),
      `option ${name} listed`,
    );
  }
  e.send('isready');
  await e.waitFor(/^readyok$/);
  assert.equal(await e.quit(), 0);
});

test('go depth gives info lines and a legal bestmove with ponder', async () => {
  const e = new EngineProcess();
  e.send('position startpos moves h2e2 h9g7');
  e.send('go depth 6');
  const i = await e.waitFor(/^bestmove /);
  assert.match(e.lines[i], /^bestmove [a-i][0-9][a-i][0-9]( ponder [a-i][0-9][a-i][0-9])?$/);
  const infos = e.lines.filter((l) => l.startsWith('info depth'));
  assert.ok(infos.length >= 6, 'an info line per iteration');
  assert.match(
    infos.at(-1)!,
    /^info depth 6 seldepth \d+ multipv 1 score (cp -?\d+|mate -?\d+)( lowerbound| upperbound)? nodes \d+ nps \d+ hashfull \d+ tbhits 0 time \d+ pv( [a-i]\d[a-i]\d)+$/,
  );
  assert.equal(await e.quit(), 0);
});

test('isready is answered during an infinite search, which runs on until stop', async () => {
  const e = new EngineProcess();
  e.send('go infinite');
  await e.waitFor(/^info depth 3 /);
  const n = e.lines.length;
  e.send('isready');
  // The protocol thread never waits for the search: an infinite search ends only at a stop,
  // so a loop blocked by the search would never answer and this wait would fail.
  await e.waitFor(/^readyok$/, { from: n });
  assert.ok(!e.lines.slice(n).some((l) => l.startsWith('bestmove')), 'infinite search keeps running after isready');
  e.send('stop');
  const b = await e.waitFor(/^bestmove [a-i]\d[a-i]\d/, { from: n });
  assert.ok(b > e.lines.indexOf('readyok', n), 'readyok came before the bestmove');
  assert.equal(await e.quit(), 0);
  assert.equal(e.count(/^bestmove /), 1);
});

test('bad input gets clear errors and never kills the engine or loses the position', async () => {
  const e = new EngineProcess();
  e.send('position startpos moves h2e2');
  e.send('position fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABN w - - 0 1');
  e.send('position startpos moves h2e2 h9g7 a0a5');
  e.send('position fen rnbakabnr/9/1c5c1/p1p1p1x1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1');
  e.send('position banana');
  e.send('frobnicate now');
  e.send('setoption name Hash value 0');
  e.send('setoption name NoSuchOption value 3');
  e.send('setoption name MultiPV value many');
  e.send('go depth x movetime 300');
  e.send('go movetime 300');
  await e.waitFor(/^bestmove /);
  e.send('d');
  await e.waitFor(/^Judgement: /);
  const text = e.lines.join('\n');
  assert.match(text, /info string ERROR: .*rank 0 .*has 8 files, expected 9.*position unchanged/);
  assert.match(text, /info string ERROR: move 3 of the list: 'a0a5' is not a legal move/);
  assert.match(text, /info string ERROR: .*unknown piece letter 'x'/);
  assert.match(text, /info string ERROR: position must be followed by 'startpos' or 'fen/);
  assert.match(text, /Unknown command: 'frobnicate now'/);
  assert.match(text, /info string ERROR: Hash value 0 is out of range 1\.\.\d+; keeping 16/);
  assert.match(text, /info string ERROR: No such option: NoSuchOption/);
  assert.match(text, /info string ERROR: MultiPV must be an integer/);
  assert.match(text, /info string ERROR: 'go depth' needs an integer value, got 'x'; no search/);
  assert.equal(e.count(/^bestmove /), 1, 'the refused go searched nothing');
  // The position set before the bad commands is still there.
  assert.match(text, /Fen: rnbakabnr\/9\/1c5c1\/p1p1p1p1p\/9\/9\/P1P1P1P1P\/1C2C4\/9\/RNBAKABNR b - - 1 1/);
  assert.equal(await e.quit(), 0);
});

test('d shows board, fen, key, checkers and the judgement line', async () => {
  const e = new EngineProcess();
  e.send('position fen 4k4/9/9/9/9/9/9/9/4R4/3K5 b - - 0 1');
  e.send('d');
  await e.waitFor(/^Judgement: /);
  const text = e.lines.join('\n');
  assert.match(text, /\| k \| +\| +\| +\| +\| 9/);
  assert.match(text, /Fen: 4k4\/9\/9\/9\/9\/9\/9\/9\/4R4\/3K5 b - - 0 1/);
  assert.match(text, /Key: [0-9A-F]{16}/);
  assert.match(text, /Checkers: e1/);
  assert.match(text, /Judgement: none/);
  // compiler names the evaluation that plays: the embedded network, then the classical one.
  e.send('compiler');
  await e.waitFor(/^Evaluation +: NNUE kirin\.knet/);
  e.send('setoption name Use NNUE value false');
  e.send('compiler');
  await e.waitFor(/^Evaluation +: classical$/);
  assert.equal(await e.quit(), 0);
});

test('go perft prints the divide and the total', async () => {
  const e = new EngineProcess();
  e.send('go perft 3');
  const i = await e.waitFor(/^Nodes searched: /);
  assert.equal(e.lines[i], 'Nodes searched: 79666');
  const divide = e.lines.filter((l) => /^[a-i]\d[a-i]\d: \d+$/.test(l));
  assert.equal(divide.length, 44);
  assert.equal(
    divide.reduce((s, l) => s + Number(l.split(': ')[1]), 0),
    79666,
  );
  assert.equal(await e.quit(), 0);
});

test('end of input exits cleanly, even during a search', async () => {
  const e = new EngineProcess();
  e.send('go infinite');
  await e.waitFor(/^info depth 2 /);
  e.proc.stdin.end();
  assert.equal(await e.exited, 0);
  assert.ok(e.lines.some((l) => l.startsWith('bestmove ')));
});

test('bench node count is identical run to run', async () => {
  const run = async () => {
    const e = new EngineProcess(['bench', '16', '1', '5']);
    assert.equal(await e.exited, 0);
    const m = /Nodes searched\s*: (\d+)/.exec(e.stderr);
    assert.ok(m, e.stderr);
    assert.match(e.stderr, /Position: 49\/49/);
    assert.match(e.stderr, /Nodes\/second\s*: \d+/);
    return Number(m[1]);
  };
  const a = await run();
  const b = await run();
  assert.ok(a > 0);
  assert.equal(a, b);
});

// Issue 8: a stop sent right after a go, behind a command that got an error, was lost
// and the engine searched until quit.
for (const middle of [
  'setoption name NoSuchOption value 1',
  'thisisnotacommand',
  'position startpos moves a0a5',
  'ucinewgame',
]) {
  test(`stop right after go is not lost behind '${middle}'`, async () => {
    const e = new EngineProcess();
    e.sendAll(['uci', 'isready', middle, 'go depth 30', 'stop', 'isready']);
    // No further input: the stop alone must end the search.
    const i = await e.waitFor(/^bestmove [a-i]\d[a-i]\d/);
    await e.waitFor(/^readyok$/, { from: (await e.waitFor(/^readyok$/)) + 1 });
    // A search still running (a second bestmove to come) would answer quit with its bestmove.
    assert.equal(await e.quit(), 0);
    assert.equal(e.count(/^readyok$/), 2);
    assert.equal(e.count(/^bestmove /), 1, e.lines.slice(i).join('\n'));
  });
}

test('stop before go is ignored; the go after it searches until its own stop', async () => {
  const e = new EngineProcess();
  e.sendAll(['stop', 'go infinite', 'isready']);
  await e.waitFor(/^readyok$/);
  await e.waitFor(/^info depth 2 /);
  assert.equal(e.count(/^bestmove /), 0, 'the earlier stop did not reach the later go');
  e.sendAll(['stop', 'isready']);
  await e.waitFor(/^bestmove /);
  assert.equal(await e.quit(), 0);
  assert.equal(e.count(/^bestmove /), 1);
});

// Pikafish prints the final PV line before every bestmove, also when the stop came before the
// search began (its first iteration not reached): then the first root move, depth 1, score 0.
test('a go stopped at once still ends with an info line whose PV starts with the bestmove', async () => {
  const e = new EngineProcess();
  // A fresh process: these reach the search thread while it warms up, so the stop is there first.
  e.sendAll(['go ponder', 'ponderhit', 'stop', 'go', 'stop', 'go infinite searchmoves b0c2 h0g2', 'stop']);
  let b = -1;
  for (let k = 0; k < 3; k++) {
    const from = b + 1;
    b = await e.waitFor(/^bestmove /, { from });
    const move = e.lines[b].split(' ')[1];
    const infos = e.lines.slice(from, b).filter((l) => l.startsWith('info depth '));
    assert.ok(infos.length > 0, `no info line before ${e.lines[b]}`);
    assert.match(infos.at(-1)!, new RegExp(` pv ${move}( |$)`), e.lines.slice(from, b + 1).join('\n'));
    if (k === 2) assert.ok(['b0c2', 'h0g2'].includes(move), move);
  }
  assert.equal(await e.quit(), 0);
  assert.equal(e.count(/^bestmove /), 3);
});

test('go while a search runs: both end in one bestmove each, a stop ends both', async () => {
  const e = new EngineProcess();
  e.sendAll(['go infinite', 'go infinite', 'isready']);
  await e.waitFor(/^readyok$/);
  e.send('stop');
  await e.waitFor(/^bestmove /);
  const first = e.lines.findIndex((l) => l.startsWith('bestmove '));
  await e.waitFor(/^bestmove /, { from: first + 1 });
  assert.equal(await e.quit(), 0);
  assert.equal(e.count(/^bestmove /), 2);
});

test('quit during searches (one waiting) ends them with a bestmove each and exits', async () => {
  const e = new EngineProcess();
  e.sendAll(['go infinite', 'go depth 200', 'quit']);
  assert.equal(await e.exited, 0);
  assert.equal(e.count(/^bestmove /), 2);
});

test('setoption and isready during a search are answered without waiting for it', async () => {
  const e = new EngineProcess();
  e.sendAll(['go infinite', 'setoption name MultiPV value 2', 'setoption name Hash value 8', 'isready']);
  await e.waitFor(/^readyok$/);
  assert.equal(e.count(/^bestmove /), 0);
  e.sendAll(['stop', 'go depth 3']);
  await e.waitFor(/^bestmove /);
  const b = e.lines.findIndex((l) => l.startsWith('bestmove '));
  await e.waitFor(/^bestmove /, { from: b + 1 });
  // The second search uses the new MultiPV.
  assert.ok(e.lines.slice(b).some((l) => / multipv 2 /.test(l)));
  assert.equal(await e.quit(), 0);
});

// A malformed go is refused: an error naming the bad token, no search, no bestmove.
const REFUSED: Array<[string, RegExp]> = [
  ['go depth banana', /'go depth' needs an integer value, got 'banana'; no search/],
  ['go movetime -5', /'go movetime -5' is out of range: the least value is 1; no search/],
  ['go depth 0', /'go depth 0' is out of range: the least value is 1; no search/],
  ['go nodes 1e99', /'go nodes' needs an integer value, got '1e99'; no search/],
  ['go nodes', /'go nodes' needs an integer value; no search/],
  ['go wtime 1000 banana', /unknown 'go' parameter 'banana'; no search/],
  ['go searchmoves', /'go searchmoves' needs at least one move; no search/],
  ['go searchmoves h2e2 a0a5', /go searchmoves: 'a0a5' is not a legal move; no search/],
  ['go infinite depth -1', /'go depth -1' is out of range/],
];
test('malformed go commands are refused without a search', async () => {
  const e = new EngineProcess();
  for (const [cmd] of REFUSED) e.send(cmd);
  // A refused go must not have started a search: this one would wait behind it forever.
  e.sendAll(['isready', 'go depth 1']);
  await e.waitFor(/^bestmove /);
  await e.waitFor(/^readyok$/);
  const errors = e.lines.filter((l) => l.startsWith('info string ERROR: '));
  assert.equal(errors.length, REFUSED.length, errors.join('\n'));
  REFUSED.forEach(([cmd, re], k) => assert.match(errors[k], re, cmd));
  assert.equal(e.count(/^bestmove /), 1);
  assert.equal(await e.quit(), 0);
});

test('huge go values are clamped with a note; the search is bounded', async () => {
  const e = new EngineProcess();
  e.sendAll(['go depth 99999 nodes 3000', 'isready']);
  await e.waitFor(/^bestmove /);
  assert.ok(e.lines.some((l) => l === 'info string go depth 99999 is above the maximum 245; using 245'));
  // A clock at or below zero, or none for the side to move: the engine moves at once.
  e.sendAll(['position startpos', 'go wtime -100 btime 5000', 'go btime 5000']);
  let b = -1;
  for (let k = 0; k < 3; k++) b = await e.waitFor(/^bestmove /, { from: b + 1 });
  assert.ok(e.lines.some((l) => l === 'info string go: no wtime for the side to move; moving at once'));
  assert.equal(await e.quit(), 0);
  assert.equal(e.count(/^bestmove /), 3);
});

test('every ordering of go/stop/isready/position/setoption/ucinewgame/unknown keeps one bestmove per go, with 1-3 search threads (lab/protocol/uci-stress.ts)', async () => {
  const { execFile } = await import('node:child_process');
  const script = join(repoRoot(), 'dist', 'lab', 'protocol', 'uci-stress.js');
  const out = await new Promise<string>((resolve, reject) => {
    const p = execFile(
      process.execPath,
      // The setoption lines change Threads (1-3) and Hash meanwhile, so many searches run with several threads.
      // A generous --hang-ms: a lost stop never answers; a loaded machine only answers late.
      [
        script,
        '--rounds',
        '1',
        '--random',
        '300',
        '--sessions',
        '6',
        '--hang-ms',
        String(ANSWER_DEADLINE_MS),
        '--json',
      ],
      { maxBuffer: 1 << 24 },
      (error, stdout, stderr) =>
        error ? reject(new Error(`${error.message}\n${stdout}\n${stderr}`)) : resolve(stdout),
    );
    trackProcess(p);
  });
  const summary = JSON.parse(out) as { sequences: number; sequencesPassed: number; gos: number; failures: unknown[] };
  assert.deepEqual(summary.failures, []);
  assert.equal(summary.sequences, 5040 + 300);
  assert.equal(summary.sequencesPassed, summary.sequences);
  assert.ok(summary.gos >= 5040);
});

test('setoption with a control character inside is refused whole: no Debug Log File is written', async () => {
  // A front end fed by something other than a line reader (runUci behind a stream) can see a CR inside a line.
  const dir = mkdtempSync(join(tmpdir(), 'kirin-uci-setoption-'));
  const engine = new Engine();
  const out: string[] = [];
  const uci = new Uci(engine, (l) => out.push(l));
  try {
    const trap = join(dir, 'trap.log');
    for (const [line, error] of [
      [`setoption name Hash value 16\rsetoption name Debug Log File value ${trap}`, 'setoption value: CR at offset 2'],
      [`setoption name Debug Log File value ${trap}\rx`, `setoption value: CR at offset ${trap.length}`],
      [`setoption name Debug Log File value ${trap}\u0000`, `setoption value: NUL at offset ${trap.length}`],
      [`setoption name Debug\u0085Log File value ${trap}`, 'setoption name: NEL at offset 5'],
    ]) {
      out.length = 0;
      assert.equal(await uci.command(line), true);
      assert.deepEqual(out, [
        `info string ERROR: ${error} (control characters are not allowed in text sent to an engine; nothing was sent)`,
      ]);
    }
    assert.ok(!existsSync(trap), 'no log file');
    assert.equal(engine.options.getNumber('Hash'), 16);
    // The control: the same option, asked plainly (a CRLF line's CR at the end is whitespace), writes the file.
    const plain = join(dir, 'plain.log');
    await uci.command(`setoption name Debug Log File value ${plain}\r`);
    await uci.command('isready');
    assert.ok(existsSync(plain));
  } finally {
    await engine.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
