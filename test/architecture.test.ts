// The shape of the source tree, checked on every test run: no import cycles
// between files or between folders, and the layers point one way
// (docs/ARCHITECTURE.md): core <- platform <- eval <- search <- engine <- protocol <- the
// entry points (index.ts, main.ts); the product (src/) never imports the
// development tools (commands/, lab/, scripts/) or the test support (test/);
// the commands never import the experiments (lab/) or the scripts, and no tool
// imports the test support; the tools reach the product only through
// src/dev.ts (the development entry point) or src/index.ts (the library). Tests
// (*.test.ts) may import anything and are left out of the graph. The library
// (src/library.ts) is platform-neutral and both entry points re-export it; the
// modules that differ per platform are imported by their #platform/NAME name
// (package.json "imports"), never by the path of a twin.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { importGraph, findCycles, folderGraph, relativeImports, subpathImports } from './support/imports.js';
import { repoRoot } from '../commands/lib.js';

const root = repoRoot();
const files = importGraph(root, ['src', 'commands', 'lab', 'scripts', 'test']);

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

/** The product's surface for the tools: the development entry point, the public library. */
const TOOL_SURFACE = ['src/dev.ts', 'src/index.ts'];

/** The rooms of the tools and what each may import besides the product's surface. */
const TOOL_ROOMS: Record<string, readonly string[]> = {
  commands: ['commands/'],
  lab: ['commands/', 'lab/', 'scripts/'],
  scripts: ['commands/lib.ts', 'scripts/'],
};

test('the rooms point one way: tests may use everything, commands only commands, tools the product through its surface', () => {
  const wrong: string[] = [];
  for (const [file, deps] of files) {
    const room = TOOL_ROOMS[file.slice(0, file.indexOf('/'))];
    if (!room) continue;
    for (const dep of deps) {
      if (dep.startsWith('src/')) {
        if (!TOOL_SURFACE.includes(dep))
          wrong.push(`${file} -> ${dep} (a tool reaches into the product: import src/dev.ts or src/index.ts)`);
      } else if (!room.some((r) => dep.startsWith(r))) wrong.push(`${file} -> ${dep} (not a room this tool may use)`);
    }
  }
  assert.deepEqual(wrong, []);
  assert.ok(files.get('commands/match/game.ts')?.has('src/dev.ts'), "the graph sees the tools' imports");
  // Each room builds on its own (tsconfig.src.json, tsconfig.build.json, tsconfig.tools.json, tsconfig.test.json).
  const tsconfig = (name: string) =>
    JSON.parse(readFileSync(join(root, name), 'utf8')) as { include: string[]; references?: { path: string }[] };
  assert.deepEqual(tsconfig('tsconfig.src.json').include, ['src/**/*.ts']);
  assert.deepEqual(tsconfig('tsconfig.src.json').references, undefined);
  assert.deepEqual(tsconfig('tsconfig.tools.json').include, ['commands/**/*.ts', 'lab/**/*.ts', 'scripts/**/*.ts']);
  assert.deepEqual(tsconfig('tsconfig.tools.json').references, [
    { path: './tsconfig.src.json' },
    { path: './tsconfig.build.json' },
  ]);
  // The product's build scripts (the browser bundler) build with the product alone.
  assert.deepEqual(tsconfig('tsconfig.build.json').references, [{ path: './tsconfig.src.json' }]);
});

test('src/dev.ts exports only what the tools import (beyond the library it re-exports)', () => {
  const imported = new Set<string>();
  for (const file of files.keys()) {
    if (!/^(commands|lab|scripts)\//.test(file)) continue;
    const text = readFileSync(join(root, file), 'utf8');
    for (const m of text.matchAll(/import\s+(?:type\s+)?\{([^}]*)\}\s*from\s*'[^']*src\/dev\.js'/g))
      for (const item of m[1].split(','))
        imported.add(
          item
            .trim()
            .replace(/^type\s+/, '')
            .split(/\s+as\s+/)[0],
        );
  }
  const dev = readFileSync(join(root, 'src/dev.ts'), 'utf8');
  const exported = [
    ...[...dev.matchAll(/export\s+(?:type\s+)?\{([^}]*)\}\s*from/g)].flatMap((m) =>
      m[1].split(',').map((item) => item.trim().replace(/^type\s+/, '')),
    ),
    ...[...dev.matchAll(/export \* as (\w+)/g)].map((m) => m[1]),
  ].filter((n) => n !== '');
  assert.ok(exported.length > 50 && imported.has('Searcher'), 'the check reads both sides');
  assert.deepEqual(
    exported.filter((n) => !imported.has(n)),
    [],
    'exported by src/dev.ts but imported by no tool (tests import modules directly)',
  );
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
