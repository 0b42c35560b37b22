// The library's store in the browser: IndexedDB through `idb` (a small
// promise wrapper). One database, `kirin-library`, with an object store of
// game records keyed by id (indexed by the time they were last saved) and one
// of small values (the session's open game).

import { openDB, type DBSchema, type IDBPDatabase } from 'idb';
import { err, ok, type Result } from '../../src/browser/index.js';
import type { GameRecord } from './record.js';
import type { GameStore } from './store.js';

interface LibrarySchema extends DBSchema {
  games: { key: string; value: GameRecord; indexes: { updated: number } };
  meta: { key: string; value: unknown };
}

/** The database's name and version (a new version upgrades the stores). */
const LIBRARY_DB = 'kirin-library';
const VERSION = 1;

class IdbStore implements GameStore {
  constructor(private readonly db: IDBPDatabase<LibrarySchema>) {}
  all(): Promise<GameRecord[]> {
    return this.db.getAll('games');
  }
  get(id: string): Promise<GameRecord | undefined> {
    return this.db.get('games', id);
  }
  async put(record: GameRecord): Promise<void> {
    await this.db.put('games', record);
  }
  delete(id: string): Promise<void> {
    return this.db.delete('games', id);
  }
  getMeta(key: string): Promise<unknown> {
    return this.db.get('meta', key);
  }
  async putMeta(key: string, value: unknown): Promise<void> {
    await this.db.put('meta', value, key);
  }
}

/**
 * Opens the library's IndexedDB database (creating it the first time). A
 * browser that keeps nothing (IndexedDB missing or refused, as in some private
 * windows) gives the error, which the page says; the library then keeps games
 * for the visit only.
 */
export async function openIdbStore(name = LIBRARY_DB): Promise<Result<GameStore, 'library-store'>> {
  if (typeof indexedDB === 'undefined') return err('library-store', 'this browser has no IndexedDB');
  try {
    const db = await openDB<LibrarySchema>(name, VERSION, {
      upgrade(d) {
        d.createObjectStore('games', { keyPath: 'id' }).createIndex('updated', 'updated');
        d.createObjectStore('meta');
      },
    });
    return ok(new IdbStore(db));
  } catch (e) {
    return err('library-store', `IndexedDB could not be opened: ${(e as Error).message}`);
  }
}
