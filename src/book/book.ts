// An opening book in use: looks up a position's book moves (legal ones only:
// an entry whose move is not legal in the position is skipped, never played)
// and picks one, the best or a weighted random one among the good ones.
// docs/BOOK.md. Platform-neutral: the bytes come from a file (Node), a fetch
// (the browser) or the embedded default book (files.ts).

import { generate } from '../core/movegen.js';
import type { Position } from '../core/position.js';
import { ok, type Result } from '../core/result.js';
import { GEN_LEGAL, MAX_MOVES, makeMove, moveToUci, type Move } from '../core/types.js';
import {
  BOOK_FLAG_MIRROR,
  bookEntry,
  decodeBook,
  findKey,
  type BookDescription,
  type BookFile,
  type BookLoadCode,
} from './format.js';
import { bookKey, mirrorSquare } from './key.js';

/** One book move of a position. */
export interface BookMove {
  readonly move: Move;
  /** The move in UCI coordinates. */
  readonly uci: string;
  /** The builder's weight (0..65535). */
  readonly weight: number;
  /** This move's share of the weights of the position's legal book moves (0..1). */
  readonly share: number;
  /** Games that played it, and how they ended for the side that played it. */
  readonly games: number;
  readonly wins: number;
  readonly draws: number;
  readonly losses: number;
}

/** A book file's move code (from * 90 + to) as a move on the board, mirrored back when the entry is stored mirrored. */
export function bookMoveOf(code: number, mirrored: boolean): Move {
  const from = Math.floor(code / 90);
  const to = code % 90;
  return mirrored ? makeMove(mirrorSquare(from), mirrorSquare(to)) : makeMove(from, to);
}

/** A move as a book file's move code, in the stored orientation. */
export function bookMoveCode(from: number, to: number, mirrored: boolean): number {
  return mirrored ? mirrorSquare(from) * 90 + mirrorSquare(to) : from * 90 + to;
}

export class OpeningBook {
  private constructor(
    /** The name it goes by in messages (the file's base name). */
    readonly name: string,
    private readonly file: BookFile,
  ) {}

  /** A book from a book file's bytes; a damaged file is refused with an error naming the byte offset. */
  static fromBytes(bytes: Uint8Array, name: string): Result<OpeningBook, BookLoadCode> {
    const label = name.split(/[\\/]/).pop() || name;
    const file = decodeBook(bytes, label);
    if (!file.ok) return file;
    return ok(new OpeningBook(label, file.value));
  }

  /** Book entries (position-move pairs). */
  get size(): number {
    return this.file.count;
  }

  /** What the book says it was built from (its description). */
  get description(): BookDescription {
    return this.file.description;
  }

  /** One line: the name, the entries and what it was built from. */
  label(): string {
    const d = this.file.description;
    const games = typeof d.games === 'number' ? `, ${d.games} games` : '';
    return `${this.name} (${this.size} entries${games})`;
  }

  /**
   * The position's book moves that are legal there, by weight (then games,
   * then the move) from the most to the least.
   */
  probe(pos: Position): BookMove[] {
    const { key, mirrored } = bookKey(pos, (this.file.flags & BOOK_FLAG_MIRROR) !== 0);
    let i = findKey(this.file, key);
    if (i < 0) return [];
    const legal = new Int32Array(MAX_MOVES);
    const n = generate(pos, GEN_LEGAL, legal, 0);
    const isLegal = (m: Move) => {
      for (let j = 0; j < n; j++) if (legal[j] === m) return true;
      return false;
    };
    const found: Omit<BookMove, 'share'>[] = [];
    for (; i < this.file.count; i++) {
      const e = bookEntry(this.file, i);
      if (e.key !== key) break;
      const m = bookMoveOf(e.move, mirrored);
      if (e.move >= 90 * 90 || !isLegal(m)) continue;
      found.push({
        move: m,
        uci: moveToUci(m),
        weight: e.weight,
        games: e.games,
        wins: e.wins,
        draws: e.draws,
        losses: e.games - e.wins - e.draws,
      });
    }
    const total = found.reduce((s, x) => s + x.weight, 0);
    return found
      .map((x) => ({ ...x, share: total > 0 ? x.weight / total : 0 }))
      .sort((a, b) => b.weight - a.weight || b.games - a.games || a.move - b.move);
  }

  /**
   * The book move to play, or null when the position has none with a weight.
   * `variety` 0..100: 0 plays the best (heaviest) move; higher values choose at
   * random, by weight, among the moves weighing at least (1 - variety/100) of
   * the heaviest (100: all of them). `random` gives numbers in [0, 1).
   * `sharpness` (0..1, default 1) is the power the weights are raised to for
   * the random choice: 1 follows the masters' weights, 0 picks every move of
   * the pool alike (a weakened engine's book, bookUseAtLevel).
   */
  choose(pos: Position, variety: number, random: () => number, sharpness = 1): BookMove | null {
    const moves = this.probe(pos).filter((m) => m.weight > 0);
    if (moves.length === 0) return null;
    const floor = moves[0].weight * (1 - Math.min(100, Math.max(0, variety)) / 100);
    const pool = variety <= 0 ? [moves[0]] : moves.filter((m) => m.weight >= floor);
    const weight = (m: BookMove): number => (sharpness === 1 ? m.weight : Math.pow(m.weight, Math.max(0, sharpness)));
    const total = pool.reduce((s, m) => s + weight(m), 0);
    let r = random() * total;
    for (const m of pool) {
      r -= weight(m);
      if (r < 0) return m;
    }
    return pool[pool.length - 1];
  }
}

/** How much of the book an engine plays: moves per side, Book Variety, and the sharpness of the choice. */
export interface BookUse {
  readonly depth: number;
  readonly variety: number;
  readonly sharpness: number;
}

/**
 * The book a weakened engine plays (Skill Level, or UCI_Elo's level; docs/BOOK.md,
 * "Levels"): at full strength (level 20) Book Depth and Book Variety as set; at
 * level L < 20 only the first floor(Book Depth * L / 20) moves of each side come
 * from the book (none at level 0), chosen among all the position's book moves
 * with chances by weight^(L / 20): the weaker the level, the shorter its book
 * and the more often it plays the masters' rarer moves.
 */
export function bookUseAtLevel(level: number, depth: number, variety: number): BookUse {
  if (!(level < 20)) return { depth, variety, sharpness: 1 };
  const l = Math.max(0, level);
  return { depth: Math.floor((depth * l) / 20), variety: 100, sharpness: l / 20 };
}
