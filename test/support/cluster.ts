// Test support for `kirin cluster`'s tests (tools/cluster/*.test.ts): kirin
// processes (workers, coordinators) and their exits, the CLI in this process
// with its output caught, a plain Redis client, and the queue's counts.

import assert from 'node:assert/strict';
import { Redis } from 'ioredis';
import { EngineProcess } from './engine-process.js';
import { parseRedisUrl } from '../../tools/cluster/redis.js';
import { newQueue } from '../../tools/cluster/runs.js';
import { runClusterCli } from '../../tools/cluster/cli.js';
import { RedisServer, haveRedisServer } from '../../tools/cluster/redis-server.js';
import { unwrap } from './fixtures.js';

/** Why the cluster's tests are skipped here, or false. */
export const SKIP_WITHOUT_REDIS = haveRedisServer()
  ? false
  : 'redis-server is not installed (Debian: apt-get install -y redis-server)';

/** The longest wait for a run or a line (a loaded machine is slow; a broken cluster never gets there). */
export const DEADLINE = 300_000;

/** A private redis-server (redis-server.ts); the test fails when it does not start. */
export async function redisServer(opts: Parameters<typeof RedisServer.start>[0] = {}): Promise<RedisServer> {
  return unwrap(await RedisServer.start(opts));
}

export function kirin(args: string[]): EngineProcess {
  return new EngineProcess(args);
}

/** A worker with a short job lock, so that a killed worker's job is back on the queue within seconds. */
export function worker(url: string, name: string, extra: string[] = []): EngineProcess {
  return kirin(['cluster', 'worker', '--redis', url, '--name', name, '--lock-ms', '3000', ...extra]);
}

export async function stopAll(ps: EngineProcess[]): Promise<void> {
  for (const p of ps) if (p.proc.exitCode === null && p.proc.signalCode === null) p.proc.kill('SIGTERM');
  await Promise.all(
    ps.map((p) =>
      Promise.race([p.exited, new Promise((r) => setTimeout(r, 20000))]).then(() => {
        if (p.proc.exitCode === null && p.proc.signalCode === null) p.proc.kill('SIGKILL');
      }),
    ),
  );
}

export async function exitCode(p: EngineProcess, timeoutMs = DEADLINE): Promise<number | null> {
  let timer: NodeJS.Timeout | undefined;
  const code = await Promise.race([
    p.exited,
    new Promise<'timeout'>((r) => {
      timer = setTimeout(() => r('timeout'), timeoutMs);
    }),
  ]);
  clearTimeout(timer);
  if (code === 'timeout') {
    p.proc.kill('SIGKILL');
    throw new Error(`timed out; output:\n${p.lines.join('\n')}\n${p.stderr}`);
  }
  return code;
}

/** The jobs of the queue that wait (waiting or prioritized). */
export async function waitingJobs(url: string): Promise<number> {
  const t = parseRedisUrl(url);
  assert.ok(t.ok);
  const q = newQueue(t.value);
  try {
    const n = await q.getJobCounts('waiting', 'prioritized', 'delayed');
    return n.waiting + n.prioritized + n.delayed;
  } finally {
    await q.close();
  }
}

export async function attemptsMade(url: string, id: string): Promise<number | undefined> {
  const t = parseRedisUrl(url);
  assert.ok(t.ok);
  const q = newQueue(t.value);
  try {
    return (await q.getJob(id))?.attemptsMade;
  } finally {
    await q.close();
  }
}

/** `kirin cluster ...` in this process: its exit code and what it printed. */
export async function cli(args: string[]): Promise<{ code: number; out: string; err: string }> {
  const out = process.stdout.write;
  const err = process.stderr.write;
  let o = '';
  let e = '';
  process.stdout.write = (chunk: string | Uint8Array) => {
    o += String(chunk);
    return true;
  };
  process.stderr.write = (chunk: string | Uint8Array) => {
    e += String(chunk);
    return true;
  };
  try {
    const code = await runClusterCli(args);
    return { code, out: o, err: e };
  } finally {
    process.stdout.write = out;
    process.stderr.write = err;
  }
}

export function client(url: string): Redis {
  const c = new Redis(url, { maxRetriesPerRequest: 1 });
  c.on('error', () => {});
  return c;
}
