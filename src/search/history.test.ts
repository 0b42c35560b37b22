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
