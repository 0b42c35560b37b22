// The editor's keys: every editor.* key its code uses is in the catalog, every piece named
// (web/i18n/i18n.test.ts checks that every key is in all three languages).

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { keysUsedBy } from '../i18n/keys-used.js';
import { EDITOR_MESSAGES } from './messages.js';
import { PALETTE } from './model.js';

test('every editor.* key the room uses is in the catalog, every piece of the palette named', () => {
  const used = keysUsedBy('editor');
  for (const tl of ['move', 'erase']) used.add(`editor.tool.${tl}`);
  // Every piece of the palette by its name.
  for (const pc of PALETTE) used.add(`editor.piece.${pc >> 3 ? 'black' : 'red'}${pc & 7}`);
  assert.ok(used.size > 15, `${used.size} keys`);
  for (const key of used) assert.ok(key in EDITOR_MESSAGES.en, `${key} is used but not in the catalog`);
});
