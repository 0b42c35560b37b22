// `kirin cluster status`: the queue's job counts, the live workers, the
// throughput of the last minutes and the runs with their progress.

import type { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { keys } from './redis.js';
import { readRun, type RunKind, type RunState } from './runs.js';

interface WorkerStatus {
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
  closing: boolean;
}

interface RunStatus {
  id: string;
  kind: RunKind;
  state: RunState;
  jobs: number;
  results: number;
  created: number;
  finished: number;
  summary: string;
  error: string;
  /** The coordinator following it (host:pid:token), or null. */
  coordinator: string | null;
}

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
  const workers: WorkerStatus[] = [];
  let cursor = '0';
  do {
    const [next, found] = await redis.scan(cursor, 'MATCH', keys.workerPattern, 'COUNT', 200);
    cursor = next;
    if (found.length) {
      for (const v of await redis.mget(...found)) if (v) workers.push(JSON.parse(v) as WorkerStatus);
    }
  } while (cursor !== '0');
  workers.sort((a, b) => a.name.localeCompare(b.name));
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
        `${w.failed} failed, up ${ago(up)}, seen ${ago(now - w.seen)} ago${w.closing ? ', closing' : ''}`,
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
