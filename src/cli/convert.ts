// `kirin convert --notation chinese|wxf|iccs|uci FILE...`: every game of the
// files (PGN in any notation, XQF) as PGN in one notation on stdout, one blank
// line between games. A file or game that cannot be read is named on stderr
// and the others are still written.
//
// Exit codes: 0 every game written; 2 a bad command line, or a file or game
// that could not be read or written.

import { readFileSync } from 'node:fs';
import { NOTATIONS, type Notation } from '../notation/move.js';
import { readGames } from '../notation/files.js';
import { writePgn } from '../notation/pgn.js';
import { commandSpec, readCommandLine, reportCommandLine, PROCESS_IO, type CommandIo } from './command-line.js';

const SPEC = commandSpec({
  name: 'kirin convert',
  usage: `usage: kirin convert [--notation chinese|wxf|iccs|uci] FILE...
  Writes every game of the files (PGN in any notation, or XQF) to stdout as PGN
  with its moves in --notation (default chinese): 炮二平五, C2=5, H2-E2 or h2e2.`,
  options: { notation: { type: 'string' } },
  positionals: { min: 1 },
});

export function runConvertCli(
  argv: readonly string[],
  io: CommandIo = PROCESS_IO,
  readFile: (path: string) => Uint8Array = (path) => readFileSync(path),
): number {
  const cl = readCommandLine(argv, SPEC);
  if (!cl.ok) return reportCommandLine(SPEC, cl.error, io.stdout, io.stderr);
  const notation = (cl.value.values.notation ?? 'chinese') as Notation;
  if (!NOTATIONS.includes(notation))
    return reportCommandLine(
      SPEC,
      { code: 'arguments', message: `--notation ${notation}: one of ${NOTATIONS.join(', ')}` },
      io.stdout,
      io.stderr,
    );
  let failed = 0;
  let written = 0;
  for (const file of cl.value.positionals) {
    let bytes: Uint8Array;
    try {
      bytes = readFile(file);
    } catch (e) {
      io.stderr.write(`kirin convert: cannot read ${file}: ${(e as Error).message}\n`);
      failed++;
      continue;
    }
    const games = readGames(bytes, file);
    if (games.length === 0) {
      io.stderr.write(`kirin convert: ${file}: no game in it\n`);
      failed++;
    }
    games.forEach((g, i) => {
      const pgn = g.ok ? writePgn(g.value, { notation }) : g;
      if (!pgn.ok) {
        // The reader's messages name the game already ("game 2 (Red vs Black): move 12 ...").
        const where = g.ok ? `${file}, game ${i + 1}` : file;
        io.stderr.write(`kirin convert: ${where}: ${pgn.error.message}\n`);
        failed++;
        return;
      }
      io.stdout.write((written++ > 0 ? '\n' : '') + pgn.value);
    });
  }
  return failed > 0 ? 2 : 0;
}
