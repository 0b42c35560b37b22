// Game files as the players' commands read them (`kirin convert`, `review`,
// `opening`, `explorer build`; `kirin book build` and `kirin puzzles build` too):
// the --encoding option, the messages for a file that cannot be read
// or holds no game, the warnings of dropped variations, and the exit codes they
// all give for the same fault (docs/NOTATION.md, "Exit codes"):
//
//   0  everything read (and done)
//   1  done in part: some games refused (the others were used), or an output
//      or the engine failed
//   2  nothing to do: a bad command line, or a named file that cannot be read
//      or holds no game that reads (missing, empty, binary, every game refused)
//
// A run's code is the highest any of its files gave. Node only.

import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { readGameFile, type GameFile } from '../notation/files.js';
import { textEncoding, type TextEncoding } from '../notation/text.js';
import { err, ok, type Result } from '../core/result.js';

/** Everything read and done. */
const EXIT_OK = 0;
/** Done in part: some games refused, an output or the engine failed. */
export const EXIT_PARTIAL = 1;
/** Nothing to do: a bad command line, or a file with no game that reads. */
export const EXIT_NOTHING = 2;

/** The --encoding option of a command: its encoding (undefined when absent: told from the bytes), or the error. */
export function encodingOption(value: string | undefined): Result<TextEncoding | undefined, 'arguments'> {
  if (value === undefined) return ok(undefined);
  const e = textEncoding(value);
  return e.ok ? ok(e.value) : err('arguments', `--encoding ${e.error.message}`);
}

/** The usage lines of --encoding, the same in every command. */
export const ENCODING_USAGE = `--encoding  the text encoding of PGN files: utf-8, utf-16le, utf-16be, gbk
              (gb18030) or big5; by default each file's is told by which one
              reads its games`;

/** A file's bytes as 8-bit data that no text file has: NUL bytes, or many control characters. */
function isBinary(bytes: Uint8Array): boolean {
  const n = Math.min(bytes.length, 4096);
  let control = 0;
  for (let i = 0; i < n; i++) {
    const b = bytes[i];
    if (b < 0x20 && b !== 0x09 && b !== 0x0a && b !== 0x0d && b !== 0x0c && b !== 0x1a) control++;
  }
  return n > 0 && control > n * 0.05;
}

/**
 * A game file read (XQF, or PGN in `encoding` or the one that reads best), or
 * why it gives nothing: it cannot be read, or it holds no game (empty, or
 * binary data that is not XQF: "no game in FILE").
 */
export function loadGameFile(
  file: string,
  encoding: TextEncoding | undefined,
  readFile: (path: string) => Uint8Array = (path) => readFileSync(path),
): Result<GameFile, 'unreadable' | 'no-game'> {
  let bytes: Uint8Array;
  try {
    bytes = readFile(file);
  } catch (e) {
    return err('unreadable', `cannot read ${file}: ${(e as Error).message}`);
  }
  const read = readGameFile(bytes, file, { encoding });
  // UTF-16 without a byte-order mark is full of NUL bytes: its encoding was told, so it is text.
  const text = read.encoding === 'utf-16le' || read.encoding === 'utf-16be';
  if (read.games.length === 0 || (read.kind === 'pgn' && !text && isBinary(bytes)))
    return err('no-game', `no game in ${file}`);
  return ok(read);
}

/**
 * A message about a game of a file, with the file named once: the XQF reader's
 * messages start with the file's name already; the PGN reader's name the game
 * ("game 2 (许银川 vs 吕钦, 全国赛): move 12 (Black): ...").
 */
export function fileMessage(file: string, read: GameFile, message: string): string {
  return read.kind === 'xqf' ? message : `${file}: ${message}`;
}

/** The exit code of one file: 0 every game read, 1 some refused, 2 none read. */
export function fileExitCode(read: GameFile): number {
  const refused = read.games.filter((g) => !g.ok).length;
  return refused === 0 ? EXIT_OK : refused === read.games.length ? EXIT_NOTHING : EXIT_PARTIAL;
}

/**
 * The lines a command prints about a file it read, each to be prefixed with the
 * command's name: the dropped variations' warnings, the refused games'
 * errors, and, when games were refused in an encoding told among GBK and Big5, which
 * one it was and how to choose another.
 */
export function fileReport(file: string, read: GameFile, encodingGiven: boolean): string[] {
  const lines: string[] = [];
  for (const g of read.games) {
    if (g.ok) for (const w of g.value.warnings ?? []) lines.push(`warning: ${fileMessage(file, read, w)}`);
    else lines.push(fileMessage(file, read, g.error.message));
  }
  const guessed = read.encoding === 'gb18030' || read.encoding === 'big5';
  if (!encodingGiven && read.kind === 'pgn' && guessed && read.games.some((g) => !g.ok))
    lines.push(`${file} was read as ${read.encoding} (--encoding names another)`);
  return lines;
}

/**
 * The game files a path names: the file itself, or every .pgn and .xqf file
 * below a directory (sorted by name, so a build reads them in the same order
 * everywhere). Throws when the path does not exist.
 */
export function gameFilesIn(path: string): string[] {
  if (!statSync(path).isDirectory()) return [path];
  const out: string[] = [];
  for (const e of readdirSync(path, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const p = join(path, e.name);
    if (e.isDirectory()) out.push(...gameFilesIn(p));
    else if (/\.(pgn|xqf)$/i.test(e.name)) out.push(p);
  }
  return out;
}
