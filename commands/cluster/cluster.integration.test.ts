// `kirin cluster` for real: a redis-server of its own on a free port in a
// temporary folder (Debian's redis-server; .ci/run installs it), workers and
// coordinators as separate `kirin` processes, and the faults the cluster must
// survive: a worker killed in the middle of a job, a coordinator killed and
// resumed, Redis killed and restarted (append-only file), an engine build that
// crashes every time, and requests that must be refused before anything is
// queued. The totals are checked exactly; no timing is asserted (the waits are
// generous: a loaded machine is slow, a broken cluster never finishes).

import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { killEngineProcesses, type EngineProcess } from '../../test/support/engine-process.js';
import {
  DEADLINE,
  SKIP_WITHOUT_REDIS,
  attemptsMade,
  cli,
  client,
  exitCode,
  kirin,
  redisServer,
  stopAll,
  waitingJobs,
  worker,
} from '../../test/support/cluster.js';
import { Engine } from '../../src/engine/engine.js';
import { moveToUci } from '../../src/core/types.js';
import { legalMoves } from '../../src/core/movegen.js';
import { Position } from '../../src/core/position.js';
import { RECORD_SIZE, dedupKey, decodeRecord, recordPosition } from '../datagen/format.js';
import { forEachRecord } from '../datagen/records.js';
import { makeChainHeader } from '../datagen/chain-codec.js';
import { keys } from './redis.js';
import { generateShard } from './datagen.js';
import type { DatagenSpec } from './specs.js';
import { unwrap } from '../../test/support/fixtures.js';

after(killEngineProcesses);

const skip = SKIP_WITHOUT_REDIS;

test('bad requests are refused with a clear message before anything is queued', { skip }, async () => {
  const redis = await redisServer({ persist: false });
  const dir = mkdtempSync(join(tmpdir(), 'kirin-cluster-bad-'));
  const c = client(redis.url);
  try {
    const url = redis.url;
    const kirinEngine = ['--engine', 'node bin/kirin.js', '--engine', 'node bin/kirin.js', '--nodes', '100'];
    const refuse = async (args: string[], code: number, message: RegExp): Promise<void> => {
      const r = await cli(args);
      assert.equal(r.code, code, `${args.join(' ')}: ${r.err}`);
      assert.match(r.err, message, args.join(' '));
    };
    // Redis that cannot be reached: a port where nothing listens.
    const closed = await redisServer({ persist: false });
    const closedUrl = closed.url;
    await closed.stop();
    await refuse(
      ['sprt', '--redis', closedUrl, ...kirinEngine],
      1,
      /cannot reach Redis at redis:\/\/127\.0\.0\.1:\d+: .*ECONNREFUSED/,
    );
    await refuse(['worker', '--redis', closedUrl], 1, /cannot reach Redis/);
    await refuse(['status', '--redis', 'http://127.0.0.1'], 2, /scheme must be redis:\/\/ or rediss:\/\//);
    // Engines: one that does not exist, an option it lacks, an option value it refuses, an option that writes files.
    await refuse(
      ['sprt', '--redis', url, '--engine', 'node /no/such/kirin.js', '--engine', 'node bin/kirin.js', '--nodes', '100'],
      2,
      /engine 1 .* does not start/,
    );
    await refuse(['sprt', '--redis', url, ...kirinEngine, '--option', 'Hsh=16'], 2, /has no option "Hsh"/);
    await refuse(['sprt', '--redis', url, ...kirinEngine, '--option', 'Hash=lots'], 2, /refused its options: .*Hash/);
    await refuse(
      ['sprt', '--redis', url, ...kirinEngine, '--option', 'Debug Log File=/tmp/x'],
      2,
      /not allowed on the cluster/,
    );
    // Malformed arguments: kirin match's and the cluster's own.
    await refuse(['sprt', '--redis', url, ...kirinEngine, '--tc', '10+'], 2, /bad time control/);
    await refuse(['sprt', '--redis', url, ...kirinEngine, '--pairs-per-job', '0'], 2, /--pairs-per-job 0: below 1/);
    await refuse(
      ['datagen', '--redis', url, '--out', join(dir, 'x.bin'), '--positions', '-5'],
      2,
      /--positions -5: below 1/,
    );
    await refuse(
      ['datagen', '--redis', url, '--out', join(dir, 'x.bin'), '--positions', '1e3'],
      2,
      /--positions 1e3: not an integer/,
    );
    const noOpenings = join(dir, 'empty-openings.txt');
    writeFileSync(noOpenings, '# nothing but a comment\n\n');
    await refuse(
      ['datagen', '--redis', url, '--out', join(dir, 'x.bin'), '--openings', noOpenings],
      2,
      /no openings in the file/,
    );
    await refuse(['sprt', '--redis', url, ...kirinEngine, '--openings', noOpenings], 2, /no openings in the file/);
    await refuse(['sprt', '--redis', url, ...kirinEngine, '--bogus'], 2, /Unknown option '--bogus'/);
    await refuse(['worker', '--redis', url, '--concurency', '2'], 2, /Unknown option '--concurency'/);
    await refuse(['datagen', '--redis', url, '--positions', '10'], 2, /--out FILE is required/);
    const notData = join(dir, 'not-data.bin');
    writeFileSync(notData, 'certainly not a Kirin data file');
    await refuse(['datagen', '--redis', url, '--out', notData, '--positions', '10'], 2, /not a Kirin data file/);
    await refuse(['analyse', '--redis', url, '--game', 'h2e2 h9g7'], 2, /give a limit/);
    await refuse(['analyse', '--redis', url, '--game', 'h2e2 h2e2', '--nodes', '100'], 2, /move 2 "h2e2" is not legal/);
    await refuse(
      ['analyse', '--redis', url, '--position', 'h2e2', '--nodes', '100', '--option', 'Threads=4'],
      2,
      /not allowed: analysis searches run on one thread/,
    );
    await refuse(
      ['analyse', '--redis', url, '--position', 'h2e2', '--nodes', '100', '--option', 'MultiPV=x'],
      2,
      /MultiPV=x/,
    );
    await refuse(['frobnicate'], 2, /unknown command "frobnicate"/);
    // Nothing was queued: no run, no job.
    assert.equal(await c.zcard(keys.runs), 0);
    assert.deepEqual(await c.keys('kirin:jobs:*'), []);
    // --help prints each command's usage.
    for (const cmd of ['worker', 'sprt', 'datagen', 'analyse', 'status', 'resume']) {
      const r = await cli([cmd, '--help']);
      assert.equal(r.code, 0);
      assert.match(r.out, new RegExp(`^Usage: kirin cluster ${cmd}`));
    }
  } finally {
    c.disconnect();
    await redis.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});

test(
  'an SPRT on three workers decides, live, through a worker killed in a job; each pair counted once',
  { skip },
  async () => {
    const redis = await redisServer();
    const dir = mkdtempSync(join(tmpdir(), 'kirin-cluster-sprt-'));
    const c = client(redis.url);
    const workers = [0, 1, 2].map((i) => worker(redis.url, `w${i}`));
    try {
      const log = join(dir, 'games.log');
      const coord = kirin([
        'cluster',
        'sprt',
        '--redis',
        redis.url,
        '--run',
        'sprt-test',
        '--pairs-per-job',
        '2',
        '--engine',
        'node bin/kirin.js',
        '--engine',
        'node bin/kirin.js',
        '--engine-option',
        '2:Skill Level=0',
        '--nodes',
        '300',
        '--games',
        '60',
        '--openings',
        'data/openings/openings.txt',
        '--sprt',
        'elo0=0',
        'elo1=300',
        'alpha=0.2',
        'beta=0.2',
        '--log',
        log,
      ]);
      // Kill a worker in the middle of its first job.
      await workers[0].waitFor(/job sprt-test-\d+ \(sprt \d+\) started/, { timeoutMs: DEADLINE });
      workers[0].proc.kill('SIGKILL');
      assert.equal(await exitCode(coord), 0, coord.stderr);
      const text = coord.lines.join('\n');
      // Live: a score and an LLR after each job, then the decision.
      assert.match(text, /Score of .* vs .*: \d+ - \d+ - \d+ {2}\[\d\.\d{3}\] \d+/);
      assert.match(text, /SPRT: llr -?\d+\.\d\d \(/);
      assert.match(text, /SPRT: H[01] was accepted/);
      // The result in kirin match's form, stopped early.
      const res = /Results \(stopped after (\d+) of 60 games\):/.exec(text);
      assert.ok(res, text);
      const games = Number(res[1]);
      const score = /Score of .* vs .*: (\d+) - (\d+) - (\d+) {2}\[\d\.\d{3}\] (\d+) {2}\(W - L - D\)/.exec(text);
      assert.ok(score, text);
      const [w, l, d, n] = score.slice(1).map(Number);
      assert.equal(w + l + d, games);
      assert.equal(n, games);
      const penta = /Pentanomial \[0, 0\.5, 1, 1\.5, 2\]: \[(\d+), (\d+), (\d+), (\d+), (\d+)\]/.exec(text);
      assert.ok(penta, text);
      assert.equal(
        2 * penta.slice(1).reduce((a, b) => a + Number(b), 0),
        games,
        'every counted game is in one whole pair',
      );
      assert.match(
        text,
        /SPRT elo0=0 elo1=300 alpha=0\.2 beta=0\.2: LLR -?\d+\.\d\d \(-1\.39, 1\.39\) - H[01] accepted/,
      );
      assert.match(text, /Elo difference: .* \(trinomial, 95%\)/);
      // The game log: each counted game once, numbered as kirin match numbers them.
      const logLines = readFileSync(log, 'utf8').trim().split('\n');
      assert.equal(logLines.length, games);
      const numbers = logLines.map((x) => Number(/^game (\d+) \|/.exec(x)?.[1]));
      assert.equal(new Set(numbers).size, games);
      // Redis: no index stored twice; the run is done and no job of it waits.
      const done = await c.lrange(keys.done('sprt-test'), 0, -1);
      assert.equal(new Set(done).size, done.length);
      assert.equal(await c.hget(keys.run('sprt-test'), 'state'), 'done');
      assert.equal(await waitingJobs(redis.url), 0, 'the jobs not needed were removed');
      // status sees the live workers and the run.
      const st = kirin(['cluster', 'status', '--redis', redis.url, '--json']);
      assert.equal(await exitCode(st, 60_000), 0);
      const status = JSON.parse(st.lines.join('\n')) as {
        workers: { name: string }[];
        runs: { id: string; state: string }[];
      };
      // (The killed worker's record lives on until its 15 s expire.)
      const names = status.workers.map((x) => x.name);
      assert.ok(names.includes('w1') && names.includes('w2'), names.join(' '));
      assert.equal(status.runs[0].id, 'sprt-test');
      assert.equal(status.runs[0].state, 'done');
    } finally {
      await stopAll(workers);
      c.disconnect();
      await redis.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  },
);

test(
  'datagen in shards: a worker killed in a shard, the coordinator killed and resumed, Redis killed and restarted; the file is exact',
  { skip },
  async () => {
    const redis = await redisServer();
    const dir = mkdtempSync(join(tmpdir(), 'kirin-cluster-dg-'));
    const c = client(redis.url);
    const workers = [0, 1, 2].map((i) => worker(redis.url, `d${i}`));
    const file = join(dir, 'data.bin');
    const positions = 2000;
    const shard = 250;
    try {
      const args = ['--redis', redis.url, '--out', file, '--positions', String(positions), '--shard', String(shard)];
      const coord = kirin(['cluster', 'datagen', '--run', 'dg-test', ...args, '--nodes', '100', '--seed', '7']);
      // A worker killed in the middle of a shard: which one is in the job id.
      const at = await workers[0].waitFor(/job dg-test-\d+ \(datagen \d+\) started/, { timeoutMs: DEADLINE });
      const killedShard = Number(/job dg-test-(\d+) /.exec(workers[0].lines[at])![1]);
      workers[0].proc.kill('SIGKILL');
      // The coordinator killed once it merged a shard; Redis killed while no coordinator runs, then started again.
      await coord.waitFor(/[1-9]\d* shards merged/, { timeoutMs: DEADLINE });
      coord.proc.kill('SIGKILL');
      await exitCode(coord);
      await redis.crash();
      unwrap(await redis.launch());
      const resumed = kirin(['cluster', 'resume', 'dg-test', '--redis', redis.url]);
      assert.equal(await exitCode(resumed), 0, resumed.lines.join('\n') + resumed.stderr);
      assert.match(
        resumed.lines.join('\n'),
        new RegExp(`${file.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')} has ${positions}`),
      );
      // Exactly the positions asked for, in the datagen format, no position twice.
      const fileKeys = new Set<number>();
      const fileRecords: string[] = [];
      const r = forEachRecord(file, (buf, off) => {
        fileKeys.add(dedupKey(unwrap(recordPosition(decodeRecord(buf, off)))));
        fileRecords.push(Buffer.from(buf.subarray(off, off + RECORD_SIZE)).toString('hex'));
      });
      assert.ok(r.ok && r.value === positions);
      assert.equal(fileKeys.size, positions, 'no duplicates');
      // Each shard merged once, in order: the file is shard 0, then shard 1 ... (less cross-shard duplicates).
      assert.equal(await c.hget(keys.run('dg-test'), 'state'), 'done');
      const merged = Number(await c.hget(keys.run('dg-test'), 'merged'));
      const marks = await c.hgetall(keys.results('dg-test'));
      const kept: number[] = [];
      const dupes: number[] = [];
      for (let k = 0; k < merged; k++) {
        const m = JSON.parse(marks[String(k)]) as { merged: boolean; kept: number; dupes: number };
        assert.equal(m.merged, true);
        kept.push(m.kept);
        dupes.push(m.dupes);
      }
      assert.equal(
        kept.reduce((a, b) => a + b, 0),
        positions,
      );
      const done = await c.lrange(keys.done('dg-test'), 0, -1);
      assert.equal(new Set(done).size, done.length, 'no shard stored twice');
      // Shards are the same wherever they run: shard 0 and the killed worker's shard, played here, are in the file.
      const spec = JSON.parse((await c.hget(keys.run('dg-test'), 'spec'))!) as DatagenSpec;
      for (const k of new Set([0, killedShard])) {
        if (k >= merged || dupes[k] > 0) continue;
        const local = unwrap(await generateShard(spec, k, () => false));
        assert.ok(local);
        // The shard's records, read from its block alone.
        const shardFile = join(dir, `shard-${k}.kc`);
        writeFileSync(shardFile, Buffer.concat([makeChainHeader(), Buffer.from(local.block, 'base64')]));
        const mine: string[] = [];
        forEachRecord(shardFile, (buf, off) =>
          mine.push(Buffer.from(buf.subarray(off, off + RECORD_SIZE)).toString('hex')),
        );
        const offset = kept.slice(0, k).reduce((a, b) => a + b, 0);
        assert.deepEqual(
          fileRecords.slice(offset, offset + kept[k]),
          mine.slice(0, kept[k]),
          `shard ${k} is in the file as generated`,
        );
      }
      // A new run into the same file with the same seed begins after the shards in it: none is played again.
      const more = kirin([
        'cluster',
        'datagen',
        '--run',
        'dg-more',
        '--redis',
        redis.url,
        '--out',
        file,
        '--positions',
        String(positions + shard),
        '--shard',
        String(shard),
        '--nodes',
        '100',
        '--seed',
        '7',
      ]);
      assert.equal(await exitCode(more), 0, more.lines.join('\n') + more.stderr);
      const moreSpec = JSON.parse((await c.hget(keys.run('dg-more'), 'spec'))!) as DatagenSpec;
      assert.equal(moreSpec.firstShard, merged, "after the earlier run's shards");
      assert.match(more.lines.join('\n'), new RegExp(`shards of ${shard} from shard ${merged} of the seed`));
      const first = JSON.parse((await c.hget(keys.results('dg-more'), '0'))!) as { dupes: number; kept: number };
      assert.ok(first.dupes < shard / 2, `the new run's first shard is new games (${first.dupes} duplicates)`);
      const after = forEachRecord(file, () => {});
      assert.ok(after.ok && after.value === positions + shard);
    } finally {
      await stopAll(workers);
      c.disconnect();
      await redis.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  },
);

test(
  'analysis of a short game: score, best move and PV of each position; the same request gives the same answer',
  { skip },
  async () => {
    const redis = await redisServer({ persist: false });
    const dir = mkdtempSync(join(tmpdir(), 'kirin-cluster-an-'));
    // One worker, two jobs at a time (two engines in its pool).
    const workers = [worker(redis.url, 'a0', ['--concurrency', '2'])];
    // A short game in the game-log form of kirin match (the opening is not analysed, the moves are).
    const games = join(dir, 'games.log');
    const gameMoves = 'i0h0 b9c7 c3c4 g6g5 b0c2 a9a8 a0a1 a8f8';
    writeFileSync(
      games,
      `game 1 | A vs B | 1-0 | checkmate | opening h2e2 h9g7 h0g2 i9h9 (central cannon) | moves ${gameMoves} | end rules\n`,
    );
    try {
      const answers: unknown[] = [];
      for (const run of ['an-1', 'an-2']) {
        const out = join(dir, `${run}.json`);
        const p = kirin([
          'cluster',
          'analyse',
          '--redis',
          redis.url,
          '--run',
          run,
          '--games',
          games,
          '--nodes',
          '1500',
          '--out',
          out,
        ]);
        assert.equal(await exitCode(p), 0, p.stderr);
        answers.push(JSON.parse(readFileSync(out, 'utf8')));
      }
      const [a, b] = answers as Array<{ run: string; limits: object; positions: Array<Record<string, unknown>> }>;
      assert.deepEqual(a.positions, b.positions, 'the same request, the same answer');
      assert.deepEqual(a.limits, { nodes: 1500 });
      const moves = gameMoves.split(' ');
      assert.equal(a.positions.length, moves.length + 1, 'every position after the opening, the last one too');
      a.positions.forEach((p, i) => {
        assert.equal(p.ply, 4 + i);
        assert.equal(p.played, moves[i] ?? null);
        const pos = new Position(p.fen as string);
        const legal = legalMoves(pos).map(moveToUci);
        assert.ok(legal.includes(p.bestMove as string), `${String(p.bestMove)} is legal in ${String(p.fen)}`);
        const pv = p.pv as string[];
        assert.equal(pv[0], p.bestMove);
        assert.ok(pv.length >= 1 && (p.depth as number) >= 1);
        assert.ok('cp' in (p.score as object) || 'mate' in (p.score as object));
      });
      // A worker's answer is the engine's own: the first position searched here, in this process.
      const engine = new Engine();
      try {
        engine.options.set('Hash', '16');
        engine.newGame();
        assert.ok(engine.setPosition(null, 'h2e2 h9g7 h0g2 i9h9'.split(' ')).ok);
        const r = await engine.go({ nodes: 1500, startTime: Date.now() });
        assert.equal(moveToUci(r.bestMove), a.positions[0].bestMove);
        assert.equal(r.nodes, a.positions[0].nodes);
      } finally {
        await engine.close();
      }
    } finally {
      await stopAll(workers);
      await redis.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  },
);

test(
  'a job that fails every time (an engine build that crashes) is reported with its error, not retried forever; a run queued alone is cancelled',
  { skip },
  async () => {
    const redis = await redisServer({ persist: false });
    const dir = mkdtempSync(join(tmpdir(), 'kirin-cluster-fail-'));
    const c = client(redis.url);
    const marker = join(dir, 'broken');
    // A build that starts for the coordinator's check and crashes at start on the workers (once the marker exists).
    const engine = `sh -c 'test -e ${marker} && exit 3; exec node dist/test/support/fake-engine.js'`;
    let w: EngineProcess | null = null;
    try {
      const coord = kirin([
        'cluster',
        'sprt',
        '--redis',
        redis.url,
        '--run',
        'fail-test',
        '--attempts',
        '2',
        '--engine',
        engine,
        '--engine',
        'node dist/test/support/fake-engine.js',
        '--nodes',
        '10',
        '--games',
        '4',
      ]);
      await coord.waitFor(/^Run fail-test \(sprt\): 2 jobs/, { timeoutMs: DEADLINE });
      writeFileSync(marker, '');
      w = worker(redis.url, 'f0', ['--allow-engine', 'any']);
      assert.equal(await exitCode(coord), 1);
      assert.match(
        coord.stderr,
        /run failed: job \d of run fail-test failed after 2 attempt\(s\): worker f0: .*exited with code 3/,
      );
      const failed = await c.hgetall(keys.failed('fail-test'));
      assert.ok(Object.keys(failed).length >= 1);
      // Not retried again: nothing of the run waits, and the failed job made its two attempts only.
      await new Promise((r) => setTimeout(r, 3000));
      assert.equal(await waitingJobs(redis.url), 0);
      const index = Object.keys(failed)[0];
      assert.equal(await attemptsMade(redis.url, `fail-test-${index}`), 2);
      assert.equal(await c.hget(keys.run('fail-test'), 'state'), 'failed');
      await stopAll([w]);
      // A worker refuses an engine it was not given: the coordinator, which sees the live worker's policy, first.
      const refusing = worker(redis.url, 'f1');
      try {
        await refusing.waitFor(/^worker f1: /, { timeoutMs: DEADLINE });
        const p = kirin([
          'cluster',
          'sprt',
          '--redis',
          redis.url,
          '--run',
          'refuse-test',
          '--attempts',
          '1',
          '--engine',
          'node dist/test/support/fake-engine.js',
          '--engine',
          'node dist/test/support/fake-engine.js',
          '--nodes',
          '10',
          '--games',
          '2',
        ]);
        assert.equal(await exitCode(p), 2, p.stderr);
        assert.match(
          p.stderr,
          /worker f1 \(.*\) would refuse it: engines\[0\]\.command: this worker does not run engine "node dist\/test\/support\/fake-engine\.js" \(not in its --allow-engine list\)/,
        );
        assert.equal(await c.exists(keys.run('refuse-test')), 0, 'nothing was queued');
      } finally {
        await stopAll([refusing]);
      }
      assert.ok(existsSync(marker));
      // A run queued without a coordinator (--detach), seen by status, then cancelled: its jobs are gone.
      const fake = ['--engine', 'node dist/test/support/fake-engine.js'];
      const queued = await cli([
        'sprt',
        '--redis',
        redis.url,
        '--run',
        'cancel-test',
        '--detach',
        ...fake,
        ...fake,
        '--nodes',
        '10',
        '--games',
        '8',
      ]);
      assert.equal(queued.code, 0, queued.err);
      assert.match(queued.out, /Run cancel-test: 4 jobs queued; follow it with: kirin cluster resume cancel-test/);
      assert.equal(await waitingJobs(redis.url), 4);
      const st = await cli(['status', '--redis', redis.url]);
      assert.match(st.out, /cancel-test sprt running: 0\/4 jobs, no coordinator \(kirin cluster resume\)/);
      const cancelled = await cli(['cancel', 'cancel-test', '--redis', redis.url]);
      assert.equal(cancelled.code, 0, cancelled.err);
      assert.match(cancelled.out, /Run cancel-test cancelled; 4 queued jobs removed/);
      assert.equal(await waitingJobs(redis.url), 0);
      const resumed = await cli(['resume', 'cancel-test', '--redis', redis.url]);
      assert.equal(resumed.code, 1);
      assert.match(resumed.err, /run cancelled: cancelled by kirin cluster cancel/);
    } finally {
      if (w) await stopAll([w]);
      c.disconnect();
      await redis.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  },
);
