// The UCI protocol: reads command lines, drives the Engine, writes replies.
// Bad input never ends the engine: it is answered with `info string ERROR: ...`
// (or Pikafish's "Unknown command" line) and the previous state is kept.

import { appendFileSync } from 'node:fs';
import { checkCommandFields } from '../core/command-text.js';
import { perftReport } from '../core/perft.js';
import { formatJudgement, judge } from '../core/rules.js';
import { moveToUci, MOVE_NONE, RED, squareName, type Move } from '../core/types.js';
import { parseLegalMove } from '../core/ucimove.js';
import { Engine, newSignals } from '../engine/engine.js';
import { ENGINE_AUTHOR, ENGINE_NAME, engineVersion } from '../engine/version.js';
import { materialCount } from '../eval/score.js';
import type { SearchResult } from '../search/types.js';
import { runBench, runSpeedtest } from './bench.js';
import { compilerInfo } from './compiler.js';
import { parseGo } from './go.js';
import { formatInfo, uciOptionLines } from './info.js';
import { ACCEPTED } from '../engine/options.js';
import { err } from '../core/result.js';

export type Writer = (line: string) => void;

/** What the reader learned about a line the moment it was read (see Uci.receive). */
export interface Received {
  /** For `go`: the search's stop/ponderhit signals, live from the moment the line was read. */
  signals?: Int32Array;
  /** When the line was read (the clock of a `go` starts here). */
  readAt: number;
}

/** Longest piece of a command line repeated in a reply. */
const ECHO_MAX = 100;

/** A piece of input fit to repeat in a reply: one printable line, not too long. */
export function echo(text: string, max = ECHO_MAX): string {
  const t = text.length > max ? `${text.slice(0, max)}...` : text;
  return t.replace(/[\x00-\x1f\x7f\ufffd]/g, '?');
}

export class Uci implements Session {
  private logFile = '';
  /** Signals of `go` lines read but not yet handled: a `stop` read meanwhile must reach them. */
  private readonly pendingGo = new Set<Int32Array>();

  constructor(
    readonly engine: Engine,
    private readonly write: Writer,
  ) {
    engine.onMessage = (line) => this.out(`info string ${line}`);
    engine.options.add({
      name: 'Debug Log File',
      type: 'string',
      default: '',
      onChange: (v) => {
        const file = String(v);
        if (file) {
          try {
            appendFileSync(file, '');
          } catch (e) {
            return err('option-rejected', (e as Error).message);
          }
        }
        this.logFile = file;
        return ACCEPTED;
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
    // One reply is one line of printable text, whatever came in.
    this.write(line.replace(/[\x00-\x08\x0a-\x1f\x7f]/g, '?'));
  }

  /**
   * Our own error messages can be long (a network file error names every path
   * tried and the expected format) but stay one bounded line: input pieces inside
   * them were already shortened with echo().
   */
  private error(text: string): void {
    this.out(`info string ERROR: ${echo(text, 2000)}`);
  }

  /**
   * Call the moment a line is read, before the commands read earlier have been
   * handled. `stop` and `ponderhit` act here: they reach every search already
   * started and every `go` read before them that still waits its turn (the
   * per-search signals exist from the moment a `go` is read), and nothing read
   * after them. Pass the result to command().
   */
  receive(line: string): Received {
    const readAt = Date.now();
    const cmd = firstToken(line);
    if (cmd === 'go') {
      // A search is wanted now: no more warm-up (the first one starts partly warm).
      this.engine.abortWarmup();
      const signals = newSignals();
      this.pendingGo.add(signals);
      return { signals, readAt };
    }
    if (cmd === 'stop' || cmd === 'quit') this.signalAll(0);
    else if (cmd === 'ponderhit') this.signalAll(1);
    return { readAt };
  }

  handledOnRead(line: string): boolean {
    const cmd = firstToken(line);
    return cmd === 'stop' || cmd === 'ponderhit';
  }

  isQuit(line: string): boolean {
    return firstToken(line) === 'quit';
  }

  stopAll(): void {
    this.signalAll(0);
  }

  private signalAll(index: 0 | 1): void {
    for (const s of this.pendingGo) {
      Atomics.store(s, index, 1);
      Atomics.notify(s, 0);
    }
    if (index === 0) this.engine.stop();
    else this.engine.ponderhit();
  }

  /**
   * Handles one command line. Resolves false when the engine should quit.
   * `received` is what receive() returned when the line was read; without it the
   * line counts as read now.
   */
  async command(line: string, received: Received = this.receive(line)): Promise<boolean> {
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
        this.out(`id name ${ENGINE_NAME} ${engineVersion()}`);
        this.out(`id author ${ENGINE_AUTHOR}`);
        this.out('');
        for (const l of uciOptionLines(this.engine.options.list())) this.out(l);
        this.engine.warmup();
        this.out(`info string ${this.engine.evaluationStatus()}`);
        this.out('uciok');
        return true;
      case 'isready':
        // Answered once the search thread is up and warm (at once after that,
        // even during a search).
        this.engine.warmup();
        await this.engine.ready();
        this.out(`info string ${this.engine.evaluationStatus()}`);
        this.out('readyok');
        return true;
      case 'setoption':
        this.setoption(trimmed);
        return true;
      case 'position':
        this.position(args);
        return true;
      case 'ucinewgame':
        this.engine.newGame();
        return true;
      case 'go':
        this.go(args, received);
        return true;
      case 'stop':
      case 'ponderhit':
        // Acted on in receive(), when the line was read.
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
        for (const l of compilerInfo(this.engine.evaluationName()).split('\n')) this.out(l);
        return true;
      case 'bench':
      case 'speedtest': {
        await this.whenIdle();
        const log = (l: string): void => void process.stderr.write(l + '\n');
        const r =
          cmd === 'bench'
            ? await runBench(this.engine, args, (l) => this.out(l), log)
            : await runSpeedtest(this.engine, args, log);
        if (!r.ok) this.out(`info string ERROR: ${r.error.message}`);
        return true;
      }
      case 'help':
      case '--help':
      case 'license':
      case '--license':
        this.out('');
        this.out(
          `${ENGINE_NAME} is a xiangqi (Chinese chess) engine for playing and analysing, written in TypeScript.`,
        );
        this.out('It is free software under the GNU General Public License version 3 or later.');
        this.out('It speaks the UCI protocol; load it in a UCI GUI, or type commands: uci, isready, setoption,');
        this.out(
          'position startpos|fen <fen> [moves ...], go [depth|nodes|movetime|wtime|btime|winc|binc|movestogo|mate|infinite|ponder|perft|searchmoves],',
        );
        this.out('stop, ponderhit, ucinewgame, quit, and the diagnostics d, eval, compiler, bench, speedtest.');
        this.out('');
        return true;
      default:
        if (cmd.startsWith('#')) return true;
        this.out(`Unknown command: '${echo(trimmed)}'. Type help for more information.`);
        return true;
    }
  }

  private async whenIdle(): Promise<void> {
    if (this.engine.searching()) await this.engine.waitIdle();
  }

  private setoption(line: string): void {
    const m = /^setoption\s+name\s+(.+?)(?:\s+value(?:\s+(.*))?)?\s*$/is.exec(line);
    if (!m) {
      this.error(`malformed setoption; expected 'setoption name <name> [value <value>]'`);
      return;
    }
    const name = m[1].trim();
    const value = m[2]?.trim();
    // A name or value with a control character (a CR inside the line) is refused whole.
    const text = checkCommandFields([
      ['setoption name', name],
      ['setoption value', value ?? ''],
    ]);
    if (!text.ok) {
      this.error(text.error.message);
      return;
    }
    // No need to wait for a running search (Pikafish does): a search reads the
    // options when it starts, and the options that live in the search thread
    // (Hash, Clear Hash) are messages it handles after the running search.
    const r = this.engine.options.set(name, value);
    if (!r.ok) this.error(r.error.message);
    else if (r.value.message) this.out(`info string ${r.value.message}`);
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
    const r = this.engine.setPosition(fen, moves);
    if (!r.ok) this.error(`${r.error.message}; position unchanged`);
  }

  /**
   * `go`: a search, or `go perft N`. A `go` with any malformed, unknown or
   * out-of-range argument is refused (an error naming the token, no search, no
   * bestmove); see src/protocol/go.ts for the ranges and the clamping.
   */
  private go(args: string[], received: Received): void {
    const signals = received.signals ?? newSignals();
    this.pendingGo.delete(signals);
    const parsed = parseGo(args, received.readAt);
    if (!parsed.ok) {
      this.error(parsed.error.message);
      return;
    }
    const { limits, perft, searchmoves, notes } = parsed.value;
    for (const n of notes) this.out(`info string ${n}`);
    const pos = this.engine.position();
    if (perft > 0) {
      perftReport(pos, perft, (l) => this.out(l));
      return;
    }
    if (searchmoves) {
      const ms: Move[] = [];
      for (const t of searchmoves) {
        const m = parseLegalMove(pos, t);
        if (!m.ok) {
          this.error(`go searchmoves: ${m.error.message}; no search`);
          return;
        }
        if (!ms.includes(m.value)) ms.push(m.value);
      }
      limits.searchmoves = ms;
    }
    if (limits.wtime !== undefined || limits.btime !== undefined) {
      // A clock for one side only: the side to move without a clock moves at once (as Stockfish).
      const red = pos.side === RED;
      if ((red ? limits.wtime : limits.btime) === undefined) {
        this.out(`info string go: no ${red ? 'wtime' : 'btime'} for the side to move; moving at once`);
        if (red) limits.wtime = 1;
        else limits.btime = 1;
      }
    }
    const material = materialCount(pos);
    const opts = {
      scoreType: this.engine.scoreType(),
      showWdl: this.engine.options.getBool('UCI_ShowWDL'),
      model: this.engine.winRateModel(),
    };
    const luOutput = this.engine.options.getBool('LU_Output');
    this.engine
      .go(
        limits,
        {
          info: (i) => {
            if (i.bound !== 'exact' && !luOutput) return;
            this.out(formatInfo(i, material, opts));
          },
          text: (l) => this.out(`info string ${l}`),
        },
        signals,
      )
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
    this.out(
      `bestmove ${moveToUci(r.bestMove)}${r.ponderMove !== MOVE_NONE ? ` ponder ${moveToUci(r.ponderMove)}` : ''}`,
    );
  }

  private display(): void {
    const pos = this.engine.position();
    this.out('');
    for (const l of pos.diagram().split('\n')) if (l.length) this.out(l);
    this.out('');
    this.out(`Fen: ${pos.fen()}`);
    this.out(`Key: ${pos.keyHex()}`);
    this.out(`Checkers: ${pos.checkerSquares().map(squareName).join(' ')}`);
    this.out(formatJudgement(judge(pos, this.engine.ruleConfig())));
  }
}

function firstToken(line: string): string {
  const m = /^\s*(\S+)/.exec(line);
  return m ? m[1] : '';
}

/**
 * A protocol session over the engine (UCI here, UCCI in ucci.ts): what runSession()
 * needs to read lines the way the GUI sends them.
 */
export interface Session {
  /** Called the moment a line is read (see Uci.receive). */
  receive(line: string): Received;
  /** Handles one line in its turn; resolves false when the engine should quit. */
  command(line: string, received: Received): Promise<boolean>;
  /** True for lines that receive() handled completely (`stop`, `ponderhit`): they are not queued. */
  handledOnRead(line: string): boolean;
  /** True for the line that ends the session (`quit`). */
  isQuit(line: string): boolean;
  /** Stops every search running or asked for (end of input). */
  stopAll(): void;
}

/**
 * Runs the protocol on a line source until `quit` or end of input. Commands are
 * handled one after another in the order read; each line is also passed to
 * Uci.receive() the moment it is read, so `stop`, `ponderhit` and `quit` act at
 * once, even while an earlier command (a bench) is pending, and reach exactly
 * the searches asked for before them.
 */
export async function runUci(engine: Engine, lines: AsyncIterable<string>, write: Writer): Promise<void> {
  await runSession(new Uci(engine, write), engine, lines, write);
}

/** The reading loop of runUci() for any Session (the UCCI one reuses it). */
export async function runSession(
  session: Session,
  engine: Engine,
  lines: AsyncIterable<string>,
  write: Writer,
): Promise<void> {
  let chain: Promise<boolean> = Promise.resolve(true);
  let quit = false;
  for await (const line of lines) {
    const received = session.receive(line);
    if (session.handledOnRead(line)) continue;
    chain = chain
      .then((alive) => (alive ? session.command(line, received) : false))
      .catch((e: Error) => {
        write(`info string ERROR: ${echo(e.message, 400)}`);
        return true;
      });
    if (session.isQuit(line)) {
      quit = true;
      break;
    }
  }
  // End of input: searches still running end as if `stop` had come.
  if (!quit) session.stopAll();
  await chain;
  engine.stop();
  await engine.close();
}
