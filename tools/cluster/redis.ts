// The cluster's Redis: the URL (redis:// or rediss:// for TLS, password in the
// URL or in KIRIN_REDIS_PASSWORD; for TLS a private CA and a client certificate
// from KIRIN_REDIS_TLS_CA, KIRIN_REDIS_TLS_CERT and KIRIN_REDIS_TLS_KEY), a
// checked first connection (a clear error when Redis cannot be reached, before
// anything is queued), long-lived clients that wait through a Redis restart
// (one line when Redis goes away, one when it is back: RedisOutage), and the
// names of the keys the cluster keeps beside BullMQ's own (docs/CLUSTER.md).

import { readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import type { ConnectionOptions } from 'bullmq';
import { Redis, type RedisOptions } from 'ioredis';
import { err, ok, type Result } from '../../src/dev.js';

/** BullMQ's key prefix and queue name: the queue's keys are `kirin:jobs:*`. */
export const PREFIX = 'kirin';
export const QUEUE = 'jobs';

/** The cluster's own keys. */
export const keys = {
  /** Sorted set of run ids by creation time. */
  runs: `${PREFIX}:runs`,
  /** Hash: kind, spec (JSON), state, jobs, submitted, created, summary, error ... */
  run: (id: string): string => `${PREFIX}:run:${id}`,
  /** Hash: job index -> result (JSON), written once (HSETNX). */
  results: (id: string): string => `${PREFIX}:run:${id}:results`,
  /** List of job indices in the order their results arrived. */
  done: (id: string): string => `${PREFIX}:run:${id}:done`,
  /** Hash: job index -> the error of a job that failed for good. */
  failed: (id: string): string => `${PREFIX}:run:${id}:failed`,
  /** String with a TTL: the token of the coordinator that follows the run. */
  coordinator: (id: string): string => `${PREFIX}:run:${id}:coordinator`,
  /** String with a TTL: a live worker's record (JSON). */
  worker: (name: string): string => `${PREFIX}:worker:${name}`,
  workerPattern: `${PREFIX}:worker:*`,
  /** Sorted set: finished jobs by time (the last 15 minutes), for throughput. */
  completions: `${PREFIX}:completions`,
};

/** A run id or name: letters, digits, '_' and '-' (BullMQ job ids may not contain ':'). */
export const RUN_ID = /^[A-Za-z0-9_-]{1,64}$/;

/** The BullMQ id of job `index` of run `run`. */
export function jobId(run: string, index: number): string {
  return `${run}-${index}`;
}

/**
 * Stores a job's result once, while its run is running: HSETNX results[index],
 * and only when it was new, RPUSH index to the done list. Returns 1 when
 * stored, 0 when a result was there, -1 when the run has ended (nothing stored:
 * the totals of an ended run do not change).
 * KEYS: results, done, run; ARGV: index, result.
 */
export const STORE_ONCE = `if redis.call('HGET', KEYS[3], 'state') ~= 'running' then
  return -1
end
if redis.call('HSETNX', KEYS[1], ARGV[1], ARGV[2]) == 1 then
  redis.call('RPUSH', KEYS[2], ARGV[1])
  return 1
end
return 0`;

/** Refreshes the coordinator lock when it still holds our token: 1, else 0. */
export const REFRESH_LOCK = `if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('PEXPIRE', KEYS[1], ARGV[2])
end
return 0`;

export interface RedisTarget {
  /** ioredis connection options (host, port, db, password, tls). */
  options: RedisOptions;
  /** The URL without its password, for messages. */
  display: string;
}

function readPem(env: NodeJS.ProcessEnv, name: string): Result<Buffer | undefined, 'redis-url'> {
  const file = env[name];
  if (!file) return ok(undefined);
  try {
    return ok(readFileSync(file));
  } catch (e) {
    return err('redis-url', `${name}: cannot read ${file}: ${(e as Error).message}`);
  }
}

/**
 * Parses a Redis URL: redis://[user[:password]@]host[:port][/db], rediss:// for
 * TLS (with KIRIN_REDIS_TLS_CA, KIRIN_REDIS_TLS_CERT and KIRIN_REDIS_TLS_KEY:
 * PEM files of a private CA and of a client certificate and its key).
 */
export function parseRedisUrl(text: string, env: NodeJS.ProcessEnv = process.env): Result<RedisTarget, 'redis-url'> {
  let u: URL;
  try {
    u = new URL(text);
  } catch {
    return err('redis-url', `bad Redis URL "${text}" (expected redis://host:port or rediss://host:port for TLS)`);
  }
  if (u.protocol !== 'redis:' && u.protocol !== 'rediss:')
    return err('redis-url', `bad Redis URL "${text}": the scheme must be redis:// or rediss:// (TLS)`);
  if (!u.hostname) return err('redis-url', `bad Redis URL "${text}": no host`);
  const port = u.port ? Number(u.port) : 6379;
  const dbText = u.pathname.replace(/^\//, '');
  if (dbText !== '' && !/^\d+$/.test(dbText))
    return err('redis-url', `bad Redis URL "${text}": the path must be a database number`);
  const options: RedisOptions = {
    host: u.hostname.replace(/^\[|\]$/g, ''),
    port,
    db: dbText === '' ? 0 : Number(dbText),
  };
  if (u.username) options.username = decodeURIComponent(u.username);
  const password = u.password ? decodeURIComponent(u.password) : env.KIRIN_REDIS_PASSWORD;
  if (password) options.password = password;
  // TLS: the server's certificate is checked (a private CA: KIRIN_REDIS_TLS_CA or NODE_EXTRA_CA_CERTS); SNI only
  // for a name; a client certificate when Redis asks for one (its tls-auth-clients, on by default).
  if (u.protocol === 'rediss:') {
    const pems: Record<string, Buffer | undefined> = {};
    for (const [field, name] of [
      ['ca', 'KIRIN_REDIS_TLS_CA'],
      ['cert', 'KIRIN_REDIS_TLS_CERT'],
      ['key', 'KIRIN_REDIS_TLS_KEY'],
    ] as const) {
      const r = readPem(env, name);
      if (!r.ok) return r;
      pems[field] = r.value;
    }
    if ((pems.cert === undefined) !== (pems.key === undefined))
      return err(
        'redis-url',
        'give both KIRIN_REDIS_TLS_CERT and KIRIN_REDIS_TLS_KEY (a client certificate and its key)',
      );
    options.tls = {
      ...(isIP(options.host!) ? {} : { servername: options.host }),
      ...(pems.ca ? { ca: pems.ca } : {}),
      ...(pems.cert ? { cert: pems.cert, key: pems.key } : {}),
    };
  }
  const shown = new URL(text);
  if (shown.password) shown.password = '***';
  return ok({ options, display: shown.href.replace(/\/$/, '') });
}

/**
 * Options of a long-lived client: commands wait (forever) while Redis is away and
 * the client reconnects every second or two, so a restarted Redis is picked up
 * by workers and coordinators alike.
 */
function lastingOptions(t: RedisTarget): RedisOptions {
  return {
    ...t.options,
    maxRetriesPerRequest: null,
    retryStrategy: (times: number) => Math.min(250 * times, 2000),
  };
}

/** lastingOptions for BullMQ's queue and workers (it makes its own ioredis clients from them). */
export function bullConnection(t: RedisTarget): ConnectionOptions {
  const o = t.options;
  return {
    host: o.host,
    port: o.port,
    db: o.db,
    username: o.username,
    password: o.password,
    tls: o.tls,
    maxRetriesPerRequest: null,
    retryStrategy: (times: number): number => Math.min(250 * times, 2000),
  };
}

/** Connects once and checks with PING; a clear error when Redis cannot be reached. */
export async function checkRedis(t: RedisTarget, timeoutMs = 5000): Promise<Result<string, 'redis-unreachable'>> {
  const client = new Redis({
    ...t.options,
    lazyConnect: true,
    connectTimeout: timeoutMs,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
    enableOfflineQueue: false,
  });
  let last = '';
  client.on('error', (e: Error) => {
    last = e.message;
  });
  try {
    await client.connect();
    await client.ping();
    const info = await client.info('server');
    const version = /redis_version:([^\r\n]+)/.exec(info)?.[1] ?? '?';
    return ok(version);
  } catch (e) {
    const why = (last || (e as Error).message || 'no answer').replace(/\s+/g, ' ').trim();
    return err('redis-unreachable', `cannot reach Redis at ${t.display}: ${why}${tlsHint(t, why)}`);
  } finally {
    client.disconnect();
  }
}

/** What a TLS failure usually means, for the message. */
function tlsHint(t: RedisTarget, why: string): string {
  if (!t.options.tls) return /ECONNRESET|Connection is closed/i.test(why) ? ' (a TLS port? use rediss://)' : '';
  if (/certificate required|ECONNRESET|alert/i.test(why))
    return (
      ' (Redis asks for a client certificate unless it runs with tls-auth-clients no: give one with ' +
      'KIRIN_REDIS_TLS_CERT and KIRIN_REDIS_TLS_KEY, docs/CLUSTER.md)'
    );
  if (/self[- ]signed|unable to verify|issuer/i.test(why))
    return " (the server's certificate is not trusted: give its CA with KIRIN_REDIS_TLS_CA)";
  return '';
}

/**
 * Redis's comings and goings as lines: the first error of an outage (of any of a
 * process's clients) is printed as `Redis: <why>; trying again`, and the first
 * sign of it back (a client connected again, a round of commands done) as
 * `Redis is back`; everything between is quiet. Errors in the few seconds after
 * it is back are the other clients' late reconnections, not a new outage.
 */
export class RedisOutage {
  private down = false;
  private backAt = 0;

  constructor(
    private readonly print: (line: string) => void,
    private readonly prefix = '',
    private readonly graceMs = 5000,
  ) {}

  /** Whether Redis is away now. */
  get isDown(): boolean {
    return this.down;
  }

  readonly error = (e: Error): void => {
    if (this.down || Date.now() - this.backAt < this.graceMs) return;
    this.down = true;
    this.print(`${this.prefix}Redis: ${e.message || String(e)}; trying again`);
  };

  readonly back = (): void => {
    if (!this.down) return;
    this.down = false;
    this.backAt = Date.now();
    this.print(`${this.prefix}Redis is back`);
  };
}

/** A long-lived client (see lastingOptions); its errors and reconnections go to `outage`, or nowhere. */
export function connect(t: RedisTarget, outage: RedisOutage | null = null): Redis {
  const client = new Redis(lastingOptions(t));
  client.on('error', outage ? outage.error : () => {});
  if (outage) client.on('ready', outage.back);
  return client;
}
