// The whole library as one PGN file, and many games read from files at once.
// Pure.

import { annotateGame, readGames, writePgn, type Game, type Notation } from '../../src/browser/index.js';
import { gameFromRecord, reviewFits, type GameRecord } from './record.js';

export interface Bundle {
  /** The games as one PGN text, one after the other. */
  readonly pgn: string;
  /** Games written. */
  readonly games: number;
  /** Why each game that could not be written was left out. */
  readonly errors: readonly string[];
}

/**
 * The records as one PGN text in `notation` (the library's writePgn), in the
 * order given: each game with its headers, comments and variations, and a
 * reviewed game with its review (annotateGame: the scores, ?! ? ??, the best
 * lines), as Export PGN writes a single game.
 */
export function bundlePgn(records: readonly GameRecord[], notation: Notation = 'chinese'): Bundle {
  const texts: string[] = [];
  const errors: string[] = [];
  for (const r of records) {
    const g = gameFromRecord(r);
    if (!g.ok) {
      errors.push(g.error.message);
      continue;
    }
    let game: Game = g.value;
    if (r.review && reviewFits(game, r.review)) {
      const a = annotateGame(game, r.review, { notation, annotator: 'Kirin' });
      if (a.ok) game = a.value;
    }
    const text = writePgn(game, { notation });
    if (text.ok) texts.push(text.value);
    else errors.push(`game ${r.id}: ${text.error.message}`);
  }
  return { pgn: texts.join('\n'), games: texts.length, errors };
}

/** A file to import: its name (which tells PGN from XQF) and bytes. */
export interface ImportFile {
  readonly name: string;
  readonly bytes: Uint8Array;
}

export interface ImportedGames {
  readonly games: readonly Game[];
  /** Each game or file that could not be read, with the reader's reason. */
  readonly errors: readonly string[];
}

/** The games of many files (PGN with any number of games in any notation and encoding, XQF). */
export function readManyGames(files: readonly ImportFile[]): ImportedGames {
  const games: Game[] = [];
  const errors: string[] = [];
  for (const f of files) {
    const results = readGames(f.bytes, f.name);
    if (results.length === 0) errors.push(`${f.name}: no game in it`);
    for (const r of results) {
      if (r.ok) games.push(r.value);
      else errors.push(`${f.name}: ${r.error.message}`);
    }
  }
  return { games, errors };
}
