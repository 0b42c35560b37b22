// `kirin cluster`: datagen, SPRT matches and analysis as jobs on a BullMQ queue
// in Redis, run by workers on any number of machines (docs/CLUSTER.md).

import { writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import type { Redis } from 'ioredis';
import type { Queue } from 'bullmq';
import { MATCH_USAGE, parseMatchArgs } from '../match/cli.js';
import { DATAGEN_NUMBERS } from '../datagen/cli.js';
import { nameValueOptions } from '../lib.js';
import { openChainForAppend } from '../datagen/chain.js';
import { forEachRecord } from '../datagen/records.js';
import { closeSync } from 'node:fs';
import { checkRedis, connect, keys, parseRedisUrl, RUN_ID, type RedisTarget } from './redis.js';
import {
  Coordinator,
  createRun,
  newQueue,
  newRunId,
  readRun,
  removeQueuedJobs,
  type FollowOutcome,
  type RunHandler,
  type RunKind,
  type RunRecord,
} from './runs.js';
import { makeSprtSpec, sprtHeader, sprtJobs, SprtTally, type SprtSpec } from './sprt.js';
import { makeDatagenSpec, ShardMerger, type DatagenSpec } from './datagen.js';
import { AnalysisCollector, makeAnalyseSpec, type AnalyseSpec } from './analyse.js';
import { ClusterWorker, defaultAllowed } from './worker.js';
import { clusterStatus, formatStatus } from './status.js';

const CLUSTER_USAGE = `Usage: kirin cluster <command> --redis URL [options]

Runs datagen, SPRT matches and analysis as jobs on a queue in Redis (BullMQ);
workers on any number of machines take the jobs (docs/CLUSTER.md).

Commands:
  worker   --redis URL [--concurrency N] [--name NAME] [--allow-engine CMD]... [--lock-ms MS]
           take jobs and run them, N at a time (default 1; about one per core)
  sprt     --redis URL [--run ID] [--pairs-per-job N] [--attempts N] [--detach] <kirin match arguments>
           a match and its SPRT as game-pair jobs (kirin match --help lists the arguments)
  datagen  --redis URL --out FILE [--run ID] [--shard N] [--attempts N] [--detach]
           [--positions N] [--nodes N | --depth D] [--random-plies P] [--openings FILE]
           [--seed S] [--max-ply N] [--hash MB]
           kirin datagen's data in seeded shards, merged into FILE (deduplicated)
  analyse  --redis URL (--position LINE | --positions FILE | --game LINE | --games FILE)...
           (--depth D | --nodes N) [--hash MB] [--option NAME=VALUE]... [--out FILE]
           [--run ID] [--attempts N] [--detach]
           each position searched by a worker; one JSON document (stdout or FILE)
  status   --redis URL [--json]        queues, workers, throughput, runs
  resume   RUN --redis URL             follow a run again (after its coordinator stopped)
  cancel   RUN --redis URL             end a run and remove its queued jobs

The Redis URL is redis://[user:password@]host:port[/db] (rediss:// for TLS); without
--redis, KIRIN_REDIS_URL is used. KIRIN_REDIS_PASSWORD gives a password not in the URL.
Each command takes --help.
`;

const WORKER_USAGE = `Usage: kirin cluster worker --redis URL [--concurrency N] [--name NAME]
                            [--allow-engine CMD]... [--lock-ms MS]

Takes jobs from the queue and runs them, N at a time (default 1).
  --concurrency N     jobs at once (each uses about one core)
  --name NAME         the worker's name in status (default host:pid)
  --allow-engine CMD  an engine command line this worker runs for SPRT jobs (repeatable);
                      default: this checkout's Kirin ("node bin/kirin.js" or its full path);
                      "any" runs every command (only on a Redis that you alone can write to)
  --lock-ms MS        job lock (default 30000): a job of a worker that died goes back to
                      the queue about this long after
`;

const SPRT_USAGE = `Usage: kirin cluster sprt --redis URL [--run ID] [--pairs-per-job N] [--attempts N] [--detach]
                          <kirin match arguments>

Plays kirin match's schedule as jobs of N game pairs (default 1) on the workers and
adds up the results: live score and LLR, the run stopped when the SPRT decides,
the final result as kirin match prints it. --concurrency and --debug of kirin match
are the workers' business and are ignored here; --log is written at the end.
  --run ID            the run's name (default sprt-<random>)
  --attempts N        tries of a job before the run fails with its error (default 3)
  --detach            queue the run and exit; follow it later with kirin cluster resume ID

${MATCH_USAGE}`;

const DATAGEN_USAGE = `Usage: kirin cluster datagen --redis URL --out FILE [--positions N] [--shard N]
                             [--nodes N | --depth D] [--random-plies P] [--openings FILE]
                             [--seed S] [--max-ply N] [--hash MB] [--run ID] [--attempts N] [--detach]

kirin datagen's self-play data in seeded shards of N positions (default 1000) played
by the workers, merged in shard order into FILE (kirin datagen's format; an existing
file is resumed), deduplicated, exactly --positions positions in the end.
`;

const ANALYSE_USAGE = `Usage: kirin cluster analyse --redis URL (--position LINE | --positions FILE | --game LINE |
                             --games FILE)... (--depth D | --nodes N) [--hash MB]
                             [--option NAME=VALUE]... [--out FILE] [--run ID] [--attempts N] [--detach]

Searches positions on the workers (one thread, tables cleared: with a depth or node
limit the same request gives the same answer) and writes one JSON document: each
position's FEN, score, best move and principal variation.
  --position LINE   a position: moves from the start, or FEN [moves ...] (repeatable)
  --positions FILE  one position per line, as --position
  --game LINE       a whole game (moves from the start, or FEN moves ...): every position
  --games FILE      games: kirin match --log lines (each position after the opening),
                    or one game per line as --game
  --out FILE        the JSON document (default: stdout)
`;

const STATUS_USAGE = `Usage: kirin cluster status --redis URL [--json]
`;
const RUN_USAGE = (cmd: string): string => `Usage: kirin cluster ${cmd} RUN --redis URL\n`;

type Print = (line: string) => void;
const out: Print = (l) => process.stdout.write(l + '\n');

class UsageError extends Error {
  constructor(
    message: string,
    readonly usage: string,
  ) {
    super(message);
  }
}

/** A request refused before anything was queued (exit code 2, without the usage). */
class BadRequest extends Error {}

async function checked<T>(make: () => T | Promise<T>): Promise<T> {
  try {
    return await make();
  } catch (e) {
    throw new BadRequest((e as Error).message);
  }
}

type Options = NonNullable<ParseArgsConfig['options']>;

function parse(
  argv: string[],
  options: Options,
  usage: string,
  positionals = 0,
): { values: Record<string, string | boolean | string[] | undefined>; positionals: string[] } {
  let r;
  try {
    r = parseArgs({
      args: argv,
      options: { ...options, help: { type: 'boolean', short: 'h' } },
      strict: true,
      allowPositionals: positionals > 0,
    });
  } catch (e) {
    throw new UsageError((e as Error).message, usage);
  }
  if (r.positionals.length > positionals)
    throw new UsageError(`unexpected argument "${r.positionals[positionals]}"`, usage);
  return { values: r.values as Record<string, string | boolean | string[] | undefined>, positionals: r.positionals };
}

function int(values: Record<string, unknown>, name: string, def: number, min: number, usage: string): number {
  const v = values[name];
  if (v === undefined) return def;
  const n = Number(v);
  if (typeof v !== 'string' || !/^\d+$/.test(v) || !Number.isSafeInteger(n) || n < min)
    throw new UsageError(`--${name} must be an integer >= ${min} (got "${String(v)}")`, usage);
  return n;
}

function target(values: Record<string, unknown>, usage: string): RedisTarget {
  const url = (values.redis as string | undefined) ?? process.env.KIRIN_REDIS_URL;
  if (!url) throw new UsageError('give --redis URL (or set KIRIN_REDIS_URL)', usage);
  const t = parseRedisUrl(url);
  if (!t.ok) throw new UsageError(t.error.message, usage);
  return t.value;
}

/** Checks that Redis answers (a clear error otherwise); returns its version. */
async function reach(t: RedisTarget): Promise<string> {
  const r = await checkRedis(t);
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
}

const RUN_OPTIONS: Options = {
  redis: { type: 'string' },
  run: { type: 'string' },
  attempts: { type: 'string' },
  detach: { type: 'boolean' },
};

/** Splits `kirin cluster sprt`'s own options from kirin match's arguments. */
function splitSprtArgs(argv: string[]): { own: string[]; match: string[] } {
  const own: string[] = [];
  const match: string[] = [];
  const withValue = ['--redis', '--run', '--attempts', '--pairs-per-job'];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const name = a.split('=')[0];
    if (withValue.includes(name)) {
      own.push(a);
      if (!a.includes('=') && i + 1 < argv.length) own.push(argv[++i]);
    } else if (a === '--detach' || a === '--help' || a === '-h') own.push(a);
    else match.push(a);
  }
  return { own, match };
}

/** The handler that follows a run of its kind, and what it prints at the end. */
interface Follower {
  handler: RunHandler;
  finish(outcome: FollowOutcome, run: RunRecord): number;
}

function follower(
  run: RunRecord,
  coordinator: Coordinator,
  redis: Redis,
  print: Print,
  analyseOut: string | null,
): Follower {
  switch (run.kind) {
    case 'sprt': {
      const tally = new SprtTally(run.spec as SprtSpec, print);
      return {
        handler: tally,
        finish: (o) => {
          for (const l of tally.finalLines()) print(l);
          tally.writeLog();
          return report(o);
        },
      };
    }
    case 'datagen': {
      const merger = new ShardMerger(run.spec as DatagenSpec, coordinator, redis, print);
      return {
        handler: merger,
        finish: (o) => {
          print(merger.finalLine());
          return report(o);
        },
      };
    }
    case 'analyse': {
      const collector = new AnalysisCollector(run.spec as AnalyseSpec);
      return {
        handler: collector,
        finish: (o, r) => {
          const text = JSON.stringify(collector.document(r.id), null, 1) + '\n';
          if (analyseOut) writeFileSync(analyseOut, text);
          else process.stdout.write(text);
          return report(o);
        },
      };
    }
    case 'ping': {
      let n = 0;
      return {
        handler: {
          result: () => void n++,
          check: () => (n >= coordinator.run.jobs ? { state: 'done', summary: `${n} jobs` } : null),
          summary: () => `${n}/${coordinator.run.jobs} jobs`,
        },
        finish: (o) => report(o),
      };
    }
  }
}

function report(o: FollowOutcome): number {
  if (o.state === 'done') return 0;
  process.stderr.write(`kirin cluster: run ${o.state}${o.error ? `: ${o.error}` : ''}\n`);
  return 1;
}

/** Follows a run to its end (or just queues it with --detach): the exit code. */
async function followRun(
  t: RedisTarget,
  run: RunRecord,
  detach: boolean,
  analyseOut: string | null,
  print: Print,
): Promise<number> {
  const redis = connect(t);
  const queue = newQueue(t);
  try {
    const coordinator = new Coordinator(redis, queue, run, { print });
    const f = follower(run, coordinator, redis, print, analyseOut);
    if (!(await coordinator.lock())) {
      const holder = await redis.get(keys.coordinator(run.id));
      throw new Error(`run ${run.id} is followed by another coordinator (${holder})`);
    }
    if (detach) {
      // Queue every job, then leave: `resume` follows the run.
      await coordinator.submitAll();
      await coordinator.unlock();
      print(`Run ${run.id}: ${run.jobs} jobs queued; follow it with: kirin cluster resume ${run.id}`);
      return 0;
    }
    // Ctrl-C (or SIGTERM) stops following, not the run: the lock is given back at once for a later resume.
    const leave = (): void => {
      print(`Run ${run.id} goes on without a coordinator; follow it again with: kirin cluster resume ${run.id}`);
      void coordinator.unlock().finally(() => process.exit(130));
    };
    process.once('SIGINT', leave);
    process.once('SIGTERM', leave);
    try {
      const outcome = await coordinator.follow(f.handler);
      return f.finish(outcome, coordinator.run);
    } finally {
      process.off('SIGINT', leave);
      process.off('SIGTERM', leave);
    }
  } finally {
    await queue.close();
    redis.disconnect();
  }
}

/** Creates a run (after every check) and follows it. */
async function submit(
  t: RedisTarget,
  values: Record<string, unknown>,
  kind: RunKind,
  spec: unknown,
  jobs: number,
  usage: string,
  header: string[],
  analyseOut: string | null = null,
): Promise<number> {
  const id = (values.run as string | undefined) ?? newRunId(kind);
  if (!RUN_ID.test(id)) throw new UsageError(`bad run id "${id}" (letters, digits, _ and -, at most 64)`, usage);
  const attempts = int(values, 'attempts', 3, 1, usage);
  const redis = connect(t);
  let run: RunRecord | string;
  try {
    run = await createRun(redis, id, kind, spec, jobs, attempts);
  } finally {
    redis.disconnect();
  }
  if (typeof run === 'string') throw new Error(run);
  const print = kind === 'analyse' && !analyseOut ? (l: string) => process.stderr.write(l + '\n') : out;
  print(`Run ${id} (${kind}): ${jobs} jobs, coordinator ${hostname()}:${process.pid}`);
  for (const l of header) print(l);
  return followRun(t, run, values.detach === true, analyseOut, print);
}

async function workerCommand(argv: string[]): Promise<number> {
  const { values } = parse(
    argv,
    {
      redis: { type: 'string' },
      concurrency: { type: 'string' },
      name: { type: 'string' },
      'allow-engine': { type: 'string', multiple: true },
      'lock-ms': { type: 'string' },
    },
    WORKER_USAGE,
  );
  if (values.help) return help(WORKER_USAGE);
  const t = target(values, WORKER_USAGE);
  const concurrency = int(values, 'concurrency', 1, 1, WORKER_USAGE);
  const lockMs = int(values, 'lock-ms', 30000, 1000, WORKER_USAGE);
  const name = (values.name as string | undefined) ?? `${hostname()}:${process.pid}`;
  const allow = (values['allow-engine'] as string[] | undefined) ?? defaultAllowed();
  const version = await reach(t);
  const w = new ClusterWorker({ target: t, concurrency, name, allow, lockMs, print: out });
  out(
    `worker ${name}: ${t.display} (Redis ${version}), concurrency ${concurrency}, engines: ${allow.includes('any') ? 'any' : allow.map((a) => `"${a}"`).join(', ')}`,
  );
  return new Promise<number>((resolveExit) => {
    let stopping = false;
    const stop = (): void => {
      if (stopping) {
        out(`worker ${name}: stopping now (the jobs in hand go back to the queue)`);
        process.exit(130);
      }
      stopping = true;
      out(`worker ${name}: finishing the jobs in hand (again to stop at once)`);
      void w.close().then(() => resolveExit(0));
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}

async function sprtCommand(argv: string[]): Promise<number> {
  const { own, match } = splitSprtArgs(argv);
  const { values } = parse(own, { ...RUN_OPTIONS, 'pairs-per-job': { type: 'string' } }, SPRT_USAGE);
  if (values.help) return help(SPRT_USAGE);
  const parsed = parseMatchArgs(match);
  if (!parsed.ok && parsed.error.code === 'help') return help(SPRT_USAGE);
  if (!parsed.ok) throw new UsageError(parsed.error.message, SPRT_USAGE);
  const args = parsed.value;
  const t = target(values, SPRT_USAGE);
  const pairs = int(values, 'pairs-per-job', 1, 1, SPRT_USAGE);
  int(values, 'attempts', 3, 1, SPRT_USAGE);
  await reach(t);
  const spec = await checked(() => makeSprtSpec(args, pairs));
  const notes: string[] = [];
  if (match.includes('--concurrency'))
    notes.push('Note: --concurrency is ignored: each worker runs as many jobs as its own --concurrency');
  if (match.includes('--debug')) notes.push('Note: --debug is ignored: the engines run on the workers');
  return submit(t, values, 'sprt', spec, sprtJobs(spec), SPRT_USAGE, [...notes, sprtHeader(spec)]);
}

async function datagenCommand(argv: string[]): Promise<number> {
  const numbers: Options = {};
  for (const [name] of DATAGEN_NUMBERS) numbers[name] = { type: 'string' };
  const { values } = parse(
    argv,
    {
      ...RUN_OPTIONS,
      ...numbers,
      out: { type: 'string' },
      shard: { type: 'string' },
      openings: { type: 'string' },
      seed: { type: 'string' },
    },
    DATAGEN_USAGE,
  );
  if (values.help) return help(DATAGEN_USAGE);
  const t = target(values, DATAGEN_USAGE);
  const outFile = values.out as string | undefined;
  if (!outFile) throw new UsageError('--out FILE is required', DATAGEN_USAGE);
  const n: Record<string, number> = {};
  for (const [name, def, min] of DATAGEN_NUMBERS) n[name] = int(values, name, def, min, DATAGEN_USAGE);
  const shard = int(values, 'shard', 1000, 1, DATAGEN_USAGE);
  const seed = int(values, 'seed', Date.now() % 1000000, 0, DATAGEN_USAGE);
  int(values, 'attempts', 3, 1, DATAGEN_USAGE);
  const spec = await checked(() =>
    makeDatagenSpec({
      out: outFile,
      positions: n.positions,
      shard,
      seed,
      nodes: n.nodes,
      depth: n.depth,
      randomPlies: n['random-plies'],
      maxPly: n['max-ply'],
      hash: n.hash,
      openingsPath: (values.openings as string | undefined) ?? null,
    }),
  );
  // The file: a data file or nothing (checked before anything is queued); its positions count.
  const have = await checked(() => {
    const opened = openChainForAppend(spec.out);
    if (!opened.ok) throw new Error(`${spec.out}: ${opened.error.message}`);
    closeSync(opened.value.fd);
    const r = forEachRecord(spec.out, () => {});
    if (!r.ok) throw new Error(`${spec.out}: ${r.error.message}`);
    return r.value;
  });
  if (have >= spec.positions) {
    out(`kirin cluster datagen: ${spec.out} has ${have} positions already (target ${spec.positions})`);
    return 0;
  }
  await reach(t);
  const jobs = Math.ceil((spec.positions - have) / spec.shard);
  return submit(t, values, 'datagen', spec, jobs, DATAGEN_USAGE, [
    `Datagen: ${spec.positions} positions into ${spec.out}${have ? ` (has ${have})` : ''}, shards of ${spec.shard}, ` +
      `${spec.nodes ? `nodes ${spec.nodes}` : `depth ${spec.depth}`}, seed ${spec.seed}, ${spec.openings.length} openings`,
  ]);
}

async function analyseCommand(argv: string[]): Promise<number> {
  const { values } = parse(
    argv,
    {
      ...RUN_OPTIONS,
      position: { type: 'string', multiple: true },
      positions: { type: 'string', multiple: true },
      game: { type: 'string', multiple: true },
      games: { type: 'string', multiple: true },
      depth: { type: 'string' },
      nodes: { type: 'string' },
      hash: { type: 'string' },
      option: { type: 'string', multiple: true },
      out: { type: 'string' },
    },
    ANALYSE_USAGE,
  );
  if (values.help) return help(ANALYSE_USAGE);
  const t = target(values, ANALYSE_USAGE);
  const pairs = nameValueOptions(values, 'option');
  if (!pairs.ok) throw new UsageError(pairs.error.message, ANALYSE_USAGE);
  const options = pairs.value;
  int(values, 'attempts', 3, 1, ANALYSE_USAGE);
  const spec = await checked(() =>
    makeAnalyseSpec({
      positions: (values.position as string[] | undefined) ?? [],
      positionFiles: (values.positions as string[] | undefined) ?? [],
      games: (values.game as string[] | undefined) ?? [],
      gameFiles: (values.games as string[] | undefined) ?? [],
      depth: int(values, 'depth', 0, 1, ANALYSE_USAGE),
      nodes: int(values, 'nodes', 0, 1, ANALYSE_USAGE),
      hash: int(values, 'hash', 16, 1, ANALYSE_USAGE),
      options,
    }),
  );
  await reach(t);
  const outFile = (values.out as string | undefined) ?? null;
  return submit(t, values, 'analyse', spec, spec.positions.length, ANALYSE_USAGE, [], outFile);
}

async function statusCommand(argv: string[]): Promise<number> {
  const { values } = parse(argv, { redis: { type: 'string' }, json: { type: 'boolean' } }, STATUS_USAGE);
  if (values.help) return help(STATUS_USAGE);
  const t = target(values, STATUS_USAGE);
  const version = await reach(t);
  const redis = connect(t);
  const queue = newQueue(t);
  try {
    const s = await clusterStatus(redis, queue, t.display, version);
    if (values.json) out(JSON.stringify(s, null, 1));
    else for (const l of formatStatus(s)) out(l);
    return 0;
  } finally {
    await queue.close();
    redis.disconnect();
  }
}

async function runCommand(cmd: 'resume' | 'cancel', argv: string[]): Promise<number> {
  const usage = RUN_USAGE(cmd);
  const { values, positionals } = parse(argv, { redis: { type: 'string' }, out: { type: 'string' } }, usage, 1);
  if (values.help) return help(usage);
  const id = positionals[0];
  if (!id) throw new UsageError('give the run id', usage);
  const t = target(values, usage);
  await reach(t);
  const redis = connect(t);
  let run: RunRecord | null;
  let queue: Queue | null = null;
  try {
    run = await readRun(redis, id);
    if (!run) throw new Error(`no run ${id} in Redis (kirin cluster status lists the runs)`);
    if (cmd === 'cancel') {
      if (run.state !== 'running') {
        out(`Run ${id} has ended already (${run.state})`);
        return 0;
      }
      await redis.hset(keys.run(id), {
        state: 'cancelled',
        finished: Date.now(),
        error: 'cancelled by kirin cluster cancel',
      });
      queue = newQueue(t);
      const done = new Set((await redis.hkeys(keys.results(id))).map(Number));
      const removed = await removeQueuedJobs(queue, run, done);
      out(`Run ${id} cancelled; ${removed} queued jobs removed`);
      return 0;
    }
  } finally {
    if (queue) await queue.close();
    redis.disconnect();
  }
  const print = run.kind === 'analyse' && !values.out ? (l: string) => process.stderr.write(l + '\n') : out;
  print(`Run ${id} (${run.kind}, ${run.state}): ${run.jobs} jobs; coordinator ${hostname()}:${process.pid}`);
  if (run.kind === 'sprt') print(sprtHeader(run.spec as SprtSpec));
  return followRun(t, run, false, (values.out as string | undefined) ?? null, print);
}

function help(usage: string): number {
  process.stdout.write(usage);
  return 0;
}

/** `kirin cluster ...`: the exit code (0 done, 1 a failed run or an error, 2 a bad command line). */
export async function runClusterCli(argv: string[]): Promise<number> {
  const [cmd, ...rest] = argv;
  try {
    switch (cmd) {
      case 'worker':
        return await workerCommand(rest);
      case 'sprt':
        return await sprtCommand(rest);
      case 'datagen':
        return await datagenCommand(rest);
      case 'analyse':
      case 'analyze':
        return await analyseCommand(rest);
      case 'status':
        return await statusCommand(rest);
      case 'resume':
      case 'cancel':
        return await runCommand(cmd, rest);
      case '--help':
      case '-h':
      case 'help':
        return help(CLUSTER_USAGE);
      default:
        process.stderr.write(
          `kirin cluster: ${cmd === undefined ? 'give a command' : `unknown command "${cmd}"`}\n\n${CLUSTER_USAGE}`,
        );
        return 2;
    }
  } catch (e) {
    if (e instanceof UsageError) {
      process.stderr.write(`kirin cluster ${cmd}: ${e.message}\n\n${e.usage}`);
      return 2;
    }
    process.stderr.write(`kirin cluster ${cmd}: ${(e as Error).message}\n`);
    return e instanceof BadRequest ? 2 : 1;
  }
}
