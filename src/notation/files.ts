// A game file's games, whatever its kind: XQF (recognised by its "XQ"
// signature) or PGN in any encoding text.ts knows.

import type { Result } from '../core/result.js';
import type { Game, GameErrorCode } from './game.js';
import { readPgn, type ReadOptions } from './pgn.js';
import type { TextEncoding } from './text.js';
import { isXqf, parseXqf } from './xqf.js';

/** A game file as read: its kind, its games and the encoding of its text. */
export interface GameFile {
  readonly kind: 'pgn' | 'xqf';
  /** One Result per game, in file order (XQF: one). */
  readonly games: Result<Game, GameErrorCode>[];
  /** The encoding the text was read in (XQF: its strings'; null when it has none to read). */
  readonly encoding: TextEncoding | null;
}

/**
 * A game file's bytes read: the one game of an XQF file, or each game of a PGN
 * file (one Result per game, so that a bad game does not stop the others), the
 * text in `options.encoding` or else the encoding whose games read best
 * (readPgn). `name` (a file name) is used in XQF error messages.
 */
export function readGameFile(bytes: Uint8Array, name?: string, options: ReadOptions = {}): GameFile {
  if (isXqf(bytes)) {
    const game = parseXqf(bytes, name, options);
    return { kind: 'xqf', games: [game], encoding: options.encoding ?? null };
  }
  const read = readPgn(bytes, options);
  return { kind: 'pgn', games: read.games, encoding: read.encoding };
}

/** The games of a file's bytes (readGameFile's games). */
export function readGames(bytes: Uint8Array, name?: string, options: ReadOptions = {}): Result<Game, GameErrorCode>[] {
  return readGameFile(bytes, name, options).games;
}
