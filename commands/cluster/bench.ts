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
import { err, ok, type Result } from '../../src/dev.js';
import { parseMatchArgs } from '../match/args.js';
import { commandSpec, integerOption, readCommandLine, reportCommandLine } from '../../toolkit/command-line.js';
import { runMain } from '../../toolkit/script.js';
import { keys, parseRedisUrl, type RedisTarget } from './redis.js';
import { withConnection } from './connection.js';
import { Coordinator, createRun, type RunHandler } from './runs.js';
import { RedisServer } from './redis-server.js';
import { makeSprtSpec, sprtJobs, SprtTally } from './sprt.js';

const SPEC = commandSpec({
  name: 'cluster bench',
  usage: `usage: node dist/commands/cluster/bench.js [--workers 1,2,4] [--ping-jobs N] [--games N] [--nodes N]
`,
  options: {
    workers: { type: 'string' },
    'ping-jobs': { type: 'string' },
    games: { type: 'string' },
    nodes: { type: 'string' },
  },
});

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
  await withConnection(t, async ({ redis }) => {
    while ((await redis.keys(keys.workerPattern)).length < n) await new Promise((r) => setTimeout(r, 200));
  });
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

/** Runs a run to its end: its seconds (from creation to the last result), or why it did not finish. */
async function timeRun(
  t: RedisTarget,
  id: string,
  kind: 'ping' | 'sprt',
  spec: unknown,
  jobs: number,
  handler: (c: Coordinator) => RunHandler,
): Promise<Result<number, 'bench'>> {
  return withConnection(t, async ({ redis, queue }) => {
    const t0 = performance.now();
    const run = await createRun(redis, id, kind, spec, jobs, 3);
    if (!run.ok) return err('bench', run.error.message);
    const c = new Coordinator(redis, queue, run.value, { pollMs: 50, print: () => {} });
    await c.lock();
    const end = await c.follow(handler(c));
    if (!end.ok) return err('bench', end.error.message);
    if (end.value.state !== 'done') return err('bench', `${id}: ${end.value.state} ${end.value.error}`);
    return ok((performance.now() - t0) / 1000);
  });
}

async function bench(counts: number[], pingJobs: number, games: number, nodes: number): Promise<Result<null, 'bench'>> {
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
  if (!parsedMatch.ok) return err('bench', parsedMatch.error.message);
  const made = await makeSprtSpec(parsedMatch.value, 1);
  if (!made.ok) return err('bench', made.error.message);
  const sprtSpec = made.value;
  process.stdout.write(
    '| workers | ping jobs/s | games/min (nodes ' + nodes + ') | pair jobs/min |\n|---|---|---|---|\n',
  );
  for (const n of counts) {
    const server = await RedisServer.start({ persist: true, fsync: 'everysec' });
    if (!server.ok) return err('bench', server.error.message);
    const parsed = parseRedisUrl(server.value.url);
    if (!parsed.ok) return err('bench', parsed.error.message);
    const t = parsed.value;
    const ws = startWorkers(server.value.url, n);
    try {
      await waitForWorkers(t, n);
      let pings = 0;
      const pingSecs = await timeRun(t, `ping-${n}`, 'ping', {}, pingJobs, (c) => ({
        result: () => {
          pings++;
          return ok(null);
        },
        check: () => ok(pings >= c.run.jobs ? { state: 'done', summary: `${pings} jobs` } : null),
        summary: () => `${pings} jobs`,
      }));
      if (!pingSecs.ok) return pingSecs;
      const gameSecs = await timeRun(
        t,
        `sprt-${n}`,
        'sprt',
        sprtSpec,
        sprtJobs(sprtSpec),
        () => new SprtTally(sprtSpec, () => {}, true),
      );
      if (!gameSecs.ok) return gameSecs;
      process.stdout.write(
        `| ${n} | ${(pingJobs / pingSecs.value).toFixed(0)} | ${((games * 60) / gameSecs.value).toFixed(1)} | ` +
          `${((sprtJobs(sprtSpec) * 60) / gameSecs.value).toFixed(1)} |\n`,
      );
    } finally {
      await stopWorkers(ws);
      await server.value.stop();
    }
  }
  return ok(null);
}

async function main(argv: string[]): Promise<number> {
  const cl = readCommandLine(argv, SPEC);
  if (!cl.ok) return reportCommandLine(SPEC, cl.error);
  const v = cl.value.values;
  const counts = (v.workers ?? '1,2,4').split(',').map((w) => integerOption({ workers: w }, 'workers', 0, { min: 1 }));
  const numbers = [
    ...counts,
    integerOption(v, 'ping-jobs', 2000, { min: 1 }),
    integerOption(v, 'games', 16, { min: 2 }),
    integerOption(v, 'nodes', 1000, { min: 1 }),
  ];
  for (const r of numbers) if (!r.ok) return reportCommandLine(SPEC, r.error);
  const [pingJobs, games, nodes] = numbers.slice(counts.length).map((r) => (r as { value: number }).value);
  const r = await bench(
    counts.map((c) => (c as { value: number }).value),
    pingJobs,
    games,
    nodes,
  );
  if (r.ok) return 0;
  process.stderr.write(`cluster bench: ${r.error.message}\n`);
  return 1;
}

runMain(import.meta.url, main);
