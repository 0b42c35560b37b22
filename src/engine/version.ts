// Who the engine is: name, author and version. The version is written once, in
// package.json, and read from there on first use (not at import).

import { readFileSync } from 'node:fs';

export const ENGINE_NAME = 'Kirin';
export const ENGINE_AUTHOR = 'the Kirin developers';

let version: string | undefined;

/** The version in package.json ("unknown" if the file cannot be read). */
export function engineVersion(): string {
  if (version === undefined) {
    try {
      // dist/src/engine/version.js -> the package root.
      const pkg = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as {
        version?: unknown;
      };
      version = typeof pkg.version === 'string' ? pkg.version : 'unknown';
    } catch {
      version = 'unknown';
    }
  }
  return version;
}
