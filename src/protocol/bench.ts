// `bench` and `speedtest`, as in Pikafish.
//
// bench [hash] [threads] [limit] [fen file] [limit type]
//   defaults 16 1 13 default depth; "fen file" is "default" (the 49 positions),
//   "current" or a file with one FEN per line; limit type is depth, nodes,
//   movetime, perft or eval. (The limit type may also come before the file.)
// Prints the search output on stdout and "Total time (ms) / Nodes searched /
// Nodes/second" on stderr; with one thread the node count is identical run to run.
//
// speedtest [threads] [hash] [seconds]
//   plays through positions from 5 games with time per move scaled by ply.

import { readFileSync } from 'node:fs';
import { err, ok, type Result } from '../core/result.js';
import type { OptionErrorCode } from '../engine/options.js';
import { perft } from '../core/perft.js';
import type { Engine } from '../engine/engine.js';
import { formatInfo } from './info.js';
import { materialCount } from '../eval/score.js';
import type { SearchLimits } from '../search/types.js';
import { moveToUci, MOVE_NONE } from '../core/types.js';
import { BENCH_FENS, SPEEDTEST_GAMES } from './benchpositions.js';

type Out = (line: string) => void;

const LIMIT_TYPES = new Set(['depth', 'nodes', 'movetime', 'perft', 'eval', 'mate']);

export interface BenchSetup {
  hash: number;
  threads: number;
  limit: number;
  limitType: string;
  fens: string[];
}

export type BenchErrorCode = 'bench-arg' | 'bench-file';

/** Parses bench arguments. */
export function parseBenchArgs(args: string[], currentFen: string): Result<BenchSetup, BenchErrorCode> {
  const intArg = (v: string | undefined, def: number, what: string): Result<number, 'bench-arg'> => {
    if (v === undefined) return ok(def);
    if (!/^\d+$/.test(v)) return err('bench-arg', `bench: ${what} must be a positive integer, got '${v}'`);
    return ok(Number(v));
  };
  const hash = intArg(args[0], 16, 'hash (MB)');
  if (!hash.ok) return hash;
  const threads = intArg(args[1], 1, 'threads');
  if (!threads.ok) return threads;
  const limit = intArg(args[2], 13, 'limit');
  if (!limit.ok) return limit;
  let fenFile = 'default';
  let limitType = 'depth';
  // Pikafish's order is [fen file] [limit type]; accept the two the other way round too.
  for (const a of args.slice(3, 5)) {
    if (LIMIT_TYPES.has(a)) limitType = a;
    else fenFile = a;
  }
  let fens: string[];
  if (fenFile === 'default') fens = [...BENCH_FENS];
  else if (fenFile === 'current') fens = [currentFen];
  else {
    try {
      fens = readFileSync(fenFile, 'utf8')
        .split(/\r?\n/)
        .map((l) => l.trim())
        .filter((l) => l.length > 0);
    } catch (e) {
      return err('bench-file', `bench: unable to open file ${fenFile} (${(e as Error).message})`);
    }
  }
  return ok({ hash: hash.value, threads: threads.value, limit: limit.value, limitType, fens });
}

export interface BenchResult {
  nodes: number;
  timeMs: number;
  nps: number;
}

/**
 * Runs `bench` with its arguments: the searches' output goes to `out`, the
 * progress and the summary to `log`. Refused arguments (a bad number or file, a Hash or Threads
 * value out of range) are the error, and nothing is searched.
 */
export async function runBench(
  engine: Engine,
  args: string[],
  out: Out,
  log: Out,
): Promise<Result<BenchResult, BenchErrorCode | OptionErrorCode>> {
  const parsed = parseBenchArgs(args, engine.fen());
  if (!parsed.ok) return parsed;
  const setup = parsed.value;
  const threadsSet = engine.options.set('Threads', String(setup.threads));
  if (!threadsSet.ok) return threadsSet;
  const hashSet = engine.options.set('Hash', String(setup.hash));
  if (!hashSet.ok) return hashSet;
  engine.newGame();
  // The clock covers the searches only, as Pikafish's: the search thread is up
  // and warm (what isready waits for), and the new game's clear and the first
  // touches of the history tables are done (a hashfull request settles both)
  // before it starts.
  engine.warmup();
  await engine.ready();
  await engine.hashfull();
  out(`info string bench evaluation: ${engine.evaluationName()}`);
  const saved = engine.game();
  let nodes = 0;
  const fmt = {
    scoreType: engine.scoreType(),
    showWdl: engine.options.getBool('UCI_ShowWDL'),
    model: engine.winRateModel(),
  };
  const start = Date.now();
  try {
    for (let i = 0; i < setup.fens.length; i++) {
      const fen = setup.fens[i];
      if (fen.startsWith('setoption')) {
        const m = /^setoption\s+name\s+(.+?)\s+value\s+(.*)$/.exec(fen);
        if (m) engine.options.set(m[1], m[2]);
        continue;
      }
      const e = engine.setPosition(fen, []);
      if (!e.ok) {
        out(`info string ERROR: bench position ${i + 1}: ${e.error.message}; skipped`);
        continue;
      }
      log(`\nPosition: ${i + 1}/${setup.fens.length} (${engine.fen()})`);
      if (setup.limitType === 'eval') {
        for (const l of engine.traceEval().split('\n')) out(l);
        continue;
      }
      if (setup.limitType === 'perft') {
        const n = perft(engine.position(), setup.limit);
        out(`\nNodes searched: ${n}\n`);
        nodes += n;
        continue;
      }
      const limits: SearchLimits = { startTime: Date.now() };
      if (setup.limitType === 'depth') limits.depth = setup.limit;
      else if (setup.limitType === 'nodes') limits.nodes = setup.limit;
      else if (setup.limitType === 'movetime') limits.movetime = setup.limit;
      else if (setup.limitType === 'mate') limits.mate = setup.limit;
      const material = materialCount(engine.position());
      const r = await engine.go(limits, { info: (inf) => out(formatInfo(inf, material, fmt)) });
      out(
        r.bestMove === MOVE_NONE
          ? 'bestmove (none)'
          : `bestmove ${moveToUci(r.bestMove)}${r.ponderMove ? ` ponder ${moveToUci(r.ponderMove)}` : ''}`,
      );
      nodes += r.nodes;
    }
  } finally {
    engine.setPosition(saved.startFen, saved.moves);
  }
  const timeMs = Date.now() - start + 1;
  const nps = Math.floor((1000 * nodes) / timeMs);
  log('\n===========================');
  log(`Total time (ms) : ${timeMs}`);
  log(`Nodes searched  : ${nodes}`);
  log(`Nodes/second    : ${nps}`);
  log(`Evaluation      : ${engine.evaluationName()}`);
  return ok({ nodes, timeMs, nps });
}

/**
 * Runs `speedtest [threads] [hash MB] [seconds]`: progress and the summary go to
 * `log`. Refused arguments are the error, and nothing is searched.
 */
export async function runSpeedtest(
  engine: Engine,
  args: string[],
  log: Out,
): Promise<Result<BenchResult, BenchErrorCode | OptionErrorCode>> {
  const nums: number[] = [];
  for (const a of args) {
    if (!/^\d+$/.test(a) || Number(a) < 1)
      return err('bench-arg', `speedtest [threads] [hash MB] [seconds]: '${a}' is not a positive integer`);
    nums.push(Number(a));
  }
  const threads = nums[0] ?? 1;
  const threadsSet = engine.options.set('Threads', String(threads));
  if (!threadsSet.ok) return threadsSet;
  const hash = nums[1] ?? 128;
  const seconds = nums[2] ?? 150;
  const hashSet = engine.options.set('Hash', String(hash));
  if (!hashSet.ok) return hashSet;
  // Time per move fitted to long games (Pikafish): 50000 / (ply + 15) ms, scaled to the budget.
  const corrected = (ply: number) => 50000 / (ply + 15);
  let total = 0;
  for (const g of SPEEDTEST_GAMES) for (let i = 0; i < g.length; i++) total += corrected(i + 1);
  const scale = (seconds * 1000) / total;
  const saved = engine.game();
  const count = SPEEDTEST_GAMES.reduce((n, g) => n + g.length, 0);
  let nodes = 0;
  let searchMs = 0;
  let k = 0;
  try {
    for (const g of SPEEDTEST_GAMES) {
      engine.newGame();
      for (let i = 0; i < g.length; i++) {
        k++;
        if (!engine.setPosition(g[i], []).ok) continue;
        log(`Position ${k}/${count}`);
        const movetime = Math.max(1, Math.round(corrected(i + 1) * scale));
        const t0 = Date.now();
        const r = await engine.go({ startTime: t0, movetime });
        searchMs += Date.now() - t0;
        nodes += r.nodes;
      }
    }
  } finally {
    engine.setPosition(saved.startFen, saved.moves);
  }
  searchMs = Math.max(1, searchMs);
  const hashfull = await engine.hashfull();
  const nps = Math.floor((1000 * nodes) / searchMs);
  log('===========================');
  log(`Thread count               : ${threads}`);
  log(`TT size [MiB]              : ${hash}`);
  log(`Hash used at end [per mille]: ${hashfull}`);
  log(`Total nodes searched       : ${nodes}`);
  log(`Total search time [s]      : ${(searchMs / 1000).toFixed(3)}`);
  log(`Nodes/second               : ${nps}`);
  return ok({ nodes, timeMs: searchMs, nps });
}
