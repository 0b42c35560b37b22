// `kirin cluster datagen`: `kirin datagen` in seeded shards.
//
// Shard k is what one `kirin datagen` thread with seed f(seed, k) plays first:
// a worker runs commands/datagen/worker.js (the datagen's own self-play thread)
// with that seed and keeps its games until they hold `shard` positions (quiet
// positions new within the shard; the last game cut there), so a shard is the
// same wherever and however often it runs; it sends them as one block of the
// chain format. The coordinator merges the shards' games into the data file
// strictly in shard order, one block each, counting the positions new to the
// file (deduplicated across shards and against what the file held before, as a
// reader of the file does), and records in Redis how many shards it merged: a
// shard is written once even if its job ran twice, and a restarted coordinator
// goes on where the file and Redis say it stopped. When the deduplication
// leaves the file short, more shards are queued. The file ends with exactly
// --positions positions (its records: the game that reaches them is cut
// there), in `kirin datagen`'s chain format (docs/DATAGEN.md).
//
// A new run into a file that an earlier run of the same seed filled begins
// after that run's shards (DatagenSpec.firstShard): the coordinator finds the
// earlier runs of the file in Redis, or, when Redis has forgotten them, counts
// the shards the file's positions fill at least; its shard k is shard
// firstShard + k of the seed, so no shard already in the file is played again.

import { closeSync, fstatSync, fsyncSync, writeSync } from 'node:fs';
import { resolve } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { Redis } from 'ioredis';
import { err, ok, type Result } from '../../src/dev.js';
import { loadOpenings, type Opening } from '../match/openings.js';
import { DEFAULT_NODES, DEFAULT_OPENINGS, progressLine } from '../datagen/cli.js';
import {
  BLOCK_HEADER_SIZE,
  blockEntries,
  cutGame,
  makeBlock,
  type ChainEntry,
  type ChainGame,
  type ChainVisitor,
} from '../datagen/chain-codec.js';
import { openChainForAppend, type OpenChain } from '../datagen/chain.js';
import { dedupKey } from '../datagen/format.js';
import { forEachChainRecord, isQuiet, type KeySet } from '../datagen/records.js';
import { ADJUDICATION, datagenHashMb, type GameMessage, type WorkerConfig } from '../datagen/worker.js';
import { keys } from './redis.js';
import type { Coordinator, HandlerCheck, RunHandler } from './runs.js';
import type { DatagenSpec } from './specs.js';

/** What the command line asks for: a spec without its openings, read from `openingsPath` (null: the default set). */
export type DatagenRequest = Omit<DatagenSpec, 'openings' | 'openingsPath'> & { openingsPath: string | null };

/**
 * The most positions in one file: the deduplication keeps every key in one
 * JavaScript Set, which holds at most 2^24 (16,777,216) entries.
 */
const MAX_POSITIONS = 16_000_000;

/** The spec, with the openings read and checked. */
export function makeDatagenSpec(r: DatagenRequest): Result<DatagenSpec, 'request'> {
  if (r.positions > MAX_POSITIONS)
    return err(
      'request',
      `at most ${MAX_POSITIONS} positions in one file (its deduplication set holds 2^24 keys); write several files`,
    );
  const openingsPath = r.openingsPath ?? DEFAULT_OPENINGS;
  const loaded = loadOpenings(openingsPath);
  if (!loaded.ok) return err('request', `openings: ${loaded.error.message}`);
  const openings: Opening[] = loaded.value;
  return ok({
    out: resolve(r.out),
    positions: r.positions,
    shard: r.shard,
    firstShard: r.firstShard,
    seed: r.seed,
    nodes: r.nodes === 0 && r.depth === 0 ? DEFAULT_NODES : r.nodes,
    depth: r.depth,
    randomPlies: r.randomPlies,
    maxPly: r.maxPly,
    // 0: the table `kirin datagen` sizes for the search.
    hash: r.hash > 0 ? r.hash : datagenHashMb(r.nodes === 0 && r.depth === 0 ? DEFAULT_NODES : r.nodes),
    openings,
    openingsPath,
  });
}

/**
 * The first shard of a new run into `out` with this seed and shard size: after
 * the shards of the earlier runs Redis remembers (each run's firstShard plus the
 * shards it merged), and at least as many shards as the file's `have` positions
 * fill (a shard adds at most `shard` positions).
 */
export function firstShardAfter(
  earlier: ReadonlyArray<{ spec: unknown; merged: number }>,
  out: string,
  seed: number,
  shard: number,
  have: number,
): number {
  let first = Math.ceil(have / shard);
  for (const run of earlier) {
    const s = run.spec as Partial<DatagenSpec> | null;
    if (!s || s.out !== out || s.seed !== seed || s.shard !== shard) continue;
    first = Math.max(first, (typeof s.firstShard === 'number' ? s.firstShard : 0) + run.merged);
  }
  return first;
}

/** The seed of shard `index`. */
function shardSeed(seed: number, index: number): number {
  return (seed * 7919 + (index + 1) * 104729) >>> 0;
}

/** What a worker sends back for a shard: its games as one chain block (base64), and counts. */
export interface ShardResult {
  block: string;
  positions: number;
  games: number;
}

/**
 * Plays shard `index` of the run (the seed's shard firstShard + index): the
 * datagen thread's games from the shard's seed until `spec.shard` positions new
 * within the shard are in (the last game's cut, as `kirin datagen` cuts at its
 * target). Null when the run was stopped meanwhile; the error when the thread failed.
 */
export function generateShard(
  spec: DatagenSpec,
  index: number,
  cancelled: () => boolean,
): Promise<Result<ShardResult | null, 'job'>> {
  const cfg: WorkerConfig = {
    id: index,
    seed: shardSeed(spec.seed, spec.firstShard + index),
    openings: spec.openings,
    randomPlies: spec.randomPlies,
    nodes: spec.nodes,
    depth: spec.depth,
    maxPly: spec.maxPly,
    ...ADJUDICATION,
    hashMb: spec.hash,
  };
  const want = spec.shard;
  const games: ChainGame[] = [];
  const seen = new Set<number>();
  let n = 0;
  return new Promise((resolveShard) => {
    const w = new Worker(new URL('../datagen/worker.js', import.meta.url), { workerData: cfg });
    let settled = false;
    const end = (v: ShardResult | null, e?: Error): void => {
      if (settled) return;
      settled = true;
      clearInterval(watch);
      void w.terminate();
      resolveShard(e ? err('job', `datagen thread: ${e.message}`) : ok(v));
    };
    const watch = setInterval(() => {
      if (cancelled()) end(null);
    }, 500);
    w.on('message', (m: GameMessage) => {
      if (settled) return;
      let cut = m.game.scored.length;
      for (let i = 0; i < m.keys.length && n < want; i++) {
        if (seen.has(m.keys[i])) continue;
        seen.add(m.keys[i]);
        if (++n === want) cut = m.quiet[i] + 1;
      }
      games.push(cutGame(m.game, cut));
      if (n >= want) {
        const block = makeBlock(games);
        if (!block.ok) return end(null, new Error(block.error.message));
        end({ block: Buffer.from(block.value).toString('base64'), positions: n, games: games.length });
      }
    });
    w.on('error', (e) => end(null, e));
    w.on('exit', (code) => end(null, new Error(`datagen thread exited with code ${code}`)));
  });
}

/** openChainForAppend (a chain file for appending), its errors (the folder missing, a file that is no chain file) as values. */
export function openDataFile(path: string): Result<OpenChain, 'file'> {
  try {
    const r = openChainForAppend(path);
    return r.ok ? r : err('file', `${path}: ${r.error.message}`);
  } catch (e) {
    return err('file', `${path}: ${(e as Error).message}`);
  }
}

/** A merged shard's place in the results hash: its data is dropped, its numbers kept. */
interface MergedMark {
  merged: true;
  kept: number;
  dupes: number;
  games: number;
}

/** A shard's result as read from Redis: its records and counts, their sizes checked. */
function readShard(value: unknown, index: number): Result<ShardResult | MergedMark, 'result'> {
  const v = value as Partial<ShardResult & MergedMark> | null;
  const bad = (what: string): Result<never, 'result'> => err('result', `shard ${index}: malformed result (${what})`);
  if (typeof v !== 'object' || v === null) return bad('not an object');
  const count = (n: unknown): n is number => typeof n === 'number' && Number.isSafeInteger(n) && n >= 0;
  if (v.merged === true) {
    if (!count(v.kept) || !count(v.dupes) || !count(v.games)) return bad('its counts');
    return ok({ merged: true, kept: v.kept, dupes: v.dupes, games: v.games });
  }
  if (typeof v.block !== 'string') return bad('block not text');
  if (!count(v.positions) || !count(v.games)) return bad('its counts');
  if (Buffer.byteLength(v.block, 'base64') < BLOCK_HEADER_SIZE) return bad('no block');
  return ok({ block: v.block, positions: v.positions, games: v.games });
}

/** Coordinator side: merges the shards in order into the data file. */
export class ShardMerger implements RunHandler {
  private readonly seen: KeySet;
  /** The file's size after the last block merged. */
  private bytes: number;
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

  private constructor(
    readonly spec: DatagenSpec,
    private readonly coordinator: Coordinator,
    private readonly redis: Redis,
    private readonly print: (line: string) => void,
    seen: KeySet,
    count: number,
    bytes: number,
  ) {
    this.merged = coordinator.run.merged;
    this.seen = seen;
    this.count = count;
    this.startCount = count;
    this.bytes = bytes;
  }

  /** Opens (and resumes) the data file: the merger, or why the file is not a data file. */
  static open(
    spec: DatagenSpec,
    coordinator: Coordinator,
    redis: Redis,
    print: (line: string) => void,
  ): Result<ShardMerger, 'coordinator'> {
    const opened = openDataFile(spec.out);
    if (!opened.ok) return err('coordinator', opened.error.message);
    closeSync(opened.value.fd);
    // The file's records (its record view) and their keys.
    const r = forEachChainRecord(spec.out, () => {});
    if (!r.ok) return err('coordinator', `${spec.out}: ${r.error.message}`);
    return ok(
      new ShardMerger(spec, coordinator, redis, print, r.value.view.seen, r.value.records, r.value.summary.bytes),
    );
  }

  result(index: number, value: unknown): Result<null, 'result'> {
    const read = readShard(value, index);
    if (!read.ok) return read;
    const v = read.value;
    if ('merged' in v) {
      this.games += v.games;
      this.dupes += v.dupes;
      return ok(null);
    }
    if (index >= this.merged) this.waiting.set(index, v);
    return ok(null);
  }

  /** Merges the shards that are next in order; ends the run at the target, or queues more shards. */
  async check(): Promise<HandlerCheck> {
    while (this.count < this.spec.positions && this.waiting.has(this.merged)) {
      const merged = await this.mergeNext();
      if (!merged.ok) return merged;
    }
    this.draw(false);
    if (this.count >= this.spec.positions) return ok({ state: 'done', summary: this.summary() });
    const run = this.coordinator.run;
    if (this.merged >= run.jobs) {
      // Every shard is in and deduplication left the file short: more shards (a tenth more than the gap).
      const more = Math.ceil((1.1 * (this.spec.positions - this.count)) / this.spec.shard);
      this.print(
        `Run ${run.id}: ${this.spec.positions - this.count} positions short after deduplication; ${more} more shard(s)`,
      );
      await this.coordinator.extend(more);
    }
    return ok(null);
  }

  /**
   * Appends the next shard's games, cut where the file reaches its positions.
   * The block is checked and replayed first (a shard is what a worker, or whoever
   * wrote to Redis, sent): a damaged block, an illegal move or anything but
   * self-play games fails the run, and the positions and their deduplication
   * keys are the merger's own, as a reader of the file finds them.
   */
  private async mergeNext(): Promise<Result<null, 'coordinator' | 'result'>> {
    const index = this.merged;
    const shard = this.waiting.get(index)!;
    let game = -1,
      k = 0,
      dupes = 0,
      cutIn = -1,
      cutAt = -1,
      foreign = '';
    const count: ChainVisitor = {
      game: (info) => {
        game++;
        if (info.records) foreign ||= `game ${game} is no self-play game`;
      },
      raw: () => {
        foreign ||= 'a version-1 record';
      },
      position: (pos, i, scored, score, _evalv, best) => {
        if (cutAt >= 0 || !scored || !isQuiet(pos, score, best)) return;
        const key = dedupKey(pos);
        if (this.seen.has(key)) {
          dupes++;
          return;
        }
        this.seen.add(key);
        if (this.count + ++k >= this.spec.positions) {
          cutIn = game;
          cutAt = i;
        }
      },
    };
    const entries = blockEntries(new Uint8Array(Buffer.from(shard.block, 'base64')), count);
    if (!entries.ok) return err('result', `shard ${index}: ${entries.error.message}`);
    if (foreign) return err('result', `shard ${index}: ${foreign}`);
    let keep: ChainEntry[] = entries.value;
    if (cutAt >= 0) {
      keep = keep.slice(0, cutIn + 1);
      keep[cutIn] = cutGame(keep[cutIn] as ChainGame, cutAt + 1);
    }
    const block = makeBlock(keep);
    if (!block.ok) return err('result', `shard ${index}: ${block.error.message}`);
    const opened = openDataFile(this.spec.out);
    if (!opened.ok) return err('coordinator', opened.error.message);
    try {
      const size = fstatSync(opened.value.fd).size;
      if (size !== this.bytes)
        return err('coordinator', `${this.spec.out} changed under the run (${size} bytes, expected ${this.bytes})`);
      writeSync(opened.value.fd, block.value);
      fsyncSync(opened.value.fd);
      this.bytes = size + block.value.length;
    } catch (e) {
      return err('coordinator', `${this.spec.out}: ${(e as Error).message}`);
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
    return ok(null);
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
