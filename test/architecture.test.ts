// The shape of the source tree, checked on every test run: no import cycles
// between files or between folders, and the layers point one way
// (docs/ARCHITECTURE.md): core <- platform <- eval <- search <- engine <- protocol <- the
// entry points (index.ts, main.ts); the product (src/) never imports the
// development tools (toolkit/, commands/, lab/, scripts/) or the test support
// (test/); the toolkit imports only itself, the commands only themselves and
// the toolkit, never the experiments (lab/) or the scripts, and no tool imports
// the test support; the tools take the library from src/dev.ts (the
// development entry point) or src/index.ts and any other product name from the
// module that defines it, and a module that differs per platform by its
// #platform/NAME name (package.json "imports"), as the product does: no tool
// imports a file of the platform's two sides (src/platform/node/,
// src/platform/browser/) by its path. Tests (*.test.ts) may import the test
// support (test/) and any product file, but a test's fixtures never live in a
// tool: the product's and the toolkit's tests import no commands, lab or
// scripts, and the commands' tests no lab or scripts. The tests are left out of
// the graph but for that check. The library (src/library.ts) is
// platform-neutral and both entry points re-export it; no file imports a twin
// by its path instead of its #platform/NAME name.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { importGraph, findCycles, folderGraph, relativeImports, subpathImports } from './support/imports.js';
import { repoRoot } from '../toolkit/files.js';

const root = repoRoot();
const ROOMS = ['src', 'toolkit', 'commands', 'lab', 'scripts', 'test'];
const files = importGraph(root, ROOMS);

/** Rank of each product folder: a file may import only from its own rank or below. */
const LAYERS: Record<string, number> = {
  'src/core': 0,
  'src/platform': 1,
  'src/platform/node': 1,
  'src/platform/browser': 1,
  'src/eval': 2,
  'src/eval/nnue': 2,
  'src/eval/kirinnet': 2,
  'src/notation': 2,
  'src/opening': 2,
  'src/referee': 2,
  'src/search': 3,
  'src/book': 3,
  'src/explorer': 3,
  'src/engine': 4,
  'src/protocol': 5,
  'src/review': 5,
  'src/puzzles': 5,
  src: 6,
  'src/cli': 6,
  'src/browser': 6,
};

test('no import cycles between files', () => {
  assert.deepEqual(findCycles(files), []);
});

test('no import cycles between folders (a folder may use its parent folder, which composes it)', () => {
  // src/eval/nnue and src/eval/kirinnet use src/eval's post-processing and
  // accumulator stack while src/eval/networks.ts puts the two kinds behind one
  // surface: a folder's use of its parent is no cycle (files never cycle, above).
  const g = folderGraph(files);
  for (const [from, tos] of g) for (const to of [...tos]) if (from.startsWith(`${to}/`)) tos.delete(to);
  assert.deepEqual(findCycles(g), []);
  // Sibling folders still may not: made-up edges both ways between nnue and kirinnet are a cycle.
  g.get('src/eval/nnue')?.add('src/eval/kirinnet');
  g.get('src/eval/kirinnet')?.add('src/eval/nnue');
  assert.equal(findCycles(g).length, 1);
});

test('the product layers point one way: core <- platform <- eval <- search <- engine <- protocol <- entry points', () => {
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

/**
 * Whether a tool may import this product file by its path: any but a file of
 * the platform's two sides. A module that differs per platform a tool imports
 * by its #platform/NAME name, as the product does (on Node that is the Node
 * module); the browser side's helpers are the browser build's.
 */
const toolMayImportPath = (dep: string): boolean => !/^src\/platform\/(node|browser)\//.test(dep);

/** The rooms of the tools and what each may import besides the product. */
const TOOL_ROOMS: Record<string, readonly string[]> = {
  toolkit: ['toolkit/'],
  commands: ['toolkit/', 'commands/'],
  lab: ['toolkit/', 'commands/', 'lab/', 'scripts/'],
  scripts: ['toolkit/', 'scripts/'],
};

test('the rooms point one way: tests may use everything, the toolkit only itself, commands only commands and the toolkit, tools the platform by its #platform/ names', () => {
  const wrong: string[] = [];
  for (const file of files.keys()) {
    const room = TOOL_ROOMS[file.slice(0, file.indexOf('/'))];
    if (!room) continue;
    // Imports by path: a #platform/NAME import is an edge to both twins in the graph, and allowed.
    for (const dep of relativeImports(root, file)) {
      if (dep.startsWith('src/')) {
        if (!toolMayImportPath(dep))
          wrong.push(
            `${file} -> ${dep} (a tool reaches a side of the platform by its path: import its #platform/ name)`,
          );
      } else if (!room.some((r) => dep.startsWith(r))) wrong.push(`${file} -> ${dep} (not a room this tool may use)`);
    }
  }
  assert.deepEqual(wrong, []);
  assert.ok(files.get('commands/match/game.ts')?.has('src/dev.ts'), "the graph sees the tools' imports");
  assert.ok(files.get('commands/train/model.ts')?.has('src/eval/kirinnet/arch.ts'), 'and their direct ones');
  assert.ok(files.get('commands/book/cli.ts')?.has('src/platform/node/book-files.ts'), 'and their #platform/ ones');
  assert.ok(!relativeImports(root, 'commands/book/cli.ts').some((d) => d.startsWith('src/platform/')));
  assert.ok(
    !toolMayImportPath('src/platform/node/book-files.ts') && !toolMayImportPath('src/platform/browser/assets.ts'),
  );
  assert.ok(toolMayImportPath('src/platform/simd.ts') && toolMayImportPath('src/core/movegen.ts'));
  // Each room builds on its own (tsconfig.src.json, tsconfig.build.json: the toolkit and the product's build
  // scripts, tsconfig.tools.json, tsconfig.test.json).
  const tsconfig = (name: string) =>
    JSON.parse(readFileSync(join(root, name), 'utf8')) as { include: string[]; references?: { path: string }[] };
  assert.deepEqual(tsconfig('tsconfig.src.json').include, ['src/**/*.ts']);
  assert.deepEqual(tsconfig('tsconfig.src.json').references, undefined);
  assert.deepEqual(tsconfig('tsconfig.tools.json').include, ['commands/**/*.ts', 'lab/**/*.ts', 'scripts/**/*.ts']);
  assert.deepEqual(tsconfig('tsconfig.tools.json').references, [
    { path: './tsconfig.src.json' },
    { path: './tsconfig.build.json' },
  ]);
  // The toolkit and the product's build scripts (the browser bundler) build with the product alone.
  assert.deepEqual(tsconfig('tsconfig.build.json').include, [
    'toolkit/**/*.ts',
    'scripts/web/build.ts',
    'scripts/web/precache.ts',
  ]);
  assert.deepEqual(tsconfig('tsconfig.build.json').references, [{ path: './tsconfig.src.json' }]);
});

/** What a room's files, its tests included, never import: a test takes its fixtures from test/ or the toolkit. */
const NEVER: Record<string, readonly string[]> = {
  src: ['commands/', 'lab/', 'scripts/'],
  toolkit: ['commands/', 'lab/', 'scripts/'],
  commands: ['lab/', 'scripts/'],
};

test('tests keep to their room: the product and the toolkit import no tool, the commands no lab or scripts', () => {
  const withTests = importGraph(root, ROOMS, { tests: true });
  const wrong: string[] = [];
  for (const [file, deps] of withTests) {
    const never = NEVER[file.slice(0, file.indexOf('/'))] ?? [];
    for (const dep of deps) if (never.some((r) => dep.startsWith(r))) wrong.push(`${file} -> ${dep}`);
  }
  assert.deepEqual(wrong, []);
  // The check reads the tests' imports, static and dynamic.
  assert.ok(withTests.get('src/eval/nnue/nnue.test.ts')?.has('toolkit/nnue/synthetic-net.ts'));
  assert.ok(withTests.get('src/engine/threads.test.ts')?.has('toolkit/nnue/synthetic-net.ts'));
  assert.ok(withTests.get('commands/match/match.integration.test.ts')?.has('test/support/fake-config.ts'));
});

test('src/dev.ts is the library and nothing more: a tool takes any other name from the module that defines it', async () => {
  // Its one import is the Node entry's library; the platform seam a tool imports by its #platform/ names.
  assert.deepEqual([...(files.get('src/dev.ts') ?? [])], ['src/index.ts']);
  const names = async (m: string): Promise<string[]> => Object.keys((await import(m)) as object).sort();
  const dev = await names('../src/dev.js');
  assert.ok(dev.includes('Engine') && dev.includes('Position'));
  assert.deepEqual(dev, await names('../src/index.js'));
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

test('the product reads no environment variable (settings come as UCI options or arguments)', () => {
  const wrong: string[] = [];
  for (const file of files.keys())
    if (file.startsWith('src/') && /\bprocess\.env\b/.test(readFileSync(join(root, file), 'utf8'))) wrong.push(file);
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
  // The seam's Node modules (#platform/NAME without the "browser" condition; package.json "imports").
  const seam = new Set(
    [...subpathImports(root).values()].flatMap((to) => to.filter((t) => t.condition === 'node').map((t) => t.file)),
  );
  const reached = closure('src/library.ts');
  assert.ok(reached.includes('src/engine/engine.ts') && reached.includes('src/search/worker.ts'));
  const nodeUsers = reached.filter((f) =>
    /(?:^|\n)\s*(?:import|export)\s[^'";]*?from\s*['"]node:/.test(readFileSync(join(root, f), 'utf8')),
  );
  assert.deepEqual(
    nodeUsers,
    [...seam].sort().filter((f) => reached.includes(f)),
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
    'fetchMastersExplorer',
    'fetchPuzzles',
    'kernelModuleProblem',
  ]);
  assert.deepEqual(
    lib.filter((n) => !node.includes(n) || !browser.includes(n)),
    [],
    'every library name is in both entries',
  );
});

/**
 * The imports that bypass the platform seam: `file -> twin` for each file that
 * imports a twin (a target of a #platform/NAME name) by its relative path. Only
 * the twins' own folder may (a twin uses its own side's helpers), and the
 * browser entry (src/browser/) the browser twins, for their browser-only names;
 * a twin never imports the other platform's side.
 */
function seamBypasses(imports: ReadonlyMap<string, readonly string[]>, twins: ReadonlyMap<string, string>): string[] {
  const wrong: string[] = [];
  for (const [file, deps] of imports)
    for (const dep of deps) {
      const side = twins.get(dep);
      if (side === undefined) continue;
      const folder = file.slice(0, file.lastIndexOf('/'));
      const own = folder === dep.slice(0, dep.lastIndexOf('/'));
      if (own || (side === 'browser' && folder === 'src/browser')) continue;
      wrong.push(`${file} -> ${dep} (import its #platform/ name)`);
    }
  return wrong;
}

test('the platform seam is a visible import: no file reaches a twin by its path instead of its #platform/ name', () => {
  const twins = new Map<string, string>();
  for (const [name, to] of subpathImports(root)) {
    assert.match(name, /^#platform\//, 'package.json "imports" holds the platform seam only');
    for (const t of to) twins.set(t.file, t.condition);
  }
  assert.equal(twins.size, 10, 'five names, each a Node module and its browser twin');
  const imports = new Map([...files.keys()].map((f) => [f, relativeImports(root, f)]));
  assert.deepEqual(seamBypasses(imports, twins), []);
  // The graph sees the names: the engine reaches both twins of #platform/search-thread.
  assert.ok(files.get('src/engine/engine.ts')?.has('src/platform/node/search-thread.ts'));
  assert.ok(files.get('src/engine/engine.ts')?.has('src/platform/browser/search-thread.ts'));
  // And the check sees a bypass: a made-up relative import of a twin, and a twin using the other side.
  const madeUp = new Map([
    ['src/engine/engine.ts', ['src/platform/node/search-thread.ts', 'src/engine/options.ts']],
    ['src/platform/browser/files.ts', ['src/platform/node/files.ts', 'src/platform/browser/web.ts']],
    ['src/browser/index.ts', ['src/platform/browser/files.ts', 'src/platform/node/files.ts']],
  ]);
  assert.deepEqual(seamBypasses(madeUp, twins), [
    'src/engine/engine.ts -> src/platform/node/search-thread.ts (import its #platform/ name)',
    'src/platform/browser/files.ts -> src/platform/node/files.ts (import its #platform/ name)',
    'src/browser/index.ts -> src/platform/node/files.ts (import its #platform/ name)',
  ]);
});
