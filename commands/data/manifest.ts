// The self-play data in the repository (data/selfplay/, docs/DATAGEN.md): chain
// files and manifest.json, one entry per file with how it was made (command,
// engine commit, network, seed) and what it holds (games, positions, records,
// bytes, SHA-256). `kirin data manifest add` writes an entry from the file,
// `kirin data manifest check` checks every entry against its file, and
// commands/data/manifest.test.ts checks the repository's (quickly: SHA-256, bytes
// and the blocks' counts; records where a file is small). `archive` takes a
// committed file out of the working tree (data/ stays under 150 MB) and keeps its
// entry with the commit that holds it; `restore` brings it back from git.

import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { closeSync, existsSync, openSync, readFileSync, readSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { err, ok, type Result } from '../../src/dev.js';
import { readChain } from '../datagen/chain.js';
import { forEachChainRecord } from '../datagen/records.js';
import { repoPath } from '../../toolkit/files.js';

/** The folder of the repository's self-play data. */
export const SELFPLAY_DIR = repoPath('data', 'selfplay');
export const MANIFEST = 'manifest.json';

export interface ManifestEntry {
  /** The file's name in the manifest's folder. */
  file: string;
  /** The command that wrote it. */
  command: string;
  /** The engine commit it was played with. */
  commit: string;
  /** The network the games were played with. */
  network: string;
  seed: number;
  games: number;
  /** Scored positions. */
  positions: number;
  /** The record view's records (the training positions). */
  records: number;
  bytes: number;
  sha256: string;
  /**
   * Set when the file is archived: the commit whose tree still holds it (in the
   * manifest's folder). The working tree may then lack the file.
   */
  archived?: string;
}

const FIELDS: Array<[keyof ManifestEntry, 'string' | 'number']> = [
  ['file', 'string'],
  ['command', 'string'],
  ['commit', 'string'],
  ['network', 'string'],
  ['seed', 'number'],
  ['games', 'number'],
  ['positions', 'number'],
  ['records', 'number'],
  ['bytes', 'number'],
  ['sha256', 'string'],
];

/** The entries of a manifest file (an absent file has none), or what is wrong with it. */
export function readManifest(path: string): Result<ManifestEntry[], 'manifest'> {
  if (!existsSync(path)) return ok([]);
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(path, 'utf8'));
  } catch (e) {
    return err('manifest', `${path}: not JSON (${(e as Error).message})`);
  }
  const files = (json as { files?: unknown }).files;
  if (!Array.isArray(files)) return err('manifest', `${path}: no "files" list`);
  for (const [i, f] of files.entries()) {
    for (const [name, type] of FIELDS) {
      const v = (f as Record<string, unknown>)[name];
      if (typeof v !== type || (type === 'number' && !Number.isInteger(v)))
        return err('manifest', `${path}: entry ${i}: "${name}" is not ${type === 'number' ? 'an integer' : 'a string'}`);
    }
    const archived = (f as Record<string, unknown>).archived;
    if (archived !== undefined && (typeof archived !== 'string' || !/^[0-9a-f]{7,40}$/.test(archived)))
      return err('manifest', `${path}: entry ${i}: "archived" is not a commit hash`);
  }
  return ok(files as ManifestEntry[]);
}

function writeManifest(path: string, files: ManifestEntry[]): void {
  const sorted = [...files].sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
  writeFileSync(
    path,
    JSON.stringify(
      {
        about: 'Self-play data in the chain format (docs/DATAGEN.md); one entry per file. kirin data manifest check',
        files: sorted,
      },
      null,
      2,
    ) + '\n',
  );
}

/** SHA-256 of bytes in memory (hex). */
function sha256(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** SHA-256 of a file (hex), read in pieces. */
function fileSha256(path: string): string {
  const h = createHash('sha256');
  const fd = openSync(path, 'r');
  try {
    const buf = new Uint8Array(1 << 20);
    for (;;) {
      const k = readSync(fd, buf, 0, buf.length, null);
      if (k === 0) break;
      h.update(buf.subarray(0, k));
    }
  } finally {
    closeSync(fd);
  }
  return h.digest('hex');
}

/** What a file holds, as a manifest counts it; `records` only when asked (it replays every game). */
function measure(
  path: string,
  records: boolean,
): Result<Pick<ManifestEntry, 'games' | 'positions' | 'records' | 'bytes' | 'sha256'>, string> {
  const sum = readChain(path, null);
  if (!sum.ok) return sum;
  let n = -1;
  if (records) {
    const r = forEachChainRecord(path, () => {});
    if (!r.ok) return r;
    n = r.value.records;
  }
  return ok({
    games: sum.value.games,
    positions: sum.value.positions,
    records: n,
    bytes: sum.value.bytes,
    sha256: fileSha256(path),
  });
}

/**
 * Checks every entry of the manifest in `dir` against its file, and that every
 * chain file (*.kc) of the folder has an entry. Records are counted for files of
 * at most `recordsUpTo` bytes. Returns one line per problem (none: all agree).
 */
export function checkManifest(dir: string, recordsUpTo = Infinity): Result<string[], 'manifest'> {
  const m = readManifest(join(dir, MANIFEST));
  if (!m.ok) return m;
  const problems: string[] = [];
  const listed = new Set<string>();
  for (const e of m.value) {
    if (listed.has(e.file)) problems.push(`${e.file}: listed twice`);
    listed.add(e.file);
    const path = join(dir, e.file);
    if (basename(e.file) !== e.file) {
      problems.push(`${e.file}: not a file name in ${dir}`);
      continue;
    }
    if (!existsSync(path)) {
      if (e.archived === undefined) problems.push(`${e.file}: missing`);
      continue;
    }
    const got = measure(path, e.bytes <= recordsUpTo);
    if (!got.ok) {
      problems.push(`${e.file}: ${got.error.message}`);
      continue;
    }
    for (const k of ['bytes', 'sha256', 'games', 'positions', 'records'] as const) {
      if (k === 'records' && got.value.records < 0) continue;
      if (got.value[k] !== e[k]) problems.push(`${e.file}: ${k} ${got.value[k]}, the manifest says ${e[k]}`);
    }
  }
  if (existsSync(dir))
    for (const f of readdirSync(dir))
      if (f.endsWith('.kc') && !listed.has(f)) problems.push(`${f}: not in ${MANIFEST}`);
  return ok(problems);
}

/** Adds (or replaces) the entry of chain file `path` in the manifest of its folder. */
export function addToManifest(
  path: string,
  about: Pick<ManifestEntry, 'command' | 'commit' | 'network' | 'seed'>,
): Result<ManifestEntry, string> {
  const dir = dirname(path);
  const m = readManifest(join(dir, MANIFEST));
  if (!m.ok) return m;
  if (!path.endsWith('.kc')) return err('manifest', `${path}: a chain file is named *.kc`);
  const got = measure(path, true);
  if (!got.ok) return err('manifest', `${path}: ${got.error.message}`);
  const entry: ManifestEntry = { file: basename(path), ...about, ...got.value };
  writeManifest(join(dir, MANIFEST), [...m.value.filter((e) => e.file !== entry.file), entry]);
  return ok(entry);
}

/** Runs git in `dir`; its output, or what went wrong. */
function git(dir: string, args: string[]): Result<Buffer, 'manifest'> {
  try {
    return ok(execFileSync('git', ['-C', dir, ...args], { maxBuffer: 1 << 30, stdio: ['ignore', 'pipe', 'pipe'] }));
  } catch (e) {
    const why = (e as { stderr?: Buffer }).stderr?.toString().trim() || (e as Error).message;
    return err('manifest', `git ${args.join(' ')}: ${why}`);
  }
}

/** The path git gives file `name` of `dir` in a commit: the folder's path in its repository, then the name. */
function gitPath(dir: string, name: string): Result<string, 'manifest'> {
  const prefix = git(dir, ['rev-parse', '--show-prefix']);
  return prefix.ok ? ok(`${prefix.value.toString().trim()}${name}`) : prefix;
}

/** The entry of `name` in the manifest of `dir`, with all entries. */
function findEntry(
  dir: string,
  name: string,
): Result<{ entries: ManifestEntry[]; entry: ManifestEntry }, 'manifest'> {
  const m = readManifest(join(dir, MANIFEST));
  if (!m.ok) return m;
  const entry = m.value.find((e) => e.file === name);
  if (!entry) return err('manifest', `${name}: not in ${join(dir, MANIFEST)}`);
  return ok({ entries: m.value, entry });
}

/**
 * Archives chain file `path`: checks that it agrees with its manifest entry and
 * is committed as it is at HEAD, records HEAD's commit in the entry as
 * `archived` and deletes the file from the working tree (commit the deletion
 * and the manifest together).
 */
export function archiveInManifest(path: string): Result<ManifestEntry, 'manifest'> {
  const dir = dirname(path);
  const name = basename(path);
  const found = findEntry(dir, name);
  if (!found.ok) return found;
  const { entries, entry } = found.value;
  if (entry.archived !== undefined) return err('manifest', `${name}: already archived (commit ${entry.archived})`);
  if (!existsSync(path)) return err('manifest', `${name}: missing`);
  if (fileSha256(path) !== entry.sha256) return err('manifest', `${name}: differs from its manifest entry (SHA-256)`);
  const inGit = gitPath(dir, name);
  if (!inGit.ok) return inGit;
  const committed = git(dir, ['rev-parse', '--verify', '--quiet', `HEAD:${inGit.value}`]);
  const here = git(dir, ['hash-object', '--', name]);
  if (!here.ok) return here;
  if (!committed.ok || committed.value.toString().trim() !== here.value.toString().trim())
    return err('manifest', `${name}: not committed as it is at HEAD; commit it before archiving`);
  const head = git(dir, ['rev-parse', 'HEAD']);
  if (!head.ok) return head;
  const archived: ManifestEntry = { ...entry, archived: head.value.toString().trim() };
  rmSync(path);
  writeManifest(join(dir, MANIFEST), [...entries.filter((e) => e !== entry), archived]);
  return ok(archived);
}

/**
 * Restores archived chain file `path` from the commit its manifest entry names,
 * checked against the entry's SHA-256. The entry stays archived: the restored
 * file is for reading (training, stats), not for committing again.
 */
export function restoreFromArchive(path: string): Result<ManifestEntry, 'manifest'> {
  const dir = dirname(path);
  const name = basename(path);
  const found = findEntry(dir, name);
  if (!found.ok) return found;
  const { entry } = found.value;
  if (entry.archived === undefined) return err('manifest', `${name}: not archived`);
  if (existsSync(path)) return err('manifest', `${name}: already in ${dir}`);
  const inGit = gitPath(dir, name);
  if (!inGit.ok) return inGit;
  const bytes = git(dir, ['show', `${entry.archived}:${inGit.value}`]);
  if (!bytes.ok) return bytes;
  if (sha256(bytes.value) !== entry.sha256)
    return err('manifest', `${name}: the file at ${entry.archived} differs from its manifest entry (SHA-256)`);
  writeFileSync(path, bytes.value);
  return ok(entry);
}
