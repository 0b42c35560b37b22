// `kirin opening FILE...`: the ECCO opening of every game in game files (PGN in
// any notation, XQF), one line per game in file order:
//
//   CODE<TAB>opening<TAB>variation
//
// A game that cannot be read, or that does not start from the start position,
// still gets its line (`-` for the code) and a message on stderr naming it, so
// that the lines stay in step with the games. docs/OPENINGS.md.

import { readFileSync } from 'node:fs';
import { mainLine } from './notation/game.js';
import { readGames } from './notation/files.js';
import { classifyOpening } from './opening/ecco.js';
import { moveToUci } from './core/types.js';

const USAGE = 'usage: kirin opening FILE...\n';

export function runOpeningCommand(
  argv: readonly string[],
  out: (s: string) => void = (s) => process.stdout.write(s),
  errOut: (s: string) => void = (s) => process.stderr.write(s),
): number {
  if (argv.includes('--help') || argv.includes('-h')) {
    out(USAGE);
    return 0;
  }
  if (argv.length === 0 || argv.some((a) => a.startsWith('-'))) {
    errOut(
      `kirin opening: ${argv.length === 0 ? 'no file given' : `unknown option '${argv.find((a) => a.startsWith('-'))}'`}\n${USAGE}`,
    );
    return 2;
  }
  let status = 0;
  for (const file of argv) {
    let bytes: Uint8Array;
    try {
      bytes = readFileSync(file);
    } catch (e) {
      errOut(`kirin opening: ${file}: ${(e as Error).message}\n`);
      status = 1;
      continue;
    }
    readGames(bytes, file).forEach((g, i) => {
      const name = `${file} game ${i + 1}`;
      if (!g.ok) {
        errOut(`kirin opening: ${name}: ${g.error.message}\n`);
        out('-\t\t\n');
        return;
      }
      const r = classifyOpening(mainLine(g.value).map(moveToUci), g.value.fen);
      if (!r.ok) {
        errOut(`kirin opening: ${name}: ${r.error.message}\n`);
        out('-\t\t\n');
        return;
      }
      out(`${r.value.code}\t${r.value.name}\t${r.value.variation}\n`);
    });
  }
  return status;
}
