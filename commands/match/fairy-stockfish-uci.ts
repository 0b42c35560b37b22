#!/usr/bin/env node
// Fairy-Stockfish (npm package fairy-stockfish-nnue.wasm) as a xiangqi UCI
// engine on stdin/stdout, for Kirin's match runner.
//
//   node dist/commands/match/fairy-stockfish-uci.js
//   node dist/commands/match/fairy-stockfish-uci.js --native /usr/games/fairy-stockfish
//
// - With --native PATH, a native Fairy-Stockfish binary (Debian package
//   fairy-stockfish) is run instead of the WebAssembly build, with the same
//   translation.
// - UCI_Variant is set to xiangqi before anything else and cannot be changed.
// - Threads is held at 1 (a `setoption name Threads` is rewritten to 1).
// - Without an EvalFile the engine uses its classical evaluation. Set the
//   environment variable FAIRY_NNUE=/path/to/xiangqi.nnue to load a network.
// - Squares: Fairy-Stockfish numbers xiangqi ranks 1..10, Kirin/Pikafish 0..9.
//   Moves are translated both ways: in `position ... moves`, `go searchmoves`,
//   and in `bestmove`, `ponder`, `pv`, `currmove` and `refutation` output.
//
// Fairy-Stockfish is GPL-3.0 (c) its authors; this wrapper only talks to it.

import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { dirname, join, basename } from 'node:path';
import { runRelay, spawnEndpoint, type EngineEndpoint } from './relay.js';
import { commandSpec, readCommandLine, reportCommandLine } from '../../toolkit/command-line.js';
import { runMain } from '../../toolkit/script.js';

/** Kirin move (ranks 0-9) -> Fairy-Stockfish move (ranks 1-10). */
export function toFairy(move: string): string {
  const m = /^([a-i])([0-9])([a-i])([0-9])$/.exec(move);
  if (!m) return move;
  return `${m[1]}${Number(m[2]) + 1}${m[3]}${Number(m[4]) + 1}`;
}

/** Fairy-Stockfish move (ranks 1-10) -> Kirin move (ranks 0-9). */
export function fromFairy(move: string): string {
  const m = /^([a-i])(10|[1-9])([a-i])(10|[1-9])$/.exec(move);
  if (!m) return move;
  return `${m[1]}${Number(m[2]) - 1}${m[3]}${Number(m[4]) - 1}`;
}

/** Rewrites one command from the GUI; returns null to drop it. */
export function translateInput(line: string): string | null {
  const words = line.trim().split(/\s+/);
  const cmd = words[0];
  if (cmd === 'position') {
    const k = words.indexOf('moves');
    if (k >= 0) for (let i = k + 1; i < words.length; i++) words[i] = toFairy(words[i]);
    return words.join(' ');
  }
  if (cmd === 'go') {
    const k = words.indexOf('searchmoves');
    if (k >= 0)
      for (let i = k + 1; i < words.length && /^[a-i][0-9][a-i][0-9]$/.test(words[i]); i++)
        words[i] = toFairy(words[i]);
    return words.join(' ');
  }
  if (cmd === 'setoption') {
    const m = /^setoption\s+name\s+(.*?)(?:\s+value\s+(.*))?$/i.exec(line.trim());
    if (m) {
      const name = m[1].toLowerCase();
      if (name === 'threads') return 'setoption name Threads value 1';
      if (name === 'uci_variant') return null;
    }
  }
  return line;
}

/** Rewrites one line of engine output (moves back to ranks 0-9). */
export function translateOutput(line: string): string {
  if (line.startsWith('id name ')) return 'id name Fairy-Stockfish';
  if (line.startsWith('option name UCI_Variant '))
    return 'option name UCI_Variant type combo default xiangqi var xiangqi';
  if (line.startsWith('option name Threads ')) return 'option name Threads type spin default 1 min 1 max 1';
  if (line.startsWith('bestmove') || line.startsWith('info')) {
    return line.split(' ').map(fromFairy).join(' ');
  }
  return line;
}

/** The translation of both paths (native and WebAssembly), for the relay loop. */
function fairyRelay(engine: EngineEndpoint, startup: string[]): void {
  runRelay({
    engine,
    startup: ['setoption name UCI_Variant value xiangqi', 'setoption name Threads value 1', ...startup],
    fromGui: (line, io) => {
      const t = translateInput(line);
      if (t !== null) io.toEngine(t);
      // Fairy-Stockfish resets the variant on `uci`: set it again right after.
      if (t === 'uci') io.toEngine('setoption name UCI_Variant value xiangqi');
    },
    fromEngine: (line, io) => io.toGui(translateOutput(line)),
  });
}

const SPEC = commandSpec({
  name: 'fairy-stockfish-uci',
  usage: 'usage: node dist/commands/match/fairy-stockfish-uci.js [--native /usr/games/fairy-stockfish]',
  options: { native: { type: 'string' } },
});

async function main(argv: string[]): Promise<number> {
  const cl = readCommandLine(argv, SPEC);
  if (!cl.ok) return reportCommandLine(SPEC, cl.error);
  const native = cl.value.values.native;
  if (native !== undefined) {
    fairyRelay(spawnEndpoint(native, [], 'fairy-stockfish-uci'), []);
    return 0;
  }
  const require = createRequire(import.meta.url);
  let pkgDir: string;
  try {
    pkgDir = dirname(require.resolve('fairy-stockfish-nnue.wasm/stockfish.js'));
  } catch {
    process.stderr.write(
      'fairy-stockfish-uci: the npm package fairy-stockfish-nnue.wasm is not installed (npm install in the Kirin folder installs it)\n',
    );
    return 1;
  }
  const Stockfish = require(join(pkgDir, 'stockfish.js'));
  // Passing the wasm bytes avoids the package's fetch() of a file path, which fails on Node >= 18.
  const sf = await Stockfish({
    wasmBinary: readFileSync(join(pkgDir, 'stockfish.wasm')),
    locateFile: (file: string) => join(pkgDir, file),
  });
  const startup: string[] = [];
  const nnue = process.env.FAIRY_NNUE;
  if (nnue) {
    const name = '/' + basename(nnue);
    sf.FS.writeFile(name, readFileSync(nnue));
    startup.push(`setoption name EvalFile value ${name}`);
  }
  let exitHandler: (code: number) => void = () => {};
  fairyRelay(
    {
      send: (line) => sf.postMessage(line),
      onLine: (handler) => sf.addMessageListener((line: unknown) => handler(String(line))),
      onExit: (handler) => {
        exitHandler = handler;
      },
      // `quit` has been posted by then; the worker threads would keep Node alive.
      end: () => {
        try {
          sf.terminate();
        } catch {
          /* already gone */
        }
        exitHandler(0);
      },
    },
    startup,
  );
  return 0;
}

runMain(import.meta.url, main);
