// The engine's option table and the search options other code assumes as defaults.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DEFAULT_SEARCH_OPTIONS } from '../search/types.js';
import { Engine } from './engine.js';

test('DEFAULT_SEARCH_OPTIONS are the search options of a fresh engine, key for key and in the same order', async () => {
  const engine = new Engine();
  try {
    const fresh = engine.searchOptions();
    assert.deepEqual({ ...DEFAULT_SEARCH_OPTIONS }, fresh);
    // Same shape for optimised code: the warm-up searches with these before the first `go`.
    assert.deepEqual(Object.keys(DEFAULT_SEARCH_OPTIONS), Object.keys(fresh));
    // And a changed option shows (the comparison is against the live table, not a copy of it).
    assert.ok(engine.options.set('Move Overhead', '0').ok);
    assert.notDeepEqual({ ...DEFAULT_SEARCH_OPTIONS }, engine.searchOptions());
  } finally {
    await engine.close();
  }
});

test('Hash: a table resized after start-up is brought into memory before ready() settles, and searches', async () => {
  const engine = new Engine({ warmup: true });
  try {
    await engine.ready();
    assert.equal(engine.preparing(), 0);
    assert.ok(engine.options.set('Hash', '64').ok);
    assert.equal(engine.preparing(), 1, 'the new table is being touched');
    await engine.ready();
    assert.equal(engine.preparing(), 0);
    engine.setPosition(null, ['h2e2']);
    const r = await engine.go({ startTime: Date.now(), depth: 4 });
    assert.ok(r.bestMove !== 0);
  } finally {
    await engine.close();
  }
});
