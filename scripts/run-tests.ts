// The test command. Each test file declares its level by its name:
//
//   unit         *.test.ts               no processes, servers or browsers (a
//                                        guard preloaded into each file refuses
//                                        them: scripts/unit-guard.ts); the fast
//                                        loop for the rules, the evaluation, the
//                                        search and the tools' logic
//   integration  *.integration.test.ts   engine processes, npm, esbuild, tsc,
//                                        redis-server
//   browser      *.browser.test.ts       headless Chromium (skips where there is none)
//
// A new test is a unit test unless its name says otherwise, and one that starts
// a process fails with a message naming the suffix it needs. Given levels run in
// that order (all three when none is given), each file with Node's test runner
// by name - `node --test <folder>` searches folders on Node 20 but not later -
// mapped to its compiled `dist/.../*.test.js` (stale files left in dist/ by a
// moved or deleted test are not run). Each level's time is printed, and a
// summary at the end; the exit code is 1 when any level failed. The options of
// Node's test runner listed in SPEC go on to `node --test`.
//
//   node dist/scripts/run-tests.js [unit] [integration] [browser] [--test-name-pattern=...] [--test-only]

import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { commandSpec, readCommandLine, reportCommandLine } from '../toolkit/command-line.js';
import { repoRoot } from '../toolkit/files.js';
import { runMain } from '../toolkit/script.js';

/** The folders holding tests. */
const TEST_FOLDERS = ['src', 'toolkit', 'commands', 'lab', 'scripts', 'test', 'web'];

export const LEVELS = ['unit', 'integration', 'browser'] as const;
export type Level = (typeof LEVELS)[number];

/** A test source's level, from its name. */
export function levelOf(file: string): Level {
  if (file.endsWith('.integration.test.ts')) return 'integration';
  if (file.endsWith('.browser.test.ts')) return 'browser';
  return 'unit';
}

/** The source test files below `folders` of `root` (paths relative to `root`), sorted. */
export function testSources(root: string, folders: readonly string[] = TEST_FOLDERS): string[] {
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
    'usage: node dist/scripts/run-tests.js [unit] [integration] [browser] [--test-name-pattern=RE]\n' +
    '           [--test-skip-pattern=RE] [--test-reporter=R] [--test-reporter-destination=D]\n' +
    '           [--test-concurrency=N] [--test-timeout=MS] [--test-only]\n' +
    '  levels: unit (*.test.ts), integration (*.integration.test.ts), browser (*.browser.test.ts); all by default',
  options: {
    'test-name-pattern': { type: 'string', multiple: true },
    'test-skip-pattern': { type: 'string', multiple: true },
    'test-reporter': { type: 'string', multiple: true },
    'test-reporter-destination': { type: 'string', multiple: true },
    'test-concurrency': { type: 'string', multiple: true },
    'test-timeout': { type: 'string', multiple: true },
    'test-only': { type: 'boolean' },
  },
  positionals: { min: 0, max: LEVELS.length },
});

function main(argv: string[]): number {
  const cl = readCommandLine(argv, SPEC);
  if (!cl.ok) return reportCommandLine(SPEC, cl.error);
  const unknown = cl.value.positionals.filter((p) => !(LEVELS as readonly string[]).includes(p));
  if (unknown.length > 0)
    return reportCommandLine(SPEC, {
      code: 'arguments',
      message: `unknown level ${unknown.join(', ')} (levels: ${LEVELS.join(', ')})`,
    });
  const levels = LEVELS.filter((l) => cl.value.positionals.length === 0 || cl.value.positionals.includes(l));
  const passOn: string[] = [];
  for (const [name, value] of Object.entries(cl.value.values)) {
    if (value === true) passOn.push(`--${name}`);
    else if (Array.isArray(value)) for (const v of value) passOn.push(`--${name}=${String(v)}`);
  }
  const root = repoRoot();
  const sources = testSources(root);
  const compiled = (f: string) => join('dist', f.replace(/\.ts$/, '.js'));
  const missing = sources.filter((f) => levels.includes(levelOf(f)) && !existsSync(join(root, compiled(f))));
  if (missing.length > 0) {
    process.stderr.write(`run-tests: not compiled (run \`npm run build\`): ${missing.map(compiled).join(', ')}\n`);
    return 1;
  }
  const summary: string[] = [];
  let failed = false;
  for (const level of levels) {
    const files = sources.filter((f) => levelOf(f) === level).map(compiled);
    // The guard goes into each test file's process (node --test hands --import on to them).
    const guard = level === 'unit' ? ['--import', `./${join('dist', 'scripts', 'unit-guard.js')}`] : [];
    process.stdout.write(`# ${level}: ${files.length} test files\n`);
    const t0 = performance.now();
    const r = spawnSync(process.execPath, [...guard, '--test', ...passOn, ...files], { cwd: root, stdio: 'inherit' });
    const seconds = ((performance.now() - t0) / 1000).toFixed(1);
    const status = r.status === 0 ? 'passed' : `failed (exit ${r.status ?? r.signal})`;
    if (r.status !== 0) failed = true;
    const line = `# ${level}: ${files.length} files, ${seconds} s, ${status}`;
    process.stdout.write(`${line}\n`);
    summary.push(line);
  }
  if (levels.length > 1) process.stdout.write(`# levels\n${summary.join('\n')}\n`);
  return failed ? 1 : 0;
}

runMain(import.meta.url, main);
