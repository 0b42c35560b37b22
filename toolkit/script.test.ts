import assert from 'node:assert/strict';
import { test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { isMain } from './script.js';

test('isMain: the script Node was started with, not a module it imported', () => {
  assert.equal(isMain(new URL('./script.js', import.meta.url).href), false, 'script.js is imported, not run');
  assert.equal(isMain(pathToFileURL(process.argv[1]).href), true, 'the script node was started with');
  assert.equal(isMain('data:text/javascript,0'), false);
});
