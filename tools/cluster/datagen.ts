// `kirin cluster datagen`: `kirin datagen` in seeded shards.
//
// Shard k is what one `kirin datagen` thread with seed f(seed, k) plays first:
// a worker runs tools/datagen/worker.js (the datagen's own self-play thread)
// with that seed and keeps its games until they hold `shard` positions (quiet
// positions new within the shard; the last game cut there), so a shard is the
// same wherever and however often it runs. The coordinator merges the shards'
// games into the data file strictly in shard order, one block each, counting
// the positions new to the file (deduplicated across shards and against what
// the file held before, as a reader of the file does), and records in Redis how
// many shards it merged: a shard is written once even if its job ran twice, and
// a restarted coordinator goes on where the file and Redis say it stopped. When
// the deduplication leaves the file short, more shards are queued. The file
// ends with exactly --positions positions (its record view: the last game is
// cut there), in `kirin datagen`'s chain format (docs/DATAGEN.md).

import { closeSync, fstatSync, fsyncSync, writeSync } from 'node:fs';
import { resolve } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { Redis } from 'ioredis';
import { loadOpenings, type Opening } from '../match/openings.js';
import { DEFAULT_NODES, DEFAULT_OPENINGS, progressLine } from '../datagen/cli.js';
import {
  blockEntries,
  cutGame,
  makeBlock,
  openChainForAppend,
  type ChainEntry,
  type ChainGame,
} from '../datagen/chain.js';
import { forEachChainRecord } from '../datagen/records.js';
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

/**
 * What a worker sends back for a shard (base64): its games as one chain block,
 * and per position that counts (quiet, new within the shard) its dedup key and
 * where it is (game index * 65536 + position index).
 */
export interface ShardResult {
  block: string;
  keys: string;
  where: string;
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
  const games: ChainGame[] = [];
  const keyList = new Float64Array(want);
  const where = new Float64Array(want);
  const seen = new Set<number>();
  let n = 0;
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
      let cut = m.game.scored.length;
      for (let i = 0; i < m.keys.length && n < want; i++) {
        if (seen.has(m.keys[i])) continue;
        seen.add(m.keys[i]);
        keyList[n] = m.keys[i];
        where[n++] = games.length * 65536 + m.quiet[i];
        if (n === want) cut = m.quiet[i] + 1;
      }
      games.push(cutGame(m.game, cut));
      if (n >= want) {
        const block = makeBlock(games);
        if (!block.ok) return end(null, new Error(block.error.message));
        end({
          block: Buffer.from(block.value).toString('base64'),
          keys: Buffer.from(keyList.buffer, 0, n * 8).toString('base64'),
          where: Buffer.from(where.buffer, 0, n * 8).toString('base64'),
          positions: n,
          games: games.length,
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
  private readonly seen: Set<number>;
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

  /** Opens (and resumes) the data file; throws Error when it is not a data file. */
  constructor(
    readonly spec: DatagenSpec,
    private readonly coordinator: Coordinator,
    private readonly redis: Redis,
    private readonly print: (line: string) => void,
  ) {
    this.merged = coordinator.run.merged;
    const opened = openChainForAppend(spec.out);
    if (!opened.ok) throw new Error(`${spec.out}: ${opened.error.message}`);
    closeSync(opened.value.fd);
    const r = forEachChainRecord(spec.out, () => {});
    if (!r.ok) throw new Error(`${spec.out}: ${r.error.message}`);
    this.seen = r.value.view.seen;
    this.count = r.value.records;
    this.startCount = r.value.records;
    this.bytes = r.value.summary.bytes;
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
    const entries = blockEntries(new Uint8Array(Buffer.from(shard.block, 'base64')));
    if (!entries.ok) throw new Error(`shard ${index}: ${entries.error.message}`);
    const f64 = (b64: string): Float64Array => {
      const b = Buffer.from(b64, 'base64');
      return new Float64Array(b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength));
    };
    const shardKeys = f64(shard.keys);
    const where = f64(shard.where);
    // The shard's games up to the one that reaches the target, cut there.
    let keep: ChainEntry[] = entries.value;
    let k = 0;
    let dupes = 0;
    for (let i = 0; i < shardKeys.length; i++) {
      if (this.seen.has(shardKeys[i])) {
        dupes++;
        continue;
      }
      this.seen.add(shardKeys[i]);
      if (this.count + ++k >= this.spec.positions) {
        const game = Math.floor(where[i] / 65536);
        keep = entries.value.slice(0, game + 1);
        keep[game] = cutGame(keep[game] as ChainGame, (where[i] % 65536) + 1);
        break;
      }
    }
    const block = makeBlock(keep);
    if (!block.ok) throw new Error(`shard ${index}: ${block.error.message}`);
    const opened = openChainForAppend(this.spec.out);
    if (!opened.ok) throw new Error(`${this.spec.out}: ${opened.error.message}`);
    try {
      const size = fstatSync(opened.value.fd).size;
      if (size !== this.bytes)
        throw new Error(`${this.spec.out} changed under the run (${size} bytes, expected ${this.bytes})`);
      writeSync(opened.value.fd, block.value);
      fsyncSync(opened.value.fd);
      this.bytes = size + block.value.length;
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
