// The opening book the engine plays from: the file BookFile names (Kirin's
// default book when it is empty, read when first needed) or a book given as
// bytes, and when it plays: OwnBook on, within Book Depth moves of each side,
// one of the position's moves picked with Book Variety (docs/BOOK.md).

import { OpeningBook, bookUseAtLevel, type BookMove } from '../book/book.js';
import type { BookLoadCode } from '../book/format.js';
import type { Position } from '../core/position.js';
import { err, ok, type Result } from '../core/result.js';
import { MOVE_NONE, type Move } from '../core/types.js';
import { readBookFile, readEmbeddedBook } from '#platform/book-files';
import type { SearchLimits } from '../search/types.js';
import { ACCEPTED, type OptionChange } from './options.js';

/** The name Kirin's default opening book goes by (BookFile empty). */
const DEFAULT_BOOK_NAME = 'kirin.book';

/** The defaults of OwnBook, Book Depth (moves of each side) and Book Variety (0..100). */
export const BOOK_DEFAULTS = { ownBook: false, depth: 20, variety: 100 } as const;

/** A move the book plays: the move, the reply it expects (for a GUI that ponders) and the line that says so. */
export interface BookPlay {
  readonly move: Move;
  readonly reply: Move;
  readonly text: string;
}

export class BookChoice {
  /** The book in use: undefined until Kirin's default book is first needed; null when there is none. */
  private book: OpeningBook | null | undefined = undefined;
  /** Why there is no book (when `book` is null). */
  private problem = '';
  private ownBook: boolean = BOOK_DEFAULTS.ownBook;
  private depth: number = BOOK_DEFAULTS.depth;
  private variety: number = BOOK_DEFAULTS.variety;

  /** OwnBook: on says which book plays (reading the default book if need be). */
  setOwnBook(on: boolean): OptionChange {
    this.ownBook = on;
    return on ? ok(this.status()) : ACCEPTED;
  }

  /** Book Depth: the book plays while fewer than this many moves of each side were played. */
  setDepth(moves: number): OptionChange {
    this.depth = moves;
    return ACCEPTED;
  }

  /** Book Variety: 0 plays the heaviest move, higher values the lighter ones too (OpeningBook.choose). */
  setVariety(variety: number): OptionChange {
    this.variety = variety;
    return ACCEPTED;
  }

  /**
   * BookFile: reads the file and plays from it; an empty value goes back to
   * Kirin's default book. A file that cannot be read or is damaged is refused
   * with its error (naming the byte offset) and the book in use stays.
   */
  setFile(file: string): OptionChange {
    if (file === '') {
      this.book = undefined;
      return ok(this.status());
    }
    const bytes = readBookFile(file);
    const r = bytes.ok ? OpeningBook.fromBytes(bytes.value, file) : bytes;
    if (!r.ok) {
      const current = this.current();
      return err('option-rejected', `${r.error.message}; the book stays: ${current ? current.label() : 'none'}`);
    }
    return ok(this.use(r.value));
  }

  /** A book given as bytes (a page's fetch or file picker). A damaged one is refused with its error and the book in use stays. */
  loadBytes(bytes: Uint8Array, name: string): Result<string, BookLoadCode> {
    const r = OpeningBook.fromBytes(bytes, name);
    return r.ok ? ok(this.use(r.value)) : r;
  }

  /** One line: the book in use, or why there is none. */
  status(): string {
    const book = this.current();
    if (book) return `opening book ${book.label()}`;
    return `ERROR: no opening book (${this.problem}); the engine plays without one`;
  }

  /** The position's book moves (whether or not OwnBook is on), heaviest first; none without a book. */
  moves(pos: Position): BookMove[] {
    return this.current()?.probe(pos) ?? [];
  }

  /**
   * The book move a search with these limits plays at once, or null: OwnBook
   * on, fewer than Book Depth moves of each side played since the game's first
   * position (fewer at a weakened `level`: bookUseAtLevel), a `go` that wants a
   * move (not infinite, ponder, mate or searchmoves), and a book move for the
   * position (Book Variety picks, drawing numbers from `random`).
   */
  play(pos: Position, limits: SearchLimits, level: number, random: () => number): BookPlay | null {
    if (!this.ownBook || limits.infinite || limits.ponder || limits.mate !== undefined) return null;
    if (limits.searchmoves?.length) return null;
    // A weakened engine plays less of the book, and less of the masters' choice.
    const use = bookUseAtLevel(level, this.depth, this.variety);
    if (pos.plies >= 2 * use.depth) return null;
    const book = this.current();
    const m = book?.choose(pos, use.variety, random, use.sharpness);
    if (!book || !m) return null;
    const next = pos.clone();
    next.doMove(m.move);
    const score = m.games > 0 ? Math.round((100 * (m.wins + m.draws / 2)) / m.games) : 50;
    return {
      move: m.move,
      reply: book.probe(next)[0]?.move ?? MOVE_NONE,
      text: `book move ${m.uci} from ${book.name} (weight ${Math.round(100 * m.share)}%, ${m.games} games, scored ${score}%)`,
    };
  }

  private use(book: OpeningBook): string {
    this.book = book;
    this.problem = '';
    return this.status();
  }

  /** The book in use, reading Kirin's default book when it is first needed; null when there is none. */
  private current(): OpeningBook | null {
    if (this.book !== undefined) return this.book;
    const bytes = readEmbeddedBook();
    const r = bytes ? OpeningBook.fromBytes(bytes, DEFAULT_BOOK_NAME) : null;
    this.book = r?.ok ? r.value : null;
    this.problem = r === null ? 'this build has no default book' : r.ok ? '' : r.error.message;
    return this.book;
  }
}
