// A tool run as a script: is this module the one Node was started with, run its
// main, end with an error.
//
//   isMain(importMetaUrl): boolean
//     Whether the module whose `import.meta.url` is given is the script Node was
//     started with (`node dist/lab/x.js`), symbolic links resolved; false when
//     it was imported. Every tool that is also imported uses this one check.
//   runMain(importMetaUrl, main): void
//     If isMain(importMetaUrl): runs `main(process.argv.slice(2))` (a number or a
//     promise of one) and sets process.exitCode to what it returns; an exception
//     is printed as `<script>: <message>` and exits with code 1.
//   exitWithError(name, message, code = 1): never
//     Prints `<name>: <message>` to stderr and ends the process: how a script that
//     runs at the top level reports an error Result.

import { realpathSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Prints `<name>: <message>` to stderr and ends the process with `code`. */
export function exitWithError(name: string, message: string, code = 1): never {
  process.stderr.write(`${name}: ${message}\n`);
  process.exit(code);
}

function realPath(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return resolve(path);
  }
}

/** Whether the module with this `import.meta.url` is the script Node was started with. */
export function isMain(importMetaUrl: string): boolean {
  const script = process.argv[1];
  if (!script || !importMetaUrl.startsWith('file:')) return false;
  return realPath(fileURLToPath(importMetaUrl)) === realPath(script);
}

/** Runs `main` with the command line when the module is the script Node was started with. */
export function runMain(importMetaUrl: string, main: (argv: string[]) => number | Promise<number>): void {
  if (!isMain(importMetaUrl)) return;
  const name = basename(fileURLToPath(importMetaUrl)).replace(/\.js$/, '');
  const fail = (e: unknown): void => {
    process.stderr.write(`${name}: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    process.exitCode = 1;
  };
  try {
    Promise.resolve(main(process.argv.slice(2))).then((code) => {
      process.exitCode = code;
    }, fail);
  } catch (e) {
    fail(e);
  }
}
