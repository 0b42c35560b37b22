// A game file's games, whatever its kind: XQF (recognised by its "XQ"
// signature) or PGN in any encoding decodeText knows.

import type { Result } from '../core/result.js';
import type { Game, GameErrorCode } from './game.js';
import { parseGames } from './pgn.js';
import { isXqf, parseXqf } from './xqf.js';

/**
 * The games of a file's bytes: the one game of an XQF file, or each game of a
 * PGN file (one Result per game, so that a bad game does not stop the others).
 * `name` (a file name) is used in XQF error messages.
 */
export function readGames(bytes: Uint8Array, name?: string): Result<Game, GameErrorCode>[] {
  return isXqf(bytes) ? [parseXqf(bytes, name)] : parseGames(bytes);
}
