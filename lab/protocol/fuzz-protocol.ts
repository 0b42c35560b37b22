#!/usr/bin/env node
// Protocol fuzzer: random and mutated command lines against one engine process.
// Lines: valid commands, valid commands with broken arguments (bad numbers,
// swapped, dropped or doubled tokens, cut lines), binary bytes, very long lines,
// empty and blank lines, CRLF and lone CR line ends, tabs and other Unicode.
// Checks: the process never exits; every reply is one printable line and every
// protocol reply (bestmove, info, readyok, uciok, id, option) is well formed;
// `isready` is answered after every batch and at the end; nothing on stderr.
//
//   node dist/lab/protocol/fuzz-protocol.js [--lines 100000] [--seed 1] [--batch 200]
//       [--engine "node bin/kirin.js"] [--hang-ms 60000] [--save FILE] [--json]
//   --save FILE writes every byte sent to the engine to FILE (to replay a failure:
//   node bin/kirin.js < FILE).
//
// Lines that would legitimately run for a long time or touch the machine are not
// sent: quit, bench, speedtest, go perft above 3, Hash above 64 MB, Debug Log File.
// Searches are kept short by frequent `stop` lines and small limits.

import { spawn } from 'node:child_process';
import { appendFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { mulberry32 } from '../../src/core/prng.js';
import { commandSpec, scriptCommandLine } from '../../toolkit/command-line.js';
import { repoRoot } from '../../toolkit/files.js';

const root = repoRoot();
const argv = process.argv.slice(2);
const USAGE = `usage: node dist/lab/protocol/fuzz-protocol.js [--lines 100000] [--seed 1] [--batch 200]
           [--engine "node bin/kirin.js"] [--hang-ms 60000] [--save FILE] [--json]`;
const cl = scriptCommandLine(
  argv,
  commandSpec({
    name: 'fuzz-protocol',
    usage: USAGE,
    options: {
      lines: { type: 'string' },
      seed: { type: 'string' },
      batch: { type: 'string' },
      engine: { type: 'string' },
      'hang-ms': { type: 'string' },
      save: { type: 'string' },
      json: { type: 'boolean' },
    },
  }),
);
const total = cl.number('lines', 100000);
const batch = cl.number('batch', 200);
const hangMs = cl.number('hang-ms', 60000);
const rnd = mulberry32(cl.number('seed', 1));
const engineCmd = cl.string('engine', `"${process.execPath}" "${join(root, 'bin', 'kirin.js')}"`);
const json = cl.flag('json');
const saveFile = cl.string('save', '');
if (saveFile) writeFileSync(saveFile, '');
const write = (text: string): void => {
  if (saveFile) appendFileSync(saveFile, text);
  proc.stdin.write(text);
};

const int = (n: number): number => Math.floor(rnd() * n);
const pick = <T>(a: readonly T[]): T => a[int(a.length)];

const FENS = [
  'rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1',
  'r1bakab1r/9/1cn4cn/p1p1p1p1p/9/9/P1P1P1P1P/1CN1C1N2/9/R1BAKAB1R w - - 4 3',
  '2bakab2/9/4c4/p3p3p/2p3p2/9/P1P1P1P1P/4C4/4r4/2BAKAB2 w - - 0 20',
  '4k4/4a4/4b4/9/2p6/9/9/4B4/4A4/2RK5 w - - 0 40',
  '3k5/9/9/9/9/9/9/9/9/4K4 w',
  '4k4/9/9/9/9/9/9/9/4r4/4K4 w - - 0 1',
];
const MOVES = ['h2e2', 'h9g7', 'b0c2', 'b9c7', 'h0g2', 'c3c4', 'g6g5', 'a0a1', 'i9i8', 'b2e2', 'e3e4', 'h7e7'];
const OPTIONS: [string, (() => string) | null][] = [
  ['MultiPV', () => String(1 + int(4))],
  ['Skill Level', () => String(int(21))],
  ['Ponder', () => pick(['true', 'false'])],
  ['UCI_ShowWDL', () => pick(['true', 'false'])],
  ['LU_Output', () => pick(['true', 'false'])],
  ['Move Overhead', () => String(int(200))],
  ['nodestime', () => String(int(3))],
  ['Rule60MaxPly', () => String(int(121))],
  [
    'Repetition Rule',
    () => pick(['AsianRule', 'ComputerRule', 'ChineseRule', 'SkyRule', 'YitianRule', 'AllowChase', 'NoJudgement']),
  ],
  ['DrawRule', () => pick(['None', 'DrawAsBlackWin', 'DrawAsRedWin', 'DrawRepAsBlackWin', 'DrawRepAsRedWin'])],
  ['ScoreType', () => pick(['Elo', 'PawnValueNormalized', 'Raw'])],
  ['Mate Threat Depth', () => String(int(3))],
  ['UCI_LimitStrength', () => pick(['true', 'false'])],
  ['UCI_Elo', () => String(1280 + int(1800))],
  ['Hash', () => String(1 + int(32))],
  ['Clear Hash', null],
];

function validLine(): string {
  const r = rnd();
  if (r < 0.12) {
    const lim = pick([
      () => `depth ${1 + int(4)}`,
      () => `nodes ${100 + int(3000)}`,
      () => `movetime ${1 + int(20)}`,
      () => `wtime ${int(3000)} btime ${int(3000)} winc ${int(50)} binc ${int(50)}`,
      () => `wtime ${int(2000)} btime ${int(2000)} movestogo ${int(30)}`,
      () => 'infinite',
      () => 'ponder',
      () => `mate ${1 + int(3)}`,
      () => `depth ${1 + int(3)} searchmoves ${pick(MOVES)} ${pick(MOVES)}`,
      () => `perft ${1 + int(2)}`,
    ])();
    return `go ${lim}`;
  }
  if (r < 0.22) return 'stop';
  if (r < 0.3) return 'isready';
  if (r < 0.45) {
    const moves = Array.from({ length: int(6) }, () => pick(MOVES));
    const base = rnd() < 0.5 ? 'startpos' : `fen ${pick(FENS)}`;
    return `position ${base}${moves.length ? ' moves ' + moves.join(' ') : ''}`;
  }
  if (r < 0.6) {
    const [name, value] = pick(OPTIONS);
    return value ? `setoption name ${name} value ${value()}` : `setoption name ${name}`;
  }
  if (r < 0.65) return 'ucinewgame';
  if (r < 0.68) return 'ponderhit';
  if (r < 0.7) return 'uci';
  if (r < 0.73) return pick(['d', 'eval', 'help', 'compiler']);
  return pick(['go depth 1', 'position startpos', 'isready', 'stop']);
}

const JUNK_TOKENS = [
  'banana',
  '-5',
  '0',
  '-0',
  '1e99',
  '99999999999999999999999',
  'NaN',
  '0x1f',
  '',
  'moves',
  'fen',
  'value',
  'name',
  'startpos',
  'depth',
  'nodes',
  'movetime',
  'infinite',
  'searchmoves',
  '\u0000',
  '\u00ff\u00fe',
  '将',
  '\t',
  'é',
  '💥',
  'h2e2h9g7',
];

function mutate(line: string): string {
  let toks = line.split(' ');
  const n = 1 + int(3);
  for (let k = 0; k < n; k++) {
    const r = rnd();
    const i = int(toks.length);
    if (r < 0.2) toks[i] = pick(JUNK_TOKENS);
    else if (r < 0.35) toks.splice(i, 1);
    else if (r < 0.5) toks.splice(i, 0, pick(JUNK_TOKENS));
    else if (r < 0.6) toks.splice(i, 0, toks[i] ?? '');
    else if (r < 0.7 && toks.length > 1) {
      const j = int(toks.length);
      [toks[i], toks[j]] = [toks[j], toks[i]];
    } else if (r < 0.8) {
      const s = toks.join(' ');
      return s.slice(0, int(s.length + 1));
    } else if (r < 0.9) {
      const s = toks.join(' ');
      const p = int(s.length + 1);
      toks = (s.slice(0, p) + String.fromCharCode(int(256)) + s.slice(p + 1)).split(' ');
    } else toks[i] = (toks[i] ?? '').toUpperCase();
  }
  return toks.join(' ');
}

function binaryLine() {
  const len = int(80);
  let s = '';
  for (let i = 0; i < len; i++) {
    const c = int(256);
    if (c !== 10 && c !== 13) s += String.fromCharCode(c);
  }
  return s;
}

function longLine() {
  const r = rnd();
  const n = 2000 + int(60000);
  if (r < 0.25) return 'position startpos moves ' + Array.from({ length: n / 5 }, () => pick(MOVES)).join(' ');
  if (r < 0.5) return 'go ' + 'depth 1 '.repeat(n / 8);
  if (r < 0.75) return 'setoption name ' + 'x'.repeat(n) + ' value 1';
  return 'a'.repeat(n);
}

/** True when the line must not be sent (would legitimately run long or touch the machine). */
function unsafe(line: string): boolean {
  const toks = line.trim().split(/\s+/);
  const first = toks[0] ?? '';
  if (['quit', 'bench', 'speedtest'].includes(first)) return true;
  if (first === 'go' && toks.includes('perft')) {
    const d = toks[toks.indexOf('perft') + 1];
    if (!/^\+?0*[1-3]$/.test(d ?? '')) return true;
  }
  if (first === 'setoption') {
    if (/debug|log|file/i.test(line)) return true;
    if (/hash/i.test(line)) {
      const v = /value\s+\+?(\d+)/i.exec(line);
      if (v && Number(v[1]) > 64) return true;
    }
    if (/multipv/i.test(line)) {
      const v = /value\s+\+?(\d+)/i.exec(line);
      if (v && Number(v[1]) > 8) return true;
    }
  }
  return false;
}

function nextLine(): string {
  for (;;) {
    const r = rnd();
    let l;
    if (r < 0.45) l = validLine();
    else if (r < 0.8) l = mutate(validLine());
    else if (r < 0.86) l = binaryLine();
    else if (r < 0.88) l = longLine();
    else if (r < 0.94) l = pick(['', ' ', '\t', '   \t  ']);
    else l = pick(JUNK_TOKENS) + ' ' + pick(JUNK_TOKENS);
    if (!unsafe(l)) return l;
  }
}

const MOVE = '[a-i][0-9][a-i][0-9]';
const PROTOCOL = [
  [/^bestmove/, new RegExp(`^bestmove (${MOVE}( ponder ${MOVE})?|\\(none\\))$`)],
  [
    /^info /,
    new RegExp(
      `^info (string .*|depth \\d+ seldepth \\d+ multipv \\d+ score (cp -?\\d+|mate -?\\d+)( lowerbound| upperbound)?( wdl \\d+ \\d+ \\d+)? nodes \\d+ nps \\d+ hashfull \\d+ tbhits 0 time \\d+( pv( ${MOVE})+)?)$`,
    ),
  ],
  [/^readyok/, /^readyok$/],
  [/^uciok/, /^uciok$/],
  [/^id /, /^id (name|author) \S/],
  [/^option /, /^option name .+ type (spin|check|combo|button|string)( .*)?$/],
];
function wellFormed(line: string): boolean {
  if (/[\x00-\x1f\x7f]/.test(line)) return false;
  if (line.length > 20000) return false;
  for (const [head, full] of PROTOCOL) if (head.test(line)) return full.test(line);
  return true;
}

const proc = spawn(engineCmd, { shell: true, stdio: ['pipe', 'pipe', 'pipe'], cwd: root });
let buf = '';
let readyoks = 0;
let outLines = 0;
let bestmoves = 0;
const bad: string[] = [];
let stderr = '';
let exited = null as string | null; // set by the exit handler
let wake: (() => void) | null = null;
const tail: string[] = [];
proc.stdout.on('data', (d: Buffer) => {
  buf += d.toString('utf8');
  tail.push(d.toString('utf8'));
  if (tail.length > 20) tail.shift();
  let i;
  while ((i = buf.indexOf('\n')) >= 0) {
    const l = buf.slice(0, i);
    buf = buf.slice(i + 1);
    outLines++;
    if (l === 'readyok') readyoks++;
    if (l.startsWith('bestmove ')) bestmoves++;
    // An internal failure is reported as an error line; it is a finding, not bad input.
    const internal = /^info string ERROR: (search failed|search thread failed)/.test(l);
    if ((!wellFormed(l) || internal) && bad.length < 20) bad.push(l.slice(0, 300));
  }
  if (wake) wake();
});
proc.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
const exitPromise = new Promise((r) => proc.on('exit', () => r(true)));
proc.on('exit', (code, sig) => {
  exited = `code ${code}${sig ? ` signal ${sig}` : ''}`;
  if (wake) wake();
});
proc.stdin.on('error', () => {});

async function waitReady(n: number): Promise<boolean> {
  const deadline = Date.now() + hangMs;
  while (readyoks < n && exited === null && Date.now() < deadline) {
    await new Promise<void>((r) => {
      wake = r;
      setTimeout(r, 100);
    });
  }
  return readyoks >= n;
}

const started = Date.now();
let sent = 0;
let asked = 0;
let failure: string | null = null;
let bytes = 0;
while (sent < total && !failure) {
  let chunk = '';
  const k = Math.min(batch, total - sent);
  for (let i = 0; i < k; i++) {
    const l = nextLine();
    const end = rnd() < 0.1 ? '\r\n' : rnd() < 0.02 ? '\r' : '\n';
    chunk += l + end;
    // Keep searches short: a stop after most gos.
    if (/^\s*go\b/.test(l) && rnd() < 0.7) chunk += 'stop\n';
  }
  chunk += 'stop\nisready\n';
  bytes += Buffer.byteLength(chunk);
  sent += k;
  asked++;
  write(chunk);
  if (!(await waitReady(asked)))
    failure = exited !== null ? `the engine exited (${exited})` : `no readyok within ${hangMs} ms after line ${sent}`;
  if (!failure && bad.length) failure = 'malformed reply lines';
  if (!failure && stderr) failure = 'output on stderr';
  if (!json && sent % 10000 < batch) process.stderr.write(`fuzz: ${sent}/${total} lines\n`);
}
// The end: it must still answer.
if (!failure) {
  write('stop\nisready\n');
  asked++;
  if (!(await waitReady(asked))) failure = `no readyok at the end`;
}
const bestmovesBeforeQuit = bestmoves;
write('quit\n');
const quitAt = Date.now();
const exitWait = await Promise.race([exitPromise, new Promise((r) => setTimeout(() => r(false), 60000).unref())]);
const quitMs = Date.now() - quitAt;
if (exited === null && !exitWait) {
  proc.kill('SIGKILL');
  if (!failure) failure = `quit did not end the engine; its last output: ${tail.join('').slice(-1500)}`;
}

const summary = {
  seed: cl.number('seed', 1),
  lines: sent,
  bytes,
  batches: asked,
  seconds: Math.round((Date.now() - started) / 100) / 10,
  replies: outLines,
  bestmoves,
  readyoks,
  bestmovesBeforeQuit,
  quitMs,
  malformed: bad,
  stderr: stderr.slice(0, 2000),
  failure,
};
if (json) process.stdout.write(JSON.stringify(summary) + '\n');
else {
  console.log(
    `${sent} lines (${(bytes / 1e6).toFixed(1)} MB) in ${summary.seconds} s: ${outLines} replies, ${bestmoves} bestmoves, ${readyoks} readyok`,
  );
  if (failure) console.log('FAIL', failure, bad, stderr.slice(0, 2000));
  else console.log('ok: never exited, every reply well formed, isready answered at the end');
}
process.exitCode = failure ? 1 : 0;
