// The shape of the source tree, checked on every test run: no import cycles
// between files or between folders, and the layers point one way
// (docs/ARCHITECTURE.md): core <- eval <- search <- engine <- protocol <- the
// entry points (index.ts, main.ts); the product (src/) never imports the
// development tools (tools/) or the test support (test/). Tests (*.test.ts)
// may import anything and are left out of the graph.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { importGraph, findCycles, folderGraph } from './support/imports.js';
import { repoRoot } from './support/fixtures.js';

const root = repoRoot();
const files = importGraph(root, ['src', 'tools', 'test']);

/** Rank of each product folder: a file may import only from its own rank or below. */
const LAYERS: Record<string, number> = {
  'src/core': 0,
  'src/eval': 1,
  'src/eval/nnue': 1,
  'src/search': 2,
  'src/engine': 3,
  'src/protocol': 4,
  src: 5,
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
