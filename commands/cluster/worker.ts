// `kirin cluster worker`: takes jobs from the queue and runs them with the
// project's own match runner, datagen thread and engine, `concurrency` at a time.
//
// A job is { run, index }; the worker reads the run's spec from Redis (once per
// run), skips a job whose run has ended or whose result is in, runs it while
// watching the run's state (a decided or cancelled run stops the job at once),
// and stores the result with STORE_ONCE. A job that throws is retried by
// BullMQ (attempts, exponential back-off); on its last attempt the worker
// writes the error to the run's failures, where the coordinator reports it. A
// worker that dies leaves its jobs locked until the lock expires; then any
// worker's stall check puts them back on the queue (BullMQ).
//
// Nothing in Redis is taken on trust: a run's spec is checked against the
// worker's policy (validate.ts, policy.ts: its shape, text without control
// characters, the engines, options and limits the worker's owner allows)
// before anything runs; a run it refuses fails at once (no retry), with the
// reason in the run, where the coordinator reports it.

import { hostname } from 'node:os';
import { UnrecoverableError, Worker, type Job } from 'bullmq';
import type { Redis } from 'ioredis';
import { err, ok, type Result } from '../../src/dev.js';
import {
  PREFIX,
  QUEUE,
  RUN_ID,
  STORE_ONCE,
  RedisOutage,
  keys,
  bullConnection,
  connect,
  type RedisTarget,
} from './redis.js';
import type { WorkContext } from './runs.js';
import { playPairJob } from './sprt.js';
import { generateShard } from './datagen.js';
import { AnalysisEngines } from './analyse.js';
import type { WorkerPolicy } from './policy.js';
import { validateRun, type ValidRun } from './validate.js';

export interface WorkerSettings {
  target: RedisTarget;
  concurrency: number;
  name: string;
  /** What this worker runs: engines, options, limits (policy.ts). */
  policy: WorkerPolicy;
  /** BullMQ lock of a job (ms): a dead worker's job goes back to the queue about this long after it died. */
  lockMs: number;
  print: (line: string) => void;
}

/** What a worker publishes about itself (`kirin cluster status`, and the coordinator's check of a run). */
export interface WorkerRecord {
  name: string;
  host: string;
  pid: number;
  concurrency: number;
  started: number;
  seen: number;
  active: string[];
  done: number;
  failed: number;
  skipped: number;
  refused: number;
  closing: boolean;
  policy: WorkerPolicy;
}

interface JobData {
  run: string;
  index: number;
}

function jobData(v: unknown): Result<JobData, 'spec'> {
  const d = v as Partial<JobData> | null;
  if (typeof d !== 'object' || d === null || typeof d.run !== 'string' || !RUN_ID.test(d.run))
    return err('spec', 'job data: no run id');
  if (typeof d.index !== 'number' || !Number.isSafeInteger(d.index) || d.index < 0)
    return err('spec', `job data: bad index ${JSON.stringify(d.index)}`);
  if (Object.keys(d).some((k) => k !== 'run' && k !== 'index')) return err('spec', 'job data: unknown fields');
  return ok({ run: d.run, index: d.index });
}

type Counters = Pick<WorkerRecord, 'done' | 'failed' | 'skipped' | 'refused'>;

/** A running worker: `close()` lets the jobs in hand finish (or, with `now`, drops them to the queue). */
export class ClusterWorker {
  private readonly redis: Redis;
  private readonly worker: Worker;
  private readonly outage: RedisOutage;
  /** Each run's spec as checked against this worker's policy (or why it was refused), read once. */
  private readonly specs = new Map<string, Result<ValidRun, 'spec'>>();
  private readonly engines = new AnalysisEngines();
  private readonly active = new Set<string>();
  private readonly counters: Counters = { done: 0, failed: 0, skipped: 0, refused: 0 };
  private readonly started = Date.now();
  private heartbeat: NodeJS.Timeout;
  private closing = false;

  constructor(private readonly s: WorkerSettings) {
    this.outage = new RedisOutage(s.print, `worker ${s.name}: `);
    this.redis = connect(s.target, this.outage);
    this.worker = new Worker(QUEUE, (job: Job) => this.process(job), {
      connection: bullConnection(s.target),
      prefix: PREFIX,
      concurrency: s.concurrency,
      lockDuration: s.lockMs,
      stalledInterval: Math.max(1000, Math.round(s.lockMs / 2)),
      // A job whose worker died twice in a row is still retried; a third time it fails (and is reported).
      maxStalledCount: 2,
      drainDelay: 2,
    });
    this.worker.on('error', this.outage.error);
    this.worker.on('failed', (job, e) => {
      if (job && !(e instanceof UnrecoverableError))
        s.print(`worker ${s.name}: job ${job.id} failed (attempt ${job.attemptsMade}): ${e.message}`);
    });
    this.heartbeat = setInterval(() => void this.beat(), 5000);
    void this.beat();
  }

  /** The worker's record for `kirin cluster status` (kept while it lives: a 15 s TTL, refreshed every 5 s). */
  private async beat(): Promise<void> {
    const rec: WorkerRecord = {
      name: this.s.name,
      host: hostname(),
      pid: process.pid,
      concurrency: this.s.concurrency,
      started: this.started,
      seen: Date.now(),
      active: [...this.active],
      ...this.counters,
      closing: this.closing,
      policy: this.s.policy,
    };
    try {
      await this.redis.set(keys.worker(this.s.name), JSON.stringify(rec), 'EX', 15);
    } catch {
      /* Redis away: the next beat tries again */
    }
  }

  /** The run's spec, checked against this worker's policy once per run (validateRun). */
  private async spec(run: string): Promise<Result<ValidRun, 'spec'>> {
    const cached = this.specs.get(run);
    if (cached) return cached;
    const [kind, spec] = await this.redis.hmget(keys.run(run), 'kind', 'spec');
    if (!kind || !spec) return err('spec', `run ${run} has no spec in Redis`);
    let parsed: unknown;
    try {
      parsed = JSON.parse(spec) as unknown;
    } catch {
      return err('spec', `run ${run}: its spec is not JSON`);
    }
    const v = validateRun(kind, parsed, this.s.policy);
    if (this.specs.size > 50) this.specs.delete(this.specs.keys().next().value!);
    this.specs.set(run, v);
    return v;
  }

  /** A job this worker will not run: reported in the run (the coordinator ends it with this), not retried. */
  private async refuse(job: Job, run: string | null, index: number, why: string): Promise<never> {
    this.counters.refused++;
    const message = `refused by worker ${this.s.name}: ${why}`;
    this.s.print(`worker ${this.s.name}: job ${job.id} refused: ${why}`);
    if (run !== null) await this.redis.hsetnx(keys.failed(run), String(index), message).catch(() => 0);
    void this.beat();
    throw new UnrecoverableError(message);
  }

  private async process(job: Job): Promise<{ stored: number } | { skipped: string }> {
    const data = jobData(job.data);
    if (!data.ok) return this.refuse(job, null, 0, data.error.message);
    const { run, index } = data.value;
    const label = `job ${job.id} (${job.name} ${index})`;
    const [state, jobs] = await this.redis.hmget(keys.run(run), 'state', 'jobs');
    if (state !== 'running') {
      this.counters.skipped++;
      return { skipped: state ?? 'no such run' };
    }
    if (await this.redis.hexists(keys.results(run), String(index))) {
      this.counters.skipped++;
      return { skipped: 'result already in' };
    }
    const rec = await this.spec(run);
    if (!rec.ok) return this.refuse(job, run, index, rec.error.message);
    if (job.name !== rec.value.kind)
      return this.refuse(job, run, index, `a ${job.name} job in a ${rec.value.kind} run`);
    if (index >= Number(jobs)) return this.refuse(job, run, index, `job ${index} of a run of ${Number(jobs)} jobs`);
    let cancelled = false;
    const watch = setInterval(() => {
      this.redis
        .hget(keys.run(run), 'state')
        .then((st) => {
          if (st !== 'running') cancelled = true;
        })
        .catch(() => {});
    }, 1000);
    const ctx: WorkContext = { worker: this.s.name, cancelled: () => cancelled };
    const t0 = Date.now();
    this.active.add(String(job.id));
    this.s.print(`worker ${this.s.name}: ${label} started`);
    try {
      const r = await this.run(rec.value, index, ctx);
      if (!r.ok) {
        const attempts = job.opts.attempts ?? 1;
        if (job.attemptsMade + 1 >= attempts) {
          this.counters.failed++;
          await this.redis
            .hsetnx(
              keys.failed(run),
              String(index),
              `failed after ${attempts} attempt(s): worker ${this.s.name}: ${r.error.message}`,
            )
            .catch(() => 0);
        }
        // BullMQ's way to fail a job (it retries it, with back-off, until its attempts are used up).
        throw new Error(r.error.message);
      }
      const result = r.value;
      if (result === null || cancelled) {
        this.counters.skipped++;
        this.s.print(`worker ${this.s.name}: ${label} stopped: the run has ended`);
        return { skipped: 'run ended' };
      }
      const stored = Number(
        await this.redis.eval(
          STORE_ONCE,
          3,
          keys.results(run),
          keys.done(run),
          keys.run(run),
          String(index),
          JSON.stringify(result),
        ),
      );
      this.counters.done++;
      const now = Date.now();
      await this.redis
        .multi()
        .zadd(keys.completions, now, `${job.id}:${job.attemptsStarted}`)
        .zremrangebyscore(keys.completions, 0, now - 15 * 60000)
        .exec();
      this.s.print(
        `worker ${this.s.name}: ${label} done in ${((now - t0) / 1000).toFixed(1)} s` +
          (stored === 1
            ? ''
            : stored === 0
              ? ' (a result was in already: not counted again)'
              : ' (the run had ended: dropped)'),
      );
      return { stored };
    } finally {
      clearInterval(watch);
      this.active.delete(String(job.id));
    }
  }

  /** Runs one job of a checked run: its result, null when the run ended meanwhile, or why it failed. */
  private async run(rec: ValidRun, index: number, ctx: WorkContext): Promise<Result<unknown, 'job'>> {
    switch (rec.kind) {
      case 'sprt':
        return playPairJob(rec.spec, index, ctx);
      case 'datagen':
        return generateShard(rec.spec, index, ctx.cancelled);
      case 'analyse':
        return this.engines.search(rec.spec, index, ctx);
      case 'ping':
        return ok({ worker: this.s.name });
    }
  }

  /** Stops taking jobs; waits for the ones in hand unless `now`. */
  async close(now = false): Promise<void> {
    this.closing = true;
    clearInterval(this.heartbeat);
    await this.worker.close(now);
    await this.engines.close();
    await this.redis.del(keys.worker(this.s.name)).catch(() => 0);
    this.redis.disconnect();
  }
}
