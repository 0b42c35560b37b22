// The UCI protocol: reads command lines, drives the Engine, writes replies.
// Bad input never ends the engine: it is answered with `info string ERROR: ...`
// (or Pikafish's "Unknown command" line) and the previous state is kept.

import { appendFileSync } from 'node:fs';
import { START_FEN } from '../core/fen.js';
import { perftReport } from '../core/perft.js';
import { formatJudgement, judge } from '../core/rules.js';
import { moveToUci, MOVE_NONE, squareName, type Move } from '../core/types.js';
import { ENGINE_AUTHOR, ENGINE_NAME, ENGINE_VERSION, Engine, parseLegalMove } from '../engine.js';
import type { SearchLimits, SearchResult } from '../search/types.js';
import { runBench, runSpeedtest } from '../tools/bench.js';
import { compilerInfo } from '../tools/compiler.js';
import { formatInfo } from './info.js';
import { materialCount } from './score.js';

export type Writer = (line: string) => void;

const GO_NUMERIC = new Set(['wtime', 'btime', 'winc', 'binc', 'movestogo', 'depth', 'nodes', 'mate', 'movetime', 'perft']);

export interface ParsedGo {
  limits: SearchLimits;
  perft: number;
  errors: string[];
}

/** Parses the arguments of `go` (tokens after "go"). Unknown or malformed parts are reported, not fatal. */
export function parseGo(tokens: string[], startTime: number): ParsedGo {
  const limits: SearchLimits = { startTime };
  const errors: string[] = [];
  let perft = 0;
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    if (t === 'searchmoves') {
      limits.searchmoves = [];
      // The move strings are resolved against the position by the caller.
      (limits as SearchLimits & { searchmoveText?: string[] }).searchmoveText = tokens.slice(i + 1);
      break;
    }
    if (t === 'infinite') limits.infinite = true;
    else if (t === 'ponder') limits.ponder = true;
    else if (GO_NUMERIC.has(t)) {
      const v = tokens[i + 1];
      if (v === undefined || !/^[+-]?\d+$/.test(v)) {
        errors.push(`'go ${t}' needs an integer value, got '${v ?? ''}'; ignored`);
        if (v !== undefined && !GO_NUMERIC.has(v) && v !== 'infinite' && v !== 'ponder' && v !== 'searchmoves') i++;
        continue;
      }
      i++;
      let n = Number(v);
      if (t === 'perft') {
        perft = n;
        continue;
      }
      if (n < 0) {
        // Some GUIs send a negative clock when time is short: treat it as none left.
        n = 0;
      }
      switch (t) {
        case 'wtime': limits.wtime = n; break;
        case 'btime': limits.btime = n; break;
        case 'winc': limits.winc = n; break;
        case 'binc': limits.binc = n; break;
        case 'movestogo': limits.movestogo = n; break;
        case 'depth': limits.depth = n; break;
        case 'nodes': limits.nodes = n; break;
        case 'mate': limits.mate = n; break;
        case 'movetime': limits.movetime = n; break;
      }
    } else errors.push(`unknown 'go' parameter '${t}'; ignored`);
  }
  return { limits, perft, errors };
}

export class Uci {
  private logFile = '';

  constructor(readonly engine: Engine, private readonly write: Writer) {
    engine.onMessage = (line) => this.out(`info string ${line}`);
    engine.options.add({
      name: 'Debug Log File',
      type: 'string',
      default: '',
      onChange: (v) => {
        this.logFile = String(v);
        if (this.logFile) appendFileSync(this.logFile, '');
      },
    });
  }

  private out(line: string): void {
    if (this.logFile) {
      try {
        appendFileSync(this.logFile, `<< ${line}\n`);
      } catch {
        /* a log that cannot be written must not stop the engine */
      }
    }
    this.write(line);
  }

  private error(text: string): void {
    this.out(`info string ERROR: ${text}`);
  }

  /** Handles one command line. Resolves false when the engine should quit. */
  async command(line: string): Promise<boolean> {
    if (this.logFile) {
      try {
        appendFileSync(this.logFile, `>> ${line}\n`);
      } catch {
        /* ignore */
      }
    }
    const trimmed = line.trim();
    const tokens = trimmed.split(/\s+/).filter((t) => t.length > 0);
    if (tokens.length === 0) return true;
    const [cmd, ...args] = tokens;
    switch (cmd) {
      case 'uci':
        this.out(`id name ${ENGINE_NAME} ${ENGINE_VERSION}`);
        this.out(`id author ${ENGINE_AUTHOR}`);
        this.out('');
        for (const l of this.engine.options.uciLines()) this.out(l);
        this.engine.warmup();
        this.out(`info string ${this.engine.evaluationStatus()}`);
        this.out('uciok');
        return true;
      case 'isready':
        this.engine.warmup();
        this.out(`info string ${this.engine.evaluationStatus()}`);
        this.out('readyok');
        return true;
      case 'setoption':
        await this.setoption(trimmed);
        return true;
      case 'position':
        this.position(args);
        return true;
      case 'ucinewgame':
        this.engine.newGame();
        return true;
      case 'go':
        this.go(args);
        return true;
      case 'stop':
        this.engine.stop();
        return true;
      case 'ponderhit':
        this.engine.ponderhit();
        return true;
      case 'quit':
        return false;
      case 'd':
        this.display();
        return true;
      case 'eval':
        for (const l of this.engine.traceEval().split('\n')) this.out(l);
        return true;
      case 'compiler':
        for (const l of compilerInfo().split('\n')) this.out(l);
        return true;
      case 'bench':
        await this.whenIdle();
        await runBench(this.engine, args, (l) => this.out(l), (l) => process.stderr.write(l + '\n'));
        return true;
      case 'speedtest':
        await this.whenIdle();
        await runSpeedtest(this.engine, args, (l) => this.out(l), (l) => process.stderr.write(l + '\n'));
        return true;
      case 'help':
      case '--help':
      case 'license':
      case '--license':
        this.out('');
        this.out(`${ENGINE_NAME} is a xiangqi (Chinese chess) engine for playing and analysing, written in TypeScript.`);
        this.out('It is free software under the GNU General Public License version 3 or later.');
        this.out('It speaks the UCI protocol; load it in a UCI GUI, or type commands: uci, isready, setoption,');
        this.out('position startpos|fen <fen> [moves ...], go [depth|nodes|movetime|wtime|btime|winc|binc|movestogo|mate|infinite|ponder|perft|searchmoves],');
        this.out('stop, ponderhit, ucinewgame, quit, and the diagnostics d, eval, compiler, bench, speedtest.');
        this.out('');
        return true;
      default:
        if (cmd.startsWith('#')) return true;
        this.out(`Unknown command: '${trimmed}'. Type help for more information.`);
        return true;
    }
  }

  private async whenIdle(): Promise<void> {
    if (this.engine.searching()) await this.engine.waitIdle();
  }

  private async setoption(line: string): Promise<void> {
    const m = /^setoption\s+name\s+(.+?)(?:\s+value(?:\s+(.*))?)?\s*$/i.exec(line);
    if (!m) {
      this.error(`malformed setoption; expected 'setoption name <name> [value <value>]'`);
      return;
    }
    const name = m[1].trim();
    const value = m[2]?.trim();
    // Like Pikafish, an option change waits for the running search to finish.
    await this.whenIdle();
    const r = this.engine.options.set(name, value);
    if (!r.ok) this.error(r.error);
    else if (r.message) this.out(`info string ${r.message}`);
  }

  private position(args: string[]): void {
    let fen: string | null;
    let i: number;
    if (args[0] === 'startpos') {
      fen = null;
      i = 1;
    } else if (args[0] === 'fen') {
      const end = args.indexOf('moves');
      const fenTokens = args.slice(1, end < 0 ? undefined : end);
      if (fenTokens.length === 0) {
        this.error('position fen needs a FEN; position unchanged');
        return;
      }
      fen = fenTokens.join(' ');
      i = end < 0 ? args.length : end;
    } else {
      this.error(`position must be followed by 'startpos' or 'fen <fen>', got '${args[0] ?? ''}'; position unchanged`);
      return;
    }
    let moves: string[] = [];
    if (i < args.length) {
      if (args[i] !== 'moves') {
        this.error(`expected 'moves' after the position, got '${args[i]}'; position unchanged`);
        return;
      }
      moves = args.slice(i + 1);
    }
    const err = this.engine.setPosition(fen, moves);
    if (err !== null) this.error(`${err}; position unchanged`);
  }

  private go(args: string[]): void {
    const parsed = parseGo(args, Date.now());
    for (const e of parsed.errors) this.error(e);
    if (parsed.perft > 0) {
      const pos = this.engine.pos.clone();
      perftReport(pos, parsed.perft, (l) => this.out(l));
      return;
    }
    const limits = parsed.limits;
    const text = (limits as SearchLimits & { searchmoveText?: string[] }).searchmoveText;
    if (text) {
      delete (limits as SearchLimits & { searchmoveText?: string[] }).searchmoveText;
      const ms: Move[] = [];
      for (const t of text) {
        const m = parseLegalMove(this.engine.pos, t);
        if (typeof m === 'string') this.error(`searchmoves: ${m}; ignored`);
        else if (!ms.includes(m)) ms.push(m);
      }
      if (ms.length) limits.searchmoves = ms;
      else delete limits.searchmoves;
    }
    const material = materialCount(this.engine.pos);
    const opts = { scoreType: this.engine.scoreType(), showWdl: this.engine.options.getBool('UCI_ShowWDL') };
    const luOutput = this.engine.options.getBool('LU_Output');
    this.engine
      .go(limits, {
        info: (i) => {
          if (i.bound !== 'exact' && !luOutput) return;
          this.out(formatInfo(i, material, opts));
        },
        text: (l) => this.out(`info string ${l}`),
      })
      .then((r: SearchResult) => this.bestmove(r))
      .catch((e: Error) => {
        this.error(`search failed: ${e.message.split('\n')[0]}`);
        this.out('bestmove (none)');
      });
  }

  private bestmove(r: SearchResult): void {
    if (r.bestMove === MOVE_NONE) {
      this.out('bestmove (none)');
      return;
    }
    this.out(`bestmove ${moveToUci(r.bestMove)}${r.ponderMove !== MOVE_NONE ? ` ponder ${moveToUci(r.ponderMove)}` : ''}`);
  }

  private display(): void {
    const pos = this.engine.pos;
    this.out('');
    for (const l of pos.diagram().split('\n')) if (l.length) this.out(l);
    this.out('');
    this.out(`Fen: ${pos.fen()}`);
    this.out(`Key: ${pos.keyHex()}`);
    this.out(`Checkers: ${pos.checkerSquares().map(squareName).join(' ')}`);
    this.out(formatJudgement(judge(pos, this.engine.ruleConfig())));
  }
}

/**
 * Runs the protocol on a line source until `quit` or end of input. Commands run
 * in order, except `stop` and `ponderhit`, which act at once even while an
 * earlier command (a setoption waiting for the search, a bench) is pending.
 */
export async function runUci(engine: Engine, lines: AsyncIterable<string>, write: Writer): Promise<void> {
  const uci = new Uci(engine, write);
  let chain: Promise<boolean> = Promise.resolve(true);
  let quit = false;
  for await (const line of lines) {
    const cmd = line.trim().split(/\s+/)[0];
    if (cmd === 'stop' || cmd === 'ponderhit' || cmd === 'quit') {
      if (cmd === 'ponderhit') engine.ponderhit();
      else engine.stop();
      if (cmd !== 'quit') continue;
    }
    chain = chain.then((alive) => (alive ? uci.command(line) : false)).catch((e: Error) => {
      write(`info string ERROR: ${e.message}`);
      return true;
    });
    if (cmd === 'quit') {
      quit = true;
      break;
    }
  }
  await chain;
  if (!quit) engine.stop();
  await engine.close();
}

export { START_FEN };
