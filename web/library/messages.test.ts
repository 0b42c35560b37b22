// The library room's keys: every library.* key its code uses is in the catalog (web/i18n/i18n.test.ts
// checks that every key is in all three languages).

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { keysUsedBy } from '../i18n/keys-used.js';
import { LIBRARY_MESSAGES } from './messages.js';

test('every library.* key the room uses is in the catalog', () => {
  const used = keysUsedBy('library');
  // Keys built at run time: the sources, the orders and the error codes.
  for (const s of ['any', 'played', 'imported', 'analysis']) used.add(`library.source.${s}`);
  for (const s of ['updated', 'date', 'red', 'black', 'opening', 'plies']) used.add(`library.sort.${s}`);
  for (const c of ['library-game', 'library-record', 'library-missing', 'library-title'])
    used.add(`library.error.${c}`);
  assert.ok(used.size > 30, `${used.size} keys`);
  for (const key of used) assert.ok(key in LIBRARY_MESSAGES.en, `${key} is used but not in the catalog`);
});
