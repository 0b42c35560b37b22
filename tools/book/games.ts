// The games a book is built from: each game file's main line, start position
// and result, read with the library's game-file reader (PGN in any notation,
// XQF; docs/NOTATION.md).

import {
  mainLine,
  moveToUci,
  parseGames,
  readGames,
  type Game,
  type GameErrorCode,
  type Result,
} from '../../src/dev.js';
import type { BookGame } from './build.js';

/**
 * The games of a file's bytes (`name` for messages): PGN or XQF, the encoding
 * told from the bytes unless `encoding` names it (a TextDecoder label, e.g.
 * big5). A game that cannot be read is a problem, and the others are read.
 */
export function readBookGames(
  bytes: Uint8Array,
  name: string,
  encoding?: string,
): { games: BookGame[]; problems: string[] } {
  const read: Result<Game, GameErrorCode>[] =
    encoding === undefined ? readGames(bytes, name) : parseGames(new TextDecoder(encoding).decode(bytes));
  const games: BookGame[] = [];
  const problems: string[] = [];
  read.forEach((r, i) => {
    const source = `${name} game ${i + 1}`;
    if (!r.ok) problems.push(`${source}: ${r.error.message}`);
    else games.push({ fen: r.value.fen, moves: mainLine(r.value).map(moveToUci), result: r.value.result, source });
  });
  return { games, problems };
}
