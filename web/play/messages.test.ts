import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { test } from 'node:test';
import { LANGUAGES } from '../i18n/catalog.js';
import { PLAY_MESSAGES } from './messages.js';

const placeholders = (text: string): string[] => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

test('the play messages: the same keys and placeholders in all three languages, none empty', () => {
  const keys = Object.keys(PLAY_MESSAGES['zh-Hans']).sort();
  assert.ok(keys.length > 50);
  for (const lang of LANGUAGES) {
    assert.deepEqual(Object.keys(PLAY_MESSAGES[lang]).sort(), keys, lang);
    for (const key of keys) {
      assert.ok(key.startsWith('play.'), key);
      assert.ok(PLAY_MESSAGES[lang][key].trim() !== '', `${lang} ${key}`);
      assert.deepEqual(placeholders(PLAY_MESSAGES[lang][key]), placeholders(PLAY_MESSAGES.en[key]), `${lang} ${key}`);
    }
  }
  // Chinese first: the Chinese texts are Chinese (not English left in place).
  for (const key of ['play.resign', 'play.offerDraw', 'play.takeback', 'play.result.redWins', 'play.reason.flag'])
    assert.match(PLAY_MESSAGES['zh-Hans'][key], /[\u4e00-\u9fff]/, key);
});

test('every play.* key the room uses is in the catalog', () => {
  const dir = new URL('../../../web/play/', import.meta.url);
  const used = new Set<string>();
  for (const f of readdirSync(dir).filter((n) => n.endsWith('.ts') && !n.endsWith('.test.ts'))) {
    const source = readFileSync(new URL(f, dir), 'utf8');
    for (const m of source.matchAll(/'(play\.[\w.-]+)'/g)) used.add(m[1]);
  }
  assert.ok(used.size > 30, `${used.size} keys found`);
  // Keys built at run time: play.error.<time control error code>, play.reason.<end reason> (end.test.ts covers those).
  for (const code of ['tc-syntax', 'tc-range']) used.add(`play.error.${code}`);
  for (const key of used) assert.ok(key in PLAY_MESSAGES['zh-Hans'], `${key} is used but not in the catalog`);
});
