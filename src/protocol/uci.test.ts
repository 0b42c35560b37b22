// End-to-end protocol tests: the real `kirin` binary in a child process.

import assert from 'node:assert/strict';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { join } from 'node:path';
import { test } from 'node:test';
import { repoRoot } from '../../test/support/fixtures.js';

const BIN = join(repoRoot(), 'bin', 'kirin.js');

class EngineProcess {
  readonly proc: ChildProcessWithoutNullStreams;
  readonly lines: string[] = [];
  stderr = '';
  private waiters: Array<() => void> = [];
  readonly exited: Promise<number | null>;

  constructor(args: string[] = []) {
    this.proc = spawn(process.execPath, [BIN, ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
    let buf = '';
    this.proc.stdout.on('data', (d: Buffer) => {
      buf += d.toString();
      let i: number;
      while ((i = buf.indexOf('\n')) >= 0) {
        this.lines.push(buf.slice(0, i));
        buf = buf.slice(i + 1);
      }
      for (const w of this.waiters.splice(0)) w();
    });
    this.proc.stderr.on('data', (d: Buffer) => {
      this.stderr += d.toString();
      for (const w of this.waiters.splice(0)) w();
    });
    this.exited = new Promise((r) => this.proc.on('exit', (code) => r(code)));
  }

  send(cmd: string): void {
    this.proc.stdin.write(cmd + '\n');
  }

  /** Waits for a line matching `re` after index `from`; returns its index. */
  async waitFor(re: RegExp, timeoutMs = 20000, from = 0): Promise<number> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      for (let i = from; i < this.lines.length; i++) if (re.test(this.lines[i])) return i;
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`timed out waiting for ${re}; got:\n${this.lines.join('\n')}\n${this.stderr}`);
      await new Promise<void>((r) => {
        const t = setTimeout(r, left);
        this.waiters.push(() => {
          clearTimeout(t);
          r();
        });
      });
    }
  }

  async quit(): Promise<number | null> {
    this.send('quit');
    return this.exited;
  }
}

test('uci handshake lists the options and uciok; isready answers', async () => {
  const e = new EngineProcess();
  e.send('uci');
  await e.waitFor(/^uciok$/);
  assert.match(e.lines[0], /^id name Kirin /);
  const opts = e.lines.filter((l) => l.startsWith('option name '));
  for (const name of ['Hash', 'Clear Hash', 'Ponder', 'MultiPV', 'Move Overhead', 'nodestime', 'UCI_ShowWDL', 'LU_Output',
    'ScoreType', 'Rule60MaxPly', 'Repetition Rule', 'DrawRule', 'Mate Threat Depth']) {
    assert.ok(opts.some((l) => l.startsWith(`option name ${name} type `)), `option ${name} listed`);
  }
  e.send('isready');
  await e.waitFor(/^readyok$/);
  assert.equal(await e.quit(), 0);
});

test('go depth gives info lines and a legal bestmove with ponder', async () => {
  const e = new EngineProcess();
  e.send('position startpos moves h2e2 h9g7');
  e.send('go depth 6');
  const i = await e.waitFor(/^bestmove /);
  assert.match(e.lines[i], /^bestmove [a-i][0-9][a-i][0-9]( ponder [a-i][0-9][a-i][0-9])?$/);
  const infos = e.lines.filter((l) => l.startsWith('info depth'));
  assert.ok(infos.length >= 6, 'an info line per iteration');
  assert.match(infos.at(-1)!, /^info depth 6 seldepth \d+ multipv 1 score (cp -?\d+|mate -?\d+)( lowerbound| upperbound)? nodes \d+ nps \d+ hashfull \d+ tbhits 0 time \d+ pv( [a-i]\d[a-i]\d)+$/);
  assert.equal(await e.quit(), 0);
});

test('isready and stop are answered promptly during an infinite search', async () => {
  const e = new EngineProcess();
  e.send('go infinite');
  await e.waitFor(/^info depth 3 /);
  const n = e.lines.length;
  const t0 = Date.now();
  e.send('isready');
  await e.waitFor(/^readyok$/, 20000, n);
  const readyMs = Date.now() - t0;
  assert.ok(!e.lines.slice(n).some((l) => l.startsWith('bestmove')), 'infinite search keeps running after isready');
  e.send('stop');
  await e.waitFor(/^bestmove [a-i]\d[a-i]\d/, 20000, n);
  // Generous bound: the protocol thread never waits for the search (a blocked loop would take seconds).
  assert.ok(readyMs < 2000, `readyok after ${readyMs} ms`);
  assert.equal(await e.quit(), 0);
});

test('bad input gets clear errors and never kills the engine or loses the position', async () => {
  const e = new EngineProcess();
  e.send('position startpos moves h2e2');
  e.send('position fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABN w - - 0 1');
  e.send('position startpos moves h2e2 h9g7 a0a5');
  e.send('position fen rnbakabnr/9/1c5c1/p1p1p1x1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1');
  e.send('position banana');
  e.send('frobnicate now');
  e.send('setoption name Hash value 0');
  e.send('setoption name NoSuchOption value 3');
  e.send('setoption name MultiPV value many');
  e.send('go depth x movetime 300');
  await e.waitFor(/^bestmove /);
  e.send('d');
  await e.waitFor(/^Judgement: /);
  const text = e.lines.join('\n');
  assert.match(text, /info string ERROR: .*rank 0 .*has 8 files, expected 9.*position unchanged/);
  assert.match(text, /info string ERROR: move 3 of the list: 'a0a5' is not a legal move/);
  assert.match(text, /info string ERROR: .*unknown piece letter 'x'/);
  assert.match(text, /info string ERROR: position must be followed by 'startpos' or 'fen/);
  assert.match(text, /Unknown command: 'frobnicate now'/);
  assert.match(text, /info string ERROR: Hash value 0 is out of range 1\.\.\d+; keeping 16/);
  assert.match(text, /info string ERROR: No such option: NoSuchOption/);
  assert.match(text, /info string ERROR: MultiPV must be an integer/);
  assert.match(text, /info string ERROR: 'go depth' needs an integer value, got 'x'/);
  // The position set before the bad commands is still there.
  assert.match(text, /Fen: rnbakabnr\/9\/1c5c1\/p1p1p1p1p\/9\/9\/P1P1P1P1P\/1C2C4\/9\/RNBAKABNR b - - 1 1/);
  assert.equal(await e.quit(), 0);
});

test('d shows board, fen, key, checkers and the judgement line', async () => {
  const e = new EngineProcess();
  e.send('position fen 4k4/9/9/9/9/9/9/9/4R4/3K5 b - - 0 1');
  e.send('d');
  await e.waitFor(/^Judgement: /);
  const text = e.lines.join('\n');
  assert.match(text, /\| k \| +\| +\| +\| +\| 9/);
  assert.match(text, /Fen: 4k4\/9\/9\/9\/9\/9\/9\/9\/4R4\/3K5 b - - 0 1/);
  assert.match(text, /Key: [0-9A-F]{16}/);
  assert.match(text, /Checkers: e1/);
  assert.match(text, /Judgement: none/);
  assert.equal(await e.quit(), 0);
});

test('go perft prints the divide and the total', async () => {
  const e = new EngineProcess();
  e.send('go perft 3');
  const i = await e.waitFor(/^Nodes searched: /);
  assert.equal(e.lines[i], 'Nodes searched: 79666');
  const divide = e.lines.filter((l) => /^[a-i]\d[a-i]\d: \d+$/.test(l));
  assert.equal(divide.length, 44);
  assert.equal(divide.reduce((s, l) => s + Number(l.split(': ')[1]), 0), 79666);
  assert.equal(await e.quit(), 0);
});

test('end of input exits cleanly, even during a search', async () => {
  const e = new EngineProcess();
  e.send('go infinite');
  await e.waitFor(/^info depth 2 /);
  e.proc.stdin.end();
  assert.equal(await e.exited, 0);
  assert.ok(e.lines.some((l) => l.startsWith('bestmove ')));
});

test('bench node count is identical run to run', async () => {
  const run = async () => {
    const e = new EngineProcess(['bench', '16', '1', '5']);
    assert.equal(await e.exited, 0);
    const m = /Nodes searched\s*: (\d+)/.exec(e.stderr);
    assert.ok(m, e.stderr);
    assert.match(e.stderr, /Position: 49\/49/);
    assert.match(e.stderr, /Nodes\/second\s*: \d+/);
    return Number(m[1]);
  };
  const a = await run();
  const b = await run();
  assert.ok(a > 0);
  assert.equal(a, b);
});
