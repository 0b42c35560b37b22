import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { test } from 'node:test';
import { LANGUAGES } from '../i18n/catalog.js';
import { LIBRARY_MESSAGES } from './messages.js';

const placeholders = (text: string): string[] => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

test('the library messages: the same keys and placeholders in all three languages, none empty', () => {
  const keys = Object.keys(LIBRARY_MESSAGES['zh-Hans']).sort();
  for (const lang of LANGUAGES) {
    assert.deepEqual(Object.keys(LIBRARY_MESSAGES[lang]).sort(), keys, lang);
    for (const key of keys) {
      assert.ok(key.startsWith('library.'), key);
      assert.ok(LIBRARY_MESSAGES[lang][key].trim() !== '', `${lang} ${key}`);
      assert.deepEqual(
        placeholders(LIBRARY_MESSAGES[lang][key]),
        placeholders(LIBRARY_MESSAGES.en[key]),
        `${lang} ${key}`,
      );
    }
  }
  for (const key of ['library.title', 'library.export', 'library.import', 'library.delete'])
    assert.match(LIBRARY_MESSAGES['zh-Hant'][key], /[\u4e00-\u9fff]/, key);
});

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
