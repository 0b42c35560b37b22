// A game kept in the player's library: the game itself as PGN (headers,
// comments, variations: what the page's game record holds), its review when it
// has one (the library's Review object, as reviewGame made it: enough to show
// the chart, the marks and the verdicts again), and the fields the list shows
// and searches (players, event, date, result, opening), taken from the game
// when it is saved. Pure.

import {
  classifyOpening,
  err,
  mainLine,
  moveToUci,
  ok,
  readGames,
  writePgn,
  type Game,
  type GameResult,
  type Result,
  type Review,
} from '../../src/browser/index.js';

/** Where a kept game came from: played against Kirin, read from a file or text, or the analysis board's own. */
export type GameSource = 'played' | 'imported' | 'analysis';

export interface GameRecord {
  /** The record's key in the store. */
  readonly id: string;
  /**
   * The game as PGN with ICCS moves (H2-E2, which every reader takes and which
   * reads back to the same moves): headers, comments, annotations, variations.
   */
  readonly pgn: string;
  /** The player's own name for the game ('' until renamed: the list shows the players). */
  readonly title: string;
  readonly source: GameSource;
  /** When it was first saved and last changed (ms since 1970). */
  readonly created: number;
  readonly updated: number;
  /** From the headers ('' when absent). */
  readonly red: string;
  readonly black: string;
  readonly event: string;
  /** PGN's date as written (2026.01.05, or 2026.??.?? ...). */
  readonly date: string;
  readonly result: GameResult;
  /** The opening's ECCO code and name (the classifier's for a game from the start, else the headers'), or ''. */
  readonly eccoCode: string;
  readonly opening: string;
  /** Moves of the main line. */
  readonly plies: number;
  /** The review of the game's main line, or null. */
  readonly review: Review | null;
}

export interface RecordFields {
  readonly id: string;
  readonly source: GameSource;
  readonly now: number;
  readonly title?: string;
  readonly review?: Review | null;
  /** For an update: when the record was first saved. */
  readonly created?: number;
}

/** A header's value whatever the case of its name ('' when absent). */
function header(game: Game, name: string): string {
  const k = Object.keys(game.headers).find((h) => h.toLowerCase() === name.toLowerCase());
  return k === undefined ? '' : game.headers[k].trim();
}

/** A game as a record; a game that cannot be written as PGN (an illegal move in it) is refused with why. */
export function recordFromGame(game: Game, fields: RecordFields): Result<GameRecord, 'library-game'> {
  const pgn = writePgn(game, { notation: 'iccs' });
  if (!pgn.ok) return err('library-game', pgn.error.message);
  const moves = mainLine(game);
  const named = classifyOpening(moves.map(moveToUci), game.fen);
  return ok({
    id: fields.id,
    pgn: pgn.value,
    title: fields.title ?? '',
    source: fields.source,
    created: fields.created ?? fields.now,
    updated: fields.now,
    red: header(game, 'Red'),
    black: header(game, 'Black'),
    event: header(game, 'Event'),
    date: header(game, 'Date'),
    result: game.result,
    eccoCode: named.ok ? named.value.code : header(game, 'ECCO'),
    opening: named.ok
      ? [named.value.name, named.value.variation].filter((x) => x !== '').join(' ')
      : header(game, 'Opening'),
    plies: moves.length,
    review: fields.review ?? null,
  });
}

/** The game a record keeps (read back from its PGN); a damaged record is refused with the reader's error. */
export function gameFromRecord(record: GameRecord): Result<Game, 'library-record'> {
  const games = readGames(new TextEncoder().encode(record.pgn), `${record.id}.pgn`);
  const first = games[0];
  if (first === undefined) return err('library-record', `game ${record.id}: no game in its PGN`);
  if (!first.ok) return err('library-record', `game ${record.id}: ${first.error.message}`);
  return ok(first.value);
}

/**
 * True when `review` is of this game's main line (the same start, its moves the
 * main line's first ones), so it can be shown and exported with it.
 */
export function reviewFits(game: Game, review: Pick<Review, 'startFen' | 'moves'>): boolean {
  const moves = mainLine(game).map(moveToUci);
  return (
    review.moves.length <= moves.length &&
    review.moves.every((m, i) => m === moves[i]) &&
    review.startFen.split(/\s+/).slice(0, 2).join(' ') === game.fen.split(/\s+/).slice(0, 2).join(' ')
  );
}
