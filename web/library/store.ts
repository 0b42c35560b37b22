// Where the library keeps its records: an interface, so that the library's
// logic runs over a store in memory in the unit tests and over IndexedDB in
// the page (idb-store.ts).

import type { GameRecord } from './record.js';

export interface GameStore {
  /** Every record. */
  all(): Promise<GameRecord[]>;
  get(id: string): Promise<GameRecord | undefined>;
  /** Adds or replaces the record with its id. */
  put(record: GameRecord): Promise<void>;
  delete(id: string): Promise<void>;
  /** Small values the library keeps beside the games (the open game of the session). */
  getMeta(key: string): Promise<unknown>;
  putMeta(key: string, value: unknown): Promise<void>;
}

/** A store in memory: what is put is copied (as IndexedDB copies it), so a caller's later changes do not reach it. */
export class MemoryStore implements GameStore {
  private readonly records = new Map<string, GameRecord>();
  private readonly meta = new Map<string, unknown>();

  all(): Promise<GameRecord[]> {
    return Promise.resolve([...this.records.values()].map((r) => structuredClone(r)));
  }
  get(id: string): Promise<GameRecord | undefined> {
    const r = this.records.get(id);
    return Promise.resolve(r === undefined ? undefined : structuredClone(r));
  }
  put(record: GameRecord): Promise<void> {
    this.records.set(record.id, structuredClone(record));
    return Promise.resolve();
  }
  delete(id: string): Promise<void> {
    this.records.delete(id);
    return Promise.resolve();
  }
  getMeta(key: string): Promise<unknown> {
    return Promise.resolve(structuredClone(this.meta.get(key)));
  }
  putMeta(key: string, value: unknown): Promise<void> {
    this.meta.set(key, structuredClone(value));
    return Promise.resolve();
  }
}
