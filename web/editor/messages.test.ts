import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { test } from 'node:test';
import { LANGUAGES } from '../i18n/catalog.js';
import { EDITOR_MESSAGES } from './messages.js';
import { PALETTE } from './model.js';

const placeholders = (text: string): string[] => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

test('the editor messages: the same keys and placeholders in all three languages, every piece named', () => {
  const keys = Object.keys(EDITOR_MESSAGES['zh-Hans']).sort();
  for (const lang of LANGUAGES) {
    assert.deepEqual(Object.keys(EDITOR_MESSAGES[lang]).sort(), keys, lang);
    for (const key of keys) {
      assert.ok(key.startsWith('editor.'), key);
      assert.ok(EDITOR_MESSAGES[lang][key].trim() !== '', `${lang} ${key}`);
      assert.deepEqual(
        placeholders(EDITOR_MESSAGES[lang][key]),
        placeholders(EDITOR_MESSAGES.en[key]),
        `${lang} ${key}`,
      );
    }
    for (const pc of PALETTE) assert.ok(`editor.piece.${pc >> 3 ? 'black' : 'red'}${pc & 7}` in EDITOR_MESSAGES[lang]);
  }
  assert.equal(EDITOR_MESSAGES['zh-Hans']['editor.piece.black7'], '黑将');
  assert.equal(EDITOR_MESSAGES['zh-Hant']['editor.piece.red7'], '紅帥');
});

test('every editor.* key the room uses is in the catalog', () => {
  const dir = new URL('../../../web/editor/', import.meta.url);
  const used = new Set<string>();
  for (const f of readdirSync(dir).filter((n) => n.endsWith('.ts') && !n.endsWith('.test.ts'))) {
    const source = readFileSync(new URL(f, dir), 'utf8');
    for (const m of source.matchAll(/'(editor\.[\w.-]+)'/g)) used.add(m[1]);
  }
  for (const tl of ['move', 'erase']) used.add(`editor.tool.${tl}`);
  assert.ok(used.size > 15, `${used.size} keys`);
  for (const key of used) assert.ok(key in EDITOR_MESSAGES.en, `${key} is used but not in the catalog`);
});
