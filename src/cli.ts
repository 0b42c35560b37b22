// Command-line entry point.
//
//   kirin                      the UCI engine on stdin/stdout
//   kirin <uci command ...>    runs one command and exits (e.g. `kirin bench`,
//                              `kirin go perft 5`, `kirin d`), like Stockfish
//   kirin match ...            the engine-vs-engine match runner (kirin match --help)

import { createInterface } from 'node:readline';
import { Engine } from './engine.js';
import { runUci } from './protocol/uci.js';

function writeLine(line: string): void {
  process.stdout.write(line + '\n');
}

async function* oneShot(command: string): AsyncIterable<string> {
  yield command;
  yield 'quit';
}

export async function main(argv: string[]): Promise<number> {
  if (argv[0] === 'match') {
    const { runMatchCli } = await import('./tools/match/cli.js');
    return runMatchCli(argv.slice(1));
  }
  const engine = new Engine();
  if (argv.length > 0) {
    // A one-shot command: a search started by it runs to its own limits.
    const cmd = argv.join(' ');
    const lines = cmd.startsWith('go') && !cmd.includes('perft') ? withWait(cmd, engine) : oneShot(cmd);
    await runUci(engine, lines, writeLine);
    return 0;
  }
  const rl = createInterface({ input: process.stdin, crlfDelay: Infinity, terminal: false });
  await runUci(engine, rl, writeLine);
  // After `quit` stdin may still be open: release it so the process can end.
  rl.close();
  process.stdin.destroy();
  return 0;
}

/** For `kirin go depth 10`: let the search finish before quitting. */
async function* withWait(command: string, engine: Engine): AsyncIterable<string> {
  yield command;
  await new Promise((r) => setTimeout(r, 0));
  await engine.waitIdle();
  yield 'quit';
}
