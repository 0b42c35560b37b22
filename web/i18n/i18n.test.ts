// The page's languages: every room's every key in all three languages with the
// same placeholders (the boot script's messages included), and the language
// picked from the player's choice or the browser's preferences.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { LANGUAGES } from './catalog.js';
import { fill, joinCatalogs, placeholders, translator } from './i18n.js';
import { chooseLanguage, pickLanguage } from './language.js';
import { ROOM_MESSAGES } from './rooms.js';

test('every key of every room is in all three languages, with the same placeholders', () => {
  for (const [room, messages] of Object.entries(ROOM_MESSAGES)) {
    const keys = Object.keys(messages['zh-Hans']).sort();
    assert.ok(keys.length > 0, room);
    for (const lang of LANGUAGES) {
      assert.deepEqual(Object.keys(messages[lang]).sort(), keys, `${room}: the keys of ${lang}`);
      for (const key of keys) {
        const text = messages[lang][key];
        assert.ok(text.trim() !== '', `${key} (${lang}) is empty`);
        assert.ok(key.startsWith(`${room}.`), `${key} is in room ${room}`);
        assert.deepEqual(
          placeholders(text),
          placeholders(messages['zh-Hans'][key]),
          `${key}: the placeholders of ${lang}`,
        );
      }
    }
  }
});

test('the Chinese catalogs are Chinese: a message that is not a name or a notation has Han characters', () => {
  // Kept Latin on purpose: names of rules, notations, files and programs, and the language names.
  const latin =
    /^(settings\.rule\.|settings\.notation\.|settings\.language\.en$|shell\.fatal$|shell\.notice$|game\.error\.detail$|play\.kirin$|editor\.fen$)/;
  for (const messages of Object.values(ROOM_MESSAGES))
    for (const lang of ['zh-Hans', 'zh-Hant'] as const)
      for (const [key, text] of Object.entries(messages[lang])) {
        // A message of placeholders and punctuation alone has no words to translate.
        if (latin.test(key) || !/\p{L}/u.test(text.replace(/\{\w+\}/g, ''))) continue;
        assert.match(text, /\p{Script=Han}/u, `${key} (${lang}): ${text}`);
      }
});

test('joined catalogs refuse a key outside its room and a key given twice', () => {
  const joined = joinCatalogs(ROOM_MESSAGES);
  assert.equal(translator(joined, 'zh-Hans')('game.result.red'), '红胜');
  assert.equal(translator(joined, 'zh-Hant')('game.result.red'), '紅勝');
  assert.equal(translator(joined, 'en')('review.progress', { done: 3, total: 9 }), 'Reviewing: 3 of 9 positions');
  assert.equal(translator(joined, 'en')('no.such.key'), 'no.such.key');
  const room = { 'zh-Hans': { 'a.x': '甲' }, 'zh-Hant': { 'a.x': '甲' }, en: { 'a.x': 'A' } };
  assert.throws(() => joinCatalogs({ b: room }), /key a\.x lacks the prefix b\./);
  assert.throws(() => joinCatalogs({ a: room, 'a.x': { 'zh-Hans': {}, 'zh-Hant': {}, en: { 'a.x': 'A' } } }));
  assert.equal(fill('{a} and {b} and {a}', { a: 1 }), '1 and {b} and 1');
});

test('the language: the first Chinese or English preference decides; none at all is Simplified Chinese', () => {
  assert.equal(pickLanguage(['zh-CN', 'en-US']), 'zh-Hans');
  assert.equal(pickLanguage(['zh-SG']), 'zh-Hans');
  assert.equal(pickLanguage(['zh-Hans-CN']), 'zh-Hans');
  assert.equal(pickLanguage(['zh']), 'zh-Hans');
  assert.equal(pickLanguage(['zh-TW']), 'zh-Hant');
  assert.equal(pickLanguage(['zh-HK', 'en']), 'zh-Hant');
  assert.equal(pickLanguage(['zh-MO']), 'zh-Hant');
  assert.equal(pickLanguage(['zh-Hant']), 'zh-Hant');
  assert.equal(pickLanguage(['zh-Hant-TW']), 'zh-Hant');
  assert.equal(pickLanguage(['en-US', 'zh-CN']), 'en');
  assert.equal(pickLanguage(['fr-FR', 'zh-TW']), 'zh-Hant');
  assert.equal(pickLanguage(['fr-FR', 'de']), 'en');
  assert.equal(pickLanguage([]), 'zh-Hans');
  assert.equal(pickLanguage(['zhx', 'en']), 'en', 'zhx is not Chinese');
});

test("the player's own choice of language wins over the browser's; a choice that is no language is not one", () => {
  assert.equal(chooseLanguage('en', ['zh-CN']), 'en');
  assert.equal(chooseLanguage('zh-Hant', ['en-US']), 'zh-Hant');
  assert.equal(chooseLanguage(null, ['zh-TW']), 'zh-Hant');
  assert.equal(chooseLanguage('fr', ['zh-CN']), 'zh-Hans');
});
