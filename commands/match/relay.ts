// The relay loop shared by the engine wrappers (fairy-stockfish-uci.ts,
// ucci-uci.ts): our stdin (the GUI or the match runner) goes to a wrapped
// engine, the engine's output comes back on our stdout, each line through a
// translation function. The relay ends the process cleanly on `quit`, on the
// end of our stdin, and when the engine exits (with the engine's exit code).

import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

/** The two directions a translation function may write to. */
export interface RelayIO {
  /** A line for the wrapped engine. */
  toEngine(line: string): void;
  /** A line for the GUI (our stdout). */
  toGui(line: string): void;
}

/** A wrapped engine: a child process, or anything else that takes and gives lines. */
export interface EngineEndpoint {
  send(line: string): void;
  /** Registers the handler of the engine's output lines (called once, before any line comes). */
  onLine(handler: (line: string) => void): void;
  /** Registers the handler of the engine's end: its exit code. */
  onExit(handler: (code: number) => void): void;
  /** Asks the engine to end (after `quit` was sent); must lead to the exit handler. */
  end(): void;
}

/**
 * A child process as an endpoint. A failure to start is reported on stderr
 * with `label` and ends our process with code 1. The exit handler is called
 * once the child's output has been read to the end.
 */
export function spawnEndpoint(command: string, args: readonly string[], label: string): EngineEndpoint {
  const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'inherit'] });
  child.on('error', (e) => {
    process.stderr.write(`${label}: cannot start ${command}: ${e.message}\n`);
    process.exit(1);
  });
  child.stdin.on('error', () => {
    /* the engine is gone: reported by 'close' */
  });
  let lineHandler: (line: string) => void = () => {};
  createInterface({ input: child.stdout, crlfDelay: Infinity, terminal: false }).on('line', (line) =>
    lineHandler(line),
  );
  return {
    send: (line) => {
      if (!child.stdin.destroyed) child.stdin.write(line + '\n');
    },
    onLine: (handler) => {
      lineHandler = handler;
    },
    onExit: (handler) => {
      child.on('close', (code, signal) => handler(code ?? (signal ? 1 : 0)));
    },
    end: () => {
      if (!child.stdin.destroyed) child.stdin.end();
      // An engine that ignores quit and the end of its input is killed.
      setTimeout(() => child.kill('SIGKILL'), 3000).unref();
    },
  };
}

export interface RelayOptions {
  engine: EngineEndpoint;
  /** Handles one non-empty, trimmed line from our stdin (`quit` included: forward it if the engine needs it). */
  fromGui(line: string, io: RelayIO): void;
  /** Handles one line of engine output. */
  fromEngine(line: string, io: RelayIO): void;
  /** Lines sent to the engine before anything else. */
  startup?: readonly string[];
}

/** Runs the relay until the engine exits; then our process exits with the engine's code. */
export function runRelay(opts: RelayOptions): void {
  const { engine } = opts;
  // The reader went away (GUI closed, `| head`): nothing left to do.
  process.stdout.on('error', () => process.exit(0));
  let ending = false;
  const io: RelayIO = {
    toEngine: (line) => {
      if (!ending) engine.send(line);
    },
    toGui: (line) => {
      process.stdout.write(line + '\n');
    },
  };
  engine.onLine((line) => opts.fromEngine(line, io));
  engine.onExit((code) => process.exit(code));
  for (const line of opts.startup ?? []) engine.send(line);
  const finish = (): void => {
    if (ending) return;
    ending = true;
    engine.end();
  };
  const rl = createInterface({ input: process.stdin, crlfDelay: Infinity, terminal: false });
  rl.on('line', (raw) => {
    const line = raw.trim();
    if (!line || ending) return;
    opts.fromGui(line, io);
    if (line === 'quit') finish();
  });
  rl.on('close', () => {
    if (ending) return;
    // The end of our input is a quit.
    opts.fromGui('quit', io);
    finish();
  });
}
