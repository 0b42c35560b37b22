// A private redis-server for the cluster's tests and benchmark: Debian's
// `redis-server` on a free local port, its data in a temporary folder, with
// append-only persistence (fsync on every write) when asked, so that a
// restarted server has everything the cluster was told was stored.

import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';

/** True when `redis-server` can be run here. */
export function haveRedisServer(): boolean {
  return spawnSync('redis-server', ['--version'], { stdio: 'ignore' }).status === 0;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const a = s.address();
      const port = typeof a === 'object' && a ? a.port : 0;
      s.close(() => resolve(port));
    });
  });
}

export interface RedisServerOptions {
  /** Append-only file (default true). */
  persist?: boolean;
  /** When the append-only file is synced: every write (default; nothing acknowledged is lost) or every second. */
  fsync?: 'always' | 'everysec';
}

export class RedisServer {
  private proc: ChildProcess | null = null;
  private constructor(
    readonly dir: string,
    readonly port: number,
    private readonly persist: boolean,
    private readonly fsync: 'always' | 'everysec',
  ) {}

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  static async start(opts: RedisServerOptions = {}): Promise<RedisServer> {
    const dir = mkdtempSync(join(tmpdir(), 'kirin-redis-'));
    for (let attempt = 0; ; attempt++) {
      const s = new RedisServer(dir, await freePort(), opts.persist ?? true, opts.fsync ?? 'always');
      try {
        await s.launch();
        return s;
      } catch (e) {
        s.kill();
        if (attempt >= 4) {
          rmSync(dir, { recursive: true, force: true });
          throw e;
        }
      }
    }
  }

  /** Starts redis-server (again) on the same port and folder and waits until it answers. */
  async launch(): Promise<void> {
    const args = ['--port', String(this.port), '--bind', '127.0.0.1', '--dir', this.dir, '--save', ''];
    if (this.persist) args.push('--appendonly', 'yes', '--appendfsync', this.fsync);
    else args.push('--appendonly', 'no');
    const proc = spawn('redis-server', args, { stdio: ['ignore', 'ignore', 'pipe'] });
    this.proc = proc;
    let exited = false;
    proc.once('exit', () => {
      exited = true;
    });
    const deadline = Date.now() + 20000;
    for (;;) {
      if (exited) throw new Error(`redis-server on port ${this.port} exited at start`);
      const c = new Redis({
        port: this.port,
        host: '127.0.0.1',
        lazyConnect: true,
        retryStrategy: () => null,
        maxRetriesPerRequest: 0,
      });
      c.on('error', () => {});
      try {
        await c.connect();
        await c.ping();
        return;
      } catch {
        if (Date.now() > deadline) throw new Error(`redis-server on port ${this.port} did not answer within 20 s`);
      } finally {
        c.disconnect();
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  /** Kills the server at once (SIGKILL: nothing is saved at exit) and waits for its end. */
  async crash(): Promise<void> {
    const p = this.proc;
    if (!p || p.exitCode !== null || p.signalCode !== null) return;
    await new Promise<void>((resolve) => {
      p.once('exit', () => resolve());
      p.kill('SIGKILL');
    });
  }

  kill(): void {
    this.proc?.kill('SIGKILL');
  }

  /** Stops the server and removes its folder. */
  async stop(): Promise<void> {
    await this.crash();
    rmSync(this.dir, { recursive: true, force: true });
  }
}
