// Building an opening explorer (docs/EXPLORER.md): counts, over a collection
// of games, every position of their first plies, how the games that reached it
// ended, and each move played there; keeps the positions and moves played often
// enough, picks a few notable games per position, and writes the explorer file.
// The same games give the same bytes, in any order. Platform-neutral (a page
// may build an explorer of a player's own games).

import { bookKey } from '../book/key.js';
import { START_FEN } from '../core/fen.js';
import { Position } from '../core/position.js';
import { MAX_MOVES, moveFrom, moveTo, moveToUci } from '../core/types.js';
import { parseLegalMove } from '../core/ucimove.js';
import { mainLine, type Game, type GameResult } from '../notation/game.js';
import { GAME_RESULTS, sortedLegalMoves } from './explorer.js';
import { encodeExplorer, packPlies, plyBits, type ExplorerGameRecord, type ExplorerRecord } from './format.js';

/** A game as the explorer counts it. */
export interface ExplorerGame {
  /** The start position (null: the standard start). */
  readonly fen: string | null;
  /** Its main line in UCI coordinates. */
  readonly moves: readonly string[];
  readonly result: GameResult;
  readonly red: string;
  readonly black: string;
  readonly event: string;
  /** The year it was played; null when unknown. */
  readonly year: number | null;
  /** Where it came from, for messages ("file.pgn game 12"). */
  readonly source: string;
}

export interface ExplorerOptions {
  /** Plies of each game counted (from its start). */
  readonly depth: number;
  /** A position (and a move) is kept when at least this many games reached it (played it). */
  readonly minGames: number;
  /** Notable games kept per position. */
  readonly notable: number;
  /** Games whose start, moves and result repeat an earlier game's are counted once. */
  readonly dedupe: boolean;
}

export const DEFAULT_EXPLORER_OPTIONS: Readonly<ExplorerOptions> = Object.freeze({
  depth: 30,
  minGames: 5,
  notable: 3,
  dedupe: true,
});

export interface ExplorerBuild {
  readonly bytes: Uint8Array;
  /** Games read, counted (after dedupe), duplicates; positions, moves and notable games written; bad games (why). */
  readonly games: number;
  readonly counted: number;
  readonly duplicates: number;
  readonly positions: number;
  readonly moves: number;
  readonly notableGames: number;
  readonly problems: readonly string[];
}

/** The year of a PGN date ("1955.5", "2006.08.03", "1982"), or null. */
export function yearOf(date: string | undefined): number | null {
  const m = /(?:^|\D)(1[5-9]\d\d|2\d\d\d)(?:\D|$)/.exec(date ?? '');
  return m ? Number(m[1]) : null;
}

/** A game record's main line as the explorer counts it (tags Red, Black, Event, Date). */
export function explorerGame(game: Game, source: string): ExplorerGame {
  const tag = (name: string): string => {
    for (const k of Object.keys(game.headers))
      if (k.toLowerCase() === name.toLowerCase()) return game.headers[k].trim();
    return '';
  };
  const start = new Position().fen();
  return {
    fen: game.fen === start ? null : game.fen,
    moves: mainLine(game).map(moveToUci),
    result: game.result,
    red: tag('Red'),
    black: tag('Black'),
    event: tag('Event'),
    year: yearOf(tag('Date')) ?? yearOf(tag('Event')),
    source,
  };
}

interface Tally {
  games: number;
  redWins: number;
  draws: number;
}

interface PositionTally extends Tally {
  moves: Map<number, Tally>;
  /** The games that reached it (numbers into the sorted games). */
  games$: number[];
}

function count(t: Tally, result: GameResult): void {
  t.games++;
  if (result === '1-0') t.redWins++;
  else if (result === '1/2-1/2' || result === '*') t.draws++;
}

/**
 * Builds an explorer from games: every position of their first `depth` plies,
 * kept when at least `minGames` games reached it, with its moves played at
 * least `minGames` times and up to `notable` notable games (those between the
 * players with the most games in the collection, the latest first; a game
 * already chosen for a position reached more often goes first, so that the
 * positions of a line share their games). A game
 * with an illegal move counts up to that move (its problem is reported); an
 * unknown result counts as a draw. `description` is stored in the file with the
 * options and counts added.
 */
export function buildExplorer(
  games: Iterable<ExplorerGame>,
  options: ExplorerOptions = DEFAULT_EXPLORER_OPTIONS,
  description: Record<string, unknown> = {},
): ExplorerBuild {
  const problems: string[] = [];
  // The games in one order whatever order they came in, so that the same games give the same bytes.
  const all = [...games];
  const id = (g: ExplorerGame): string => `${g.fen ?? ''}|${g.result}|${g.moves.join(' ')}`;
  const full = (g: ExplorerGame): string => `${id(g)}|${g.red}|${g.black}|${g.event}|${g.year ?? ''}`;
  const keyed = all.map((g) => ({ g, id: id(g), full: full(g) }));
  keyed.sort((a, b) => (a.full < b.full ? -1 : a.full > b.full ? 1 : 0));
  const kept: ExplorerGame[] = [];
  let duplicates = 0;
  const seen = new Set<string>();
  for (const k of keyed) {
    if (options.dedupe) {
      if (seen.has(k.id)) {
        duplicates++;
        continue;
      }
      seen.add(k.id);
    }
    kept.push(k.g);
  }

  const table = new Map<bigint, PositionTally>();
  const readPlies: number[] = []; // each kept game's plies that are legal (it counts up to an illegal one)
  const start = new Position();
  const list = new Int32Array(MAX_MOVES);
  let counted = 0;
  kept.forEach((game, n) => {
    readPlies.push(0);
    let pos: Position;
    if (game.fen === null) pos = start.clone();
    else {
      const p = Position.fromFen(game.fen);
      if (!p.ok) {
        problems.push(`${game.source}: ${p.error.message}`);
        return;
      }
      pos = p.value;
    }
    counted++;
    const visited = new Set<bigint>();
    for (let ply = 0; ply < game.moves.length; ply++) {
      const m = parseLegalMove(pos, game.moves[ply], list);
      if (!m.ok) {
        problems.push(`${game.source}: ply ${ply + 1} (${game.moves[ply]}): ${m.error.message}`);
        break;
      }
      if (ply < options.depth) {
        const key = bookKey(pos, false).key;
        if (!visited.has(key)) {
          visited.add(key);
          let t = table.get(key);
          if (!t) table.set(key, (t = { games: 0, redWins: 0, draws: 0, moves: new Map(), games$: [] }));
          count(t, game.result);
          t.games$.push(n);
          const code = moveFrom(m.value) * 90 + moveTo(m.value);
          let mt = t.moves.get(code);
          if (!mt) t.moves.set(code, (mt = { games: 0, redWins: 0, draws: 0 }));
          count(mt, game.result);
        }
      }
      readPlies[n]++;
      pos.doMove(m.value);
    }
    // The position the game ended in, when within the depth: reached, with no move.
    if (game.moves.length < options.depth && readPlies[n] === game.moves.length) {
      const key = bookKey(pos, false).key;
      if (!visited.has(key)) {
        let t = table.get(key);
        if (!t) table.set(key, (t = { games: 0, redWins: 0, draws: 0, moves: new Map(), games$: [] }));
        count(t, game.result);
        t.games$.push(n);
      }
    }
  });

  // Notable games: those between the players with the most games, the latest first.
  const playerGames = new Map<string, number>();
  for (const g of kept)
    for (const name of [g.red, g.black]) if (name !== '') playerGames.set(name, (playerGames.get(name) ?? 0) + 1);
  const renown = kept.map((g) => Math.min(playerGames.get(g.red) ?? 0, playerGames.get(g.black) ?? 0));
  const records: (Omit<ExplorerRecord, 'notable'> & { notable: number[] })[] = [];
  const chosen = new Set<number>();
  let moves = 0;
  // The most reached positions first, so that the positions of a line share its notable games: a
  // game already chosen goes before the others (it is notable, and it is kept once for all of them).
  const positions = [...table.entries()]
    .filter(([, t]) => t.games >= options.minGames)
    .sort((a, b) => b[1].games - a[1].games || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  for (const [key, t] of positions) {
    const ms = [...t.moves.entries()]
      .filter(([, m]) => m.games >= options.minGames)
      .sort((a, b) => b[1].games - a[1].games || a[0] - b[0])
      .map(([code, m]) => ({ code, ...m }));
    moves += ms.length;
    const rank = (g: number): number => (chosen.has(g) ? 1 : 0);
    const notable = [...t.games$]
      .sort((a, b) => rank(b) - rank(a) || renown[b] - renown[a] || (kept[b].year ?? 0) - (kept[a].year ?? 0) || a - b)
      .slice(0, options.notable);
    for (const g of notable) chosen.add(g);
    records.push({ key, games: t.games, redWins: t.redWins, draws: t.draws, moves: ms, notable });
  }
  // The notable games and their strings, numbered in the games' order.
  const order = [...chosen].sort((a, b) => a - b);
  const number = new Map(order.map((g, i) => [g, i]));
  const strings: string[] = [];
  const stringIds = new Map<string, number>();
  const str = (s: string): number => {
    if (s === '') return 0;
    let i = stringIds.get(s);
    if (i === undefined) {
      i = strings.length;
      strings.push(s);
      stringIds.set(s, i);
    }
    return i + 1;
  };
  const gameRecords: ExplorerGameRecord[] = order.map((n) => {
    const g = kept[n];
    // Each ply as its place among the legal moves sorted by squares, in the bits their number needs.
    const places: number[] = [];
    const widths: number[] = [];
    const from = g.fen === null ? null : Position.fromFen(g.fen);
    const p = from?.ok ? from.value : start.clone();
    for (let k = 0; k < readPlies[n]; k++) {
      const m = parseLegalMove(p, g.moves[k], list);
      if (!m.ok) break;
      const legal = sortedLegalMoves(p, list);
      places.push(legal.indexOf(m.value));
      widths.push(plyBits(legal.length));
      p.doMove(m.value);
    }
    return {
      red: str(g.red),
      black: str(g.black),
      event: str(g.event),
      year: g.year ?? 0,
      result: Math.max(0, GAME_RESULTS.indexOf(g.result)),
      start: g.fen === null || g.fen === START_FEN ? 0 : str(g.fen),
      plies: places.length,
      moves: packPlies(places, widths),
    };
  });
  for (const r of records) r.notable = r.notable.map((g) => number.get(g)!);
  const bytes = encodeExplorer(records, gameRecords, strings, {
    ...description,
    games: counted,
    depth: options.depth,
    minGames: options.minGames,
    notable: options.notable,
  });
  return {
    bytes,
    games: all.length,
    counted,
    duplicates,
    positions: records.length,
    moves,
    notableGames: gameRecords.length,
    problems,
  };
}
