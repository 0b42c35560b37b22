// The opening book builder's core (docs/BOOK.md): counts, over a collection of
// games, how often each move was played in each position of the opening and
// how those games ended for the side that played it, keeps the moves played
// often enough and scoring well enough, weighs them, and writes the book file.
// The same games give the same bytes, in any order.

import { Position, moveFrom, moveTo, parseLegalMove } from '../../src/dev.js';
import { bookMoveCode } from '../../src/book/book.js';
import { BOOK_FLAG_MIRROR, encodeBook, type BookEntry } from '../../src/book/format.js';
import { bookKey } from '../../src/book/key.js';

/** A game as the builder reads it: moves in UCI coordinates from its start position. */
export interface BookGame {
  /** The start position (null: the standard start). */
  fen: string | null;
  moves: readonly string[];
  /** '1-0', '0-1', '1/2-1/2', or '*' (unknown: counted as a draw). */
  result: string;
  /** Where it came from, for messages ("file.pgn game 12"). */
  source: string;
}

export interface BookOptions {
  /** Plies of each game that go into the book (from its start). */
  depth: number;
  /** A move goes in only when at least this many games played it. */
  minGames: number;
  /** ...and scored at least this many percent for the side that played it (draws count half). */
  minScore: number;
  /** Games whose moves (and start and result) repeat an earlier game's are counted once. */
  dedupe: boolean;
}

export const DEFAULT_BOOK_OPTIONS: Readonly<BookOptions> = {
  depth: 30,
  minGames: 5,
  minScore: 35,
  dedupe: true,
};

export interface BookBuild {
  bytes: Uint8Array;
  /** Games read, games counted (after dedupe), duplicates, positions and entries written, bad games (with why). */
  games: number;
  counted: number;
  duplicates: number;
  positions: number;
  entries: number;
  problems: string[];
}

interface Tally {
  games: number;
  wins: number;
  draws: number;
}

/**
 * Builds a book from games. A game with an illegal move counts up to that move
 * (its problem is reported); games from other start positions go in as well
 * (the book is keyed by position). `description` is stored in the file with
 * the options and counts added.
 */
export function buildBook(
  games: Iterable<BookGame>,
  options: BookOptions,
  description: Record<string, unknown> = {},
): BookBuild {
  const table = new Map<bigint, Map<number, Tally>>();
  const seen = new Set<string>();
  const problems: string[] = [];
  let read = 0;
  let counted = 0;
  let duplicates = 0;
  const start = new Position();
  for (const game of games) {
    read++;
    const moves = game.moves.slice(0, options.depth);
    if (options.dedupe) {
      const id = `${game.fen ?? ''}|${game.result}|${game.moves.join(' ')}`;
      if (seen.has(id)) {
        duplicates++;
        continue;
      }
      seen.add(id);
    }
    let pos: Position;
    if (game.fen === null) pos = start.clone();
    else {
      const p = Position.fromFen(game.fen);
      if (!p.ok) {
        problems.push(`${game.source}: ${p.error.message}`);
        continue;
      }
      pos = p.value;
    }
    counted++;
    const redScore = game.result === '1-0' ? 1 : game.result === '0-1' ? 0 : 0.5;
    for (let i = 0; i < moves.length; i++) {
      const m = parseLegalMove(pos, moves[i]);
      if (!m.ok) {
        problems.push(`${game.source}: ply ${i + 1} (${moves[i]}): ${m.error.message}`);
        break;
      }
      const { key, mirrored } = bookKey(pos);
      const code = bookMoveCode(moveFrom(m.value), moveTo(m.value), mirrored);
      const score = pos.sideToMove === 0 ? redScore : 1 - redScore;
      let byMove = table.get(key);
      if (!byMove) table.set(key, (byMove = new Map()));
      let t = byMove.get(code);
      if (!t) byMove.set(code, (t = { games: 0, wins: 0, draws: 0 }));
      t.games++;
      if (score === 1) t.wins++;
      else if (score === 0.5) t.draws++;
      pos.doMove(m.value);
    }
  }
  const entries: BookEntry[] = [];
  let positions = 0;
  for (const [key, byMove] of table) {
    const kept: { move: number; t: Tally; raw: number }[] = [];
    for (const [move, t] of byMove) {
      const score = (100 * (t.wins + t.draws / 2)) / t.games;
      if (t.games < options.minGames || score < options.minScore) continue;
      // Polyglot's weight: two per win, one per draw.
      kept.push({ move, t, raw: 2 * t.wins + t.draws });
    }
    if (kept.length === 0) continue;
    positions++;
    const most = Math.max(...kept.map((k) => k.raw));
    const scale = most > 65535 ? 65535 / most : 1;
    for (const { move, t, raw } of kept)
      entries.push({
        key,
        move,
        weight: raw === 0 ? 0 : Math.max(1, Math.round(raw * scale)),
        games: t.games,
        wins: t.wins,
        draws: t.draws,
      });
  }
  const bytes = encodeBook(
    entries,
    {
      ...description,
      games: counted,
      depth: options.depth,
      minGames: options.minGames,
      minScore: options.minScore,
    },
    BOOK_FLAG_MIRROR,
  );
  return { bytes, games: read, counted, duplicates, positions, entries: entries.length, problems };
}
