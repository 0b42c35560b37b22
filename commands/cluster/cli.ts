// `kirin cluster`: datagen, SPRT matches and analysis as jobs on a BullMQ queue
// in Redis, run by workers on any number of machines (docs/CLUSTER.md).
//
// The command line of each command is read with the toolkit's reader (toolkit/command-line.ts); every
// step below returns a Result, and this file alone turns one into an exit code
// and a message: 'help' (0, the usage), 'arguments' (2, the message and the
// usage), 'request' (2: refused before anything was queued), 'failed' (1: Redis
// cannot be reached, the run failed, the coordinator's own trouble). Every
// command takes the same course: its command line and the Redis URL read
// (readClusterCommand), its own checks, then Redis reached and the work done on
// one connection, closed after it (onCluster, connection.ts).

import { closeSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import type { Redis } from 'ioredis';
import { err, ok, type Result } from '../../src/dev.js';
import { MATCH_GROUPS, MATCH_OPTIONS, MATCH_USAGE, matchArgsFrom } from '../match/args.js';
import { DATAGEN_NUMBERS } from '../datagen/cli.js';
import {
  commandSpec,
  integerOption,
  nameValueOptions,
  readCommandLine,
  reportCommandLine,
  type CommandLine,
  type CommandLineCode,
  type CommandSpec,
  type OptionsSpec,
} from '../../toolkit/command-line.js';
import { forEachRecord } from '../datagen/records.js';
import { RedisOutage, checkRedis, keys, parseRedisUrl, RUN_ID, type RedisTarget } from './redis.js';
import { withConnection, type Connection } from './connection.js';
import {
  Coordinator,
  createRun,
  newRunId,
  readRun,
  removeQueuedJobs,
  type FollowOutcome,
  type RunHandler,
  type RunKind,
  type RunRecord,
} from './runs.js';
import { makeSprtSpec, sprtHeader, sprtJobs, SprtTally } from './sprt.js';
import { firstShardAfter, makeDatagenSpec, openDataFile, ShardMerger } from './datagen.js';
import { AnalysisCollector, makeAnalyseSpec } from './analyse.js';
import type { AnalyseSpec, DatagenSpec, SprtSpec } from './specs.js';
import { ClusterWorker } from './worker.js';
import { clusterStatus, formatStatus, liveWorkers } from './status.js';
import { defaultEngines, workerPolicy } from './policy.js';
import { validateRun } from './validate.js';

const CLUSTER_USAGE = `Usage: kirin cluster <command> --redis URL [options]

Runs datagen, SPRT matches and analysis as jobs on a queue in Redis (BullMQ);
workers on any number of machines take the jobs (docs/CLUSTER.md).

Commands:
  worker   --redis URL [--concurrency N] [--name NAME] [--allow-engine CMD]... [--allow-option NAME]...
           [--max-hash MB] [--max-threads N] [--lock-ms MS]
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
--redis, KIRIN_REDIS_URL is used. KIRIN_REDIS_PASSWORD gives a password not in the URL;
KIRIN_REDIS_TLS_CA, KIRIN_REDIS_TLS_CERT and KIRIN_REDIS_TLS_KEY name PEM files for TLS
(a private CA, a client certificate and its key). Each command takes --help.
`;

const WORKER_USAGE = `Usage: kirin cluster worker --redis URL [--concurrency N] [--name NAME]
                            [--allow-engine CMD]... [--allow-option NAME]...
                            [--max-hash MB] [--max-threads N] [--lock-ms MS]

Takes jobs from the queue and runs them, N at a time (default 1). Every run is
checked against what this worker allows before anything of it runs; a run it
refuses fails at once, with the reason.
  --concurrency N     jobs at once (each uses about one core)
  --name NAME         the worker's name in status (default host:pid)
  --allow-engine CMD  an engine command line this worker runs for SPRT jobs (repeatable);
                      compared by what it runs (the program on PATH, paths resolved from
                      this folder); default: this checkout's Kirin (node bin/kirin.js);
                      "any" runs every command (only on a Redis that you alone can write to)
  --allow-option NAME an engine option a job may set besides the usual ones (repeatable;
                      e.g. EvalFile, which reads a file; Debug Log File is never allowed)
  --max-hash MB       the most hash a job may ask for, per engine or search (default 1024)
  --max-threads N     the most threads a job may give an engine (default: the cores)
  --lock-ms MS        job lock (default 30000): a job of a worker that died goes back to
                      the queue about this long after
`;

const SPRT_USAGE = `Usage: kirin cluster sprt --redis URL [--run ID] [--pairs-per-job N] [--attempts N] [--detach]
                          <kirin match arguments>

Plays kirin match's schedule as jobs of N game pairs (default 1) on the workers and
adds up the results: live score and LLR, the run stopped when the SPRT decides,
the final result as kirin match prints it. --concurrency and --debug of kirin match
are the workers' business and are ignored here; --log is written at the end. A run
that a live worker would refuse (an engine or option it does not allow) is refused here.
  --run ID            the run's name (default sprt-<random>)
  --attempts N        tries of a job before the run fails with its error (default 3)
  --detach            queue the run and exit; follow it later with kirin cluster resume ID

${MATCH_USAGE}`;

const DATAGEN_USAGE = `Usage: kirin cluster datagen --redis URL --out FILE [--positions N] [--shard N]
                             [--nodes N | --depth D] [--random-plies P] [--openings FILE]
                             [--seed S] [--max-ply N] [--hash MB] [--run ID] [--attempts N] [--detach]

kirin datagen's self-play data in seeded shards of N positions (default 1000) played
by the workers, merged in shard order into FILE (kirin datagen's format; an existing
file is resumed: a new run with the same seed begins after the shards already in it),
deduplicated, exactly --positions positions in the end.
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
const RESUME_USAGE = `Usage: kirin cluster resume RUN --redis URL [--out FILE]
`;
const CANCEL_USAGE = `Usage: kirin cluster cancel RUN --redis URL
`;

type Print = (line: string) => void;
const out: Print = (l) => process.stdout.write(l + '\n');
const toStderr: Print = (l) => process.stderr.write(l + '\n');

/** Why a command ended without doing its work (see the file's head for the exit codes). */
type ClusterCode = CommandLineCode | 'request' | 'failed';
type Outcome = Result<number, ClusterCode>;

const REDIS_OPTIONS = { redis: { type: 'string' } } as const satisfies OptionsSpec;
const RUN_OPTIONS = {
  ...REDIS_OPTIONS,
  run: { type: 'string' },
  attempts: { type: 'string' },
  detach: { type: 'boolean' },
} as const satisfies OptionsSpec;

const WORKER_SPEC = commandSpec({
  name: 'kirin cluster worker',
  usage: WORKER_USAGE,
  options: {
    ...REDIS_OPTIONS,
    concurrency: { type: 'string' },
    name: { type: 'string' },
    'allow-engine': { type: 'string', multiple: true },
    'allow-option': { type: 'string', multiple: true },
    'max-hash': { type: 'string' },
    'max-threads': { type: 'string' },
    'lock-ms': { type: 'string' },
  },
});

const SPRT_SPEC = commandSpec({
  name: 'kirin cluster sprt',
  usage: SPRT_USAGE,
  options: { ...MATCH_OPTIONS, ...RUN_OPTIONS, 'pairs-per-job': { type: 'string' } },
  groups: [...MATCH_GROUPS],
});

const DATAGEN_SPEC = commandSpec({
  name: 'kirin cluster datagen',
  usage: DATAGEN_USAGE,
  options: {
    ...RUN_OPTIONS,
    positions: { type: 'string' },
    nodes: { type: 'string' },
    depth: { type: 'string' },
    'random-plies': { type: 'string' },
    'max-ply': { type: 'string' },
    hash: { type: 'string' },
    out: { type: 'string' },
    shard: { type: 'string' },
    openings: { type: 'string' },
    seed: { type: 'string' },
  },
});

const ANALYSE_SPEC = commandSpec({
  name: 'kirin cluster analyse',
  usage: ANALYSE_USAGE,
  options: {
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
});

const STATUS_SPEC = commandSpec({
  name: 'kirin cluster status',
  usage: STATUS_USAGE,
  options: { ...REDIS_OPTIONS, json: { type: 'boolean' } },
});

const RESUME_SPEC = commandSpec({
  name: 'kirin cluster resume',
  usage: RESUME_USAGE,
  options: { ...REDIS_OPTIONS, out: { type: 'string' } },
  positionals: { min: 1, max: 1 },
});

const CANCEL_SPEC = commandSpec({
  name: 'kirin cluster cancel',
  usage: CANCEL_USAGE,
  options: REDIS_OPTIONS,
  positionals: { min: 1, max: 1 },
});

const request = (message: string): Result<never, 'request'> => err('request', message);
const failed = (message: string): Result<never, 'failed'> => err('failed', message);

/** A command's command line as read, and the Redis it names (--redis URL, or KIRIN_REDIS_URL). */
interface ClusterCommandLine<O extends OptionsSpec> {
  line: CommandLine<O>;
  target: RedisTarget;
}

/** Reads a command's command line and the Redis URL in it: the first step of every command. */
function readClusterCommand<O extends typeof REDIS_OPTIONS>(
  argv: string[],
  spec: CommandSpec<O>,
): Result<ClusterCommandLine<O>, CommandLineCode> {
  const cl = readCommandLine(argv, spec);
  if (!cl.ok) return cl;
  const url = (cl.value.values as { redis?: string }).redis ?? process.env.KIRIN_REDIS_URL;
  if (!url) return err('arguments', 'give --redis URL (or set KIRIN_REDIS_URL)');
  const t = parseRedisUrl(url);
  return t.ok ? ok({ line: cl.value, target: t.value }) : err('arguments', t.error.message);
}

/**
 * The last step of every command, after its own checks of its command line
 * (made first, so that a bad request is refused as such whether Redis is up or
 * not): Redis reached (a clear error when it does not answer), then `use` with
 * a connection to it and the version it answered with; the connection is
 * closed after, whatever happens.
 */
async function onCluster(t: RedisTarget, use: (c: Connection, version: string) => Promise<Outcome>): Promise<Outcome> {
  const version = await checkRedis(t);
  if (!version.ok) return failed(version.error.message);
  return withConnection(t, (c) => use(c, version.value));
}

/**
 * Checks a run against the policies the live workers publish (validateRun, as
 * each worker will): refused when one of them would refuse it, naming the worker
 * and why; a note when no worker is up.
 */
async function checkLiveWorkers(c: Connection, kind: RunKind, spec: unknown): Promise<Result<string[], 'request'>> {
  const workers = await liveWorkers(c.redis);
  if (workers.length === 0)
    return ok(['Note: no worker is up; each worker checks the run against what it allows when it takes a job']);
  const json = JSON.parse(JSON.stringify(spec)) as unknown;
  const refusals: string[] = [];
  for (const w of workers) {
    if (w.closing || !w.policy) continue;
    const r = validateRun(kind, json, w.policy);
    if (!r.ok) refusals.push(`worker ${w.name} (${w.host}) would refuse it: ${r.error.message}`);
  }
  if (refusals.length)
    return request(
      `${refusals.join('; ')}. Start the workers with what the run needs (--allow-engine, --allow-option, ` +
        '--max-hash, --max-threads) or stop the ones that refuse it.',
    );
  return ok([]);
}

/** The handler that follows a run of its kind, and what it prints at the end. */
interface Follower {
  handler: RunHandler;
  finish(outcome: FollowOutcome, run: RunRecord): Outcome;
}

function follower(
  run: RunRecord,
  coordinator: Coordinator,
  redis: Redis,
  print: Print,
  analyseOut: string | null,
): Result<Follower, 'failed'> {
  switch (run.kind) {
    case 'sprt': {
      const tally = new SprtTally(run.spec as SprtSpec, print);
      return ok({
        handler: tally,
        finish: (o) => {
          for (const l of tally.finalLines()) print(l);
          const written = tally.writeLog();
          return written.ok ? report(o) : failed(written.error.message);
        },
      });
    }
    case 'datagen': {
      const merger = ShardMerger.open(run.spec as DatagenSpec, coordinator, redis, print);
      if (!merger.ok) return failed(merger.error.message);
      return ok({
        handler: merger.value,
        finish: (o) => {
          print(merger.value.finalLine());
          return report(o);
        },
      });
    }
    case 'analyse': {
      const collector = new AnalysisCollector(run.spec as AnalyseSpec);
      return ok({
        handler: collector,
        finish: (o, r) => {
          const text = JSON.stringify(collector.document(r.id), null, 1) + '\n';
          if (!analyseOut) process.stdout.write(text);
          else {
            try {
              writeFileSync(analyseOut, text);
            } catch (e) {
              return failed(`cannot write ${analyseOut}: ${(e as Error).message}`);
            }
          }
          return report(o);
        },
      });
    }
    case 'ping': {
      let n = 0;
      return ok({
        handler: {
          result: () => {
            n++;
            return ok(null);
          },
          check: () => ok(n >= coordinator.run.jobs ? { state: 'done', summary: `${n} jobs` } : null),
          summary: () => `${n}/${coordinator.run.jobs} jobs`,
        },
        finish: (o) => report(o),
      });
    }
  }
}

function report(o: FollowOutcome): Outcome {
  return o.state === 'done' ? ok(0) : failed(`run ${o.state}${o.error ? `: ${o.error}` : ''}`);
}

/** Follows a run to its end (or just queues it with --detach). */
async function followRun(
  t: RedisTarget,
  run: RunRecord,
  detach: boolean,
  analyseOut: string | null,
  print: Print,
): Promise<Outcome> {
  const outage = new RedisOutage(print, `Run ${run.id}: `);
  return withConnection(
    t,
    async (c) => {
      const coordinator = new Coordinator(c.redis, c.queue, run, { print, outage });
      const f = follower(run, coordinator, c.redis, print, analyseOut);
      if (!f.ok) return f;
      if (!(await coordinator.lock())) {
        const holder = await c.redis.get(keys.coordinator(run.id));
        return failed(`run ${run.id} is followed by another coordinator (${holder})`);
      }
      if (detach) {
        // Queue every job, then leave: `resume` follows the run.
        await coordinator.submitAll();
        await coordinator.unlock();
        print(`Run ${run.id}: ${run.jobs} jobs queued; follow it with: kirin cluster resume ${run.id}`);
        return ok(0);
      }
      // Ctrl-C (or SIGTERM) stops following, not the run: the lock is given back at once for a later resume.
      const leave = (): void => {
        print(`Run ${run.id} goes on without a coordinator; follow it again with: kirin cluster resume ${run.id}`);
        void coordinator.unlock().finally(() => process.exit(130));
      };
      process.once('SIGINT', leave);
      process.once('SIGTERM', leave);
      try {
        const outcome = await coordinator.follow(f.value.handler);
        return outcome.ok ? f.value.finish(outcome.value, coordinator.run) : failed(outcome.error.message);
      } finally {
        process.off('SIGINT', leave);
        process.off('SIGTERM', leave);
      }
    },
    outage,
  );
}

/** The run's id (--run, or a new one) and attempts (--attempts), checked. */
function runSettings(
  values: { run?: string; attempts?: string },
  kind: RunKind,
): Result<{ id: string; attempts: number }, 'arguments'> {
  const id = values.run ?? newRunId(kind);
  if (!RUN_ID.test(id)) return err('arguments', `bad run id "${id}" (letters, digits, _ and -, at most 64)`);
  const attempts = integerOption(values, 'attempts', 3, { min: 1, max: 100 });
  return attempts.ok ? ok({ id, attempts: attempts.value }) : attempts;
}

/** Creates a run (after every check) and follows it. */
async function submit(
  c: Connection,
  settings: { id: string; attempts: number; detach: boolean },
  kind: RunKind,
  spec: unknown,
  jobs: number,
  header: string[],
  analyseOut: string | null = null,
): Promise<Outcome> {
  const run = await createRun(c.redis, settings.id, kind, spec, jobs, settings.attempts);
  if (!run.ok) return request(run.error.message);
  const print = kind === 'analyse' && !analyseOut ? toStderr : out;
  print(`Run ${settings.id} (${kind}): ${jobs} jobs, coordinator ${hostname()}:${process.pid}`);
  for (const l of header) print(l);
  return followRun(c.target, run.value, settings.detach, analyseOut, print);
}

async function workerCommand(argv: string[]): Promise<Outcome> {
  const read = readClusterCommand(argv, WORKER_SPEC);
  if (!read.ok) return read;
  const { line, target: t } = read.value;
  const v = line.values;
  const numbers = {
    concurrency: integerOption(v, 'concurrency', 1, { min: 1, max: 1024 }),
    lockMs: integerOption(v, 'lock-ms', 30000, { min: 1000 }),
    maxHash: integerOption(v, 'max-hash', 1024, { min: 1 }),
    maxThreads: integerOption(v, 'max-threads', workerPolicy().maxThreads, { min: 1, max: 1024 }),
  };
  for (const r of Object.values(numbers)) if (!r.ok) return r;
  const num = (k: keyof typeof numbers): number => (numbers[k] as { value: number }).value;
  const name = v.name ?? `${hostname()}:${process.pid}`;
  const policy = workerPolicy({
    engines: v['allow-engine'] ?? defaultEngines(),
    extraOptions: v['allow-option'] ?? [],
    maxHash: num('maxHash'),
    maxThreads: num('maxThreads'),
  });
  // The worker keeps its own clients (worker.ts): the connection here only checks that Redis answers.
  return onCluster(t, async (_c, version) => {
    const concurrency = num('concurrency');
    const w = new ClusterWorker({ target: t, concurrency, name, policy, lockMs: num('lockMs'), print: out });
    const engines = policy.engines.includes('any') ? 'any' : policy.engines.map((a) => `"${a}"`).join(', ');
    out(
      `worker ${name}: ${t.display} (Redis ${version}), concurrency ${concurrency}, engines: ${engines}, ` +
        `hash <= ${policy.maxHash} MB, threads <= ${policy.maxThreads}`,
    );
    return new Promise<Outcome>((resolveExit) => {
      let stopping = false;
      const stop = (): void => {
        if (stopping) {
          out(`worker ${name}: stopping now (the jobs in hand go back to the queue)`);
          process.exit(130);
        }
        stopping = true;
        out(`worker ${name}: finishing the jobs in hand (again to stop at once)`);
        void w.close().then(() => resolveExit(ok(0)));
      };
      process.on('SIGINT', stop);
      process.on('SIGTERM', stop);
    });
  });
}

async function sprtCommand(argv: string[]): Promise<Outcome> {
  const read = readClusterCommand(argv, SPRT_SPEC);
  if (!read.ok) return read;
  const { line, target: t } = read.value;
  const v = line.values;
  const parsed = matchArgsFrom(line);
  if (!parsed.ok) return parsed;
  const pairs = integerOption(v, 'pairs-per-job', 1, { min: 1, max: 100_000 });
  if (!pairs.ok) return pairs;
  const settings = runSettings(v, 'sprt');
  if (!settings.ok) return settings;
  return onCluster(t, async (c) => {
    const spec = await makeSprtSpec(parsed.value, pairs.value);
    if (!spec.ok) return spec;
    const notes = await checkLiveWorkers(c, 'sprt', spec.value);
    if (!notes.ok) return notes;
    if (v.concurrency !== undefined)
      notes.value.push('Note: --concurrency is ignored: each worker runs as many jobs as its own --concurrency');
    if (line.groups.debug) notes.value.push('Note: --debug is ignored: the engines run on the workers');
    return submit(c, { ...settings.value, detach: v.detach === true }, 'sprt', spec.value, sprtJobs(spec.value), [
      ...notes.value,
      sprtHeader(spec.value),
    ]);
  });
}

/** The positions in a data file (none when it does not exist yet), or why it is not one. */
function dataFilePositions(path: string): Result<number, 'request'> {
  const opened = openDataFile(path);
  if (!opened.ok) return request(opened.error.message);
  closeSync(opened.value.fd);
  const r = forEachRecord(path, () => {});
  return r.ok ? r : request(`${path}: ${r.error.message}`);
}

/** The datagen runs Redis remembers (the 1000 newest runs). */
async function datagenRuns(redis: Redis): Promise<RunRecord[]> {
  const runs: RunRecord[] = [];
  for (const id of await redis.zrevrange(keys.runs, 0, 999)) {
    const r = await readRun(redis, id);
    if (r?.kind === 'datagen') runs.push(r);
  }
  return runs;
}

async function datagenCommand(argv: string[]): Promise<Outcome> {
  const read = readClusterCommand(argv, DATAGEN_SPEC);
  if (!read.ok) return read;
  const { line, target: t } = read.value;
  const v = line.values;
  if (!v.out) return err('arguments', '--out FILE is required');
  const n: Record<string, number> = {};
  for (const [name, def, min] of [...DATAGEN_NUMBERS, ['shard', 1000, 1], ['seed', Date.now() % 1000000, 0]] as const) {
    const r = integerOption(v, name, def, { min });
    if (!r.ok) return r;
    n[name] = r.value;
  }
  const settings = runSettings(v, 'datagen');
  if (!settings.ok) return settings;
  const draft = makeDatagenSpec({
    out: v.out,
    positions: n.positions,
    shard: n.shard,
    firstShard: 0,
    seed: n.seed,
    nodes: n.nodes,
    depth: n.depth,
    randomPlies: n['random-plies'],
    maxPly: n['max-ply'],
    hash: n.hash,
    openingsPath: v.openings ?? null,
  });
  if (!draft.ok) return draft;
  // The file: a data file or nothing (checked before anything is queued); its positions count.
  const have = dataFilePositions(draft.value.out);
  if (!have.ok) return have;
  if (have.value >= draft.value.positions) {
    out(
      `kirin cluster datagen: ${draft.value.out} has ${have.value} positions already (target ${draft.value.positions})`,
    );
    return ok(0);
  }
  return onCluster(t, async (c) => {
    // A file that earlier runs of this seed filled: this run begins after their shards.
    const earlier = await datagenRuns(c.redis);
    const d = draft.value;
    const spec: DatagenSpec = { ...d, firstShard: firstShardAfter(earlier, d.out, d.seed, d.shard, have.value) };
    const valid = validateRun('datagen', spec, null);
    if (!valid.ok) return request(valid.error.message);
    const notes = await checkLiveWorkers(c, 'datagen', spec);
    if (!notes.ok) return notes;
    const jobs = Math.ceil((spec.positions - have.value) / spec.shard);
    return submit(c, { ...settings.value, detach: v.detach === true }, 'datagen', spec, jobs, [
      ...notes.value,
      `Datagen: ${spec.positions} positions into ${spec.out}${have.value ? ` (has ${have.value})` : ''}, ` +
        `shards of ${spec.shard}${spec.firstShard ? ` from shard ${spec.firstShard} of the seed` : ''}, ` +
        `${spec.nodes ? `nodes ${spec.nodes}` : `depth ${spec.depth}`}, seed ${spec.seed}, ${spec.openings.length} openings`,
    ]);
  });
}

async function analyseCommand(argv: string[]): Promise<Outcome> {
  const read = readClusterCommand(argv, ANALYSE_SPEC);
  if (!read.ok) return read;
  const { line, target: t } = read.value;
  const v = line.values;
  const options = nameValueOptions(v, 'option');
  if (!options.ok) return options;
  const numbers = {
    depth: integerOption(v, 'depth', 0, { min: 1 }),
    nodes: integerOption(v, 'nodes', 0, { min: 1 }),
    hash: integerOption(v, 'hash', 16, { min: 1 }),
  };
  for (const r of Object.values(numbers)) if (!r.ok) return r;
  const num = (k: keyof typeof numbers): number => (numbers[k] as { value: number }).value;
  const settings = runSettings(v, 'analyse');
  if (!settings.ok) return settings;
  const spec = makeAnalyseSpec({
    positions: v.position ?? [],
    positionFiles: v.positions ?? [],
    games: v.game ?? [],
    gameFiles: v.games ?? [],
    depth: num('depth'),
    nodes: num('nodes'),
    hash: num('hash'),
    options: options.value,
  });
  if (!spec.ok) return spec;
  return onCluster(t, async (c) => {
    const notes = await checkLiveWorkers(c, 'analyse', spec.value);
    if (!notes.ok) return notes;
    for (const l of notes.value) toStderr(l);
    const settled = { ...settings.value, detach: v.detach === true };
    return submit(c, settled, 'analyse', spec.value, spec.value.positions.length, [], v.out ?? null);
  });
}

async function statusCommand(argv: string[]): Promise<Outcome> {
  const read = readClusterCommand(argv, STATUS_SPEC);
  if (!read.ok) return read;
  const { line, target: t } = read.value;
  return onCluster(t, async (c, version) => {
    const s = await clusterStatus(c.redis, c.queue, t.display, version);
    if (line.values.json) out(JSON.stringify(s, null, 1));
    else for (const l of formatStatus(s)) out(l);
    return ok(0);
  });
}

const noRun = (id: string): Outcome => failed(`no run ${id} in Redis (kirin cluster status lists the runs)`);

async function cancelCommand(argv: string[]): Promise<Outcome> {
  const read = readClusterCommand(argv, CANCEL_SPEC);
  if (!read.ok) return read;
  const id = read.value.line.positionals[0];
  return onCluster(read.value.target, async (c) => {
    const run = await readRun(c.redis, id);
    if (!run) return noRun(id);
    if (run.state !== 'running') {
      out(`Run ${id} has ended already (${run.state})`);
      return ok(0);
    }
    await c.redis.hset(keys.run(id), {
      state: 'cancelled',
      finished: Date.now(),
      error: 'cancelled by kirin cluster cancel',
    });
    const done = new Set((await c.redis.hkeys(keys.results(id))).map(Number));
    const removed = await removeQueuedJobs(c.queue, run, done);
    out(`Run ${id} cancelled; ${removed} queued jobs removed`);
    return ok(0);
  });
}

async function resumeCommand(argv: string[]): Promise<Outcome> {
  const read = readClusterCommand(argv, RESUME_SPEC);
  if (!read.ok) return read;
  const { line, target: t } = read.value;
  const id = line.positionals[0];
  return onCluster(t, async (c) => {
    const run = await readRun(c.redis, id);
    if (!run) return noRun(id);
    // Redis holds what anyone who can write to it wrote: the spec is checked as a worker checks it.
    const valid = validateRun(run.kind, run.spec, null);
    if (!valid.ok) return failed(`run ${id} cannot be followed: ${valid.error.message}`);
    const analyseOut = line.values.out ?? null;
    const print = run.kind === 'analyse' && !analyseOut ? toStderr : out;
    print(`Run ${id} (${run.kind}, ${run.state}): ${run.jobs} jobs; coordinator ${hostname()}:${process.pid}`);
    if (run.kind === 'sprt') print(sprtHeader(run.spec as SprtSpec));
    return followRun(t, run, false, analyseOut, print);
  });
}

const COMMANDS: Record<string, { spec: { name: string; usage: string }; run: (argv: string[]) => Promise<Outcome> }> = {
  worker: { spec: WORKER_SPEC, run: workerCommand },
  sprt: { spec: SPRT_SPEC, run: sprtCommand },
  datagen: { spec: DATAGEN_SPEC, run: datagenCommand },
  analyse: { spec: ANALYSE_SPEC, run: analyseCommand },
  analyze: { spec: ANALYSE_SPEC, run: analyseCommand },
  status: { spec: STATUS_SPEC, run: statusCommand },
  resume: { spec: RESUME_SPEC, run: resumeCommand },
  cancel: { spec: CANCEL_SPEC, run: cancelCommand },
};

/** `kirin cluster ...`: the exit code (0 done, 1 a failed run or an error, 2 a bad command line or request). */
export async function runClusterCli(argv: string[]): Promise<number> {
  const [cmd, ...rest] = argv;
  if (cmd === '--help' || cmd === '-h' || cmd === 'help') {
    process.stdout.write(CLUSTER_USAGE);
    return 0;
  }
  const command = cmd === undefined ? undefined : COMMANDS[cmd];
  if (!command) {
    process.stderr.write(
      `kirin cluster: ${cmd === undefined ? 'give a command' : `unknown command "${cmd}"`}\n\n${CLUSTER_USAGE}`,
    );
    return 2;
  }
  let outcome: Outcome;
  try {
    outcome = await command.run(rest);
  } catch (e) {
    // What no step turned into a Result: an error of Redis's client or of the system.
    outcome = failed((e as Error).message);
  }
  if (outcome.ok) return outcome.value;
  const { code, message } = outcome.error;
  if (code === 'help' || code === 'arguments') return reportCommandLine(command.spec, { code, message });
  process.stderr.write(`${command.spec.name}: ${message}\n`);
  return code === 'request' ? 2 : 1;
}
