// `kirin cluster` attacked, with a real redis-server: an option value that
// smuggles `setoption name Debug Log File value F` through the coordinator (its
// command line, and its own check of the engines), and a run written straight
// into Redis, as anyone who can write to Redis could, for a worker to take. Kirin
// writes its whole UCI traffic to a Debug Log File, so each attack that got
// through would leave F behind (or append to it: the issue's ~/.bashrc). Then
// the cluster's other doors: engines compared by what they run, a worker's
// refusal reported at once, Redis going away and coming back (one line each),
// and TLS with a client certificate.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { killEngineProcesses, type EngineProcess } from '../../test/support/engine-process.js';
import {
  DEADLINE,
  SKIP_WITHOUT_REDIS,
  attemptsMade,
  cli,
  client,
  exitCode,
  kirin,
  redisServer,
  stopAll,
  worker,
} from '../../test/support/cluster.js';
import { parseTimeControl } from '../match/game.js';
import { parseMatchArgs } from '../match/args.js';
import { unwrap } from '../../test/support/fixtures.js';
import { RedisServer } from './redis-server.js';
import { keys, parseRedisUrl } from './redis.js';
import { createRun, newQueue } from './runs.js';
import { makeSprtSpec } from './sprt.js';
import type { SprtSpec } from './specs.js';

after(killEngineProcesses);

const skip = SKIP_WITHOUT_REDIS;

/** A run of two Kirin games at 100 nodes, as the coordinator would make it, with `engines` in it. */
function forgedSprt(engines: SprtSpec['engines']): SprtSpec {
  const tc = unwrap(parseTimeControl('nodes=100'));
  return {
    engines,
    names: ['a', 'b'],
    tc: [tc, tc],
    games: 2,
    pairs: 1,
    openings: [],
    openingsLabel: 'start position',
    rules: { repetitionRule: 'AsianRule', drawRule: 'None', rule60MaxPly: 120, mateThreatDepth: 0 },
    maxPlies: 600,
    repetitions: 3,
    timeMarginMs: 100,
    moveTimeoutMs: 60000,
    adjudication: { resignMoves: 0, resignScore: 0, drawMoveNumber: 0, drawMoves: 0, drawScore: 0 },
    sprt: null,
    sprtModel: 'pentanomial',
    ratingInterval: 0,
    logFile: null,
  };
}

/** Writes a run and its one job straight into Redis (no coordinator, no check): what a stranger can do. */
async function forge(url: string, id: string, spec: unknown): Promise<void> {
  const c = client(url);
  const queue = newQueue(unwrap(parseRedisUrl(url)));
  try {
    unwrap(await createRun(c, id, 'sprt', spec, 1, 3));
    await queue.add('sprt', { run: id, index: 0 }, { jobId: `${id}-0`, attempts: 3 });
  } finally {
    await queue.close();
    c.disconnect();
  }
}

async function waitFor<T>(what: string, f: () => Promise<T | null>): Promise<T> {
  const until = Date.now() + DEADLINE;
  for (;;) {
    const v = await f();
    if (v !== null) return v;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

test(
  'an option with a line break reaches no engine: the coordinator refuses it, and a worker refuses a run written into Redis',
  { skip },
  async () => {
    const redis = await redisServer({ persist: false });
    const dir = mkdtempSync(join(tmpdir(), 'kirin-cluster-attack-'));
    const c = client(redis.url);
    let w: EngineProcess | null = null;
    try {
      const url = redis.url;
      const trap = join(dir, 'trap.log');
      const inject = `16\nsetoption name Debug Log File value ${trap}`;
      const kirinEngines = ['--engine', 'node bin/kirin.js', '--engine', 'node bin/kirin.js', '--nodes', '100'];
      // The coordinator's command line: refused before its own check starts any engine.
      for (const option of [
        ['--engine-option', `1:Hash=${inject}`],
        ['--option', `Hash=${inject}`],
      ]) {
        // (--detach: were the option let through, the coordinator would queue the run and return at once.)
        const r = await cli(['sprt', '--redis', url, '--detach', ...kirinEngines, '--games', '2', ...option]);
        assert.equal(r.code, 2, r.err);
        assert.match(r.err, /kirin cluster sprt: engine 1: option "Hash" value: LF at offset 2 \(control characters/);
      }
      // The coordinator's own check of the engines (a spec that did not come through its command line).
      const args = unwrap(parseMatchArgs(kirinEngines));
      args.engines[0].options = [['Hash', inject]];
      const spec = await makeSprtSpec(args, 1);
      assert.ok(!spec.ok && /^engine 1: option "Hash" value: LF at offset 2/.test(spec.error.message));
      assert.ok(!existsSync(trap), 'the coordinator started no engine with the option');
      assert.equal(await c.zcard(keys.runs), 0, 'nothing was queued');

      // A run written straight into Redis, for a worker running as its owner: the issue's ~/.bashrc.
      const bashrc = join(dir, 'bashrc');
      const pwned = join(dir, 'PWNED');
      writeFileSync(bashrc, 'echo original\n');
      const kirinSpec = (options: Array<[string, string]>): SprtSpec['engines'][number] => ({
        command: 'node bin/kirin.js',
        options,
      });
      await forge(
        url,
        'forged',
        forgedSprt([
          kirinSpec([['Hash', `16\nsetoption name Debug Log File value ${bashrc}\n x; touch ${pwned}`]]),
          kirinSpec([]),
        ]),
      );
      // The same in an option without a limit of its own (Hash's value must also be a number below --max-hash).
      await forge(
        url,
        'forged-skill',
        forgedSprt([
          kirinSpec([['Skill Level', `10\nsetoption name Debug Log File value ${bashrc}\n x; touch ${pwned}`]]),
          kirinSpec([]),
        ]),
      );
      // The same smuggled through the option's name, and the option itself under its own name.
      await forge(
        url,
        'forged-name',
        forgedSprt([kirinSpec([[`Hash value 16\nsetoption name Debug Log File value ${trap}\nx`, '']]), kirinSpec([])]),
      );
      await forge(url, 'forged-plain', forgedSprt([kirinSpec([['debug log file', trap]]), kirinSpec([])]));
      w = worker(url, 'w1');
      for (const [id, why] of [
        ['forged', /^refused by worker w1: engines\[0\]\.options\[0\]\[1\]: LF at offset 2 \(control characters/],
        ['forged-skill', /^refused by worker w1: engines\[0\]\.options\[0\]\[1\]: LF at offset 2 \(control characters/],
        ['forged-name', /^refused by worker w1: engines\[0\]\.options\[0\]\[0\]: LF at offset 13 /],
        ['forged-plain', /^refused by worker w1: engines\[0\]\.options\[0\]: option "debug log file" is not allowed/],
      ] as const) {
        const failed = await waitFor(`the refusal of ${id}`, async () => c.hget(keys.failed(id), '0'));
        assert.match(failed, why);
        assert.equal(await attemptsMade(url, `${id}-0`), 1, `${id}: a refusal is not tried again`);
      }
      await w.waitFor(/job forged-0 refused: engines\[0\]\.options\[0\]\[1\]: LF at offset 2/, { timeoutMs: DEADLINE });
      assert.equal(readFileSync(bashrc, 'utf8'), 'echo original\n', 'nothing was appended');
      assert.ok(!existsSync(pwned) && !existsSync(trap));
      // status counts the refusals.
      const st = await cli(['status', '--redis', url]);
      assert.match(st.out, /w1: .*, 4 refused,/);
    } finally {
      if (w) await stopAll([w]);
      c.disconnect();
      await redis.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  },
);

test(
  'engines are compared by what they run: node ./bin/kirin.js is bin/kirin.js to the coordinator and the worker',
  { skip },
  async () => {
    const redis = await redisServer({ persist: false });
    const w = worker(redis.url, 'w2');
    try {
      await w.waitFor(/^worker w2: /, { timeoutMs: DEADLINE });
      const r = await cli([
        'sprt',
        '--redis',
        redis.url,
        '--run',
        'dot-slash',
        '--engine',
        'node ./bin/kirin.js',
        '--engine',
        'node bin/kirin.js',
        '--nodes',
        '100',
        '--games',
        '2',
      ]);
      assert.equal(r.code, 0, r.err);
      assert.match(r.out, /Results:/);
      // An engine the worker does not run: refused at the coordinator, naming the worker, before anything is queued.
      const refused = await cli([
        'sprt',
        '--redis',
        redis.url,
        '--run',
        'elsewhere',
        '--engine',
        'node dist/test/support/fake-engine.js',
        '--engine',
        'node bin/kirin.js',
        '--nodes',
        '100',
      ]);
      assert.equal(refused.code, 2);
      assert.equal(
        refused.err.split('\n')[0],
        `kirin cluster sprt: worker w2 (${/\((.*)\) would/.exec(refused.err)?.[1]}) would refuse it: engines[0].command: ` +
          'this worker does not run engine "node dist/test/support/fake-engine.js" (not in its --allow-engine list). ' +
          'Start the workers with what the run needs (--allow-engine, --allow-option, --max-hash, --max-threads) ' +
          'or stop the ones that refuse it.',
        'one message, the worker named once',
      );
      const c = client(redis.url);
      try {
        assert.equal(await c.exists(keys.run('elsewhere')), 0);
      } finally {
        c.disconnect();
      }
    } finally {
      await stopAll([w]);
      await redis.stop();
    }
  },
);

test(
  'Redis going away and coming back: one line each in the worker and the coordinator, no stack dumps',
  { skip },
  async () => {
    const redis = await redisServer();
    const fake = 'node dist/test/support/fake-engine.js';
    const ps: EngineProcess[] = [];
    const outage = async (p: EngineProcess, prefix: string): Promise<void> => {
      await redis.crash();
      await p.waitFor(new RegExp(`^${prefix}Redis: .*; trying again$`), { timeoutMs: DEADLINE });
      await new Promise((r) => setTimeout(r, 3000));
      unwrap(await redis.launch());
      await p.waitFor(new RegExp(`^${prefix}Redis is back$`), { timeoutMs: DEADLINE });
    };
    const count = (p: EngineProcess, re: RegExp): number => p.lines.filter((l) => re.test(l)).length;
    try {
      // A worker, idle.
      const w = worker(redis.url, 'o1', ['--allow-engine', fake]);
      ps.push(w);
      await w.waitFor(/^worker o1: /, { timeoutMs: DEADLINE });
      await outage(w, 'worker o1: ');
      // A coordinator following a run that no worker takes yet.
      await stopAll([w]);
      const coord = kirin([
        'cluster',
        'sprt',
        '--redis',
        redis.url,
        '--run',
        'outage',
        '--engine',
        fake,
        '--engine',
        fake,
        '--nodes',
        '10',
        '--games',
        '2',
      ]);
      ps.push(coord);
      await coord.waitFor(/^Run outage \(sprt\): 1 jobs/, { timeoutMs: DEADLINE });
      await outage(coord, 'Run outage: ');
      // The run goes on: a worker takes it and the coordinator ends it.
      const w2 = worker(redis.url, 'o2', ['--allow-engine', fake]);
      ps.push(w2);
      assert.equal(await exitCode(coord), 0, coord.stderr);
      for (const [p, prefix] of [
        [w, 'worker o1: '],
        [coord, 'Run outage: '],
      ] as const) {
        assert.equal(count(p, new RegExp(`^${prefix}Redis: .*; trying again$`)), 1, p.lines.join('\n'));
        assert.equal(count(p, new RegExp(`^${prefix}Redis is back$`)), 1, p.lines.join('\n'));
        assert.doesNotMatch(p.stderr, /ECONNREFUSED|at TCPConnectWrap/, 'no raw error dumps');
      }
    } finally {
      await stopAll(ps);
      await redis.stop();
    }
  },
);

/** A CA, a server certificate for 127.0.0.1 and a client certificate (openssl), in `dir`; null without openssl. */
function certificates(
  dir: string,
): Record<'ca' | 'caKey' | 'cert' | 'key' | 'clientCert' | 'clientKey', string> | null {
  const f = (name: string): string => join(dir, name);
  const ssl = (...args: string[]): boolean => spawnSync('openssl', args, { stdio: 'ignore' }).status === 0;
  writeFileSync(f('ext.cnf'), 'subjectAltName=IP:127.0.0.1,DNS:localhost\n');
  const made =
    ssl(
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      f('ca.key'),
      '-out',
      f('ca.crt'),
      '-days',
      '2',
      '-subj',
      '/CN=kirin-test-ca',
    ) &&
    ssl(
      'req',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      f('srv.key'),
      '-out',
      f('srv.csr'),
      '-subj',
      '/CN=127.0.0.1',
    ) &&
    ssl(
      'x509',
      '-req',
      '-in',
      f('srv.csr'),
      '-CA',
      f('ca.crt'),
      '-CAkey',
      f('ca.key'),
      '-CAcreateserial',
      '-out',
      f('srv.crt'),
      '-days',
      '2',
      '-extfile',
      f('ext.cnf'),
    ) &&
    ssl(
      'req',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      f('cli.key'),
      '-out',
      f('cli.csr'),
      '-subj',
      '/CN=kirin-worker',
    ) &&
    ssl(
      'x509',
      '-req',
      '-in',
      f('cli.csr'),
      '-CA',
      f('ca.crt'),
      '-CAkey',
      f('ca.key'),
      '-CAcreateserial',
      '-out',
      f('cli.crt'),
      '-days',
      '2',
    );
  if (!made) return null;
  return {
    ca: f('ca.crt'),
    caKey: f('ca.key'),
    cert: f('srv.crt'),
    key: f('srv.key'),
    clientCert: f('cli.crt'),
    clientKey: f('cli.key'),
  };
}

test('TLS as docs/CLUSTER.md says: the CA and a client certificate from the environment', { skip }, async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'kirin-cluster-tls-'));
  const env = { ...process.env };
  const servers: RedisServer[] = [];
  try {
    const certs = certificates(dir);
    if (!certs) return t.skip('openssl is not installed');
    const started = await RedisServer.start({
      persist: false,
      tls: { cert: certs.cert, key: certs.key, ca: certs.ca, authClients: 'yes' },
    });
    if (!started.ok) return t.skip(`this redis-server does not serve TLS (${started.error.message})`);
    const redis = started.value;
    servers.push(redis);
    assert.match(redis.url, /^rediss:\/\//);
    delete process.env.KIRIN_REDIS_TLS_CERT;
    delete process.env.KIRIN_REDIS_TLS_KEY;
    process.env.KIRIN_REDIS_TLS_CA = certs.ca;
    // Redis asks for a client certificate by default (tls-auth-clients yes): without one, the message says so.
    const without = await cli(['status', '--redis', redis.url]);
    assert.equal(without.code, 1);
    assert.match(
      without.err,
      /cannot reach Redis at rediss:\/\/127\.0\.0\.1:\d+: .*KIRIN_REDIS_TLS_CERT and KIRIN_REDIS_TLS_KEY/,
    );
    process.env.KIRIN_REDIS_TLS_CERT = certs.clientCert;
    process.env.KIRIN_REDIS_TLS_KEY = certs.clientKey;
    const st = await cli(['status', '--redis', redis.url, '--json']);
    assert.equal(st.code, 0, st.err);
    assert.equal((JSON.parse(st.out) as { redis: string }).redis, redis.url);
    // The queue (BullMQ's own connections) too: a run queued and cancelled.
    const fake = ['--engine', 'node dist/test/support/fake-engine.js'];
    const queued = await cli([
      'sprt',
      '--redis',
      redis.url,
      '--run',
      'tls',
      '--detach',
      ...fake,
      ...fake,
      '--nodes',
      '10',
      '--games',
      '2',
    ]);
    assert.equal(queued.code, 0, queued.err);
    const cancelled = await cli(['cancel', 'tls', '--redis', redis.url]);
    assert.match(cancelled.out, /Run tls cancelled; 1 queued jobs removed/);
    // A server that asks no client certificate (tls-auth-clients no): the CA is enough.
    const open = unwrap(
      await RedisServer.start({
        persist: false,
        tls: { cert: certs.cert, key: certs.key, ca: certs.ca, authClients: 'no' },
      }),
    );
    servers.push(open);
    delete process.env.KIRIN_REDIS_TLS_CERT;
    delete process.env.KIRIN_REDIS_TLS_KEY;
    assert.equal((await cli(['status', '--redis', open.url])).code, 0);
    // A CA that did not sign the server's certificate: refused, with the hint.
    process.env.KIRIN_REDIS_TLS_CA = certs.clientCert;
    const untrusted = await cli(['status', '--redis', open.url]);
    assert.equal(untrusted.code, 1);
    assert.match(untrusted.err, /KIRIN_REDIS_TLS_CA/);
  } finally {
    for (const k of ['KIRIN_REDIS_TLS_CA', 'KIRIN_REDIS_TLS_CERT', 'KIRIN_REDIS_TLS_KEY']) {
      if (env[k] === undefined) delete process.env[k];
      else process.env[k] = env[k];
    }
    for (const s of servers) await s.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});

test(
  'what Redis holds is checked by the coordinator too: a spec it cannot follow, a result of the wrong shape',
  { skip },
  async () => {
    const redis = await redisServer({ persist: false });
    const c = client(redis.url);
    try {
      const spec = forgedSprt([
        { command: 'node bin/kirin.js', options: [] },
        { command: 'node bin/kirin.js', options: [] },
      ]);
      // A spec with a field the coordinator does not know.
      unwrap(await createRun(c, 'odd', 'sprt', { ...spec, shell: 'touch PWNED' }, 1, 1));
      const odd = await cli(['resume', 'odd', '--redis', redis.url]);
      assert.equal(odd.code, 1);
      assert.match(odd.err, /^kirin cluster resume: run odd cannot be followed: spec: unknown field "shell"/);
      // A result that is not a job's: the run fails with it, nothing of it counted.
      unwrap(await createRun(c, 'forged-result', 'sprt', spec, 1, 1));
      await c.hset(keys.results('forged-result'), '0', JSON.stringify({ wins: 'all of them' }));
      await c.rpush(keys.done('forged-result'), '0');
      const r = await cli(['resume', 'forged-result', '--redis', redis.url]);
      assert.equal(r.code, 1);
      assert.match(r.err, /run failed: job 0: malformed result \(W\/D\/L\)/);
      assert.equal(await c.hget(keys.run('forged-result'), 'state'), 'failed');
      // One that is not JSON at all.
      unwrap(await createRun(c, 'not-json', 'sprt', spec, 1, 1));
      await c.hset(keys.results('not-json'), '0', '{');
      await c.rpush(keys.done('not-json'), '0');
      const n = await cli(['resume', 'not-json', '--redis', redis.url]);
      assert.match(n.err, /run failed: job 0: its result is not JSON/);
    } finally {
      c.disconnect();
      await redis.stop();
    }
  },
);
