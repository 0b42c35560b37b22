// The shape of the source tree, checked on every test run: no import cycles
// between files or between folders, and the layers point one way
// (docs/ARCHITECTURE.md): core <- platform <- eval <- search <- engine <- protocol <- the
// entry points (index.ts, main.ts); the product (src/) never imports the
// development tools (toolkit/, commands/, lab/, scripts/) or the test support
// (test/); the toolkit imports only itself, the commands only themselves and
// the toolkit, never the experiments (lab/) or the scripts, and no tool imports
// the test support; the tools take the library from src/dev.ts (the
// development entry point) or src/index.ts and any other product name from the
// module that defines it, but never a module of the platform seam
// (src/platform/): its pieces come through src/dev.ts, its swap table
// (src/platform/twins.ts) is read by the browser build. Tests (*.test.ts)
// may import the test support (test/) and any product file, but a test's
// fixtures never live in a tool: the product's and the toolkit's tests import
// no commands, lab or scripts, and the commands' tests no lab or scripts. The
// tests are left out of the graph but for that check. The library
// (src/library.ts) is platform-neutral and both entry points re-export it.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { importGraph, findCycles, folderGraph } from './support/imports.js';
import { repoRoot } from '../toolkit/files.js';
import { BROWSER_TWINS } from '../src/platform/twins.js';

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

/** Whether a tool may import this product file: any but the platform seam's, whose swap table the browser build reads. */
const toolMayImport = (dep: string): boolean => !dep.startsWith('src/platform/') || dep === 'src/platform/twins.ts';

/** The rooms of the tools and what each may import besides the product. */
const TOOL_ROOMS: Record<string, readonly string[]> = {
  toolkit: ['toolkit/'],
  commands: ['toolkit/', 'commands/'],
  lab: ['toolkit/', 'commands/', 'lab/', 'scripts/'],
  scripts: ['toolkit/', 'scripts/'],
};

test('the rooms point one way: tests may use everything, the toolkit only itself, commands only commands and the toolkit, tools the platform only through src/dev.ts', () => {
  const wrong: string[] = [];
  for (const [file, deps] of files) {
    const room = TOOL_ROOMS[file.slice(0, file.indexOf('/'))];
    if (!room) continue;
    for (const dep of deps) {
      if (dep.startsWith('src/')) {
        if (!toolMayImport(dep))
          wrong.push(`${file} -> ${dep} (a tool reaches into the platform seam: take it from src/dev.ts)`);
      } else if (!room.some((r) => dep.startsWith(r))) wrong.push(`${file} -> ${dep} (not a room this tool may use)`);
    }
  }
  assert.deepEqual(wrong, []);
  assert.ok(files.get('commands/match/game.ts')?.has('src/dev.ts'), "the graph sees the tools' imports");
  assert.ok(files.get('commands/train/model.ts')?.has('src/eval/kirinnet/arch.ts'), 'and their direct ones');
  assert.ok(!toolMayImport('src/platform/node/book-files.ts') && toolMayImport('src/core/movegen.ts'));
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

test('src/dev.ts adds to the library only the platform pieces that the tools import', () => {
  const imported = new Set<string>();
  for (const file of files.keys()) {
    if (!/^(toolkit|commands|lab|scripts)\//.test(file)) continue;
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
  assert.ok(exported.includes('readEmbeddedBook') && imported.has('Position'), 'the check reads both sides');
  assert.deepEqual(
    exported.filter((n) => !imported.has(n)),
    [],
    'exported by src/dev.ts but imported by no tool (tests import modules directly)',
  );
  // Any other name a tool takes from the module that defines it.
  const sources = [...dev.matchAll(/^export\s[^;]*?from\s*'([^']+)'/gm)].map((m) => m[1]);
  assert.deepEqual(
    sources.filter((s) => s !== './index.js' && !s.startsWith('./platform/')),
    [],
    'src/dev.ts re-exports the library and the platform seam only',
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
  // The seam's Node modules (the browser build substitutes a twin for each; src/platform/twins.ts).
  const seam = new Set(Object.keys(BROWSER_TWINS).map((f) => `src/${f.replace(/\.js$/, '.ts')}`));
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
