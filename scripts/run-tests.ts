// The test command: runs every test file with Node's test runner, by name.
// `node --test <folder>` searches the folder on Node 20 but not on Node 22 and
// later, so the files are listed here: each `*.test.ts` under src/, commands/, lab/, scripts/ and
// test/ maps to its compiled `dist/.../*.test.js` (stale files left in dist/ by
// a moved or deleted test are not run). The options of Node's test runner
// listed in SPEC go on to `node --test`.
//
//   node dist/scripts/run-tests.js [--test-name-pattern=...] [--test-reporter=...] [--test-only]

import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { commandSpec, readCommandLine, reportCommandLine, repoRoot, runMain } from '../commands/lib.js';

/** The source test files below `folders` of `root` (paths relative to `root`), sorted. */
export function testSources(
  root: string,
  folders: readonly string[] = ['src', 'commands', 'lab', 'scripts', 'test'],
): string[] {
  const out: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.isFile() && entry.name.endsWith('.test.ts')) out.push(relative(root, path));
    }
  };
  for (const folder of folders) if (existsSync(join(root, folder))) walk(join(root, folder));
  return out.sort();
}

/** The options of `node --test` that are passed on (each may be repeated where Node allows it). */
const SPEC = commandSpec({
  name: 'run-tests',
  usage:
    'usage: node dist/scripts/run-tests.js [--test-name-pattern=RE] [--test-skip-pattern=RE] [--test-reporter=R]\n' +
    '           [--test-reporter-destination=D] [--test-concurrency=N] [--test-timeout=MS] [--test-only]',
  options: {
    'test-name-pattern': { type: 'string', multiple: true },
    'test-skip-pattern': { type: 'string', multiple: true },
    'test-reporter': { type: 'string', multiple: true },
    'test-reporter-destination': { type: 'string', multiple: true },
    'test-concurrency': { type: 'string', multiple: true },
    'test-timeout': { type: 'string', multiple: true },
    'test-only': { type: 'boolean' },
  },
});

function main(argv: string[]): number {
  const cl = readCommandLine(argv, SPEC);
  if (!cl.ok) return reportCommandLine(SPEC, cl.error);
  const passOn: string[] = [];
  for (const [name, value] of Object.entries(cl.value.values)) {
    if (value === true) passOn.push(`--${name}`);
    else if (Array.isArray(value)) for (const v of value) passOn.push(`--${name}=${String(v)}`);
  }
  const root = repoRoot();
  const files = testSources(root).map((f) => join('dist', f.replace(/\.ts$/, '.js')));
  const missing = files.filter((f) => !existsSync(join(root, f)));
  if (missing.length > 0) {
    process.stderr.write(`run-tests: not compiled (run \`npm run build\`): ${missing.join(', ')}\n`);
    return 1;
  }
  process.stdout.write(`# ${files.length} test files\n`);
  const r = spawnSync(process.execPath, ['--test', ...passOn, ...files], {
    cwd: root,
    stdio: 'inherit',
  });
  return r.status ?? 1;
}

runMain(import.meta.url, main);
