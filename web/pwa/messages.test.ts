import assert from 'node:assert/strict';
import { test } from 'node:test';
import { LANGUAGES } from '../i18n/catalog.js';
import type { IsolationProblem } from './isolation.js';
import { isolationMessage, PWA_MESSAGES } from './messages.js';

const PROBLEMS: readonly IsolationProblem[] = [
  'file',
  'insecure',
  'no-service-worker',
  'register-failed',
  'install-failed',
  'no-effect',
  'no-storage',
];

test('every problem is said in all three languages, and nothing else is', () => {
  const keys = PROBLEMS.map((p) => `pwa.${p}`).sort();
  for (const lang of LANGUAGES) {
    assert.deepEqual(Object.keys(PWA_MESSAGES[lang]).sort(), keys, lang);
    for (const p of PROBLEMS) assert.ok(isolationMessage(p, lang).length > 20, `${lang} ${p}`);
  }
  assert.match(isolationMessage('no-service-worker', 'zh-Hans'), /Service Worker/);
  assert.match(isolationMessage('no-service-worker', 'zh-Hant'), /跨來源隔離/);
  assert.match(isolationMessage('file', 'en'), /file:\/\//);
});

test('isolationMessage fills in the error', () => {
  for (const lang of LANGUAGES) {
    const m = isolationMessage('register-failed', lang, 'SecurityError: denied');
    assert.match(m, /SecurityError: denied/, lang);
    assert.doesNotMatch(m, /\{error\}/, lang);
  }
});
