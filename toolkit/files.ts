// The repository's files as the tools and the tests reach them.
//
//   repoRoot(): string
//     The repository root: the nearest folder above this module with a
//     package.json (from dist/toolkit/files.js, the checkout).
//   repoPath(...parts): string
//     A path inside the repository: repoPath('data', 'openings', 'openings.txt').
//   readTextFile(path): Result<string, 'file'>
//     A file's text, or why it cannot be read (the message names the path).

import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { err, ok, type Result } from '../src/dev.js';

/** The repository root: the nearest folder above this module with a package.json. */
export function repoRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json'))) {
    const up = dirname(dir);
    if (up === dir) throw new Error(`no package.json above ${fileURLToPath(import.meta.url)}`);
    dir = up;
  }
  return dir;
}

/** A path inside the repository. */
export function repoPath(...parts: string[]): string {
  return join(repoRoot(), ...parts);
}

/** A file's text, or why it cannot be read. */
export function readTextFile(path: string): Result<string, 'file'> {
  try {
    return ok(readFileSync(path, 'utf8'));
  } catch (e) {
    return err('file', `cannot read ${path}: ${(e as Error).message}`);
  }
}
