#!/usr/bin/env node
// Stress test of the go/stop protocol: every ordering of the seven lines
//   go, stop, isready, position, setoption, ucinewgame, an unknown command
// (7! = 5040 orderings), each sent with random gaps of 0-20 ms (0 = in the same
// write, as a GUI that sends several lines at once), to engine processes that
// live through many orderings. The `go` is a search that never ends by itself
// (go infinite, go ponder, a bare go, go depth 200, a long movetime), so only a
// `stop` ends it. After each ordering:
//   - a go that came before the stop must end with a bestmove without any further
//     input (a lost stop hangs here);
//   - a go that came after the stop must still be searching (a `stop` read before
//     a `go` does not reach it): isready is answered and no bestmove comes until
//     a closing `stop`, which must end it;
//   - exactly one bestmove per go, every reply a well-formed line, and the
//     process alive.
// With --random N, N further sequences of 4-12 lines drawn at random (several
// gos and stops, refused gos such as `go depth banana`) are checked the same way.
//
// The setoption lines include `Threads` (1-3) and `Hash` changes, so searches run
// with several Lazy SMP threads and the pool and table are resized between and
// during searches; --threads N starts every session with `setoption name
// Threads value N`.
//
//   node dist/lab/protocol/uci-stress.js [--rounds 1] [--random 0] [--sessions 4] [--seed 1]
//       [--max-gap 20] [--threads 1] [--engine "node bin/kirin.js"] [--hang-ms 15000] [--json]
//
// Exit status 0 when every check passed; the summary (JSON with --json) gives
// the counts and the stop-to-bestmove latencies (a measurement, not a check).

import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { join } from 'node:path';
import { mulberry32 } from '../../src/core/prng.js';
import { commandSpec, scriptCommandLine } from '../../toolkit/command-line.js';
import { repoRoot } from '../../toolkit/files.js';

const root = repoRoot();
const argv = process.argv.slice(2);
const USAGE = `usage: node dist/lab/protocol/uci-stress.js [--rounds 1] [--random 0] [--sessions 4] [--seed 1]
           [--max-gap 20] [--threads 1] [--engine "node bin/kirin.js"] [--hang-ms 15000] [--json]`;
const cl = scriptCommandLine(
  argv,
  commandSpec({
    name: 'uci-stress',
    usage: USAGE,
    options: {
      rounds: { type: 'string' },
      random: { type: 'string' },
      sessions: { type: 'string' },
      seed: { type: 'string' },
      'max-gap': { type: 'string' },
      threads: { type: 'string' },
      engine: { type: 'string' },
      'hang-ms': { type: 'string' },
      json: { type: 'boolean' },
    },
  }),
);
const rounds = cl.number('rounds', 1);
const randomCount = cl.number('random', 0);
const sessions = Math.max(1, cl.number('sessions', 4));
const maxGap = cl.number('max-gap', 20);
const hangMs = cl.number('hang-ms', 15000);
const rnd = mulberry32(cl.number('seed', 1));
const engineCmd = cl.string('engine', `"${process.execPath}" "${join(root, 'bin', 'kirin.js')}"`);
const json = cl.flag('json');
const startThreads = Math.max(1, cl.number('threads', 1));

const pick = <T>(a: readonly T[]): T => a[Math.floor(rnd() * a.length)];

type Kind = 'go' | 'isready' | 'position' | 'setoption' | 'ucinewgame' | 'unknown' | 'stop';
const VARIANTS: Record<Kind, string[]> = {
  go: [
    'go infinite',
    'go ponder',
    'go',
    'go depth 200',
    'go movetime 1000000',
    'go infinite searchmoves a3a4 i3i4 g3g4',
  ],
  isready: ['isready'],
  position: [
    'position startpos',
    'position startpos moves h2e2 h9g7',
    'position fen r1bakabnr/9/1cn4c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR w - - 2 2',
    'position startpos moves h2e2 a0a5', // illegal move: an error, the position stays
    'position fen not/a/fen w',
  ],
  setoption: [
    'setoption name NoSuchOption value 1',
    'setoption name MultiPV value 2',
    'setoption name MultiPV value 1',
    'setoption name Clear Hash',
    'setoption name Hash value 8',
    'setoption name Hash value 4',
    'setoption name Skill Level value banana',
    'setoption name Threads value 1',
    'setoption name Threads value 2',
    'setoption name Threads value 3',
    'setoption name Threads value 0', // out of range: an error, the count stays
  ],
  ucinewgame: ['ucinewgame'],
  unknown: ['thisisnotacommand', 'frobnicate 1 2 3', 'go depth banana', 'go movetime -5', 'go nodes 1e99'],
  stop: ['stop'],
};
const KINDS: Kind[] = ['go', 'stop', 'isready', 'position', 'setoption', 'ucinewgame', 'unknown'];

function permutations<T>(items: readonly T[]): T[][] {
  if (items.length <= 1) return [items.slice()];
  const out: T[][] = [];
  for (let i = 0; i < items.length; i++) {
    const rest = items.slice(0, i).concat(items.slice(i + 1));
    for (const p of permutations(rest)) out.push([items[i], ...p]);
  }
  return out;
}

// Every reply line must have one of these shapes.
const MOVE = '[a-i][0-9][a-i][0-9]';
const LINE_OK = [
  new RegExp(`^bestmove (${MOVE}( ponder ${MOVE})?|\\(none\\))$`),
  /^info (depth|string) /,
  /^readyok$/,
  /^Unknown command: '.*'\. Type help for more information\.$/,
];

class Session {
  readonly proc: ChildProcessWithoutNullStreams;
  readonly lines: { text: string; at: number }[] = [];
  private buf = '';
  private readonly waiters: (() => void)[] = [];
  exitCode: number | null | undefined = undefined;
  stderr = '';
  constructor(readonly id: number) {
    this.proc = spawn(engineCmd, { shell: true, stdio: ['pipe', 'pipe', 'pipe'], cwd: root });
    this.proc.stdout.on('data', (d: Buffer) => {
      this.buf += d.toString();
      let i;
      while ((i = this.buf.indexOf('\n')) >= 0) {
        this.lines.push({ text: this.buf.slice(0, i), at: performance.now() });
        this.buf = this.buf.slice(i + 1);
      }
      this.wake();
    });
    this.proc.stderr.on('data', (d: Buffer) => (this.stderr += d.toString()));
    this.proc.on('exit', (code) => {
      this.exitCode = code;
      this.wake();
    });
  }
  wake(): void {
    for (const w of this.waiters.splice(0)) w();
  }
  send(text: string): void {
    this.proc.stdin.write(text);
  }
  /** Index of the first line at or after `from` matching re, or -1 after timeoutMs. */
  async waitFor(re: RegExp, from: number, timeoutMs: number): Promise<number> {
    const deadline = performance.now() + timeoutMs;
    for (;;) {
      for (let i = from; i < this.lines.length; i++) if (re.test(this.lines[i].text)) return i;
      if (this.exitCode !== undefined) return -1;
      const left = deadline - performance.now();
      if (left <= 0) return -1;
      await new Promise<void>((r) => {
        const t = setTimeout(r, left);
        this.waiters.push(() => {
          clearTimeout(t);
          r();
        });
      });
    }
  }
  /** Index of the n-th line at or after `from` matching re, or -1 after timeoutMs. */
  async waitForNth(re: RegExp, from: number, n: number, timeoutMs: number): Promise<number> {
    let idx = from - 1;
    for (let k = 0; k < n; k++) {
      idx = await this.waitFor(re, idx + 1, timeoutMs);
      if (idx < 0) return -1;
    }
    return idx;
  }
  count(re: RegExp, from: number): number {
    let n = 0;
    for (let i = from; i < this.lines.length; i++) if (re.test(this.lines[i].text)) n++;
    return n;
  }
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
interface Failure {
  session: number;
  sequence?: string[];
  problem: string;
  output?: string[];
}
const failures: Failure[] = [];
const latencies: number[] = [];
let sequencesRun = 0;
let gosChecked = 0;

/** Sends one sequence (array of lines) with random gaps and checks the replies. */
async function runSequence(s: Session, seq: string[]): Promise<boolean> {
  const from = s.lines.length;
  let pendingWrite = '';
  let lastStopAt = 0;
  const goLines: number[] = [];
  let stopIndex = -1;
  for (let i = 0; i < seq.length; i++) {
    const gap = Math.floor(rnd() * (maxGap + 1));
    if (gap > 0 && pendingWrite) {
      s.send(pendingWrite);
      pendingWrite = '';
      await sleep(gap);
    }
    pendingWrite += seq[i] + '\n';
    if (seq[i] === 'stop') {
      stopIndex = i;
      s.send(pendingWrite);
      pendingWrite = '';
      lastStopAt = performance.now();
    }
    if (isRealGo(seq[i])) goLines.push(i);
  }
  if (pendingWrite) s.send(pendingWrite);
  const fail = (what: string): void => {
    failures.push({
      session: s.id,
      sequence: seq,
      problem: what,
      output: s.lines
        .slice(from)
        .map((l) => l.text)
        .slice(-30),
    });
  };
  // Searches asked for before the last stop must end by themselves (the stop reached them).
  const before = goLines.filter((i) => i < stopIndex).length;
  const after = goLines.length - before;
  let idx = from;
  for (let k = 0; k < before; k++) {
    const b = await s.waitFor(/^bestmove /, idx, hangMs);
    if (b < 0) {
      fail(`a go sent before the stop got no bestmove within ${hangMs} ms (lost stop)`);
      return false;
    }
    if (k === before - 1) latencies.push(s.lines[b].at - lastStopAt);
    idx = b + 1;
  }
  // Searches asked for after the last stop must still run: isready answers, no bestmove yet.
  s.send('isready\n');
  // Replies come in the order the commands were read: ours is the readyok after the sequence's own.
  const r = await s.waitForNth(/^readyok$/, from, seq.filter((l) => l === 'isready').length + 1, hangMs);
  if (r < 0) {
    fail(`no readyok within ${hangMs} ms`);
    return false;
  }
  const bestBefore = s.count(/^bestmove /, from);
  if (bestBefore !== before) {
    fail(`${bestBefore} bestmoves before the closing stop, expected ${before} (gos after the stop: ${after})`);
    return false;
  }
  s.send('stop\nisready\n');
  const mark = s.lines.length;
  const t0 = performance.now();
  for (let k = 0; k < after; k++) {
    const b = await s.waitFor(/^bestmove /, idx, hangMs);
    if (b < 0) {
      fail('the closing stop did not end the search');
      return false;
    }
    if (k === after - 1) latencies.push(s.lines[b].at - t0);
    idx = b + 1;
  }
  const r2 = await s.waitFor(/^readyok$/, mark, hangMs);
  if (r2 < 0) {
    fail('no readyok after the closing stop');
    return false;
  }
  const total = s.count(/^bestmove /, from);
  if (total !== goLines.length) {
    fail(`${total} bestmoves for ${goLines.length} gos`);
    return false;
  }
  for (let i = from; i < s.lines.length; i++) {
    const t = s.lines[i].text;
    if (!LINE_OK.some((re) => re.test(t)) || /[\x00-\x1f\x7f]/.test(t)) {
      fail(`malformed reply line: ${JSON.stringify(t.slice(0, 200))}`);
      return false;
    }
  }
  if (s.exitCode !== undefined) {
    fail(`the engine exited (code ${s.exitCode}): ${s.stderr.slice(-500)}`);
    return false;
  }
  sequencesRun++;
  gosChecked += goLines.length;
  return true;
}

function isRealGo(line: string): boolean {
  return VARIANTS.go.includes(line);
}

function makeOrderingSequences(): string[][] {
  const seqs: string[][] = [];
  for (let r = 0; r < rounds; r++) {
    for (const order of permutations(KINDS)) seqs.push(order.map((k) => pick(VARIANTS[k])));
  }
  for (let n = 0; n < randomCount; n++) {
    const len = 4 + Math.floor(rnd() * 9);
    const seq: string[] = [];
    for (let i = 0; i < len; i++) {
      const k = rnd() < 0.25 ? 'go' : rnd() < 0.3 ? 'stop' : pick(KINDS);
      seq.push(pick(VARIANTS[k]));
    }
    seqs.push(seq);
  }
  return seqs;
}

const all = makeOrderingSequences();
const started = performance.now();
const pool: Session[] = [];
for (let i = 0; i < sessions; i++) pool.push(new Session(i + 1));
// Each session: uci + isready once, then its share of the sequences in order.
await Promise.all(
  pool.map(async (s, i) => {
    s.send(`uci\n${startThreads > 1 ? `setoption name Threads value ${startThreads}\n` : ''}isready\n`);
    if ((await s.waitFor(/^readyok$/, 0, Math.max(60000, hangMs))) < 0) {
      failures.push({ session: s.id, problem: 'no readyok at start', output: s.lines.map((l) => l.text).slice(-20) });
      return;
    }
    s.lines.length = 0;
    for (let k = i; k < all.length; k += sessions) {
      if (failures.length) return;
      if (!(await runSequence(s, all[k]))) return;
    }
  }),
);
for (const s of pool) {
  s.send('quit\n');
}
await Promise.all(pool.map((s) => (s.exitCode !== undefined ? null : new Promise((r) => s.proc.on('exit', r)))));
for (const s of pool)
  if (s.exitCode !== 0) failures.push({ session: s.id, problem: `exit code ${s.exitCode} after quit` });

latencies.sort((a, b) => a - b);
const q = (p: number): number | null =>
  latencies.length ? Math.round(latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))]) : null;
const summary = {
  sequences: all.length,
  sequencesPassed: sequencesRun,
  gos: gosChecked,
  sessions,
  seconds: Math.round((performance.now() - started) / 100) / 10,
  stopToBestmoveMs: {
    median: q(0.5),
    p99: q(0.99),
    max: latencies.length ? Math.round(latencies[latencies.length - 1]) : null,
  },
  failures: failures.slice(0, 5),
};
if (json) process.stdout.write(JSON.stringify(summary) + '\n');
else {
  console.log(
    `${summary.sequencesPassed}/${summary.sequences} sequences passed (${summary.gos} gos) in ${summary.seconds} s with ${sessions} engine processes`,
  );
  console.log(
    `stop -> bestmove: median ${summary.stopToBestmoveMs.median} ms, p99 ${summary.stopToBestmoveMs.p99} ms, max ${summary.stopToBestmoveMs.max} ms`,
  );
  for (const f of summary.failures) console.log('FAIL', JSON.stringify(f, null, 1));
}
process.exitCode = failures.length ? 1 : 0;
