// The test command: runs every test file with Node's test runner, by name.
// `node --test <folder>` searches the folder on Node 20 but not on Node 22 and
// later, so the files are listed here: each `*.test.ts` under src/, tools/ and
// test/ maps to its compiled `dist/.../*.test.js` (stale files left in dist/ by
// a moved or deleted test are not run). Extra arguments go to `node --test`.
//
//   node dist/tools/run-tests.js [--test-name-pattern=...]

import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { repoRoot } from './lib.js';

/** The source test files below `folders` of `root` (paths relative to `root`), sorted. */
export function testSources(root: string, folders: readonly string[] = ['src', 'tools', 'test']): string[] {
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

function main(): number {
  const root = repoRoot();
  const files = testSources(root).map((f) => join('dist', f.replace(/\.ts$/, '.js')));
  const missing = files.filter((f) => !existsSync(join(root, f)));
  if (missing.length > 0) {
    process.stderr.write(`run-tests: not compiled (run \`npm run build\`): ${missing.join(', ')}\n`);
    return 1;
  }
  process.stdout.write(`# ${files.length} test files\n`);
  const r = spawnSync(process.execPath, ['--test', ...process.argv.slice(2), ...files], {
    cwd: root,
    stdio: 'inherit',
  });
  return r.status ?? 1;
}

process.exitCode = main();
