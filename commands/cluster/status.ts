// `kirin cluster status`: the queue's job counts, the live workers, the
// throughput of the last minutes and the runs with their progress.

import type { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { keys } from './redis.js';
import { readRun, type RunRecord } from './runs.js';
import type { WorkerPolicy } from './policy.js';
import type { WorkerRecord } from './worker.js';

/** A worker's record as read back: its policy (what it runs) null when the record has none of the right shape. */
type WorkerStatus = Omit<WorkerRecord, 'policy'> & { policy: WorkerPolicy | null };

function policyOf(v: unknown): WorkerPolicy | null {
  const p = v as Partial<WorkerPolicy> | null;
  const texts = (l: unknown): l is string[] => Array.isArray(l) && l.every((x) => typeof x === 'string');
  if (typeof p !== 'object' || p === null || !texts(p.engines) || !texts(p.options) || typeof p.cwd !== 'string')
    return null;
  if (typeof p.maxHash !== 'number' || typeof p.maxThreads !== 'number') return null;
  return { engines: p.engines, cwd: p.cwd, options: p.options, maxHash: p.maxHash, maxThreads: p.maxThreads };
}

/** A worker's record as Redis holds it, each field of the right type (a default where it is not). */
function workerStatus(text: string): WorkerStatus | null {
  let v: Record<string, unknown>;
  try {
    v = JSON.parse(text) as Record<string, unknown>;
  } catch {
    return null;
  }
  if (typeof v !== 'object' || v === null || typeof v.name !== 'string') return null;
  const n = (x: unknown): number => (typeof x === 'number' && Number.isFinite(x) ? x : 0);
  return {
    name: v.name,
    host: typeof v.host === 'string' ? v.host : '?',
    pid: n(v.pid),
    concurrency: n(v.concurrency),
    started: n(v.started),
    seen: n(v.seen),
    active: Array.isArray(v.active) ? v.active.map(String) : [],
    done: n(v.done),
    failed: n(v.failed),
    skipped: n(v.skipped),
    refused: n(v.refused),
    closing: v.closing === true,
    policy: policyOf(v.policy),
  };
}

/** The live workers (their records, which live 15 s unless renewed), by name. */
export async function liveWorkers(redis: Redis): Promise<WorkerStatus[]> {
  const workers: WorkerStatus[] = [];
  let cursor = '0';
  do {
    const [next, found] = await redis.scan(cursor, 'MATCH', keys.workerPattern, 'COUNT', 200);
    cursor = next;
    if (found.length) {
      for (const v of await redis.mget(...found)) {
        const w = v === null ? null : workerStatus(v);
        if (w) workers.push(w);
      }
    }
  } while (cursor !== '0');
  return workers.sort((a, b) => a.name.localeCompare(b.name));
}

type RunStatus = Pick<RunRecord, 'id' | 'kind' | 'state' | 'jobs' | 'created' | 'finished' | 'summary' | 'error'> & {
  /** Jobs with a result. */
  results: number;
  /** The coordinator following it (host:pid:token), or null. */
  coordinator: string | null;
};

export interface ClusterStatus {
  redis: string;
  version: string;
  queue: Record<string, number>;
  workers: WorkerStatus[];
  /** Jobs finished in the last minute and the last ten. */
  lastMinute: number;
  lastTenMinutes: number;
  runs: RunStatus[];
}

export async function clusterStatus(
  redis: Redis,
  queue: Queue,
  display: string,
  version: string,
): Promise<ClusterStatus> {
  const counts = await queue.getJobCounts('waiting', 'prioritized', 'active', 'delayed', 'failed', 'completed');
  const workers = await liveWorkers(redis);
  const now = Date.now();
  const lastMinute = await redis.zcount(keys.completions, now - 60000, '+inf');
  const lastTenMinutes = await redis.zcount(keys.completions, now - 600000, '+inf');
  const runs: RunStatus[] = [];
  for (const id of await redis.zrevrange(keys.runs, 0, 19)) {
    const r = await readRun(redis, id);
    if (!r) continue;
    runs.push({
      id,
      kind: r.kind,
      state: r.state,
      jobs: r.jobs,
      results: await redis.hlen(keys.results(id)),
      created: r.created,
      finished: r.finished,
      summary: r.summary,
      error: r.error,
      coordinator: await redis.get(keys.coordinator(id)),
    });
  }
  return { redis: display, version, queue: counts, workers, lastMinute, lastTenMinutes, runs };
}

function ago(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 120) return `${s} s`;
  if (s < 7200) return `${Math.round(s / 60)} min`;
  return `${(s / 3600).toFixed(1)} h`;
}

export function formatStatus(s: ClusterStatus, now = Date.now()): string[] {
  const q = s.queue;
  const out = [
    `Redis ${s.redis} (${s.version}); queue: ${q.waiting + q.prioritized} waiting, ${q.active} active, ${q.delayed} delayed, ${q.failed} failed, ${q.completed} completed (kept)`,
    `Throughput: ${s.lastMinute} jobs in the last minute, ${s.lastTenMinutes} in the last 10 minutes`,
    `Workers: ${s.workers.length} (${s.workers.reduce((a, w) => a + w.concurrency, 0)} job slots)`,
  ];
  for (const w of s.workers) {
    const up = now - w.started;
    const rate = up > 0 ? (w.done * 60000) / up : 0;
    out.push(
      `  ${w.name}: concurrency ${w.concurrency}, ${w.active.length} active, ${w.done} done (${rate.toFixed(1)}/min), ` +
        `${w.failed} failed${w.refused ? `, ${w.refused} refused` : ''}, up ${ago(up)}, seen ${ago(now - w.seen)} ago${w.closing ? ', closing' : ''}`,
    );
  }
  out.push(`Runs: ${s.runs.length}${s.runs.length === 20 ? ' (the 20 newest)' : ''}`);
  for (const r of s.runs) {
    const follow =
      r.state === 'running' ? (r.coordinator ? ', coordinator alive' : ', no coordinator (kirin cluster resume)') : '';
    out.push(
      `  ${r.id} ${r.kind} ${r.state}: ${r.results}/${r.jobs} jobs${follow}, started ${ago(now - r.created)} ago` +
        (r.summary ? `; ${r.summary}` : '') +
        (r.error ? `; error: ${r.error}` : ''),
    );
  }
  return out;
}
