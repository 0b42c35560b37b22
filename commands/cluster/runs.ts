// Runs on the cluster's queue: what Redis holds about a run, and the coordinator
// that creates one, queues its jobs and follows it to its end.
//
// A run is a hash (kind, spec, state, job count ...) plus its jobs on the one
// BullMQ queue (job `<run>-<index>`, data { run, index }: the spec is read from
// the run by the worker). A worker stores a job's result with STORE_ONCE: the
// first result of an index is kept and its index pushed to the run's done list;
// a second run of the same job (a worker presumed dead that was only slow)
// changes nothing. So every total is counted from each job once, and a
// coordinator that restarts reads the same results again from Redis.

import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { Queue, type JobsOptions } from 'bullmq';
import type { Redis } from 'ioredis';
import { err, ok, type Result } from '../../src/dev.js';
import {
  PREFIX,
  QUEUE,
  REFRESH_LOCK,
  RUN_ID,
  RedisOutage,
  jobId,
  keys,
  bullConnection,
  type RedisTarget,
} from './redis.js';

export type RunKind = 'sprt' | 'datagen' | 'analyse' | 'ping';
type RunState = 'running' | 'done' | 'failed' | 'cancelled';

/** Lower runs first (BullMQ priority): analysis answers people, datagen fills idle time. */
const PRIORITY: Record<RunKind, number> = { analyse: 1, ping: 2, sprt: 2, datagen: 3 };

export interface RunRecord {
  id: string;
  kind: RunKind;
  spec: unknown;
  state: RunState;
  /** Jobs of the run (a datagen run adds shards when deduplication left it short). */
  jobs: number;
  /** Jobs queued so far (0..jobs). */
  submitted: number;
  attempts: number;
  created: number;
  finished: number;
  /** One line: progress or the final result. */
  summary: string;
  error: string;
  /** Kind-specific progress the coordinator keeps in Redis (datagen: shards merged). */
  merged: number;
}

export function newRunId(kind: RunKind): string {
  return `${kind}-${randomBytes(4).toString('hex')}`;
}

function parseJson(text: string | undefined): unknown {
  try {
    return JSON.parse(text ?? 'null') as unknown;
  } catch {
    return undefined;
  }
}

/** The run's record as Redis holds it (its spec not checked: validateRun), or null when there is none. */
export async function readRun(redis: Redis, id: string): Promise<RunRecord | null> {
  const h = await redis.hgetall(keys.run(id));
  if (!h.kind) return null;
  return {
    id,
    kind: h.kind as RunKind,
    spec: parseJson(h.spec),
    state: h.state as RunState,
    jobs: Number(h.jobs ?? 0),
    submitted: Number(h.submitted ?? 0),
    attempts: Number(h.attempts ?? 1),
    created: Number(h.created ?? 0),
    finished: Number(h.finished ?? 0),
    summary: h.summary ?? '',
    error: h.error ?? '',
    merged: Number(h.merged ?? 0),
  };
}

/** Creates a run (refused when the id exists). */
export async function createRun(
  redis: Redis,
  id: string,
  kind: RunKind,
  spec: unknown,
  jobs: number,
  attempts: number,
): Promise<Result<RunRecord, 'run'>> {
  if (!RUN_ID.test(id)) return err('run', `bad run id "${id}" (letters, digits, _ and -, at most 64)`);
  const run: RunRecord = {
    id,
    kind,
    spec,
    state: 'running',
    jobs,
    submitted: 0,
    attempts,
    created: Date.now(),
    finished: 0,
    summary: '',
    error: '',
    merged: 0,
  };
  const fresh = await redis.hsetnx(keys.run(id), 'kind', kind);
  if (fresh !== 1) return err('run', `run ${id} exists already (follow it with: kirin cluster resume ${id})`);
  const { id: _id, kind: _kind, ...fields } = run;
  await redis
    .multi()
    .hset(keys.run(id), { ...fields, spec: JSON.stringify(spec) })
    .zadd(keys.runs, run.created, id)
    .exec();
  return ok(run);
}

function jobOptions(kind: RunKind, run: string, index: number, attempts: number): JobsOptions {
  return {
    jobId: jobId(run, index),
    priority: PRIORITY[kind],
    attempts,
    backoff: { type: 'exponential', delay: 1000 },
    // Results live in the run's hash; finished jobs are kept a while for inspection.
    removeOnComplete: { age: 3600, count: 10000 },
    removeOnFail: { age: 7 * 86400 },
  };
}

/** The cluster's queue; its connection's errors go to `outage` (one line per outage), or nowhere. */
export function newQueue(target: RedisTarget, outage: RedisOutage | null = null): Queue {
  const queue = new Queue(QUEUE, { connection: bullConnection(target), prefix: PREFIX });
  queue.on('error', outage ? outage.error : () => {});
  return queue;
}

/**
 * Removes the run's jobs except those in `keep` (waiting, delayed, finished); running ones cannot be
 * removed: they see the run's state and stop.
 */
export async function removeQueuedJobs(queue: Queue, run: RunRecord, keep: Set<number>): Promise<number> {
  let removed = 0;
  const chunk = 200;
  for (let from = 0; from < run.submitted; from += chunk) {
    const ids: string[] = [];
    for (let i = from; i < Math.min(run.submitted, from + chunk); i++) if (!keep.has(i)) ids.push(jobId(run.id, i));
    const r = await Promise.all(ids.map((id) => queue.remove(id).catch(() => 0)));
    removed += r.reduce<number>((a, b) => a + b, 0);
  }
  return removed;
}

/** What a job's work function gets from the worker. */
export interface WorkContext {
  /** The worker's name (host:pid or --name). */
  worker: string;
  /** True once the job's run has ended (decided, cancelled, failed): the work stops and its result is dropped. */
  cancelled: () => boolean;
}

/**
 * After a round of results: null to go on, or the end of the run; or an error:
 * 'result' (a stored result that cannot be used: the run fails with it) or
 * 'coordinator' (the coordinator's own trouble, its file: it stops, the run stays).
 */
export type HandlerCheck = Result<RunEnd | null, 'result' | 'coordinator'>;

/** What a run kind's coordinator does with results (see Coordinator.follow). */
export interface RunHandler {
  /**
   * A job's result (any JSON value: Redis holds what a worker, or whoever can write
   * to it, stored): called once per index, in arrival order. `replay` is true for
   * the results that were in Redis when this coordinator began (after a restart).
   * A result of the wrong shape is the error (the run fails with it).
   */
  result(index: number, value: unknown, replay: boolean): Result<null, 'result'>;
  /** After each round of results (HandlerCheck). A handler that needs more jobs calls Coordinator.extend first. */
  check(): Promise<HandlerCheck> | HandlerCheck;
  /** One line for `kirin cluster status`. */
  summary(): string;
}

export type RunEnd = { state: 'done'; summary: string } | { state: 'failed'; summary: string; error: string };

export interface CoordinatorOptions {
  /** How often to look for new results (ms). */
  pollMs?: number;
  /** How often to ask BullMQ about the jobs without a result (failed for good, lost) (ms). */
  reconcileMs?: number;
  /** Lifetime of the coordinator lock (ms); a restarted coordinator waits at most this long for a dead one's lock. */
  lockMs?: number;
  print?: (line: string) => void;
  /** Where Redis errors go (one line per outage); by default a reporter of its own on `print`. */
  outage?: RedisOutage;
}

/** The end of following a run: its final state, with the message of a failure. */
export interface FollowOutcome {
  state: RunState;
  summary: string;
  error: string;
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/**
 * Follows one run: holds its coordinator lock, queues its jobs, hands each
 * result to the handler once, notices jobs that failed for good (or were lost,
 * e.g. by a Redis restart without persistence of the last writes) and ends the
 * run when the handler says so, removing the jobs not needed any more.
 */
export class Coordinator {
  private readonly counted = new Set<number>();
  private readonly failures = new Map<number, string>();
  private doneRead = 0;
  private readonly token = `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
  private readonly pollMs: number;
  private readonly reconcileMs: number;
  private readonly lockMs: number;
  private readonly print: (line: string) => void;
  private lastReconcile = Date.now();
  private lastLock = 0;
  private readonly outage: RedisOutage;

  constructor(
    readonly redis: Redis,
    readonly queue: Queue,
    public run: RunRecord,
    opts: CoordinatorOptions = {},
  ) {
    this.pollMs = opts.pollMs ?? 300;
    this.reconcileMs = opts.reconcileMs ?? 10000;
    this.lockMs = opts.lockMs ?? 10000;
    this.print = opts.print ?? ((l) => process.stdout.write(l + '\n'));
    this.outage = opts.outage ?? new RedisOutage(this.print, `Run ${run.id}: `);
  }

  /** Indices with a result. */
  get done(): ReadonlySet<number> {
    return this.counted;
  }

  /** Takes the run's coordinator lock, waiting for a dead coordinator's to expire; false when another holds it. */
  async lock(waitMs = this.lockMs + 2000): Promise<boolean> {
    const until = Date.now() + waitMs;
    let told = false;
    for (;;) {
      const got = await this.redis.set(keys.coordinator(this.run.id), this.token, 'PX', this.lockMs, 'NX');
      if (got === 'OK') {
        this.lastLock = Date.now();
        return true;
      }
      if (Date.now() >= until) return false;
      if (!told) {
        const holder = await this.redis.get(keys.coordinator(this.run.id));
        this.print(`Run ${this.run.id}: waiting for the lock of the previous coordinator (${holder}) to expire`);
        told = true;
      }
      await sleep(500);
    }
  }

  private async refreshLock(): Promise<Result<null, 'coordinator'>> {
    if (Date.now() - this.lastLock < this.lockMs / 3) return ok(null);
    const r = await this.redis.eval(REFRESH_LOCK, 1, keys.coordinator(this.run.id), this.token, this.lockMs);
    if (Number(r) !== 1) {
      // Expired (this process was stopped for longer than the lock lives): take it again if free.
      const got = await this.redis.set(keys.coordinator(this.run.id), this.token, 'PX', this.lockMs, 'NX');
      if (got !== 'OK') return err('coordinator', `run ${this.run.id}: another coordinator took over`);
    }
    this.lastLock = Date.now();
    return ok(null);
  }

  async unlock(): Promise<void> {
    const k = keys.coordinator(this.run.id);
    if ((await this.redis.get(k)) === this.token) await this.redis.del(k);
  }

  /** Adds `n` jobs to the run (queued by the follow loop). */
  async extend(n: number): Promise<void> {
    this.run.jobs = await this.redis.hincrby(keys.run(this.run.id), 'jobs', n);
  }

  /** Queues every job of the run not queued yet. */
  async submitAll(): Promise<void> {
    await this.submit();
  }

  /** Queues the jobs not queued yet (job ids are fixed, so queuing one twice adds nothing). */
  private async submit(): Promise<void> {
    const chunk = 500;
    while (this.run.submitted < this.run.jobs) {
      const from = this.run.submitted;
      const to = Math.min(this.run.jobs, from + chunk);
      const jobs = [];
      for (let i = from; i < to; i++) {
        if (this.counted.has(i)) continue;
        jobs.push({
          name: this.run.kind,
          data: { run: this.run.id, index: i },
          opts: jobOptions(this.run.kind, this.run.id, i, this.run.attempts),
        });
      }
      if (jobs.length) await this.queue.addBulk(jobs);
      await this.redis.hset(keys.run(this.run.id), 'submitted', to);
      this.run.submitted = to;
    }
  }

  /** New results from the done list (each index once), and new failures; the first unusable result. */
  private async collect(handler: RunHandler, replay = false): Promise<Result<null, 'result'>> {
    let bad: Result<null, 'result'> = ok(null);
    for (;;) {
      const ids = await this.redis.lrange(keys.done(this.run.id), this.doneRead, this.doneRead + 999);
      if (ids.length === 0) break;
      this.doneRead += ids.length;
      const fresh = [...new Set(ids.map(Number))].filter((i) => !this.counted.has(i));
      if (fresh.length) {
        const values = await this.redis.hmget(keys.results(this.run.id), ...fresh.map(String));
        for (let k = 0; k < fresh.length; k++) {
          const v = values[k];
          if (v === null) continue; // lost with a Redis restart: the reconciliation queues the job again
          this.counted.add(fresh[k]);
          const value = parseJson(v);
          const r =
            value === undefined
              ? err('result', `job ${fresh[k]}: its result is not JSON`)
              : handler.result(fresh[k], value, replay);
          if (!r.ok && bad.ok) bad = r;
        }
      }
    }
    const failed = await this.redis.hgetall(keys.failed(this.run.id));
    for (const [i, why] of Object.entries(failed)) {
      const index = Number(i);
      if (!this.counted.has(index)) this.failures.set(index, why);
    }
    return bad;
  }

  /**
   * Asks BullMQ about the jobs without a result, at a bounded cost (a run may
   * have 100,000 jobs queued): the newest failed jobs of the queue, for jobs of
   * this run that failed for good without their worker writing it down (they
   * stalled too often: a worker killed again and again); and the lowest-numbered
   * jobs still without a result, one that Redis no longer knows (lost in a
   * restart that kept not every write) or that ended without a result is
   * queued again.
   */
  private async reconcile(): Promise<void> {
    for (const job of await this.queue.getJobs(['failed'], 0, 199)) {
      const d = job?.data as { run?: string; index?: number } | undefined;
      if (!job || d?.run !== this.run.id || typeof d.index !== 'number') continue;
      if (this.counted.has(d.index) || this.failures.has(d.index)) continue;
      const why = `failed: ${job.failedReason || 'no reason given'}`;
      await this.redis.hsetnx(keys.failed(this.run.id), String(d.index), why);
      this.failures.set(d.index, why);
    }
    const lowest: number[] = [];
    for (let i = 0; i < this.run.submitted && lowest.length < 100; i++)
      if (!this.counted.has(i) && !this.failures.has(i)) lowest.push(i);
    const states = await Promise.all(lowest.map((i) => this.queue.getJobState(jobId(this.run.id, i))));
    for (let n = 0; n < lowest.length; n++) {
      const i = lowest[n];
      if (states[n] !== 'unknown' && states[n] !== 'completed') continue;
      if (await this.redis.hexists(keys.results(this.run.id), String(i))) continue;
      if (states[n] === 'completed') await this.queue.remove(jobId(this.run.id, i)).catch(() => 0);
      await this.queue.add(
        this.run.kind,
        { run: this.run.id, index: i },
        jobOptions(this.run.kind, this.run.id, i, this.run.attempts),
      );
      this.print(`Run ${this.run.id}: job ${i} was lost; queued again`);
    }
  }

  /**
   * Follows the run until its end: its final state; or the coordinator's own
   * trouble (its file, another coordinator took the run), with which it stops and
   * leaves the run to be resumed. Redis going away is waited out (one line when it
   * goes, one when it is back). The caller took the lock.
   */
  async follow(handler: RunHandler): Promise<Result<FollowOutcome, 'coordinator'>> {
    // The results stored before this coordinator began (a restart): read first, quietly.
    let replayed: Result<null, 'result'>;
    for (;;) {
      try {
        replayed = await this.collect(handler, true);
        break;
      } catch (e) {
        this.outage.error(e as Error);
        await sleep(this.pollMs);
      }
    }
    if (this.counted.size) this.print(`Run ${this.run.id}: ${this.counted.size} job results in already`);
    for (;;) {
      try {
        const locked = await this.refreshLock();
        if (!locked.ok) return this.leave(locked.error.message);
        const rec = await readRun(this.redis, this.run.id);
        if (!rec) {
          return ok({
            state: 'failed',
            summary: handler.summary(),
            error: `run ${this.run.id} is no longer in Redis (was Redis restarted without persistence?)`,
          });
        }
        if (rec.state !== 'running') {
          // Ended (by another coordinator, or cancelled): its results as they stand, for the final report.
          await this.collect(handler);
          await this.unlock();
          return ok({ state: rec.state, summary: rec.summary || handler.summary(), error: rec.error });
        }
        if (!replayed.ok) return ok(await this.finish(this.failed(replayed.error.message, handler)));
        this.run.jobs = rec.jobs;
        await this.submit();
        const collected = await this.collect(handler);
        if (!collected.ok) return ok(await this.finish(this.failed(collected.error.message, handler)));
        if (Date.now() - this.lastReconcile >= this.reconcileMs) {
          this.lastReconcile = Date.now();
          await this.reconcile();
        }
        if (this.failures.size > 0) {
          const [index, why] = [...this.failures.entries()].sort((a, b) => a[0] - b[0])[0];
          const more = this.failures.size > 1 ? ` (and ${this.failures.size - 1} more failed jobs)` : '';
          return ok(await this.finish(this.failed(`job ${index} of run ${this.run.id} ${why}${more}`, handler)));
        }
        const end = await handler.check();
        if (!end.ok) {
          if (end.error.code === 'coordinator') return this.leave(end.error.message);
          return ok(await this.finish(this.failed(end.error.message, handler)));
        }
        if (end.value) return ok(await this.finish(end.value));
        await this.redis.hset(keys.run(this.run.id), 'summary', handler.summary());
        this.outage.back();
      } catch (e) {
        this.outage.error(e as Error);
      }
      await sleep(this.pollMs);
    }
  }

  private failed(error: string, handler: RunHandler): RunEnd {
    return { state: 'failed', summary: handler.summary(), error };
  }

  /** Stops following with the coordinator's own trouble: the lock given back, the run left to a resume. */
  private async leave(message: string): Promise<Result<never, 'coordinator'>> {
    await this.unlock().catch(() => {});
    return err(
      'coordinator',
      `${message} (the run goes on without a coordinator: kirin cluster resume ${this.run.id})`,
    );
  }

  /** Ends the run: its state and summary in Redis, the jobs not needed removed, the lock given back. */
  async finish(end: RunEnd): Promise<FollowOutcome> {
    const error = end.state === 'failed' ? end.error : '';
    await this.redis.hset(keys.run(this.run.id), {
      state: end.state,
      summary: end.summary,
      error,
      finished: Date.now(),
    });
    this.run.state = end.state;
    // The jobs not needed any more go; the failed ones stay (for a look at them) until BullMQ ages them out.
    await removeQueuedJobs(this.queue, this.run, new Set([...this.counted, ...this.failures.keys()]));
    await this.unlock();
    return { state: end.state, summary: end.summary, error };
  }
}
