import assert from 'node:assert/strict';
import { test } from 'node:test';
import { legalMoves } from '../core/movegen.js';
import type { Position } from '../core/position.js';
import { MOVE_NONE, PIECE_VALUE, moveToUci, type Move } from '../core/types.js';
import { Histories } from './history.js';
import { MovePicker } from './movepick.js';
import { mulberry32 } from '../core/prng.js';
import { randomCheckPositions, randomPositions } from '../../test/support/fixtures.js';

const STACK = new Int32Array(16);

function drain(mp: MovePicker, pos: Position, skipAfter = -1): Move[] {
  const out: Move[] = [];
  let m: Move;
  let n = 0;
  while ((m = mp.nextMove()) !== MOVE_NONE) {
    out.push(m);
    if (++n === skipAfter) mp.skipQuietMoves();
    assert.ok(pos.pseudoLegal(m), `picker returned a non-pseudo-legal move ${moveToUci(m)} in ${pos.fen()}`);
  }
  return out;
}

const shared = new Histories();

/** Fills the histories that the picker reads with random values (one table set reused: they are large). */
function randomHistories(seed: number): Histories {
  const h = shared;
  const rnd = mulberry32(seed);
  for (const t of [h.main, h.capture, h.lowPly])
    for (let i = 0; i < t.length; i++) t[i] = Math.floor((rnd() - 0.5) * 14000);
  // Continuation tables: only the sentinel region is used with a zero stack.
  for (let i = 0; i < 1440; i++) h.cont[i] = Math.floor((rnd() - 0.5) * 20000);
  return h;
}

function assertSameSet(got: Move[], want: Move[], what: string, pos: Position): void {
  const seen = new Set<Move>();
  for (const m of got) {
    assert.ok(!seen.has(m), `${what}: ${moveToUci(m)} yielded twice in ${pos.fen()}`);
    seen.add(m);
  }
  const w = new Set(want);
  for (const m of w) assert.ok(seen.has(m), `${what}: missing ${moveToUci(m)} in ${pos.fen()}`);
  for (const m of seen) assert.ok(w.has(m), `${what}: unexpected ${moveToUci(m)} in ${pos.fen()}`);
}

const positions = [...randomPositions(60, 12345), ...randomCheckPositions(25, 777)];

test('main/evasion picker yields every legal move exactly once, with and without a TT move', () => {
  const rnd = mulberry32(99);
  let inCheck = 0;
  for (const [k, pos] of positions.entries()) {
    const h = randomHistories(k);
    const legal = legalMoves(pos);
    if (pos.inCheck()) inCheck++;
    const candidates: Move[] = [MOVE_NONE, legal[Math.floor(rnd() * legal.length)], (3 << 7) | 77 /* junk */];
    for (const tt of candidates) {
      for (const depth of [1, 7]) {
        const mp = new MovePicker();
        mp.init(pos, h, tt, depth, k % 6, STACK, 8);
        const got = drain(mp, pos).filter((m) => pos.legal(m));
        assertSameSet(got, legal, `main depth ${depth} tt ${moveToUci(tt)}`, pos);
        if (tt !== MOVE_NONE && legal.includes(tt))
          assert.equal(drain(reinit(mp, pos, h, tt, depth), pos)[0], tt, 'TT move first');
      }
    }
  }
  assert.ok(inCheck > 3, `too few positions in check (${inCheck}) to test evasions`);
});

function reinit(mp: MovePicker, pos: Position, h: Histories, tt: Move, depth: number): MovePicker {
  mp.init(pos, h, tt, depth, 0, STACK, 8);
  return mp;
}

test('qsearch picker yields the TT move and exactly the legal captures (all legal moves in check)', () => {
  for (const [k, pos] of positions.entries()) {
    const h = randomHistories(k + 1000);
    const legal = legalMoves(pos);
    const caps = legal.filter((m) => pos.isCapture(m));
    const quiet = legal.find((m) => !pos.isCapture(m)) ?? MOVE_NONE;
    for (const tt of [MOVE_NONE, quiet]) {
      const mp = new MovePicker();
      mp.init(pos, h, tt, 0, 0, STACK, 8);
      const got = drain(mp, pos).filter((m) => pos.legal(m));
      const want = pos.inCheck() ? legal : tt !== MOVE_NONE ? [tt, ...caps] : caps;
      assertSameSet(got, want, `qsearch tt ${moveToUci(tt)}`, pos);
    }
  }
});

test('probcut picker yields exactly the captures passing the SEE threshold', () => {
  let nonEmpty = 0;
  for (const [k, pos] of positions.entries()) {
    if (pos.inCheck()) continue;
    const h = randomHistories(k + 2000);
    const legal = legalMoves(pos);
    for (const threshold of [-300, 0, 150, 700]) {
      const mp = new MovePicker();
      mp.initProbCut(pos, h, MOVE_NONE, threshold);
      const got = drain(mp, pos).filter((m) => pos.legal(m));
      const want = legal.filter((m) => pos.isCapture(m) && pos.seeGe(m, threshold));
      if (want.length) nonEmpty++;
      assertSameSet(got, want, `probcut ${threshold}`, pos);
    }
  }
  assert.ok(nonEmpty > 20);
});

test('skipping quiets keeps all captures and drops the remaining quiets', () => {
  for (const [k, pos] of positions.entries()) {
    if (pos.inCheck()) continue;
    const h = randomHistories(k + 3000);
    const legal = legalMoves(pos);
    const mp = new MovePicker();
    mp.init(pos, h, MOVE_NONE, 3, 2, STACK, 8);
    mp.skipQuietMoves();
    const got = drain(mp, pos).filter((m) => pos.legal(m));
    assertSameSet(
      got,
      legal.filter((m) => pos.isCapture(m)),
      'skip quiets',
      pos,
    );
    // Skipping in the middle: no quiet after the skip point except those already handed out.
    mp.init(pos, h, MOVE_NONE, 3, 2, STACK, 8);
    const seq = drain(mp, pos, 3);
    const afterSkip = seq.slice(3).filter((m) => !pos.isCapture(m));
    assert.deepEqual(afterSkip.map(moveToUci), [], 'no quiet after skipQuietMoves');
  }
});

test('good captures come out ordered by score and before quiets', () => {
  for (const [k, pos] of positions.entries()) {
    if (pos.inCheck()) continue;
    const h = shared;
    h.clear();
    const mp = new MovePicker();
    mp.init(pos, h, MOVE_NONE, 5, 3, STACK, 8);
    const seq = drain(mp, pos);
    const firstQuiet = seq.findIndex((m) => !pos.isCapture(m));
    const lead = firstQuiet < 0 ? seq : seq.slice(0, firstQuiet);
    // Every capture before the first quiet passed its SEE test.
    for (const m of lead) assert.ok(pos.isCapture(m));
    // With neutral histories the good captures are ordered by victim value.
    for (let i = 1; i < lead.length; i++) {
      assert.ok(
        PIECE_VALUE[pos.board[lead[i - 1] & 127]] >= PIECE_VALUE[pos.board[lead[i] & 127]],
        `order in ${pos.fen()}`,
      );
      assert.ok(pos.seeGe(lead[i], 0 - (((7 * PIECE_VALUE[pos.board[lead[i] & 127]] - 607) / 18) | 0)));
    }
    void k;
  }
});
