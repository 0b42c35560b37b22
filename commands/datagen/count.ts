// `kirin datagen --count FILE[,FILE...]`: how many positions a set of data files
// holds, and how many of them are different positions (the board and the side
// to move; the labels, move number and rule-60 counter do not count), within
// each file and across the files in the order given. `kirin datagen` skips
// duplicates within the file it writes; different files (different seeds,
// engines, generations) can still share positions, the opening ones above all.

import { err, ok, type Result } from '../../src/dev.js';
import { OFF_SIDE } from './format.js';
import { forEachRecord } from './records.js';

/** What one file adds. */
interface FileCount {
  path: string;
  records: number;
  /** Different positions within this file. */
  unique: number;
  /** Different positions not in any file before it. */
  added: number;
}

export interface CountReport {
  files: FileCount[];
  records: number;
  /** Different positions across all the files. */
  unique: number;
}

/**
 * A 53-bit key of a record's position (its 45 board bytes and the side to move):
 * two independent 32-bit hashes, one of them cut to 21 bits. With 10 million
 * positions the chance of any collision is about 1 in 200.
 */
function positionKey(buf: Uint8Array, off: number): number {
  let a = 0x811c9dc5 | 0;
  let b = 0x9e3779b9 | 0;
  for (let i = 0; i <= OFF_SIDE; i++) {
    const x = buf[off + i];
    a = Math.imul(a ^ x, 0x01000193);
    b = Math.imul(b + x, 0x85ebca6b);
    b ^= b >>> 13;
  }
  b = Math.imul(b ^ (b >>> 16), 0xc2b2ae35);
  b ^= b >>> 16;
  return (a >>> 0) + (b >>> 11) * 0x100000000;
}

/** Distinct values of a sorted array. */
function distinct(sorted: Float64Array): number {
  let n = 0;
  for (let i = 0; i < sorted.length; i++) if (i === 0 || sorted[i] !== sorted[i - 1]) n++;
  return n;
}

/** Counts the records and different positions of each file and of all of them. */
export function countPositions(paths: readonly string[]): Result<CountReport, 'datagen-format' | 'file'> {
  const perFile: Float64Array[] = [];
  for (const path of paths) {
    let keys = new Float64Array(1 << 16);
    let n = 0;
    let r: Result<number, 'datagen-format'>;
    try {
      r = forEachRecord(path, (buf, off) => {
        if (n === keys.length) {
          const bigger = new Float64Array(keys.length * 2);
          bigger.set(keys);
          keys = bigger;
        }
        keys[n++] = positionKey(buf, off);
      });
    } catch (e) {
      return err('file', `${path}: ${(e as Error).message}`);
    }
    if (!r.ok) return err(r.error.code, `${path}: ${r.error.message}`);
    perFile.push(keys.slice(0, n));
  }
  const total = perFile.reduce((s, k) => s + k.length, 0);
  const all = new Float64Array(total);
  const files: FileCount[] = [];
  let filled = 0;
  let before = 0;
  for (const [i, keys] of perFile.entries()) {
    all.set(keys, filled);
    filled += keys.length;
    const sofar = all.slice(0, filled).sort();
    const seen = distinct(sofar);
    files.push({ path: paths[i], records: keys.length, unique: distinct(keys.slice().sort()), added: seen - before });
    before = seen;
  }
  return ok({ files, records: total, unique: before });
}

/** The report as lines of text. */
export function formatCount(r: CountReport): string {
  const lines = r.files.map(
    (f) => `${f.path}: ${f.records} positions, ${f.unique} different, ${f.added} not in the files before it`,
  );
  lines.push(`all ${r.files.length} files: ${r.records} positions, ${r.unique} different`);
  return lines.join('\n');
}
