// The shape of the source tree, checked on every test run: no import cycles
// between files or between folders, and the layers point one way
// (docs/ARCHITECTURE.md): core <- eval <- search <- engine <- protocol <- the
// entry points (index.ts, main.ts); the product (src/) never imports the
// development tools (tools/) or the test support (test/), and the tools never
// import the test support; they reach the product only through src/dev.ts
// (the development entry point) or src/index.ts (the library). Tests (*.test.ts)
// may import anything and are left out of the graph. The library
// (src/library.ts) is platform-neutral and both entry points re-export it.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { importGraph, findCycles, folderGraph } from './support/imports.js';
import { repoRoot } from '../tools/lib.js';
import { BROWSER_TWINS } from '../tools/web/twins.js';

const root = repoRoot();
const files = importGraph(root, ['src', 'tools', 'test']);

/** Rank of each product folder: a file may import only from its own rank or below. */
const LAYERS: Record<string, number> = {
  'src/core': 0,
  'src/eval': 1,
  'src/eval/nnue': 1,
  'src/eval/kirinnet': 1,
  'src/eval/networks': 1,
  'src/notation': 1,
  'src/opening': 1,
  'src/search': 2,
  'src/book': 2,
  'src/engine': 3,
  'src/protocol': 4,
  'src/review': 4,
  src: 5,
  'src/cli': 5,
  'src/browser': 5,
};

test('no import cycles between files', () => {
  assert.deepEqual(findCycles(files), []);
});

test('no import cycles between folders', () => {
  assert.deepEqual(findCycles(folderGraph(files)), []);
});

test('the product layers point one way: core <- eval <- search <- engine <- protocol <- entry points', () => {
  const wrong: string[] = [];
  for (const [file, deps] of files) {
    if (!file.startsWith('src/')) continue;
    const from = LAYERS[file.slice(0, file.lastIndexOf('/'))];
    assert.notEqual(from, undefined, `${file}: a folder without a layer in test/architecture.test.ts`);
    for (const dep of deps) {
      if (!dep.startsWith('src/')) {
        wrong.push(`${file} -> ${dep} (the product imports a tool or test support)`);
        continue;
      }
      const to = LAYERS[dep.slice(0, dep.lastIndexOf('/'))];
      if (to > from) wrong.push(`${file} -> ${dep} (a lower layer imports a higher one)`);
    }
  }
  assert.deepEqual(wrong, []);
});

/** The product's surface for the tools: the development entry point and the public library. */
const TOOL_SURFACE = ['src/dev.ts', 'src/index.ts'];

test('the rooms point one way: tests may use tools and the product, tools only the product through its surface', () => {
  const wrong: string[] = [];
  for (const [file, deps] of files) {
    for (const dep of deps) {
      if (file.startsWith('tools/') && !dep.startsWith('tools/') && !dep.startsWith('src/'))
        wrong.push(`${file} -> ${dep} (a tool imports the test support)`);
      if (file.startsWith('tools/') && dep.startsWith('src/') && !TOOL_SURFACE.includes(dep))
        wrong.push(`${file} -> ${dep} (a tool reaches into the product: import src/dev.ts or src/index.ts)`);
    }
  }
  assert.deepEqual(wrong, []);
  assert.ok(files.get('tools/match/game.ts')?.has('src/dev.ts'), "the graph sees the tools' imports");
  // Each room builds on its own (tsconfig.src.json, tsconfig.build.json, tsconfig.tools.json, tsconfig.test.json).
  const tsconfig = (name: string) =>
    JSON.parse(readFileSync(join(root, name), 'utf8')) as { include: string[]; references?: { path: string }[] };
  assert.deepEqual(tsconfig('tsconfig.src.json').include, ['src/**/*.ts']);
  assert.deepEqual(tsconfig('tsconfig.src.json').references, undefined);
  assert.deepEqual(tsconfig('tsconfig.tools.json').include, ['tools/**/*.ts']);
  assert.deepEqual(tsconfig('tsconfig.tools.json').references, [
    { path: './tsconfig.src.json' },
    { path: './tsconfig.build.json' },
  ]);
  // The product's build scripts (the browser bundler) build with the product alone.
  assert.deepEqual(tsconfig('tsconfig.build.json').references, [{ path: './tsconfig.src.json' }]);
});

test('the product sets positions from FENs through Position.fromFen / setFen (a Result), never the test constructor', () => {
  const wrong: string[] = [];
  for (const file of files.keys()) {
    if (!file.startsWith('src/')) continue;
    const text = readFileSync(join(root, file), 'utf8');
    for (const m of text.matchAll(/new Position\(([^)]*)\)/g))
      if (m[1].trim() !== '' && m[1].trim() !== 'null') wrong.push(`${file}: ${m[0]}`);
  }
  assert.deepEqual(wrong, []);
});

test('the checker sees imports: a made-up cycle is found', () => {
  const g = new Map([
    ['a.ts', new Set(['b.ts'])],
    ['b.ts', new Set(['c.ts'])],
    ['c.ts', new Set(['a.ts'])],
    ['d.ts', new Set(['a.ts'])],
  ]);
  assert.deepEqual(findCycles(g), [['a.ts', 'b.ts', 'c.ts']]);
  // And the real graph has edges: the engine imports the position.
  assert.ok(files.get('src/engine/engine.ts')?.has('src/core/position.ts'));
  assert.ok(readFileSync(join(root, 'src/engine/engine.ts'), 'utf8').length > 0);
});

/** The files `start` imports, directly or not (itself included). */
function closure(start: string): string[] {
  const seen = new Set<string>([start]);
  const todo = [start];
  while (todo.length > 0) {
    for (const d of files.get(todo.pop()!) ?? []) {
      if (seen.has(d)) continue;
      seen.add(d);
      todo.push(d);
    }
  }
  return [...seen].sort();
}

test('the library is platform-neutral: it reaches Node built-ins only through the platform seam', () => {
  // The seam's Node modules (the browser build substitutes a twin for each; tools/web/twins.ts).
  const seam = new Set(Object.keys(BROWSER_TWINS).map((f) => `src/${f.replace(/\.js$/, '.ts')}`));
  const reached = closure('src/library.ts');
  assert.ok(reached.includes('src/engine/engine.ts') && reached.includes('src/search/worker.ts'));
  const nodeUsers = reached.filter((f) =>
    /(?:^|\n)\s*(?:import|export)\s[^'";]*?from\s*['"]node:/.test(readFileSync(join(root, f), 'utf8')),
  );
  assert.deepEqual(
    nodeUsers,
    [...seam].filter((f) => reached.includes(f)),
    'only the seam modules import node: built-ins',
  );
  assert.equal(seam.size, 5);
  // What needs Node stays out: the version (package.json), the UCI protocol over stdin.
  for (const f of ['src/engine/version.ts', 'src/protocol/uci.ts']) assert.ok(!reached.includes(f), f);
});

test('both entry points re-export the library, each adding only its own few names', async () => {
  const names = async (m: string): Promise<string[]> => Object.keys((await import(m)) as object).sort();
  const lib = await names('../src/library.js');
  const node = await names('../src/index.js');
  const browser = await names('../src/browser/index.js');
  assert.ok(lib.includes('Engine') && lib.includes('Position') && lib.includes('judge'));
  const extra = (entry: string[]): string[] => entry.filter((n) => !lib.includes(n));
  assert.deepEqual(extra(node), ['ENGINE_AUTHOR', 'ENGINE_NAME', 'Uci', 'engineVersion', 'runUci']);
  assert.deepEqual(extra(browser), [
    'browserSupport',
    'canSearch',
    'embeddedBookProblem',
    'embeddedNetworkProblem',
    'kernelModuleProblem',
  ]);
  assert.deepEqual(
    lib.filter((n) => !node.includes(n) || !browser.includes(n)),
    [],
    'every library name is in both entries',
  );
});
