import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Histories } from './history.js';

test("a new search decays main history to trunc(v * 768 / 1024) for every int16 value (Pikafish's formula)", () => {
  const h = new Histories();
  const m = h.main;
  assert.equal(m.length, 32768);
  // Two passes cover every int16 value: the negative ones, then the others.
  for (const base of [-32768, 0]) {
    for (let i = 0; i < m.length; i++) m[i] = base + i;
    h.newSearch();
    for (let i = 0; i < m.length; i++) {
      const v = base + i;
      const want = Math.trunc((v * 768) / 1024);
      if (m[i] !== want) assert.fail(`${v} decays to ${m[i]}, want ${want}`);
    }
  }
  assert.ok(h.lowPly.every((v) => v === 99));
});
