// The cluster's benchmark: jobs per second (empty "ping" jobs: the queue's and
// the bookkeeping's own cost) and games per minute (an SPRT-style run of Kirin
// against Kirin at a fixed node count, one game pair per job: engine start-up
// included) with 1, 2 and 4 local workers, each worker one job at a time, on a
// private redis-server (append-only file, fsync every second, as docs/CLUSTER.md
// advises). Run it alone on the machine (it measures throughput).
//
//   node dist/commands/cluster/bench.js [--workers 1,2,4] [--ping-jobs 2000] [--games 16] [--nodes 1000]

import { spawn, type ChildProcess } from 'node:child_process';
import { cpus } from 'node:os';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { parseMatchArgs } from '../match/cli.js';
import { connect, keys, parseRedisUrl, type RedisTarget } from './redis.js';
import { Coordinator, createRun, newQueue, type RunHandler } from './runs.js';
import { RedisServer } from './redis-server.js';
import { makeSprtSpec, sprtJobs, SprtTally } from './sprt.js';

const USAGE = `usage: node dist/commands/cluster/bench.js [--workers 1,2,4] [--ping-jobs N] [--games N] [--nodes N]
`;

const bin = fileURLToPath(new URL('../../../bin/kirin.js', import.meta.url));
const root = fileURLToPath(new URL('../../../', import.meta.url));

function startWorkers(url: string, n: number): ChildProcess[] {
  return Array.from({ length: n }, (_, i) =>
    spawn(process.execPath, [bin, 'cluster', 'worker', '--redis', url, '--name', `bench${i}`], {
      cwd: root,
      stdio: 'ignore',
    }),
  );
}

async function waitForWorkers(t: RedisTarget, n: number): Promise<void> {
  const redis = connect(t);
  try {
    for (;;) {
      const found = await redis.keys(keys.workerPattern);
      if (found.length >= n) return;
      await new Promise((r) => setTimeout(r, 200));
    }
  } finally {
    redis.disconnect();
  }
}

async function stopWorkers(ws: ChildProcess[]): Promise<void> {
  await Promise.all(
    ws.map(
      (w) =>
        new Promise<void>((resolve) => {
          if (w.exitCode !== null) return resolve();
          w.once('exit', () => resolve());
          w.kill('SIGTERM');
        }),
    ),
  );
}

/** Runs a run to its end and returns its seconds (from creation to the last result). */
async function timeRun(
  t: RedisTarget,
  id: string,
  kind: 'ping' | 'sprt',
  spec: unknown,
  jobs: number,
  handler: (c: Coordinator) => RunHandler,
): Promise<number> {
  const redis = connect(t);
  const queue = newQueue(t);
  try {
    const t0 = performance.now();
    const run = await createRun(redis, id, kind, spec, jobs, 3);
    if (typeof run === 'string') throw new Error(run);
    const c = new Coordinator(redis, queue, run, { pollMs: 50, print: () => {} });
    await c.lock();
    const end = await c.follow(handler(c));
    if (end.state !== 'done') throw new Error(`${id}: ${end.state} ${end.error}`);
    return (performance.now() - t0) / 1000;
  } finally {
    await queue.close();
    redis.disconnect();
  }
}

async function main(): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      args: process.argv.slice(2),
      options: {
        workers: { type: 'string', default: '1,2,4' },
        'ping-jobs': { type: 'string', default: '2000' },
        games: { type: 'string', default: '16' },
        nodes: { type: 'string', default: '1000' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
    }));
  } catch (e) {
    process.stderr.write(`cluster bench: ${(e as Error).message}\n${USAGE}`);
    return 2;
  }
  if (values.help) {
    process.stdout.write(USAGE);
    return 0;
  }
  const counts = values.workers.split(',').map(Number);
  const pingJobs = Number(values['ping-jobs']);
  const games = Number(values.games);
  const nodes = Number(values.nodes);
  if (counts.some((n) => !Number.isInteger(n) || n < 1) || !(pingJobs >= 1) || !(games >= 2) || !(nodes >= 1)) {
    process.stderr.write(`cluster bench: bad numbers\n${USAGE}`);
    return 2;
  }
  process.stdout.write(`# ${cpus().length} cores (${cpus()[0]?.model ?? '?'}), node ${process.version}\n`);
  const parsedMatch = parseMatchArgs([
    '--engine',
    'node bin/kirin.js',
    '--engine',
    'node bin/kirin.js',
    '--engine-option',
    '2:Skill Level=10',
    '--nodes',
    String(nodes),
    '--games',
    String(games),
    '--openings',
    'data/openings/openings.txt',
  ]);
  if (!parsedMatch.ok) throw new Error(parsedMatch.error.message);
  const sprtSpec = await makeSprtSpec(parsedMatch.value, 1);
  process.stdout.write(
    '| workers | ping jobs/s | games/min (nodes ' + nodes + ') | pair jobs/min |\n|---|---|---|---|\n',
  );
  for (const n of counts) {
    const server = await RedisServer.start({ persist: true, fsync: 'everysec' });
    const parsed = parseRedisUrl(server.url);
    if (!parsed.ok) throw new Error(parsed.error.message);
    const t = parsed.value;
    const ws = startWorkers(server.url, n);
    try {
      await waitForWorkers(t, n);
      let pings = 0;
      const pingSecs = await timeRun(t, `ping-${n}`, 'ping', {}, pingJobs, (c) => ({
        result: () => void pings++,
        check: () => (pings >= c.run.jobs ? { state: 'done', summary: `${pings} jobs` } : null),
        summary: () => `${pings} jobs`,
      }));
      const gameSecs = await timeRun(
        t,
        `sprt-${n}`,
        'sprt',
        sprtSpec,
        sprtJobs(sprtSpec),
        () => new SprtTally(sprtSpec, () => {}, true),
      );
      process.stdout.write(
        `| ${n} | ${(pingJobs / pingSecs).toFixed(0)} | ${((games * 60) / gameSecs).toFixed(1)} | ${((sprtJobs(sprtSpec) * 60) / gameSecs).toFixed(1)} |\n`,
      );
    } finally {
      await stopWorkers(ws);
      await server.stop();
    }
  }
  return 0;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (e: Error) => {
    process.stderr.write(`cluster bench: ${e.stack ?? e.message}\n`);
    process.exitCode = 1;
  },
);
