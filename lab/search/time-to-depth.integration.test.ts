import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { test } from 'node:test';
import { repoPath, repoRoot } from '../../toolkit/files.js';
import { formatSummary, parseIterations, summarise, type Iteration, type Summary } from './time-to-depth.js';

test('parseIterations keeps the last line with a pv of each depth, in depth order', () => {
  const its = parseIterations([
    'info string NNUE evaluation using kirin.knet',
    'info depth 1 seldepth 1 multipv 1 score cp 20 nodes 30 nps 3000 hashfull 0 tbhits 0 time 10 pv h2e2',
    'info depth 2 seldepth 3 multipv 1 score cp 25 lowerbound nodes 80 nps 4000 hashfull 0 tbhits 0 time 20 pv h2e2',
    'info depth 2 currmove h2e2 currmovenumber 1',
    'info depth 2 seldepth 3 multipv 1 score cp 22 nodes 95 nps 4000 hashfull 0 tbhits 0 time 24 pv h2e2 h9g7',
    'info depth 3 seldepth 5 multipv 1 score cp 18 nodes 300 nps 5000 hashfull 0 tbhits 0 time 61 pv b2e2',
    'bestmove b2e2',
  ]);
  assert.deepEqual(its, [
    { depth: 1, timeMs: 10, nodes: 30 },
    { depth: 2, timeMs: 24, nodes: 95 },
    { depth: 3, timeMs: 61, nodes: 300 },
  ]);
  assert.deepEqual(parseIterations(['info depth 4 currmove a0a1 currmovenumber 1', 'info string x']), []);
});

const it = (depth: number, timeMs: number, nodes: number): Iteration => ({ depth, timeMs, nodes });

test('summarise sums time per depth, totals nodes, and tells equal search trees from different ones', () => {
  const a = [
    { iterations: [it(1, 10, 100), it(2, 40, 400)], stable: true },
    { iterations: [it(1, 20, 200), it(2, 60, 900)], stable: true },
  ];
  const b = [
    { iterations: [it(1, 5, 100), it(2, 20, 400)], stable: true },
    { iterations: [it(1, 10, 200), it(2, 30, 900)], stable: false },
  ];
  const c = [
    { iterations: [it(1, 10, 100), it(2, 40, 401)], stable: true },
    { iterations: [it(1, 20, 200), it(2, 60, 900)], stable: true },
  ];
  const s: Summary = summarise(['a', 'b', 'c'], 2, [a, b, c]);
  assert.deepEqual(s.perDepth, [
    [30, 15, 30],
    [100, 50, 100],
  ]);
  assert.deepEqual(s.nodes, [1300, 1300, 1301]);
  assert.deepEqual(s.timeMs, [100, 50, 100]);
  assert.deepEqual(s.nps, [13000, 26000, 13010]);
  assert.ok(Math.abs(s.geoMeanRatio[1] - 0.5) < 1e-12);
  assert.deepEqual(s.differentTrees, [0, 0, 1]);
  assert.deepEqual(s.unstable, [0, 1, 0]);
  const text = formatSummary(s);
  assert.match(text, /engine 2: nodes 1300, time to depth 2 50 ms, 26000 nodes\/s, time ratio to #1 0\.500/);
  assert.match(text, /same search trees as #1, rounds disagreed in 1 positions/);
  assert.match(text, /search trees differ from #1 in 1 positions/);
});

test('time-to-depth runs two Kirin processes over bench positions and finds the same trees', async () => {
  const out = await new Promise<string>((done, fail) =>
    execFile(
      process.execPath,
      [
        repoPath('dist', 'lab', 'search', 'time-to-depth.js'),
        '--engine',
        'node bin/kirin.js',
        '--engine',
        'node bin/kirin.js',
        '--depth',
        '5',
        '--positions',
        '3',
        '--json',
      ],
      { cwd: repoRoot(), timeout: 120000 },
      (e, stdout, stderr) => (e ? fail(new Error(`${e.message}\n${stderr}`)) : done(stdout)),
    ),
  );
  const s = JSON.parse(out) as Summary;
  assert.equal(s.depth, 5);
  assert.equal(s.perDepth.length, 5);
  assert.ok(s.nodes[0] > 0);
  assert.equal(s.nodes[0], s.nodes[1]);
  assert.deepEqual(s.differentTrees, [0, 0]);
  assert.deepEqual(s.unstable, [0, 0]);
});

test('time-to-depth says what is wrong with its command line', async () => {
  const run = (args: string[]): Promise<{ code: number; stderr: string }> =>
    new Promise((done) =>
      execFile(process.execPath, [repoPath('dist', 'lab', 'search', 'time-to-depth.js'), ...args], (e, _o, stderr) =>
        done({ code: e ? Number(e.code) : 0, stderr }),
      ),
    );
  const none = await run([]);
  assert.equal(none.code, 2);
  assert.match(none.stderr, /--engine is needed/);
  const bad = await run(['--engine', 'node bin/kirin.js', '--option', 'Hash']);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /--option needs NAME=VALUE, got 'Hash'/);
  const depth = await run(['--engine', 'node bin/kirin.js', '--depth', '0']);
  assert.equal(depth.code, 2);
  assert.match(depth.stderr, /--depth 0: below 1/);
});
