// `kirin cluster datagen`: `kirin datagen` in seeded shards.
//
// Shard k is what one `kirin datagen` thread with seed f(seed, k) writes first:
// a worker runs commands/datagen/worker.js (the datagen's own self-play thread)
// with that seed and keeps the first `shard` positions that are new within the
// shard, so a shard is the same wherever and however often it runs. The
// coordinator merges the shards into the data file strictly in shard order,
// keeping only positions that are new to the file (deduplicated across shards
// and against what the file held before), and records in Redis how many shards
// it merged: a shard is written once even if its job ran twice, and a restarted
// coordinator goes on where the file and Redis say it stopped. When the
// deduplication leaves the file short, more shards are queued. The file ends
// with exactly --positions positions, in `kirin datagen`'s format.

import { closeSync, fsyncSync, writeSync } from 'node:fs';
import { resolve } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { Redis } from 'ioredis';
import { Position } from '../../src/dev.js';
import { loadOpenings, type Opening } from '../match/openings.js';
import { DEFAULT_NODES, DEFAULT_OPENINGS, progressLine } from '../datagen/cli.js';
import {
  RECORD_SIZE,
  dedupKey,
  decodeRecord,
  forEachRecord,
  openForAppend,
  recordPosition,
} from '../datagen/format.js';
import { ADJUDICATION, type GameMessage, type WorkerConfig } from '../datagen/worker.js';
import { keys } from './redis.js';
import type { Coordinator, RunEnd, RunHandler } from './runs.js';

export interface DatagenSpec {
  /** The data file (absolute, on the coordinator's machine). */
  out: string;
  positions: number;
  /** Positions per shard. */
  shard: number;
  seed: number;
  nodes: number;
  depth: number;
  randomPlies: number;
  maxPly: number;
  hash: number;
  openings: Opening[];
  openingsPath: string;
}

export interface DatagenRequest {
  out: string;
  positions: number;
  shard: number;
  seed: number;
  nodes: number;
  depth: number;
  randomPlies: number;
  maxPly: number;
  hash: number;
  openingsPath: string | null;
}

/**
 * The most positions in one file: the deduplication keeps every key in one
 * JavaScript Set, which holds at most 2^24 (16,777,216) entries.
 */
const MAX_POSITIONS = 16_000_000;

/** The spec, with the openings read and checked (throws Error with the message). */
export function makeDatagenSpec(r: DatagenRequest): DatagenSpec {
  if (r.positions > MAX_POSITIONS)
    throw new Error(
      `at most ${MAX_POSITIONS} positions in one file (its deduplication set holds 2^24 keys); write several files`,
    );
  const openingsPath = r.openingsPath ?? DEFAULT_OPENINGS;
  const loaded = loadOpenings(openingsPath);
  if (!loaded.ok) throw new Error(`openings: ${loaded.error.message}`);
  const openings: Opening[] = loaded.value;
  return {
    out: resolve(r.out),
    positions: r.positions,
    shard: r.shard,
    seed: r.seed,
    nodes: r.nodes === 0 && r.depth === 0 ? DEFAULT_NODES : r.nodes,
    depth: r.depth,
    randomPlies: r.randomPlies,
    maxPly: r.maxPly,
    hash: r.hash,
    openings,
    openingsPath,
  };
}

/** The seed of shard `index`. */
function shardSeed(seed: number, index: number): number {
  return (seed * 7919 + (index + 1) * 104729) >>> 0;
}

/** What a worker sends back for a shard: its records and their dedup keys (base64). */
export interface ShardResult {
  records: string;
  keys: string;
  positions: number;
  games: number;
}

/**
 * Plays shard `index`: the datagen thread's games from the shard's seed until
 * `spec.shard` positions new within the shard are in (the last game's cut, as
 * `kirin datagen` cuts at its target). Null when the run was stopped meanwhile.
 */
export function generateShard(spec: DatagenSpec, index: number, cancelled: () => boolean): Promise<ShardResult | null> {
  const cfg: WorkerConfig = {
    id: index,
    seed: shardSeed(spec.seed, index),
    openings: spec.openings,
    randomPlies: spec.randomPlies,
    nodes: spec.nodes,
    depth: spec.depth,
    maxPly: spec.maxPly,
    ...ADJUDICATION,
    hashMb: spec.hash,
  };
  const want = spec.shard;
  const records = new Uint8Array(want * RECORD_SIZE);
  const keyList = new Float64Array(want);
  const seen = new Set<number>();
  let n = 0;
  let games = 0;
  return new Promise((resolveShard, reject) => {
    const w = new Worker(new URL('../datagen/worker.js', import.meta.url), { workerData: cfg });
    let settled = false;
    const end = (v: ShardResult | null, e?: Error): void => {
      if (settled) return;
      settled = true;
      clearInterval(watch);
      void w.terminate();
      if (e) reject(e);
      else resolveShard(v);
    };
    const watch = setInterval(() => {
      if (cancelled()) end(null);
    }, 500);
    w.on('message', (m: GameMessage) => {
      if (settled) return;
      games++;
      for (let i = 0; i < m.keys.length && n < want; i++) {
        if (seen.has(m.keys[i])) continue;
        seen.add(m.keys[i]);
        records.set(m.records.subarray(i * RECORD_SIZE, (i + 1) * RECORD_SIZE), n * RECORD_SIZE);
        keyList[n++] = m.keys[i];
      }
      if (n >= want) {
        end({
          records: Buffer.from(records.buffer, 0, n * RECORD_SIZE).toString('base64'),
          keys: Buffer.from(keyList.buffer, 0, n * 8).toString('base64'),
          positions: n,
          games,
        });
      }
    });
    w.on('error', (e) => end(null, e));
    w.on('exit', (code) => end(null, new Error(`datagen thread exited with code ${code}`)));
  });
}

/** A merged shard's place in the results hash: its data is dropped, its numbers kept. */
interface MergedMark {
  merged: true;
  kept: number;
  dupes: number;
  games: number;
}

/** Coordinator side: merges the shards in order into the data file. */
export class ShardMerger implements RunHandler {
  private readonly seen = new Set<number>();
  private readonly waiting = new Map<number, ShardResult>();
  /** Positions in the file. */
  count = 0;
  /** Positions in the file when this coordinator started. */
  private readonly startCount: number;
  games = 0;
  dupes = 0;
  private merged: number;
  private readonly started = performance.now();
  private lastDraw = 0;
  private lastCount = -1;

  /** Opens (and resumes) the data file; throws Error when it is not a data file. */
  constructor(
    readonly spec: DatagenSpec,
    private readonly coordinator: Coordinator,
    private readonly redis: Redis,
    private readonly print: (line: string) => void,
  ) {
    this.merged = coordinator.run.merged;
    const opened = openForAppend(spec.out);
    if (!opened.ok) throw new Error(`${spec.out}: ${opened.error.message}`);
    closeSync(opened.value.fd);
    const pos = new Position(null);
    const board = new Uint8Array(90);
    let badRecord = '';
    const r = forEachRecord(spec.out, (buf, off) => {
      const set = recordPosition(decodeRecord(buf, off, board), pos);
      if (set.ok) this.seen.add(dedupKey(set.value));
      else badRecord ||= set.error.message;
    });
    if (!r.ok) throw new Error(`${spec.out}: ${r.error.message}`);
    if (badRecord) throw new Error(`${spec.out}: ${badRecord}`);
    this.count = r.value;
    this.startCount = r.value;
  }

  result(index: number, value: unknown): void {
    const v = value as ShardResult | MergedMark;
    if ('merged' in v) {
      this.games += v.games;
      this.dupes += v.dupes;
      return;
    }
    if (index >= this.merged) this.waiting.set(index, v);
  }

  /** Merges the shards that are next in order; ends the run at the target, or queues more shards. */
  async check(): Promise<RunEnd | null> {
    while (this.count < this.spec.positions && this.waiting.has(this.merged)) {
      await this.mergeNext();
    }
    this.draw(false);
    if (this.count >= this.spec.positions) return { state: 'done', summary: this.summary() };
    const run = this.coordinator.run;
    if (this.merged >= run.jobs) {
      // Every shard is in and deduplication left the file short: more shards (a tenth more than the gap).
      const more = Math.ceil((1.1 * (this.spec.positions - this.count)) / this.spec.shard);
      this.print(
        `Run ${run.id}: ${this.spec.positions - this.count} positions short after deduplication; ${more} more shard(s)`,
      );
      await this.coordinator.extend(more);
    }
    return null;
  }

  private async mergeNext(): Promise<void> {
    const index = this.merged;
    const shard = this.waiting.get(index)!;
    const records = new Uint8Array(Buffer.from(shard.records, 'base64'));
    const kb = Buffer.from(shard.keys, 'base64');
    const shardKeys = new Float64Array(kb.buffer.slice(kb.byteOffset, kb.byteOffset + kb.byteLength));
    const keep = new Uint8Array(records.length);
    let k = 0;
    let dupes = 0;
    for (let i = 0; i < shardKeys.length && this.count + k < this.spec.positions; i++) {
      if (this.seen.has(shardKeys[i])) {
        dupes++;
        continue;
      }
      this.seen.add(shardKeys[i]);
      keep.set(records.subarray(i * RECORD_SIZE, (i + 1) * RECORD_SIZE), k * RECORD_SIZE);
      k++;
    }
    const opened = openForAppend(this.spec.out);
    if (!opened.ok) throw new Error(`${this.spec.out}: ${opened.error.message}`);
    try {
      if (opened.value.records !== this.count)
        throw new Error(
          `${this.spec.out} changed under the run (${opened.value.records} positions, expected ${this.count})`,
        );
      if (k) writeSync(opened.value.fd, keep, 0, k * RECORD_SIZE);
      fsyncSync(opened.value.fd);
    } finally {
      closeSync(opened.value.fd);
    }
    this.count += k;
    this.dupes += dupes;
    this.games += shard.games;
    this.waiting.delete(index);
    this.merged = index + 1;
    const mark: MergedMark = { merged: true, kept: k, dupes, games: shard.games };
    await this.redis
      .multi()
      .hset(keys.run(this.coordinator.run.id), 'merged', this.merged)
      .hset(keys.results(this.coordinator.run.id), String(index), JSON.stringify(mark))
      .exec();
    this.coordinator.run.merged = this.merged;
  }

  /** A progress line when the count changed (at most every 2 s) or every 30 s. */
  private draw(force: boolean): void {
    const now = performance.now();
    if (!force && (now - this.lastDraw < 2000 || (this.count === this.lastCount && now - this.lastDraw < 30000)))
      return;
    this.lastDraw = now;
    this.lastCount = this.count;
    const rate = ((this.count - this.startCount) * 1000) / Math.max(1, now - this.started);
    this.print(`${progressLine(this.count, this.spec.positions, rate, this.games)}, ${this.merged} shards merged`);
  }

  summary(): string {
    return `${this.count}/${this.spec.positions} positions, ${this.merged} shards merged, ${this.games} games, ${this.dupes} duplicates skipped`;
  }

  finalLine(): string {
    this.draw(true);
    const secs = (performance.now() - this.started) / 1000;
    const added = this.count - this.startCount;
    return (
      `kirin cluster datagen: ${added} new positions in ${secs.toFixed(1)} s (${(added / secs).toFixed(1)} pos/s), ` +
      `${this.games} games, ${this.dupes} duplicates skipped; ${this.spec.out} has ${this.count}`
    );
  }
}
