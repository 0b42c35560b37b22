// `kirin data stats FILE...`: what data files hold (docs/DATAGEN.md): games,
// positions (the scored positions of a chain file, the records of a version-1
// file), records (a chain file's record view: what `kirin train` reads), bytes
// per position and per record, the games' results and the distribution of the
// search scores in pawn buckets, per file and in all.

import { err, ok, type Result } from '../../src/dev.js';
import { PAWN_VALUE, VALUE_MATE_IN_MAX_PLY } from '../../src/core/types.js';
import { readChain } from '../datagen/chain.js';
import { OFF_PLY, OFF_RESULT, OFF_SCORE, OFF_SIDE, fileVersion, forEachV1Record } from '../datagen/format.js';
import { RecordView } from '../datagen/records.js';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { ChainVisitor } from '../datagen/chain-codec.js';

/** Bucket edges in pawns (side to move's view); a last bucket holds the mate scores. */
const EDGES = [-16, -8, -4, -2, -1, 0, 1, 2, 4, 8, 16];

/** The bucket names: "<-16", "-16..-8", ..., ">=16", "mate". */
const BUCKET_NAMES = [
  `<${EDGES[0]}`,
  ...EDGES.slice(1).map((e, i) => `${EDGES[i]}..${e}`),
  `>=${EDGES[EDGES.length - 1]}`,
  'mate',
];

function bucketOf(score: number): number {
  if (score >= VALUE_MATE_IN_MAX_PLY || score <= -VALUE_MATE_IN_MAX_PLY) return EDGES.length + 1;
  const p = score / PAWN_VALUE;
  let b = 0;
  while (b < EDGES.length && p >= EDGES[b]) b++;
  return b;
}

export interface FileStats {
  path: string;
  /** 1 (records) or 2 (game chains); 0 for the total. */
  version: number;
  games: number;
  /** Scored positions (a version-1 file: its records). */
  positions: number;
  /** The record view's records (a version-1 file: its records). */
  records: number;
  bytes: number;
  /** Games won by Red, drawn, won by Black. */
  results: [number, number, number];
  /** Positions per score bucket (BUCKET_NAMES). */
  scores: number[];
}

function emptyStats(path: string, version: number, bytes: number): FileStats {
  return { path, version, games: 0, positions: 0, records: 0, bytes, results: [0, 0, 0], scores: BUCKET_NAMES.map(() => 0) };
}

const resultIndex = (redResult: number): number => (redResult > 0 ? 0 : redResult < 0 ? 2 : 1);

/** The stats of one data file, or why it cannot be read (the message names the byte offset of a damaged block). */
export function fileStats(path: string): Result<FileStats, string> {
  const v = fileVersion(path);
  if (!v.ok) return v;
  const s = emptyStats(path, v.value, statSync(path).size);
  if (v.value === 1) {
    // Games from the records' order: a game's plies increase and its result seen from Red is constant.
    let prevPly = -1,
      prevRed = 2;
    const r = forEachV1Record(path, (buf, off) => {
      const dv = new DataView(buf.buffer, buf.byteOffset + off);
      const side = buf[off + OFF_SIDE];
      const ply = dv.getUint16(OFF_PLY, true);
      const res = dv.getInt8(OFF_RESULT);
      const red = side ? -res : res;
      if (ply <= prevPly || red !== prevRed) {
        s.games++;
        s.results[resultIndex(red)]++;
      }
      prevPly = ply;
      prevRed = red;
      s.scores[bucketOf(dv.getInt16(OFF_SCORE, true))]++;
    });
    if (!r.ok) return r;
    s.positions = s.records = r.value;
    return ok(s);
  }
  const view = new RecordView(() => {});
  const visit: ChainVisitor = {
    game(info, pos) {
      view.game(info);
      s.games++;
      s.results[resultIndex(info.result)]++;
      void pos;
    },
    position(pos, i, scored, score, evalv, best, played) {
      view.position(pos, i, scored, score, evalv, best);
      void played;
      if (!scored) return;
      s.positions++;
      s.scores[bucketOf(score)]++;
    },
    raw(record) {
      view.raw(record);
      const dv = new DataView(record.buffer, record.byteOffset);
      const res = dv.getInt8(OFF_RESULT);
      s.games++;
      s.results[resultIndex(record[OFF_SIDE] ? -res : res)]++;
      s.positions++;
      s.scores[bucketOf(dv.getInt16(OFF_SCORE, true))]++;
    },
  };
  const r = readChain(path, visit);
  if (!r.ok) return r;
  s.records = view.count;
  return ok(s);
}

/** A worker's answer for one file (worker.ts). */
export interface StatsReply {
  index: number;
  stats: FileStats | null;
  error: string | null;
}

/**
 * The stats of `paths`, in their order, read by up to `threads` worker threads
 * (default: one per core), the largest files first so that the threads finish
 * together; or the first file (in `paths`' order) that cannot be read, named,
 * with why. One file, or one thread, is read on this thread.
 */
export async function statsOfFiles(
  paths: readonly string[],
  threads = availableParallelism(),
): Promise<Result<FileStats[], 'data-file'>> {
  const n = Math.max(1, Math.min(threads, paths.length));
  if (n === 1) {
    const out: FileStats[] = [];
    for (const path of paths) {
      const r = fileStats(path);
      if (!r.ok) return err('data-file', `${path}: ${r.error.message}`);
      out.push(r.value);
    }
    return ok(out);
  }
  const size = (p: string): number => {
    try {
      return statSync(p).size;
    } catch {
      return 0;
    }
  };
  const queue = paths.map((path, index) => ({ path, index, bytes: size(path) })).sort((a, b) => b.bytes - a.bytes);
  const results: (FileStats | null)[] = paths.map(() => null);
  let failure: { index: number; message: string } | null = null;
  const workers = Array.from({ length: n }, () => new Worker(new URL('./worker.js', import.meta.url)));
  try {
    await Promise.all(
      workers.map(
        (w) =>
          new Promise<void>((resolve, reject) => {
            const next = (): void => {
              const job = failure === null ? queue.shift() : undefined;
              if (job) w.postMessage({ index: job.index, path: job.path });
              else resolve();
            };
            w.on('message', (reply: StatsReply) => {
              if (reply.stats) results[reply.index] = reply.stats;
              else if (failure === null || reply.index < failure.index)
                failure = { index: reply.index, message: reply.error ?? 'unreadable' };
              next();
            });
            w.on('error', reject);
            next();
          }),
      ),
    );
  } finally {
    await Promise.all(workers.map((w) => w.terminate()));
  }
  const failed = failure as { index: number; message: string } | null;
  if (failed) return err('data-file', `${paths[failed.index]}: ${failed.message}`);
  return ok(results as FileStats[]);
}

/**
 * The data files the arguments name: a file as it is, a folder as its data
 * files (`.kc` chains and `.bin` records, by name; its manifest and notes left
 * out). A folder without data files, or a name that is neither, is refused.
 */
export function dataFilesIn(args: readonly string[]): Result<string[], 'data-file'> {
  const out: string[] = [];
  for (const a of args) {
    let isFolder: boolean;
    try {
      isFolder = statSync(a).isDirectory();
    } catch (e) {
      return err('data-file', `${a}: cannot open (${(e as Error).message})`);
    }
    if (!isFolder) {
      out.push(a);
      continue;
    }
    const files = readdirSync(a)
      .filter((f) => f.endsWith('.kc') || f.endsWith('.bin'))
      .sort()
      .map((f) => join(a, f));
    if (files.length === 0) return err('data-file', `${a}: a folder with no data files (.kc or .bin)`);
    out.push(...files);
  }
  return ok(out);
}

/** The sum of several files' stats. */
function totalStats(files: readonly FileStats[]): FileStats {
  const t = emptyStats('total', 0, 0);
  for (const f of files) {
    t.games += f.games;
    t.positions += f.positions;
    t.records += f.records;
    t.bytes += f.bytes;
    for (let i = 0; i < 3; i++) t.results[i] += f.results[i];
    f.scores.forEach((n, i) => (t.scores[i] += n));
  }
  return t;
}

const pct = (n: number, of: number): string => (of ? ((100 * n) / of).toFixed(1) : '-');

/** The stats as a table: one line per file and a `total` line, then the results and the score distribution. */
export function formatStats(files: readonly FileStats[]): string {
  const rows = [...files, totalStats(files)];
  const table = (head: string[], body: string[][]): string[] => {
    const w = head.map((h, i) => Math.max(h.length, ...body.map((r) => r[i].length)));
    const line = (r: string[]) => r.map((c, i) => (i === 0 ? c.padEnd(w[i]) : c.padStart(w[i]))).join('  ');
    return [line(head), ...body.map(line)];
  };
  const fmt = (x: number, d: number) => (Number.isFinite(x) ? x.toFixed(d) : '-');
  const out = table(
    ['file', 'format', 'games', 'positions', 'records', 'bytes', 'bytes/position', 'bytes/record'],
    rows.map((f) => [
      f.path,
      f.version === 2 ? 'chains' : f.version === 1 ? 'records' : '',
      String(f.games),
      String(f.positions),
      String(f.records),
      String(f.bytes),
      fmt(f.bytes / f.positions, 2),
      fmt(f.bytes / f.records, 2),
    ]),
  );
  out.push('', 'results (% of games):');
  out.push(
    ...table(
      ['file', 'red wins', 'draws', 'black wins'],
      rows.map((f) => [f.path, ...f.results.map((n) => pct(n, f.games))]),
    ),
  );
  out.push('', 'search scores (pawns, side to move; % of positions):');
  out.push(
    ...table(
      ['file', ...BUCKET_NAMES],
      rows.map((f) => [f.path, ...f.scores.map((n) => pct(n, f.positions))]),
    ),
  );
  return out.join('\n');
}
