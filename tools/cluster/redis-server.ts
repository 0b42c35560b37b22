// A private redis-server for the cluster's tests and benchmark: Debian's
// `redis-server` on a free local port, its data in a temporary folder, with
// append-only persistence (fsync on every write) when asked, so that a
// restarted server has everything the cluster was told was stored; over TLS
// when given a certificate (Debian's build has TLS).

import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { err, ok, type Result } from '../../src/dev.js';

/** True when `redis-server` can be run here. */
export function haveRedisServer(): boolean {
  return spawnSync('redis-server', ['--version'], { stdio: 'ignore' }).status === 0;
}

function freePort(): Promise<Result<number, 'redis-server'>> {
  return new Promise((resolve) => {
    const s = createServer();
    s.once('error', (e) => resolve(err('redis-server', `no free port: ${e.message}`)));
    s.listen(0, '127.0.0.1', () => {
      const a = s.address();
      const port = typeof a === 'object' && a ? a.port : 0;
      s.close(() => resolve(ok(port)));
    });
  });
}

/** The server's TLS: PEM files of its certificate, its key and the CA it trusts for client certificates. */
interface RedisTls {
  cert: string;
  key: string;
  ca: string;
  /** Whether clients must show a certificate (Redis's tls-auth-clients; its default is yes). */
  authClients: 'yes' | 'no' | 'optional';
}

export interface RedisServerOptions {
  /** Append-only file (default true). */
  persist?: boolean;
  /** When the append-only file is synced: every write (default; nothing acknowledged is lost) or every second. */
  fsync?: 'always' | 'everysec';
  /** Serve TLS only (rediss://), with these files. */
  tls?: RedisTls;
}

export class RedisServer {
  private proc: ChildProcess | null = null;
  private constructor(
    readonly dir: string,
    readonly port: number,
    private readonly opts: RedisServerOptions,
  ) {}

  get url(): string {
    return `${this.opts.tls ? 'rediss' : 'redis'}://127.0.0.1:${this.port}`;
  }

  /** A server on a free port, answering; or why it would not start (its output's last lines). */
  static async start(opts: RedisServerOptions = {}): Promise<Result<RedisServer, 'redis-server'>> {
    const dir = mkdtempSync(join(tmpdir(), 'kirin-redis-'));
    let last: Result<never, 'redis-server'> = err('redis-server', 'redis-server did not start');
    // A few tries: another process may take the free port between the look and the start.
    for (let attempt = 0; attempt < 5; attempt++) {
      const port = await freePort();
      if (!port.ok) return port;
      const s = new RedisServer(dir, port.value, opts);
      const launched = await s.launch();
      if (launched.ok) return ok(s);
      s.kill();
      last = launched;
    }
    rmSync(dir, { recursive: true, force: true });
    return last;
  }

  /** Starts redis-server (again) on the same port and folder and waits until it answers. */
  async launch(): Promise<Result<null, 'redis-server'>> {
    const o = this.opts;
    const args = ['--bind', '127.0.0.1', '--dir', this.dir, '--save', ''];
    if (o.tls) {
      args.push('--port', '0', '--tls-port', String(this.port));
      args.push('--tls-cert-file', o.tls.cert, '--tls-key-file', o.tls.key, '--tls-ca-cert-file', o.tls.ca);
      args.push('--tls-auth-clients', o.tls.authClients);
    } else args.push('--port', String(this.port));
    if (o.persist ?? true) args.push('--appendonly', 'yes', '--appendfsync', o.fsync ?? 'always');
    else args.push('--appendonly', 'no');
    const proc = spawn('redis-server', args, { stdio: ['ignore', 'pipe', 'pipe'] });
    this.proc = proc;
    let exited = false;
    let output = '';
    const keep = (chunk: Buffer): void => {
      output = (output + chunk.toString()).slice(-2000);
    };
    proc.stdout.on('data', keep);
    proc.stderr.on('data', keep);
    proc.once('exit', () => {
      exited = true;
    });
    const tls = o.tls
      ? {
          ca: readFileSync(o.tls.ca),
          ...(o.tls.authClients === 'yes' ? { cert: readFileSync(o.tls.cert), key: readFileSync(o.tls.key) } : {}),
        }
      : undefined;
    const deadline = Date.now() + 20000;
    for (;;) {
      if (exited) {
        const last = output.trim().split('\n').slice(-3).join(' | ');
        return err('redis-server', `redis-server on port ${this.port} exited at start: ${last}`);
      }
      const c = new Redis({
        port: this.port,
        host: '127.0.0.1',
        lazyConnect: true,
        retryStrategy: () => null,
        maxRetriesPerRequest: 0,
        ...(tls ? { tls } : {}),
      });
      c.on('error', () => {});
      try {
        await c.connect();
        await c.ping();
        return ok(null);
      } catch {
        if (Date.now() > deadline)
          return err('redis-server', `redis-server on port ${this.port} did not answer within 20 s`);
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
