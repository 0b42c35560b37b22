import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Histories, PIECE_TO } from './history.js';

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

test('prefaultSome goes over the three large tables in slices and changes no entry', () => {
  const h = new Histories();
  h.updateCont(12345, 500);
  h.updatePawn(PIECE_TO * 77 + 3, -300);
  const cont = h.cont[12345];
  const pawn = h.pawn[PIECE_TO * 77 + 3];
  assert.notEqual(cont, 0);
  let slices = 1;
  while (!h.prefaultSome(1000)) slices++;
  const pages = Math.ceil((h.cont.length + h.contCorr.length + h.pawn.length) / 2 / 1024);
  assert.ok(slices >= Math.floor(pages / 1000) && slices <= Math.ceil(pages / 1000) + 3, `${slices} slices`);
  assert.equal(h.cont[12345], cont);
  assert.equal(h.pawn[PIECE_TO * 77 + 3], pawn);
  assert.ok(h.prefaultSome(1), 'done stays done');
});

test('newSearch decays only the main-history blocks that hold values, with the same result as decaying every entry', () => {
  const h = new Histories();
  const model = new Int16Array(h.main.length).fill(-5);
  const decayAll = () => {
    for (let i = 0; i < model.length; i++) model[i] = Math.trunc((model[i] * 768) / 1024);
  };
  let seed = 12345;
  const rnd = (n: number) => {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    return seed % n;
  };
  for (let search = 0; search < 40; search++) {
    h.newSearch();
    decayAll();
    // A few updates per search, in a few blocks (the side and a handful of from-squares).
    for (let k = 0; k < 30; k++) {
      const index = (rnd(2) << 14) | (rnd(6) << 7) | rnd(90);
      const bonus = rnd(4000) - 2000;
      h.updateMain(index, bonus);
      const v = model[index];
      const clamped = Math.max(-7183, Math.min(7183, bonus));
      model[index] = v + clamped - Math.trunc((v * Math.abs(clamped)) / 7183);
    }
    if (search % 5 === 4) assert.deepEqual(h.main, model, `after search ${search}`);
  }
  // A block that has decayed to zeros is not visited: a value written behind
  // updateMain's back stays; updateMain marks the block again.
  for (let i = 0; i < 40; i++) h.newSearch();
  assert.ok(h.main.every((v) => v === 0));
  h.main[(1 << 14) | (80 << 7) | 3] = 400;
  h.newSearch();
  assert.equal(h.main[(1 << 14) | (80 << 7) | 3], 400);
  h.updateMain((1 << 14) | (80 << 7) | 4, 0);
  h.newSearch();
  assert.equal(h.main[(1 << 14) | (80 << 7) | 3], 300);
});
