// `kirin opening FILE...`: the ECCO opening of every game in game files (PGN in
// any notation, XQF), one line per game in file order:
//
//   CODE<TAB>opening<TAB>variation
//
// A game that cannot be read, or that does not start from the start position,
// still gets its line (`-` for the code) and a message on stderr naming it, so
// that the lines stay in step with the games. docs/OPENINGS.md.

import { readFileSync } from 'node:fs';
import { moveToUci } from '../core/types.js';
import { mainLine } from '../notation/game.js';
import { readGames } from '../notation/files.js';
import { classifyOpening } from '../opening/ecco.js';
import { commandSpec, readCommandLine, reportCommandLine, PROCESS_IO, type CommandIo } from './command-line.js';

const SPEC = commandSpec({
  name: 'kirin opening',
  usage: `usage: kirin opening FILE...
  Prints the ECCO opening of every game of the files (PGN in any notation, or
  XQF), one line per game: CODE<TAB>opening<TAB>variation.`,
  options: {},
  positionals: { min: 1 },
});

export function runOpeningCli(argv: readonly string[], io: CommandIo = PROCESS_IO): number {
  const cl = readCommandLine(argv, SPEC);
  if (!cl.ok) return reportCommandLine(SPEC, cl.error, io.stdout, io.stderr);
  let status = 0;
  for (const file of cl.value.positionals) {
    let bytes: Uint8Array;
    try {
      bytes = readFileSync(file);
    } catch (e) {
      io.stderr.write(`kirin opening: ${file}: ${(e as Error).message}\n`);
      status = 1;
      continue;
    }
    readGames(bytes, file).forEach((g, i) => {
      const name = `${file} game ${i + 1}`;
      const r = g.ok ? classifyOpening(mainLine(g.value).map(moveToUci), g.value.fen) : g;
      if (!r.ok) {
        io.stderr.write(`kirin opening: ${name}: ${r.error.message}\n`);
        io.stdout.write('-\t\t\n');
        return;
      }
      io.stdout.write(`${r.value.code}\t${r.value.name}\t${r.value.variation}\n`);
    });
  }
  return status;
}
