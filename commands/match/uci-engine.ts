// A UCI engine run as a child process: start-up handshake (uci/uciok, options,
// isready/readyok), `go` with wall-clock measurement and a hard timeout, `stop`,
// and crash detection (the process exiting, or its pipes breaking).
//
// Every line it writes passes the product's guard of command text
// (checkCommandText, src/core/command-text.ts): an option name or value, a
// position or a `go` with a control character in it is refused with the field
// named, and nothing of it is sent; start() checks the options before the
// process is started.

import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { err, ok, type Result } from '../../src/dev.js';
import { checkCommandFields, checkCommandText, shownText } from '../../src/core/command-text.js';

export interface EngineSpec {
  /** Command line, split like a shell would (quotes and backslashes; no pipes or redirections). */
  command: string;
  /** Name to show; defaults to the engine's `id name`. */
  name?: string;
  /** UCI options sent after uciok, in order. */
  options: Array<[string, string]>;
  /** Working directory of the process (defaults to ours). */
  cwd?: string;
}

/** Called for every line sent to (`>`) or received from (`<`) an engine, when debugging. */
export type EngineLogger = (engine: string, dir: '>' | '<' | '!', line: string) => void;

export interface EngineScore {
  /** Centipawns from the side to move (mates are ±(100000 - plies)). */
  value: number;
  mate: number | null;
  depth: number;
}

export type GoResult =
  | { kind: 'move'; move: string; elapsedMs: number; score: EngineScore | null; infoCount: number }
  | { kind: 'timeout'; elapsedMs: number }
  | { kind: 'crash'; elapsedMs: number; message: string };

/** Splits a command line into words (handles '...' and "..." quoting and backslash escapes). */
export function splitCommand(command: string): Result<string[], 'engine-command'> {
  const words: string[] = [];
  let cur = '';
  let have = false;
  let quote: '"' | "'" | null = null;
  for (let i = 0; i < command.length; i++) {
    const ch = command[i];
    if (quote) {
      if (ch === quote) quote = null;
      else if (ch === '\\' && quote === '"' && i + 1 < command.length && '"\\$`'.includes(command[i + 1]))
        cur += command[++i];
      else cur += ch;
    } else if (ch === '"' || ch === "'") {
      quote = ch;
      have = true;
    } else if (ch === '\\' && i + 1 < command.length) {
      cur += command[++i];
      have = true;
    } else if (/\s/.test(ch)) {
      if (have) words.push(cur);
      cur = '';
      have = false;
    } else {
      cur += ch;
      have = true;
    }
  }
  if (quote) return err('engine-command', `unterminated quote in command: ${command}`);
  if (have) words.push(cur);
  if (words.length === 0) return err('engine-command', 'empty engine command');
  return ok(words);
}

/**
 * The options of an engine spec fit to be sent: no name or value with a control
 * character (the error names the option and the field). The match runner and the
 * cluster check a spec with this before any engine starts; start() does too.
 */
export function checkEngineOptions(options: ReadonlyArray<readonly [string, string]>): Result<null, 'command-text'> {
  return checkCommandFields(
    options.flatMap(([k, v]) => [
      ['option name', k],
      [`option ${shownText(k)} value`, v],
    ]),
  );
}

/** Parses the score of an `info` line, or null when it has none. */
export function parseInfoScore(line: string): EngineScore | null {
  const m = /\bscore\s+(cp|mate)\s+(-?\d+)/.exec(line);
  if (!m) return null;
  if (/\bscore\s+(?:cp|mate)\s+-?\d+\s+(?:lowerbound|upperbound)\b/.test(line)) return null;
  const d = /\bdepth\s+(\d+)/.exec(line);
  const v = Number(m[2]);
  const depth = d ? Number(d[1]) : 0;
  if (m[1] === 'cp') return { value: v, mate: null, depth };
  // mate N: N moves to mate (negative: being mated).
  const plies = Math.abs(v) * 2;
  return { value: v > 0 ? 100000 - plies : v < 0 ? -100000 + plies : -100000, mate: v, depth };
}

type LineHandler = (line: string) => void;

export class UciEngine {
  readonly spec: EngineSpec;
  /** Name to show (spec.name, else `id name`, else the command). */
  name: string;
  /** Options the engine declared (lower-case name -> declared name). */
  readonly declaredOptions = new Map<string, string>();
  private proc: ChildProcessWithoutNullStreams | null = null;
  private buffer = '';
  private handler: LineHandler | null = null;
  private exitHandler: ((message: string) => void) | null = null;
  private stderrTail: string[] = [];
  private exited = false;
  private exitMessage = '';
  private closeWaiters: (() => void)[] = [];
  private readonly log: EngineLogger | null;
  /** Label used in logs (set by the match: "1" or "2", plus the slot). */
  label: string;

  constructor(spec: EngineSpec, log: EngineLogger | null = null, label = '') {
    this.spec = spec;
    this.name = spec.name ?? spec.command;
    this.log = log;
    this.label = label || this.name;
  }

  get alive(): boolean {
    return this.proc !== null && !this.exited;
  }

  /** Why the process ended (empty while it runs). */
  get deathMessage(): string {
    return this.exitMessage;
  }

  /** Starts the process and runs the uci / setoption / isready handshake; the error says what failed. */
  async start(timeoutMs = 10000): Promise<Result<null, 'engine-command' | 'engine-start' | 'command-text'>> {
    const text = checkEngineOptions(this.spec.options);
    if (!text.ok) return err('command-text', `engine "${this.spec.command}": ${text.error.message}`);
    const split = splitCommand(this.spec.command);
    if (!split.ok) return split;
    const words = split.value;
    this.exited = false;
    this.exitMessage = '';
    this.stderrTail = [];
    this.buffer = '';
    this.declaredOptions.clear();
    // Its own process group: a Ctrl-C or `timeout -s INT` aimed at the match reaches the runner only, which
    // finishes the games in progress (the engines used to die with it and those games were scored as crashes).
    const proc = spawn(words[0], words.slice(1), {
      cwd: this.spec.cwd,
      stdio: ['pipe', 'pipe', 'pipe'],
      detached: true,
    });
    this.proc = proc;
    proc.stdout.setEncoding('utf8');
    proc.stderr.setEncoding('utf8');
    proc.stdout.on('data', (chunk: string) => this.onData(chunk));
    proc.stderr.on('data', (chunk: string) => {
      for (const l of chunk.split(/\r?\n/)) {
        if (!l) continue;
        this.stderrTail.push(l);
        if (this.stderrTail.length > 8) this.stderrTail.shift();
        this.log?.(this.label, '!', l);
      }
    });
    proc.stdin.on('error', () => {
      /* broken pipe: reported through 'exit' */
    });
    proc.on('error', (err) => this.onExit(`could not run "${this.spec.command}": ${err.message}`));
    // 'close' comes after stdout has been read to the end, so a last bestmove is not lost.
    proc.on('close', (code, signal) => {
      const how = signal ? `killed by signal ${signal}` : `exited with code ${code}`;
      const tail = this.stderrTail.length ? ` (stderr: ${this.stderrTail.slice(-3).join(' | ')})` : '';
      this.onExit(`engine "${this.name}" ${how}${tail}`);
    });

    let idName: string | null = null;
    const answered = await this.exchange(
      'uci',
      (line) => {
        const id = /^id\s+name\s+(.*\S)\s*$/.exec(line);
        if (id) idName = id[1];
        const opt = /^option\s+name\s+(.*?)\s+type\s/.exec(line);
        if (opt) this.declaredOptions.set(opt[1].toLowerCase(), opt[1]);
        return line === 'uciok' || line.startsWith('uciok ');
      },
      timeoutMs,
    );
    if (answered !== true) {
      this.kill();
      return err(
        'engine-start',
        answered === false
          ? `engine "${this.spec.command}" did not answer "uci" with "uciok" within ${timeoutMs} ms`
          : answered,
      );
    }
    if (this.spec.name === undefined && idName) this.name = idName;
    for (const [k, v] of this.spec.options) this.setOption(k, v); // checked above; undeclared ones are skipped
    const ready = await this.isReady(timeoutMs);
    if (ready !== true) {
      this.kill();
      return err(
        'engine-start',
        ready === false ? `engine "${this.name}" did not answer "isready" within ${timeoutMs} ms` : ready,
      );
    }
    return ok(null);
  }

  /**
   * Sends `setoption`; refused (nothing sent) when the engine did not declare the
   * option or the value has a control character.
   */
  setOption(name: string, value: string): Result<null, 'option-unknown' | 'command-text'> {
    const text = checkEngineOptions([[name, value]]);
    if (!text.ok) return text;
    const declared = this.declaredOptions.get(name.toLowerCase());
    if (declared === undefined) return err('option-unknown', `engine "${this.name}" has no option ${shownText(name)}`);
    this.send(value === '' ? `setoption name ${declared}` : `setoption name ${declared} value ${value}`);
    return ok(null);
  }

  /**
   * Writes one command line; a line with a control character is not written
   * (false; the log shows why): the last fence, behind the checks of each field.
   */
  send(line: string): boolean {
    if (!this.proc || this.exited) return false;
    const text = checkCommandText('command', line);
    if (!text.ok) {
      this.log?.(this.label, '!', `not sent: ${text.error.message}`);
      return false;
    }
    this.log?.(this.label, '>', line);
    try {
      this.proc.stdin.write(line + '\n');
    } catch {
      /* reported through 'exit' */
    }
    return true;
  }

  /** isready/readyok: true, false on timeout, or the crash message. */
  async isReady(timeoutMs = 10000): Promise<true | false | string> {
    return this.exchange('isready', (line) => line === 'readyok', timeoutMs);
  }

  /** ucinewgame + isready. */
  async newGame(timeoutMs = 10000): Promise<true | false | string> {
    this.send('ucinewgame');
    return this.isReady(timeoutMs);
  }

  /**
   * Sends `position` and `go` and waits for `bestmove`. The time is measured from
   * just before `go` is written until the bestmove line arrives. After
   * `timeoutMs` without an answer the result is 'timeout' (the engine is still
   * searching: call `stopSearch` or restart it).
   */
  async go(positionCmd: string, goCmd: string, timeoutMs: number): Promise<GoResult> {
    if (!this.alive)
      return { kind: 'crash', elapsedMs: 0, message: this.exitMessage || `engine "${this.name}" is not running` };
    const text = checkCommandFields([
      ['position command', positionCmd],
      ['go command', goCmd],
    ]);
    if (!text.ok) return { kind: 'crash', elapsedMs: 0, message: text.error.message };
    let score: EngineScore | null = null;
    let infoCount = 0;
    this.send(positionCmd);
    const t0 = performance.now();
    const reply = this.awaitReply<GoResult>(
      timeoutMs,
      () => ({ kind: 'timeout', elapsedMs: performance.now() - t0 }),
      (message) => ({ kind: 'crash', elapsedMs: performance.now() - t0, message }),
      (line, finish) => {
        if (line.startsWith('info')) {
          infoCount++;
          const s = parseInfoScore(line);
          if (s) score = s;
          return;
        }
        const m = /^bestmove\s+(\S+)/.exec(line);
        if (m) finish({ kind: 'move', move: m[1], elapsedMs: performance.now() - t0, score, infoCount });
      },
    );
    this.send(goCmd);
    return reply;
  }

  /** Sends `stop` and waits (up to timeoutMs) for the bestmove of the running search; false when none came. */
  async stopSearch(timeoutMs = 2000): Promise<boolean> {
    const r = await this.exchange('stop', (line) => line.startsWith('bestmove'), timeoutMs);
    return r === true;
  }

  /** Process id of the running engine (null when not running). */
  get pid(): number | null {
    return this.proc !== null && !this.exited ? (this.proc.pid ?? null) : null;
  }

  /**
   * Sends quit and resolves once the process has ended (its pipes closed, so `alive` is false). An engine still
   * running after `graceMs` is killed with its process group (an adapter's own engine with it); if even that leaves
   * the pipes open after another `graceMs`, they are dropped and the engine is counted as gone.
   */
  async quit(graceMs = 2000): Promise<void> {
    const proc = this.proc;
    if (!proc || this.exited) return;
    this.send('quit');
    try {
      proc.stdin.end();
    } catch {
      /* ignore */
    }
    if (await this.waitClosed(graceMs)) return;
    this.kill();
    if (await this.waitClosed(graceMs)) return;
    proc.stdout.destroy();
    proc.stderr.destroy();
    this.onExit(`engine "${this.name}" did not end after quit and was killed`);
  }

  /** Resolves true once the process's end has been handled (its 'close'), false after `ms`. */
  private waitClosed(ms: number): Promise<boolean> {
    if (this.exited) return Promise.resolve(true);
    return new Promise<boolean>((resolve) => {
      const t = setTimeout(() => {
        this.closeWaiters = this.closeWaiters.filter((w) => w !== done);
        resolve(false);
      }, ms);
      const done = (): void => {
        clearTimeout(t);
        resolve(true);
      };
      this.closeWaiters.push(done);
    });
  }

  /** Kills the engine with SIGKILL, together with its process group (it was started as the group's leader). */
  kill(): void {
    const proc = this.proc;
    if (!proc || this.exited) return;
    try {
      if (proc.pid !== undefined) process.kill(-proc.pid, 'SIGKILL');
    } catch {
      /* the group is gone already */
    }
    try {
      proc.kill('SIGKILL');
    } catch {
      /* already gone */
    }
  }

  /** Sends a command and waits for a line satisfying `until`: true, false on timeout, or the crash message. */
  private exchange(
    command: string,
    until: (line: string) => boolean,
    timeoutMs: number,
  ): Promise<true | false | string> {
    if (!this.alive) return Promise.resolve(this.exitMessage || `engine "${this.name}" is not running`);
    const reply = this.awaitReply<true | false | string>(
      timeoutMs,
      () => false,
      (message) => message,
      (line, finish) => {
        if (until(line)) finish(true);
      },
    );
    this.send(command);
    return reply;
  }

  /**
   * Waits for one answer: `onLine` sees each line and may finish; a timeout or
   * the end of the process finishes too. The handlers are in place on return.
   */
  private awaitReply<T>(
    timeoutMs: number,
    onTimeout: () => T,
    onExit: (message: string) => T,
    onLine: (line: string, finish: (r: T) => void) => void,
  ): Promise<T> {
    return new Promise<T>((resolve) => {
      let done = false;
      const finish = (r: T): void => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        this.handler = null;
        this.exitHandler = null;
        resolve(r);
      };
      const timer = setTimeout(() => finish(onTimeout()), Math.max(1, timeoutMs));
      this.handler = (line) => onLine(line, finish);
      this.exitHandler = (message) => finish(onExit(message));
    });
  }

  private onData(chunk: string): void {
    this.buffer += chunk;
    let nl: number;
    while ((nl = this.buffer.indexOf('\n')) >= 0) {
      const line = this.buffer.slice(0, nl).replace(/\r$/, '').trim();
      this.buffer = this.buffer.slice(nl + 1);
      if (!line) continue;
      this.log?.(this.label, '<', line);
      this.handler?.(line);
    }
  }

  private onExit(message: string): void {
    if (this.exited) return;
    this.exited = true;
    this.exitMessage = message;
    const h = this.exitHandler;
    this.exitHandler = null;
    this.handler = null;
    h?.(message);
    const waiters = this.closeWaiters;
    this.closeWaiters = [];
    for (const w of waiters) w();
  }
}
