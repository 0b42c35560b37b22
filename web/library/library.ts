// The player's library of games: every game played or imported, kept with its
// headers, comments and review in a GameStore (IndexedDB in the page), listed,
// searched, opened, renamed, deleted, exported as one PGN and imported many at
// once; and the session: the game open on the board and the move shown, so
// that a reload brings them back.

import { err, ok, type Game, type Notation, type Result, type Review } from '../../src/browser/index.js';
import { bundlePgn, readManyGames, type Bundle, type ImportFile } from './bundle.js';
import { openIdbStore } from './idb-store.js';
import { queryRecords, type LibraryQuery } from './query.js';
import { gameFromRecord, recordFromGame, reviewFits, type GameRecord, type GameSource } from './record.js';
import { MemoryStore, type GameStore } from './store.js';

export type LibraryErrorCode = 'library-game' | 'library-record' | 'library-missing' | 'library-title';

/** A game opened from the library: its record, the game, and its review when it fits the game's main line. */
export interface OpenedGame {
  readonly record: GameRecord;
  readonly game: Game;
  readonly review: Review | null;
}

/** What the session keeps: the game open on the board (its record's id) and the move shown. */
export interface Session {
  readonly id: string;
  readonly ply: number;
}

/** What an import did: the games saved, those already in the library, and what could not be read. */
export interface ImportReport {
  readonly saved: readonly GameRecord[];
  readonly duplicates: number;
  readonly errors: readonly string[];
}

const SESSION_KEY = 'session';
/** The longest name a game may be given. */
const MAX_TITLE = 200;

export interface LibraryOptions {
  /** The clock (ms since 1970; default Date.now). */
  readonly now?: () => number;
  /** New record ids (default crypto.randomUUID). */
  readonly newId?: () => string;
}

export class GameLibrary {
  private readonly now: () => number;
  private readonly newId: () => string;
  /** Called after every change (a save, a rename, a deletion, an import): the panel lists again. */
  onChange: () => void = () => {};

  constructor(
    readonly store: GameStore,
    options: LibraryOptions = {},
    /** Why the games are kept for this visit only (the browser's storage could not be opened), or null. */
    readonly problem: string | null = null,
  ) {
    this.now = options.now ?? Date.now;
    this.newId = options.newId ?? (() => crypto.randomUUID());
  }

  /** Saves a game as a new record (a game played, imported, or the analysis board's). */
  async save(
    game: Game,
    opts: { source: GameSource; review?: Review | null; title?: string },
  ): Promise<Result<GameRecord, LibraryErrorCode>> {
    const r = recordFromGame(game, { id: this.newId(), now: this.now(), ...opts });
    if (!r.ok) return r;
    await this.store.put(r.value);
    this.onChange();
    return r;
  }

  /**
   * Keeps games read from a file or a text (the page's import under the
   * board): each saved as an imported record, unless the library holds one
   * with the same PGN (the same headers, moves and comments), which is given
   * back instead; a game that cannot be kept gives its error. In the games'
   * order.
   */
  async keepAll(games: readonly Game[]): Promise<Result<GameRecord, LibraryErrorCode>[]> {
    const known = new Map((await this.store.all()).map((r) => [r.pgn, r]));
    const out: Result<GameRecord, LibraryErrorCode>[] = [];
    let saved = 0;
    for (const game of games) {
      const r = recordFromGame(game, { id: this.newId(), now: this.now(), source: 'imported' });
      const same = r.ok ? known.get(r.value.pgn) : undefined;
      if (!r.ok || same) {
        out.push(same ? ok(same) : r);
        continue;
      }
      await this.store.put(r.value);
      known.set(r.value.pgn, r.value);
      saved++;
      out.push(r);
    }
    if (saved > 0) this.onChange();
    return out;
  }

  /**
   * Saves a changed game (moves, comments, headers) and its review under its
   * record; its name, source and creation time stay. `review` undefined keeps
   * the stored review while it still fits the game's main line; null drops it.
   */
  async update(id: string, game: Game, review?: Review | null): Promise<Result<GameRecord, LibraryErrorCode>> {
    const old = await this.store.get(id);
    if (!old) return err('library-missing', `no game ${id} in the library`);
    const kept = review === undefined ? (old.review && reviewFits(game, old.review) ? old.review : null) : review;
    const r = recordFromGame(game, {
      id,
      now: this.now(),
      source: old.source,
      title: old.title,
      created: old.created,
      review: kept,
    });
    if (!r.ok) return r;
    await this.store.put(r.value);
    this.onChange();
    return r;
  }

  /** Gives a game its own name ('' goes back to the players' names); at most 200 characters. */
  async rename(id: string, title: string): Promise<Result<GameRecord, LibraryErrorCode>> {
    const name = title.trim();
    if ([...name].length > MAX_TITLE) return err('library-title', `a name may have at most ${MAX_TITLE} characters`);
    const old = await this.store.get(id);
    if (!old) return err('library-missing', `no game ${id} in the library`);
    const renamed: GameRecord = { ...old, title: name, updated: this.now() };
    await this.store.put(renamed);
    this.onChange();
    return ok(renamed);
  }

  async remove(id: string): Promise<void> {
    await this.store.delete(id);
    const s = await this.store.getMeta(SESSION_KEY);
    if (isSession(s) && s.id === id) await this.store.putMeta(SESSION_KEY, null);
    this.onChange();
  }

  /** The records that match `query`, in its order. */
  async list(query: LibraryQuery = {}): Promise<GameRecord[]> {
    return queryRecords(await this.store.all(), query);
  }

  /** A record's game and review, ready for the board. */
  async open(id: string): Promise<Result<OpenedGame, LibraryErrorCode>> {
    const record = await this.store.get(id);
    if (!record) return err('library-missing', `no game ${id} in the library`);
    const game = gameFromRecord(record);
    if (!game.ok) return game;
    const review = record.review && reviewFits(game.value, record.review) ? record.review : null;
    return ok({ record, game: game.value, review });
  }

  /** Every game matching `query` (all by default) as one PGN in `notation`, reviewed games with their review. */
  async exportAll(notation: Notation, query: LibraryQuery = {}): Promise<Bundle> {
    return bundlePgn(await this.list(query), notation);
  }

  /**
   * Reads every game of the files and saves each as an imported record; a game
   * whose PGN is already in the library (the same headers and moves) is not
   * saved again.
   */
  async importFiles(files: readonly ImportFile[]): Promise<ImportReport> {
    const read = readManyGames(files);
    const known = new Set((await this.store.all()).map((r) => r.pgn));
    const saved: GameRecord[] = [];
    const errors = [...read.errors];
    let duplicates = 0;
    for (const game of read.games) {
      const r = recordFromGame(game, { id: this.newId(), now: this.now(), source: 'imported' });
      if (!r.ok) {
        errors.push(r.error.message);
        continue;
      }
      if (known.has(r.value.pgn)) {
        duplicates++;
        continue;
      }
      known.add(r.value.pgn);
      await this.store.put(r.value);
      saved.push(r.value);
    }
    if (saved.length > 0) this.onChange();
    return { saved, duplicates, errors };
  }

  /** Remembers the game open on the board and the move shown (the page calls it as they change). */
  async saveSession(session: Session | null): Promise<void> {
    await this.store.putMeta(SESSION_KEY, session === null ? null : { id: session.id, ply: session.ply });
  }

  /**
   * The game that was open when the page was last left, with the move shown,
   * or null (none, or deleted since).
   */
  async restoreSession(): Promise<(OpenedGame & { readonly ply: number }) | null> {
    const s = await this.store.getMeta(SESSION_KEY);
    if (!isSession(s)) return null;
    const opened = await this.open(s.id);
    if (!opened.ok) return null;
    return { ...opened.value, ply: Math.min(Math.max(0, s.ply), opened.value.record.plies) };
  }
}

function isSession(v: unknown): v is Session {
  const s = v as Session | null | undefined;
  return typeof s?.id === 'string' && Number.isSafeInteger(s.ply);
}

/**
 * The page's library: over IndexedDB, or, where the browser keeps nothing, in
 * memory for this visit (GameLibrary.problem says why).
 */
export async function openLibrary(options: LibraryOptions = {}): Promise<GameLibrary> {
  const store = await openIdbStore();
  return store.ok
    ? new GameLibrary(store.value, options)
    : new GameLibrary(new MemoryStore(), options, store.error.message);
}
