// The play room's keys: every play.* key its code uses is in the catalog (web/i18n/i18n.test.ts checks
// that every key is in all three languages).

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { keysUsedBy } from '../i18n/keys-used.js';
import { PLAY_MESSAGES } from './messages.js';

test('every play.* key the room uses is in the catalog', () => {
  const used = keysUsedBy('play');
  assert.ok(used.size > 30, `${used.size} keys found`);
  // Keys built at run time: play.error.<time control error code>, play.reason.<end reason> (end.test.ts covers those).
  for (const code of ['tc-syntax', 'tc-range']) used.add(`play.error.${code}`);
  for (const key of used) assert.ok(key in PLAY_MESSAGES['zh-Hans'], `${key} is used but not in the catalog`);
});
