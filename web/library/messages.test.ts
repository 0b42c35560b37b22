// The library room's keys: every library.* key its code uses is in the catalog (web/i18n/i18n.test.ts
// checks that every key is in all three languages).

import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { test } from 'node:test';
import { LIBRARY_MESSAGES } from './messages.js';

test('every library.* key the room uses is in the catalog', () => {
  const dir = new URL('../../../web/library/', import.meta.url);
  const used = new Set<string>();
  for (const f of readdirSync(dir).filter((n) => n.endsWith('.ts') && !n.endsWith('.test.ts'))) {
    const source = readFileSync(new URL(f, dir), 'utf8');
    for (const m of source.matchAll(/'(library\.[\w.-]+)'/g)) used.add(m[1]);
  }
  // Keys built at run time: the sources, the orders and the error codes.
  for (const s of ['any', 'played', 'imported', 'analysis']) used.add(`library.source.${s}`);
  for (const s of ['updated', 'date', 'red', 'black', 'opening', 'plies']) used.add(`library.sort.${s}`);
  for (const c of ['library-game', 'library-record', 'library-missing', 'library-title'])
    used.add(`library.error.${c}`);
  assert.ok(used.size > 30, `${used.size} keys`);
  for (const key of used) assert.ok(key in LIBRARY_MESSAGES.en, `${key} is used but not in the catalog`);
});
