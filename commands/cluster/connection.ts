// A connection to the cluster for the length of one piece of work (a command,
// the following of a run, a benchmark's run): a Redis client and the BullMQ
// queue, each made at its first use, both closed after the work whatever
// happens.

import type { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { connect, type RedisOutage, type RedisTarget } from './redis.js';
import { newQueue } from './runs.js';

export class Connection {
  private client: Redis | null = null;
  private bull: Queue | null = null;

  constructor(
    readonly target: RedisTarget,
    private readonly outage: RedisOutage | null = null,
  ) {}

  /** The Redis client (a long-lived one: redis.ts's connect), made at the first use. */
  get redis(): Redis {
    return (this.client ??= connect(this.target, this.outage));
  }

  /** The cluster's queue, made at the first use. */
  get queue(): Queue {
    return (this.bull ??= newQueue(this.target, this.outage));
  }

  /** Closes what was made. */
  async close(): Promise<void> {
    try {
      if (this.bull) await this.bull.close();
    } finally {
      this.client?.disconnect();
    }
  }
}

/**
 * Runs `use` with a connection to `target` (its errors and reconnections to
 * `outage`, when given) and closes it after, whatever happens.
 */
export async function withConnection<T>(
  target: RedisTarget,
  use: (c: Connection) => Promise<T>,
  outage: RedisOutage | null = null,
): Promise<T> {
  const c = new Connection(target, outage);
  try {
    return await use(c);
  } finally {
    await c.close();
  }
}
