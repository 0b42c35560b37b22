// `kirin opening [--encoding NAME] FILE...`: the ECCO opening of every game in
// game files (PGN in any notation and encoding, XQF), one line per game in file
// order:
//
//   CODE<TAB>opening<TAB>variation
//
// A game that cannot be read, or that does not start from the start position,
// still gets its line (`-` for the code), and a message on stderr names it, so
// that the lines stay in step with the games. docs/OPENINGS.md. Exit codes as
// every command that reads game files (game-files.ts).

import { moveToUci } from '../core/types.js';
import { mainLine } from '../notation/game.js';
import { classifyOpening } from '../opening/ecco.js';
import { commandSpec, readCommandLine, reportCommandLine, PROCESS_IO, type CommandIo } from './command-line.js';
import { ENCODING_USAGE, EXIT_NOTHING, encodingOption, fileExitCode, fileReport, loadGameFile } from './game-files.js';

const SPEC = commandSpec({
  name: 'kirin opening',
  usage: `usage: kirin opening [--encoding NAME] FILE...
  Prints the ECCO opening of every game of the files (PGN in any notation, or
  XQF), one line per game: CODE<TAB>opening<TAB>variation.
  ${ENCODING_USAGE}
  Exit code: 0 every game read, 1 some games refused, 2 a bad command line or
  a file with no game that reads.`,
  options: { encoding: { type: 'string' } },
  positionals: { min: 1 },
});

export function runOpeningCli(
  argv: readonly string[],
  io: CommandIo = PROCESS_IO,
  readFile?: (path: string) => Uint8Array,
): number {
  const cl = readCommandLine(argv, SPEC);
  if (!cl.ok) return reportCommandLine(SPEC, cl.error, io.stdout, io.stderr);
  const encoding = encodingOption(cl.value.values.encoding);
  if (!encoding.ok) return reportCommandLine(SPEC, encoding.error, io.stdout, io.stderr);
  let code = 0;
  for (const file of cl.value.positionals) {
    const read = loadGameFile(file, encoding.value, readFile);
    if (!read.ok) {
      io.stderr.write(`kirin opening: ${read.error.message}\n`);
      code = Math.max(code, EXIT_NOTHING);
      continue;
    }
    const fileCode = fileExitCode(read.value);
    read.value.games.forEach((g, i) => {
      if (!g.ok) {
        io.stdout.write('-\t\t\n');
        return;
      }
      const r = classifyOpening(mainLine(g.value).map(moveToUci), g.value.fen);
      if (!r.ok) {
        io.stderr.write(`kirin opening: ${file}, game ${i + 1}: ${r.error.message}\n`);
        io.stdout.write('-\t\t\n');
        return;
      }
      io.stdout.write(`${r.value.code}\t${r.value.name}\t${r.value.variation}\n`);
    });
    for (const line of fileReport(file, read.value, encoding.value !== undefined))
      io.stderr.write(`kirin opening: ${line}\n`);
    code = Math.max(code, fileCode);
  }
  return code;
}
