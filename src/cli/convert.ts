// `kirin convert --notation chinese|wxf|iccs|uci [--encoding NAME] FILE...`:
// every game of the files (PGN in any notation and encoding, XQF) as PGN in one
// notation on stdout, one blank line between games. A file or game that cannot
// be read is named on stderr and the others are still written; a dropped
// variation is a warning.
//
// Exit codes (game-files.ts): 0 every game written; 1 some games refused; 2 a
// bad command line, or a file that cannot be read or has no game that reads.

import { NOTATIONS, type Notation } from '../notation/move.js';
import { writePgn } from '../notation/pgn.js';
import { commandSpec, readCommandLine, reportCommandLine, PROCESS_IO, type CommandIo } from './command-line.js';
import {
  ENCODING_USAGE,
  EXIT_NOTHING,
  EXIT_PARTIAL,
  encodingOption,
  fileExitCode,
  fileReport,
  loadGameFile,
} from './game-files.js';

const SPEC = commandSpec({
  name: 'kirin convert',
  usage: `usage: kirin convert [--notation chinese|wxf|iccs|uci] [--encoding NAME] FILE...
  Writes every game of the files (PGN in any notation, or XQF) to stdout as PGN
  with its moves in --notation (default chinese): 炮二平五, C2=5, H2-E2 or h2e2.
  ${ENCODING_USAGE}
  Exit code: 0 every game written, 1 some games refused, 2 a bad command line
  or a file with no game that reads.`,
  options: { notation: { type: 'string' }, encoding: { type: 'string' } },
  positionals: { min: 1 },
});

export function runConvertCli(
  argv: readonly string[],
  io: CommandIo = PROCESS_IO,
  readFile?: (path: string) => Uint8Array,
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
  const encoding = encodingOption(cl.value.values.encoding);
  if (!encoding.ok) return reportCommandLine(SPEC, encoding.error, io.stdout, io.stderr);
  let code = 0;
  let written = 0;
  for (const file of cl.value.positionals) {
    const read = loadGameFile(file, encoding.value, readFile);
    if (!read.ok) {
      io.stderr.write(`kirin convert: ${read.error.message}\n`);
      code = Math.max(code, EXIT_NOTHING);
      continue;
    }
    let fileCode = fileExitCode(read.value);
    read.value.games.forEach((g, i) => {
      if (!g.ok) return;
      const pgn = writePgn(g.value, { notation });
      if (!pgn.ok) {
        io.stderr.write(`kirin convert: ${file}, game ${i + 1}: ${pgn.error.message}\n`);
        fileCode = Math.max(fileCode, EXIT_PARTIAL);
        return;
      }
      io.stdout.write((written++ > 0 ? '\n' : '') + pgn.value);
    });
    for (const line of fileReport(file, read.value, encoding.value !== undefined))
      io.stderr.write(`kirin convert: ${line}\n`);
    code = Math.max(code, fileCode);
  }
  return code;
}
