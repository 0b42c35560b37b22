// Command-line entry point.
//
//   kirin                      the UCI engine on stdin/stdout (UCCI when the
//                              first command is `ucci`)
//   kirin <uci command ...>    runs one command and exits (e.g. `kirin bench`,
//                              `kirin go perft 5`, `kirin d`), like Stockfish
//   kirin review FILE ...      reviews a game (src/cli/review.ts, docs/REVIEW.md)
//   kirin convert FILE ...     writes games as PGN in a notation (src/cli/convert.ts)
//   kirin opening FILE ...     names each game's ECCO opening (src/cli/opening.ts)
//   kirin explorer ...         builds and probes opening explorers (src/cli/explorer.ts)
//   kirin judge FILE ...       referees each game's repetition cycles (src/cli/judge.ts)
// (`kirin match ...`, a development tool, is dispatched by bin/kirin.js to
// commands/match/cli.ts; the product does not import the tools.)

import { createInterface } from 'node:readline';
import { Engine } from './engine/engine.js';
import { prepareNetworkDecoder } from './eval/nnue/loader.js';
import { runProtocol } from './protocol/run-protocol.js';
import { Uci } from './protocol/uci.js';

function writeLine(line: string): void {
  process.stdout.write(line + '\n');
}

export async function main(argv: string[]): Promise<number> {
  // The players' commands, loaded only when asked for.
  if (argv[0] === 'review') return (await import('./cli/review.js')).runReviewCli(argv.slice(1));
  if (argv[0] === 'convert') return (await import('./cli/convert.js')).runConvertCli(argv.slice(1));
  if (argv[0] === 'opening') return (await import('./cli/opening.js')).runOpeningCli(argv.slice(1));
  if (argv[0] === 'explorer') return (await import('./cli/explorer.js')).runExplorerCli(argv.slice(1));
  if (argv[0] === 'judge') return (await import('./cli/judge.js')).runJudgeCli(argv.slice(1));
  // The WebAssembly zstd decoder first (tens of milliseconds): the engine loads
  // the network it finds at once. The search thread starts (and warms up) now,
  // while the GUI sends uci/isready.
  await prepareNetworkDecoder();
  const engine = new Engine({ warmup: true });
  if (argv.length > 0) {
    // A one-shot command: run it to completion (a search to its own limits), then exit.
    const uci = new Uci(engine, writeLine);
    await uci.command(argv.join(' '));
    await engine.waitIdle();
    await engine.close();
    return 0;
  }
  const rl = createInterface({ input: process.stdin, crlfDelay: Infinity, terminal: false });
  await runProtocol(engine, rl, writeLine);
  // After `quit` stdin may still be open: release it so the process can end.
  rl.close();
  process.stdin.destroy();
  return 0;
}
