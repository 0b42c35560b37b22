// The real `kirin` command (bin/kirin.js) in a child process, driven line by
// line as a GUI drives it: the end-to-end protocol tests (UCI, UCCI) use it.
// Every process started is remembered; a test file calls
// `after(killEngineProcesses)` so that a failed test cannot leave one running.
// (Pattern: the UCI and UCCI end-to-end tests, src/protocol/uci.integration.test.ts and ucci.integration.test.ts.)

import { spawn, type ChildProcess, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { join } from 'node:path';
import { repoRoot } from '../../toolkit/files.js';

export const KIRIN_BIN = join(repoRoot(), 'bin', 'kirin.js');

/**
 * How long a test waits for an expected line before it fails. Generous on purpose: on a
 * loaded machine (a match beside the tests) a fresh process takes seconds to start and warm
 * up, and the tests check what comes and in which order, never how fast (speed is measured
 * by benchmarks). A defect these waits catch (a lost stop, a protocol loop blocked by the
 * search) never answers at all, so it fails here however long the deadline.
 */
export const ANSWER_DEADLINE_MS = 120_000;

const started: ChildProcess[] = [];

/** Adds a process started elsewhere (e.g. a tool run by a test) to those killEngineProcesses() ends. */
export function trackProcess(p: ChildProcess): void {
  started.push(p);
}

/** Kills every process started here (or tracked) that is still running (for node:test's `after`). */
export function killEngineProcesses(): void {
  for (const p of started) if (p.exitCode === null && p.signalCode === null) p.kill('SIGKILL');
}

export class EngineProcess {
  readonly proc: ChildProcessWithoutNullStreams;
  /** Every stdout line so far. */
  readonly lines: string[] = [];
  stderr = '';
  private waiters: Array<() => void> = [];
  readonly exited: Promise<number | null>;

  /** Starts `node bin/kirin.js <args>`. */
  constructor(args: string[] = []) {
    this.proc = spawn(process.execPath, [KIRIN_BIN, ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
    started.push(this.proc);
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

  /** Sends lines in one write (several at once, as a GUI that sends them together). */
  send(...cmds: string[]): void {
    this.proc.stdin.write(cmds.map((c) => c + '\n').join(''));
  }

  /** Sends several lines in one write. */
  sendAll(cmds: string[]): void {
    this.send(...cmds);
  }

  /** Lines matching `re` from index `from` on. */
  count(re: RegExp, from = 0): number {
    return this.lines.slice(from).filter((l) => re.test(l)).length;
  }

  /** Waits for a line matching `re` at or after index `from` (default 0); returns its index. */
  async waitFor(
    re: RegExp,
    { from = 0, timeoutMs = ANSWER_DEADLINE_MS }: { from?: number; timeoutMs?: number } = {},
  ): Promise<number> {
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

  /** Sends the lines and returns the first answer matching `re` after them. */
  async ask(re: RegExp, ...cmds: string[]): Promise<string> {
    const from = this.lines.length;
    this.send(...cmds);
    return this.lines[await this.waitFor(re, { from })];
  }

  async quit(): Promise<number | null> {
    this.send('quit');
    return this.exited;
  }
}
