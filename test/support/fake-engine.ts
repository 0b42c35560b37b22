// A tiny scripted UCI engine for the match runner's tests (not a real player).
//
//   node dist/test/support/fake-engine.js [--name N] [--mode first|last|mate|random|illegal]
//        [--seed S] [--sleep MS] [--illegal-at K] [--crash-at K] [--hang-at K]
//        [--score CP] [--slow-start MS] [--stubborn]   (a negative score: --score=-300)
//
// It plays the first (or last, or a random) legal move by Kirin's rules core;
// "mate" prefers a move that leaves the opponent without a legal move, "illegal"
// always answers a0a9. K counts
// this process's own `go` commands from 1: at the K-th it plays an illegal
// move, exits with code 3, or never answers (until `stop`). --score makes it
// report `info depth 1 score cp CP` before each move. --stubborn ignores quit
// and the end of its input, and starts a child process that shares its stderr
// (like an adapter's engine).

import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { legalMoves, moveToUci, ok, Position } from '../../src/dev.js';
import { applyMoves } from '../../commands/match/openings.js';
import { commandSpec, scriptCommandLine } from '../../toolkit/command-line.js';
import { exitWithError } from '../../toolkit/script.js';

interface FakeOptions {
  name: string;
  mode: string;
  seed: number;
  sleepMs: number;
  illegalAt: number;
  crashAt: number;
  hangAt: number;
  score: number | null;
  slowStartMs: number;
  stubborn: boolean;
}

const SPEC = commandSpec({
  name: 'fake-engine',
  usage:
    'usage: node dist/test/support/fake-engine.js [--name N] [--mode first|last|mate|random|illegal] [--seed S]\n' +
    '       [--sleep MS] [--illegal-at K] [--crash-at K] [--hang-at K] [--score CP] [--slow-start MS] [--stubborn]',
  options: {
    name: { type: 'string' },
    mode: { type: 'string' },
    seed: { type: 'string' },
    sleep: { type: 'string' },
    'illegal-at': { type: 'string' },
    'crash-at': { type: 'string' },
    'hang-at': { type: 'string' },
    score: { type: 'string' },
    'slow-start': { type: 'string' },
    stubborn: { type: 'boolean' },
  },
});

function parseArgs(argv: string[]): FakeOptions {
  const cl = scriptCommandLine(argv, SPEC);
  const mode = cl.string('mode', 'first');
  if (!['first', 'last', 'mate', 'random', 'illegal'].includes(mode))
    exitWithError(SPEC.name, `--mode ${mode}: first, last, mate, random or illegal`, 2);
  return {
    name: cl.string('name', 'FakeEngine'),
    mode,
    seed: cl.integer('seed', 1),
    sleepMs: cl.number('sleep', 0, { min: 0 }),
    illegalAt: cl.integer('illegal-at', 0, { min: 0 }),
    crashAt: cl.integer('crash-at', 0, { min: 0 }),
    hangAt: cl.integer('hang-at', 0, { min: 0 }),
    score: cl.values.score === undefined ? null : cl.integer('score', 0),
    slowStartMs: cl.number('slow-start', 0, { min: 0 }),
    stubborn: cl.flag('stubborn'),
  };
}

function run(o: FakeOptions): void {
  const out = (s: string): void => {
    process.stdout.write(s + '\n');
  };
  let pos = new Position();
  let goCount = 0;
  let rand = o.seed >>> 0 || 1;
  let pending: (() => void) | null = null;
  let timer: NodeJS.Timeout | null = null;

  const choose = (): string => {
    const moves = legalMoves(pos);
    if (moves.length === 0) return '(none)';
    if (o.mode === 'last') return moveToUci(moves[moves.length - 1]);
    if (o.mode === 'random') {
      rand = (Math.imul(rand, 1103515245) + 12345) >>> 0;
      return moveToUci(moves[(rand >>> 8) % moves.length]);
    }
    if (o.mode === 'mate') {
      // A checkmate first, else a move that leaves the opponent no move at all.
      let stalemate = -1;
      for (const m of moves) {
        pos.doMove(m);
        const none = legalMoves(pos).length === 0;
        const check = pos.inCheck();
        pos.undoMove(m);
        if (none && check) return moveToUci(m);
        if (none && stalemate < 0) stalemate = m;
      }
      if (stalemate >= 0) return moveToUci(stalemate);
    }
    return moveToUci(moves[0]);
  };

  if (o.stubborn) {
    spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: ['ignore', 'ignore', 'inherit'] });
    setInterval(() => {}, 1000);
  }
  const rl = createInterface({ input: process.stdin, crlfDelay: Infinity, terminal: false });
  rl.on('line', (raw) => {
    const line = raw.trim();
    const words = line.split(/\s+/);
    switch (words[0]) {
      case 'uci':
        out(`id name ${o.name}`);
        out('id author Kirin tests');
        out('option name Hash type spin default 16 min 1 max 1024');
        out('uciok');
        break;
      case 'isready':
        out('readyok');
        break;
      case 'position': {
        const k = words.indexOf('moves');
        const head = k >= 0 ? words.slice(1, k) : words.slice(1);
        const moves = k >= 0 ? words.slice(k + 1) : [];
        const start = head[0] === 'fen' ? Position.fromFen(head.slice(1).join(' ')) : ok(new Position());
        if (!start.ok) {
          process.stderr.write(`fake engine: ${start.error.message}\n`);
          break;
        }
        pos = start.value;
        const played = applyMoves(pos, moves);
        if (!played.ok) process.stderr.write(`fake engine: ${played.error.message}\n`);
        break;
      }
      case 'go': {
        goCount++;
        if (goCount === o.crashAt) process.exit(3);
        const move = goCount === o.illegalAt || o.mode === 'illegal' ? 'a0a9' : choose();
        const answer = (): void => {
          pending = null;
          timer = null;
          if (o.score !== null) out(`info depth 1 score cp ${o.score} nodes 1 pv ${move}`);
          out(`bestmove ${move}`);
        };
        if (goCount === o.hangAt) pending = answer;
        else if (o.sleepMs > 0) {
          pending = answer;
          timer = setTimeout(answer, o.sleepMs);
        } else answer();
        break;
      }
      case 'stop':
        if (timer) clearTimeout(timer);
        pending?.();
        break;
      case 'quit':
        if (!o.stubborn) process.exit(0);
        break;
      default:
        break;
    }
  });
  rl.on('close', () => {
    if (!o.stubborn) process.exit(0);
  });
}

const opts = parseArgs(process.argv.slice(2));
if (opts.slowStartMs > 0) setTimeout(() => run(opts), opts.slowStartMs);
else run(opts);
