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

import { hostname } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Worker, type Job } from 'bullmq';
import type { Redis } from 'ioredis';
import { PREFIX, QUEUE, STORE_ONCE, keys, bullConnection, type RedisTarget, connect } from './redis.js';
import type { RunKind, WorkContext } from './runs.js';
import { engineAllowed, playPairJob, type SprtSpec } from './sprt.js';
import { generateShard, type DatagenSpec } from './datagen.js';
import { AnalysisEngines, type AnalyseSpec } from './analyse.js';

export interface WorkerSettings {
  target: RedisTarget;
  concurrency: number;
  name: string;
  /** Engine command lines this worker runs ('any': every one). */
  allow: string[];
  /** BullMQ lock of a job (ms): a dead worker's job goes back to the queue about this long after it died. */
  lockMs: number;
  print: (line: string) => void;
}

/** The engines a worker runs without --allow-engine: this checkout's Kirin, as `node bin/kirin.js` or by its full path. */
export function defaultAllowed(): string[] {
  const bin = fileURLToPath(new URL('../../../bin/kirin.js', import.meta.url));
  return ['node bin/kirin.js', `node ${bin}`, bin];
}

interface JobData {
  run: string;
  index: number;
}

interface Counters {
  done: number;
  failed: number;
  skipped: number;
}

/** A running worker: `close()` lets the jobs in hand finish (or, with `now`, drops them to the queue). */
export class ClusterWorker {
  private readonly redis: Redis;
  private readonly worker: Worker;
  private readonly specs = new Map<string, { kind: RunKind; spec: unknown }>();
  private readonly engines = new AnalysisEngines();
  private readonly active = new Set<string>();
  private readonly counters: Counters = { done: 0, failed: 0, skipped: 0 };
  private readonly started = Date.now();
  private heartbeat: NodeJS.Timeout;
  private closing = false;

  constructor(private readonly s: WorkerSettings) {
    this.redis = connect(s.target);
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
    this.worker.on('error', (e) => s.print(`worker ${s.name}: ${e.message}`));
    this.worker.on('failed', (job, e) => {
      if (job) s.print(`worker ${s.name}: job ${job.id} failed (attempt ${job.attemptsMade}): ${e.message}`);
    });
    this.heartbeat = setInterval(() => void this.beat(), 5000);
    void this.beat();
  }

  /** The worker's record for `kirin cluster status` (kept while it lives: a 15 s TTL, refreshed every 5 s). */
  private async beat(): Promise<void> {
    const rec = {
      name: this.s.name,
      host: hostname(),
      pid: process.pid,
      concurrency: this.s.concurrency,
      started: this.started,
      seen: Date.now(),
      active: [...this.active],
      ...this.counters,
      closing: this.closing,
    };
    try {
      await this.redis.set(keys.worker(this.s.name), JSON.stringify(rec), 'EX', 15);
    } catch {
      /* Redis away: the next beat tries again */
    }
  }

  private async spec(run: string): Promise<{ kind: RunKind; spec: unknown } | null> {
    const cached = this.specs.get(run);
    if (cached) return cached;
    const [kind, spec] = await this.redis.hmget(keys.run(run), 'kind', 'spec');
    if (!kind || !spec) return null;
    const v = { kind: kind as RunKind, spec: JSON.parse(spec) as unknown };
    if (this.specs.size > 50) this.specs.delete(this.specs.keys().next().value!);
    this.specs.set(run, v);
    return v;
  }

  private async process(job: Job): Promise<{ stored: number } | { skipped: string }> {
    const { run, index } = job.data as JobData;
    const label = `job ${job.id} (${job.name} ${index})`;
    const state = await this.redis.hget(keys.run(run), 'state');
    if (state !== 'running') {
      this.counters.skipped++;
      return { skipped: state ?? 'no such run' };
    }
    if (await this.redis.hexists(keys.results(run), String(index))) {
      this.counters.skipped++;
      return { skipped: 'result already in' };
    }
    const rec = await this.spec(run);
    if (!rec) throw new Error(`run ${run} has no spec in Redis`);
    let cancelled = false;
    const watch = setInterval(() => {
      this.redis
        .hget(keys.run(run), 'state')
        .then((st) => {
          if (st !== 'running') cancelled = true;
        })
        .catch(() => {});
    }, 1000);
    const ctx: WorkContext = {
      worker: this.s.name,
      cancelled: () => cancelled,
      allowEngine: (cmd) => engineAllowed(cmd, this.s.allow),
    };
    const t0 = Date.now();
    this.active.add(String(job.id));
    this.s.print(`worker ${this.s.name}: ${label} started`);
    try {
      let result: unknown;
      switch (rec.kind) {
        case 'sprt':
          result = await playPairJob(rec.spec as SprtSpec, index, ctx);
          break;
        case 'datagen':
          result = await generateShard(rec.spec as DatagenSpec, index, ctx.cancelled);
          break;
        case 'analyse':
          result = await this.engines.search(rec.spec as AnalyseSpec, index, ctx);
          break;
        case 'ping':
          result = { worker: this.s.name };
          break;
        default:
          throw new Error(`unknown run kind "${String(rec.kind)}"`);
      }
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
    } catch (e) {
      const message = `worker ${this.s.name}: ${(e as Error).message}`;
      const attempts = job.opts.attempts ?? 1;
      if (job.attemptsMade + 1 >= attempts) {
        this.counters.failed++;
        await this.redis.hsetnx(keys.failed(run), String(index), message).catch(() => 0);
      }
      throw new Error(message);
    } finally {
      clearInterval(watch);
      this.active.delete(String(job.id));
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
