import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isShared, PAGE_WORDS, touchInSlices, touchPages } from './pages.js';

for (const shared of [false, true]) {
  test(`touchPages steps one word per page, stops after the pages asked for and changes no word (${shared ? 'shared' : 'private'} memory)`, () => {
    const bytes = 10 * PAGE_WORDS * 4 + 12;
    const words = new Int32Array(shared ? new SharedArrayBuffer(bytes) : new ArrayBuffer(bytes));
    assert.equal(isShared(words), shared);
    for (let i = 0; i < words.length; i += 7) words[i] = i * 31 - 5000;
    const before = words.slice();
    assert.equal(touchPages(words, 0, 3), 3 * PAGE_WORDS);
    assert.equal(touchPages(words, 3 * PAGE_WORDS, 0), 3 * PAGE_WORDS, 'no page asked: no step');
    // The table has 10 pages and 3 words: the 11th page starts at word 10240 and is the last.
    assert.equal(touchPages(words, 3 * PAGE_WORDS, 100), 11 * PAGE_WORDS);
    assert.deepEqual(words, before);
  });
}

test('touchInSlices touches every page of every buffer, a few pages per turn of the event loop, and changes no word', async () => {
  const sizes = [5 * PAGE_WORDS * 4, 2 * PAGE_WORDS * 4 + 8, PAGE_WORDS * 4];
  const buffers = sizes.map((n) => new SharedArrayBuffer(n));
  for (const b of buffers) {
    const w = new Int32Array(b);
    for (let i = 0; i < w.length; i += 5) w[i] = i * 17 - 900;
  }
  const before = buffers.map((b) => new Int32Array(b).slice());
  let turns = 0;
  const ticker = setInterval(() => turns++, 0);
  const pages = await touchInSlices(buffers, 2);
  clearInterval(ticker);
  assert.equal(pages, 5 + 3 + 1);
  assert.ok(turns >= 1, 'the event loop ran between slices');
  buffers.forEach((b, i) => assert.deepEqual(new Int32Array(b), before[i]));
  assert.equal(await touchInSlices([]), 0);
  // Unshared memory too (where the runtime has no SharedArrayBuffer): pages touched, words kept.
  const plain = new ArrayBuffer(2 * PAGE_WORDS * 4);
  new Int32Array(plain)[0] = 5;
  new Int32Array(plain)[PAGE_WORDS] = -7;
  assert.equal(await touchInSlices([plain]), 2);
  assert.deepEqual(Array.from(new Int32Array(plain).filter((v) => v !== 0)), [5, -7]);
});
