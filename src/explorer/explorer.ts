// An opening explorer in use (docs/EXPLORER.md): for a position, the moves
// played there in a collection of games with their games and results, and a few
// notable games that reached it, each with its moves so that it can be opened.
// Platform-neutral: the bytes come from a file (Node: `kirin explorer`), a fetch
// (the browser: fetchExplorer) or a build (buildExplorer).
//
//   const explorer = await fetchExplorer(url);            // Result<Explorer, ...>
//   const here = explorer.value.probe(position);          // null: not in the file
//   here?.moves[0]  // { uci: 'h9g7', games: 11488, redWins: 4160, draws: 4073, blackWins: 3255, ... }

import { bookKey } from '../book/key.js';
import { START_FEN } from '../core/fen.js';
import { generate } from '../core/movegen.js';
import { Position } from '../core/position.js';
import { err, ok, type Result } from '../core/result.js';
import { GEN_LEGAL, MAX_MOVES, makeMove, moveToUci, type Move } from '../core/types.js';
import { parseLegalMove } from '../core/ucimove.js';
import type { Game, GameResult, MoveNode, MoveTree } from '../notation/game.js';
import {
  decodeExplorer,
  findPosition,
  plyBits,
  PlyReader,
  readGameRecord,
  readRecord,
  type ExplorerFile,
  type ExplorerLoadCode,
} from './format.js';

/** Games and how they ended, from Red's side. */
export interface ExplorerCounts {
  readonly games: number;
  readonly redWins: number;
  readonly draws: number;
  readonly blackWins: number;
}

/** A move of a position with the games that played it. */
export interface ExplorerMove extends ExplorerCounts {
  readonly move: Move;
  /** The move in UCI coordinates. */
  readonly uci: string;
}

/** A game that reached a position, as the explorer keeps it. */
export interface NotableGame {
  readonly red: string;
  readonly black: string;
  readonly event: string;
  /** The year it was played, or null when unknown. */
  readonly year: number | null;
  readonly result: GameResult;
  /** Its start position. */
  readonly fen: string;
  /** Its moves (main line) in UCI coordinates. */
  readonly moves: readonly string[];
}

/** What the explorer knows of a position. */
export interface ExplorerPosition extends ExplorerCounts {
  /** Its moves, most played first (moves played fewer times than the file's minimum are left out). */
  readonly moves: readonly ExplorerMove[];
  /** A few notable games that reached it (games between the most prolific players first). */
  readonly notable: readonly NotableGame[];
}

export const GAME_RESULTS: readonly GameResult[] = Object.freeze(['*', '1-0', '0-1', '1/2-1/2']);

/** The legal moves of a position sorted by from and to squares: the order a kept game's plies index. */
export function sortedLegalMoves(pos: Position, list: Int32Array = new Int32Array(MAX_MOVES)): Int32Array {
  const n = generate(pos, GEN_LEGAL, list, 0);
  return list.subarray(0, n).sort();
}

export class Explorer {
  private constructor(
    /** The name it goes by in messages (the file's base name). */
    readonly name: string,
    private readonly file: ExplorerFile,
  ) {}

  /** An explorer from an explorer file's bytes; a damaged file is refused with an error naming the byte offset. */
  static fromBytes(bytes: Uint8Array, name = 'explorer'): Result<Explorer, ExplorerLoadCode> {
    const label = name.split(/[\\/]/).pop() || name;
    const file = decodeExplorer(bytes, label);
    if (!file.ok) return file;
    return ok(new Explorer(label, file.value));
  }

  /** What the file says it was built from (its description: source, games, depth, minGames ...). */
  get description(): Readonly<Record<string, unknown>> {
    return this.file.description;
  }

  /** Positions in the file. */
  get positions(): number {
    return this.file.positions;
  }

  /** One line: the name, the games counted and the positions. */
  label(): string {
    const d = this.file.description;
    const games = typeof d.games === 'number' ? `${d.games} games, ` : '';
    return `${this.name} (${games}${this.positions} positions)`;
  }

  /**
   * What the explorer knows of `pos`, or null when the position is not in it
   * (reached by fewer games than the file's minimum, or deeper than its depth).
   * A stored move that is not legal in `pos` is left out.
   */
  probe(pos: Position): ExplorerPosition | null {
    const i = findPosition(this.file, bookKey(pos, false).key);
    if (i < 0) return null;
    const r = readRecord(this.file, i);
    if (r === null) return null;
    const list = new Int32Array(MAX_MOVES);
    const legal = sortedLegalMoves(pos, list);
    const moves: ExplorerMove[] = [];
    for (const m of r.moves) {
      const move = makeMove(Math.floor(m.code / 90), m.code % 90);
      if (!legal.includes(move)) continue;
      moves.push({
        move,
        uci: moveToUci(move),
        games: m.games,
        redWins: m.redWins,
        draws: m.draws,
        blackWins: m.games - m.redWins - m.draws,
      });
    }
    const notable: NotableGame[] = [];
    for (const g of r.notable) {
      const game = this.game(g);
      if (game !== null) notable.push(game);
    }
    return {
      games: r.games,
      redWins: r.redWins,
      draws: r.draws,
      blackWins: r.games - r.redWins - r.draws,
      moves,
      notable,
    };
  }

  /** Kept game `i` with its moves, or null when its record is damaged. */
  private game(i: number): NotableGame | null {
    const g = readGameRecord(this.file, i);
    if (g === null) return null;
    const text = (n: number): string => (n > 0 && n <= this.file.strings.length ? this.file.strings[n - 1] : '');
    const fen = g.start === 0 ? START_FEN : text(g.start);
    const start = Position.fromFen(fen);
    if (!start.ok) return null;
    const pos = start.value;
    const list = new Int32Array(MAX_MOVES);
    const moves: string[] = [];
    const reader = new PlyReader(g.moves);
    for (let ply = 0; ply < g.plies; ply++) {
      const legal = sortedLegalMoves(pos, list);
      const k = reader.next(plyBits(legal.length));
      if (k === null || k >= legal.length) return null;
      moves.push(moveToUci(legal[k]));
      pos.doMove(legal[k]);
    }
    return {
      red: text(g.red),
      black: text(g.black),
      event: text(g.event),
      year: g.year === 0 ? null : g.year,
      result: GAME_RESULTS[g.result] ?? '*',
      fen,
      moves,
    };
  }
}

/**
 * A notable game as a game record (docs/NOTATION.md: what the page's game
 * library and writePgn take): its tags (Red, Black, Event, Date, Result), start
 * position and moves.
 */
export function notableGameRecord(g: NotableGame): Game {
  const headers: Record<string, string> = { Event: g.event, Red: g.red, Black: g.black };
  if (g.year !== null) headers.Date = String(g.year);
  headers.Result = g.result;
  const game: Game = { headers, fen: g.fen, result: g.result, comment: '', children: [] };
  const pos = Position.fromFen(g.fen);
  if (!pos.ok) return game;
  let tree: MoveTree = game;
  for (const uci of g.moves) {
    const m = parseLegalMove(pos.value, uci);
    if (!m.ok) break;
    const node: MoveNode = { move: m.value, commentBefore: '', comment: '', nags: [], children: [] };
    tree.children.push(node);
    tree = node;
    pos.value.doMove(m.value);
  }
  return game;
}

/**
 * Fetches an explorer file and reads it (the browser's way; Node 18+ has fetch
 * too). `fetchFn` defaults to the global fetch. The error names the URL.
 */
export async function fetchExplorer(
  url: string,
  fetchFn: (url: string) => Promise<{ ok: boolean; status: number; arrayBuffer(): Promise<ArrayBuffer> }> = fetch,
): Promise<Result<Explorer, ExplorerLoadCode | 'explorer-fetch'>> {
  let bytes: Uint8Array;
  try {
    const r = await fetchFn(url);
    if (!r.ok) return err('explorer-fetch', `explorer ${url}: HTTP ${r.status}`);
    bytes = new Uint8Array(await r.arrayBuffer());
  } catch (e) {
    return err('explorer-fetch', `explorer ${url}: ${(e as Error).message}`);
  }
  return Explorer.fromBytes(bytes, url);
}
