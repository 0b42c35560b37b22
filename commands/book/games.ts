// The games a book is built from: each game file's main line, start position
// and result, read with the product's game-file reader (PGN in any notation and
// encoding, XQF; docs/NOTATION.md), or from a `kirin match --log` file (Kirin's
// own games).

import { mainLine, moveToUci, type TextEncoding } from '../../src/dev.js';
import { loadGameFile } from '../../src/cli/game-files.js';
import { parseLogLine } from '../match/report.js';
import type { BookGame } from './build.js';

const LOG_RESULTS = { red: '1-0', black: '0-1', draw: '1/2-1/2' } as const;

/** Whether a file's text is a `kirin match --log` game log (its first line a game line). */
function isGameLog(bytes: Uint8Array): boolean {
  const head = new TextDecoder().decode(bytes.subarray(0, 64));
  return /^game [1-9][0-9]* \| /.test(head);
}

/** The games of a `kirin match --log` file, one per line; a line that is no game is a problem. */
function readLogGames(bytes: Uint8Array, name: string): { games: BookGame[]; problems: string[] } {
  const games: BookGame[] = [];
  const problems: string[] = [];
  new TextDecoder()
    .decode(bytes)
    .split('\n')
    .forEach((line, i) => {
      if (line.trim() === '') return;
      const g = parseLogLine(line, `${name}:${i + 1}`);
      if (!g.ok) problems.push(g.error.message);
      else
        games.push({
          fen: g.value.fen,
          moves: g.value.moves,
          result: LOG_RESULTS[g.value.result],
          source: `${name} game ${g.value.game}`,
        });
    });
  return { games, problems };
}

/**
 * The games of a file's bytes (`name` for messages): a `kirin match --log` game
 * log, PGN or XQF, the text in `encoding`, else the encoding that reads its
 * games best. A game that cannot be read is a problem, and the others are read;
 * a file with no game says so ("no game in FILE").
 */
export function readBookGames(
  bytes: Uint8Array,
  name: string,
  encoding?: TextEncoding,
): { games: BookGame[]; problems: string[] } {
  if (isGameLog(bytes)) return readLogGames(bytes, name);
  const read = loadGameFile(name, encoding, () => bytes);
  if (!read.ok) return { games: [], problems: [read.error.message] };
  const games: BookGame[] = [];
  const problems: string[] = [];
  read.value.games.forEach((r, i) => {
    const source = `${name} game ${i + 1}`;
    if (!r.ok) problems.push(read.value.kind === 'xqf' ? r.error.message : `${name}: ${r.error.message}`);
    else games.push({ fen: r.value.fen, moves: mainLine(r.value).map(moveToUci), result: r.value.result, source });
  });
  return { games, problems };
}
