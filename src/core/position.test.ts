// Make/unmake: random legal games check after every move that the incremental
// keys and counters equal a recomputation from scratch, and that unmaking restores
// every piece of state exactly (null moves too); clone/copyFrom keep everything.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { START_FEN } from './fen.js';
import { legalMoves } from './movegen.js';
import { KEY_FILTER_MASK, Position } from './position.js';
import {
  BLACK,
  CANNON,
  KING,
  KNIGHT,
  MOVE_NULL,
  PAWN,
  PIECE_VALUE,
  RED,
  moveTo,
  moveToUci,
  type Move,
} from './types.js';
import { PSQ_LO } from './zobrist.js';
import { mulberry32 } from './prng.js';
import { positionState, stateStack, uciMove } from '../../test/support/fixtures.js';

/** Pawn, minor, non-pawn keys and major material recomputed from the board. */
function auxFromScratch(pos: Position) {
  let pawn = 0,
    minor = 0,
    npR = 0,
    npB = 0;
  const major = [0, 0];
  for (let s = 0; s < 90; s++) {
    const pc = pos.board[s];
    if (!pc) continue;
    const t = pc & 7,
      c = pc >> 3,
      z = PSQ_LO[pc * 90 + s];
    if (t === PAWN) pawn ^= z;
    else {
      if (c === RED) npR ^= z;
      else npB ^= z;
      if (t === KNIGHT || t === CANNON) minor ^= z;
      if (t & 1 && t !== KING) major[c] += PIECE_VALUE[pc];
    }
  }
  return { pawn, minor, npR, npB, major };
}

/** Everything observable about the current state, as one string. */
function snapshot(pos: Position): string {
  const sp = pos.sp;
  const lists = [RED, BLACK].map((c) =>
    Array.from(pos.listSq.subarray(c * 16, c * 16 + pos.listCount[c])).sort((a, b) => a - b),
  );
  return JSON.stringify({
    fen: pos.fen(),
    side: pos.side,
    gamePly: pos.gamePly,
    sp,
    board: Array.from(pos.board),
    rankOcc: Array.from(pos.rankOcc),
    fileOcc: Array.from(pos.fileOcc),
    pieceCount: Array.from(pos.pieceCount),
    kingSq: Array.from(pos.kingSq),
    major: Array.from(pos.majorMaterial),
    lists,
    // the list index of every occupied square must point back at it
    listIndex: Array.from(pos.board, (p, s) => (p ? pos.listSq[(p >> 3) * 16 + pos.listIndex[s]] === s : true)),
    state: [
      pos.keyLo[sp],
      pos.keyHi[sp],
      pos.pawnKey[sp],
      pos.minorKey[sp],
      pos.nonPawnKeyRed[sp],
      pos.nonPawnKeyBlack[sp],
      pos.captured[sp],
      pos.moveAt[sp],
      pos.checked[sp],
      pos.rule60[sp],
      pos.check10Red[sp],
      pos.check10Black[sp],
      pos.pliesFromNull[sp],
    ],
  });
}

function checkKeyFilter(pos: Position, where: string): void {
  const expect = new Map<number, number>();
  for (let i = 0; i < pos.sp; i++) {
    const k = pos.keyLo[i] & KEY_FILTER_MASK;
    expect.set(k, (expect.get(k) ?? 0) + 1);
  }
  let total = 0;
  assert.equal(pos.keyFilter.length, 1 << 14, "the filter has Pikafish's 2^14 counters");
  for (let k = 0; k < 1 << 14; k++) {
    const v = pos.keyFilter[k];
    total += v;
    if (v !== (expect.get(k) ?? 0))
      assert.fail(`key filter entry ${k} is ${v}, expected ${expect.get(k) ?? 0} (${where})`);
  }
  assert.equal(total, pos.sp, where);
}

/** The rule-60 counter as Pikafish keeps it (checks beyond ten per side are not counted, nor the replies). */
interface Rule60 {
  r60: number;
  c10: [number, number];
}
function rule60After(prev: Rule60, us: number, capture: boolean, givesCheck: boolean, wasInCheck: boolean): Rule60 {
  if (capture) return { r60: 0, c10: [0, 0] };
  const c10: [number, number] = [prev.c10[0], prev.c10[1]];
  let r60 = prev.r60;
  if (!givesCheck || ++c10[us] <= 10) {
    if (c10[us ^ 1] > 10 && wasInCheck) ++c10[us ^ 1];
    else ++r60;
  }
  return { r60, c10 };
}

describe("Zobrist keys are Pikafish's", () => {
  it('the keys native Pikafish prints with `d` (start position, after moves, Black to move)', () => {
    const pos = new Position(START_FEN);
    assert.equal(pos.keyHex(), 'FDA3193C470C785C');
    pos.doMove(uciMove('h2e2'));
    pos.doMove(uciMove('h9g7'));
    assert.equal(pos.keyHex(), 'E469DB21A172EC81');
    assert.equal(new Position('3k5/4a4/4b4/9/2b6/9/9/4B4/4A4/3AK4 b - - 5 40').keyHex(), '981C837507469DB9');
  });
});

describe('make/unmake on random games', () => {
  it('keys, counters and consistency after every move; unmaking restores everything', () => {
    const rnd = mulberry32(7);
    let plies = 0,
      nulls = 0,
      captures = 0,
      checks = 0,
      maxCheck10 = 0;
    for (let g = 0; g < 300; g++) {
      const pos = new Position();
      const rootFen = pos.fen();
      const snaps: string[] = [snapshot(pos)];
      const played: Move[] = [];
      let r60: Rule60 = { r60: 0, c10: [0, 0] };
      const r60s: Rule60[] = [r60];
      // Some games prefer checking moves, so that the rule-60 check exemption is exercised.
      const checky = g % 3 === 0;
      for (let ply = 0; ply < 200; ply++) {
        const moves = legalMoves(pos);
        if (moves.length === 0) break;
        const where = `game ${g} ply ${ply} after ${played.map(moveToUci).join(' ')}`;
        // Probe another move first (make and unmake), so that the next stack slot holds stale data.
        const probe = moves[Math.floor(rnd() * moves.length)];
        pos.doMove(probe);
        pos.undoMove(probe);
        assert.equal(snapshot(pos), snaps[snaps.length - 1], `probe ${moveToUci(probe)} ${where}`);
        if (!pos.inCheck() && rnd() < 0.05) {
          const keyBefore = pos.keyLo[pos.sp];
          pos.doNullMove();
          nulls++;
          played.push(MOVE_NULL);
          assert.notEqual(pos.keyLo[pos.sp], keyBefore, where);
          assert.equal(pos.pliesFromNull[pos.sp], 0, where);
          assert.equal(pos.lastMove(), MOVE_NULL, where);
        } else {
          let m = moves[Math.floor(rnd() * moves.length)];
          if (checky) {
            const checking = moves.filter((x) => pos.givesCheck(x) && !pos.isCapture(x));
            if (checking.length && rnd() < 0.7) m = checking[Math.floor(rnd() * checking.length)];
          } else {
            const caps = moves.filter((x) => pos.isCapture(x));
            if (caps.length && rnd() < 0.3) m = caps[Math.floor(rnd() * caps.length)];
          }
          const victim = pos.board[moveTo(m)];
          const expectKey = pos.keyAfter(m);
          const gives = pos.givesCheck(m);
          const wasInCheck = pos.inCheck();
          const us = pos.side;
          const pfn = pos.pliesFromNull[pos.sp];
          pos.doMove(m);
          played.push(m);
          if (victim) captures++;
          if (gives) checks++;
          assert.equal(pos.keyLo[pos.sp], expectKey, `keyAfter ${where}`);
          assert.equal(pos.capturedPiece(), victim, where);
          assert.equal(pos.lastMove(), m, where);
          assert.equal(pos.inCheck(), gives, where);
          assert.equal(pos.pliesFromNull[pos.sp], pfn + 1, where);
          r60 = rule60After(r60, us, victim !== 0, gives, wasInCheck);
          maxCheck10 = Math.max(maxCheck10, r60.c10[0], r60.c10[1]);
        }
        r60s.push(r60);
        plies++;
        const [lo, hi] = pos.computeKey();
        assert.equal(pos.keyLo[pos.sp], lo, `key lo ${where}`);
        assert.equal(pos.keyHi[pos.sp], hi, `key hi ${where}`);
        assert.equal(pos.validate(), null, where);
        const aux = auxFromScratch(pos);
        assert.equal(pos.pawnKey[pos.sp], aux.pawn, `pawn key ${where}`);
        assert.equal(pos.minorKey[pos.sp], aux.minor, `minor key ${where}`);
        assert.equal(pos.nonPawnKeyRed[pos.sp], aux.npR, `red non-pawn key ${where}`);
        assert.equal(pos.nonPawnKeyBlack[pos.sp], aux.npB, `black non-pawn key ${where}`);
        assert.deepEqual(Array.from(pos.majorMaterial), aux.major, `major material ${where}`);
        assert.equal(pos.rule60Count(), r60.r60, `rule60 ${where}`);
        assert.deepEqual([pos.check10Red[pos.sp], pos.check10Black[pos.sp]], r60.c10, `check10 ${where}`);
        assert.equal(pos.gamePly, played.length, where);
        assert.equal(pos.sp, played.length, where);
        snaps.push(snapshot(pos));
        // A copy made from a FEN of this position has the same key and flags.
        if (ply % 17 === 5) {
          const fresh = new Position(pos.fen());
          assert.equal(fresh.keyHex(), pos.keyHex(), where);
          assert.equal(fresh.inCheck(), pos.inCheck(), where);
        }
      }
      checkKeyFilter(pos, `game ${g} deepest`);
      // Unmake everything, checking every state on the way back.
      for (let i = played.length - 1; i >= 0; i--) {
        const m = played[i];
        if (m === MOVE_NULL) pos.undoNullMove();
        else pos.undoMove(m);
        const s = snapshot(pos);
        if (s !== snaps[i]) assert.deepEqual(JSON.parse(s), JSON.parse(snaps[i]), `game ${g} undo to ply ${i}`);
        assert.equal(pos.rule60Count(), r60s[i].r60);
      }
      assert.equal(pos.fen(), rootFen);
      assert.equal(pos.validate(), null);
      checkKeyFilter(pos, `game ${g} root`);
    }
    // The sample really exercised what it claims to.
    assert.ok(plies > 30000, `${plies} plies`);
    assert.ok(nulls > 500, `${nulls} null moves`);
    assert.ok(captures > 3000, `${captures} captures`);
    assert.ok(checks > 2000, `${checks} checks`);
    assert.ok(maxCheck10 > 12, `the check exemption was never reached (max check count ${maxCheck10})`);
  });

  it('clone() and copyFrom() keep the board, the whole history and all counters', () => {
    const rnd = mulberry32(99);
    const target = new Position('3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1');
    for (let g = 0; g < 30; g++) {
      const pos = new Position();
      const n = 20 + Math.floor(rnd() * 120);
      for (let i = 0; i < n; i++) {
        const moves = legalMoves(pos);
        if (!moves.length) break;
        pos.doMove(moves[Math.floor(rnd() * moves.length)]);
      }
      const copies = [pos.clone(), target];
      target.copyFrom(pos);
      for (const c of copies) {
        assert.equal(snapshot(c), snapshot(pos));
        assert.equal(stateStack(c), stateStack(pos));
        assert.deepEqual(c.keyFilter, pos.keyFilter);
        assert.equal(c.validate(), null);
      }
      // The copies are independent and behave identically afterwards.
      const clone = copies[0];
      let moved = 0;
      for (let i = 0; i < 10; i++) {
        const moves = legalMoves(pos);
        assert.deepEqual(legalMoves(clone), moves);
        if (!moves.length) break;
        const m = moves[Math.floor(rnd() * moves.length)];
        pos.doMove(m);
        clone.doMove(m);
        moved++;
        assert.equal(snapshot(clone), snapshot(pos));
      }
      if (moved) assert.notEqual(snapshot(target), snapshot(pos));
      while (clone.sp > 0) clone.undoMove(clone.lastMove());
      assert.equal(clone.fen(), START_FEN);
    }
  });

  it('undoLast() takes back the last move or null move, redoLast() rebuilds exactly the same state', () => {
    const rnd = mulberry32(11);
    let nulls = 0,
      captures = 0,
      checks = 0;
    for (let g = 0; g < 40; g++) {
      const pos = new Position();
      // Before each move: what snapshot() sees and the state stack (an undo leaves stale
      // list indices on emptied squares, so positionState() is for the redo only).
      const before: string[] = [snapshot(pos) + stateStack(pos)];
      for (let ply = 0; ply < 120; ply++) {
        const moves = legalMoves(pos);
        if (moves.length === 0) break;
        if (!pos.inCheck() && rnd() < 0.1) {
          pos.doNullMove();
          nulls++;
        } else {
          const caps = moves.filter((x) => pos.isCapture(x));
          const m =
            caps.length && rnd() < 0.4
              ? caps[Math.floor(rnd() * caps.length)]
              : moves[Math.floor(rnd() * moves.length)];
          if (pos.isCapture(m)) captures++;
          pos.doMove(m);
          if (pos.inCheck()) checks++;
        }
        const state = positionState(pos),
          last = pos.lastMove();
        const m = pos.undoLast();
        assert.equal(m, last, `game ${g} ply ${ply}`);
        assert.equal(snapshot(pos) + stateStack(pos), before[before.length - 1], `undo, game ${g} ply ${ply}`);
        pos.redoLast(m);
        assert.equal(positionState(pos), state, `redo, game ${g} ply ${ply}`);
        before.push(snapshot(pos) + stateStack(pos));
      }
    }
    assert.ok(
      nulls > 50 && captures > 100 && checks > 20,
      `coverage: ${nulls} null moves, ${captures} captures, ${checks} checks`,
    );
  });

  it('the state stack grows past its initial capacity and copies keep it', () => {
    const pos = new Position();
    const start = snapshot(pos);
    // 3000 null moves in a row (legal: nobody is ever in check) and a few real moves.
    for (let i = 0; i < 3000; i++) pos.doNullMove();
    pos.doMove(legalMoves(pos)[0]);
    assert.equal(pos.sp, 3001);
    assert.equal(pos.validate(), null);
    const copy = new Position();
    copy.copyFrom(pos);
    assert.equal(stateStack(copy), stateStack(pos));
    assert.equal(snapshot(copy), snapshot(pos));
    pos.undoMove(pos.lastMove());
    for (let i = 0; i < 3000; i++) pos.undoNullMove();
    assert.equal(snapshot(pos), start);
    checkKeyFilter(pos, 'after growth');
    pos.reserve(5000);
    assert.equal(snapshot(pos), start);
  });

  it('fen() counts full moves and keeps the rule-60 counter', () => {
    const pos = new Position('rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 7 12');
    assert.equal(pos.gamePly, 23);
    const m = legalMoves(pos).find((x) => !pos.isCapture(x))!;
    pos.doMove(m);
    assert.equal(pos.fen(), `${pos.fen().split(' ')[0]} w - - 8 13`);
    pos.undoMove(m);
    assert.equal(pos.fen(), 'rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 7 12');
  });

  it('a capture resets the rule-60 counter; a check beyond ten is not counted', () => {
    // Red rook checks the black king back and forth; black answers by moving the king.
    const pos = new Position('3k5/9/9/9/9/9/9/9/4A4/R3K4 w - - 50 1');
    const seq = [
      'a0a9',
      'd9d8',
      'a9a8',
      'd8d7',
      'a8a7',
      'd7d8',
      'a7a8',
      'd8d9',
      'a8a9',
      'd9d8',
      'a9a8',
      'd8d7',
      'a8a7',
      'd7d8',
      'a7a8',
      'd8d9',
      'a8a9',
      'd9d8',
      'a9a8',
      'd8d7',
      'a8a7',
      'd7d8',
      'a7a8',
      'd8d9',
      'a8a9',
    ];
    let r60 = pos.rule60Count();
    let c10: [number, number] = [0, 0];
    for (const u of seq) {
      const m = uciMove(u);
      assert.ok(legalMoves(pos).includes(m), `${u} legal`);
      const gives = pos.givesCheck(m),
        wasInCheck = pos.inCheck(),
        us = pos.side;
      pos.doMove(m);
      const next = rule60After({ r60, c10 }, us, false, gives, wasInCheck);
      r60 = next.r60;
      c10 = next.c10;
      assert.equal(pos.rule60Count(), r60, u);
    }
    // Red gave 13 checks in a row: checks 11-13 and black's replies to 11 and 12 were
    // not counted; each uncounted reply bumps red's check count instead (11 +1 +1 +1 +1 = 15).
    assert.equal(pos.check10Red[pos.sp], 15);
    assert.equal(pos.rule60Count(), 50 + seq.length - 5);
  });
});

describe('undoMove restores the piece lists exactly', () => {
  it('keeps the order of both piece lists (so move generation order is history-independent)', () => {
    const pos = new Position();
    const rnd = mulberry32(0x9e3779b9);
    for (let game = 0; game < 40; game++) {
      pos.setFen('rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1');
      for (let ply = 0; ply < 150; ply++) {
        const moves = legalMoves(pos);
        if (!moves.length) break;
        const before = Array.from(pos.listSq);
        const counts = Array.from(pos.listCount);
        // Try every capture once and check the lists come back identical.
        for (const m of moves) {
          if (!pos.isCapture(m)) continue;
          pos.doMove(m);
          pos.undoMove(m);
          assert.deepEqual(Array.from(pos.listCount), counts);
          for (const c of [0, 1]) {
            assert.deepEqual(
              Array.from(pos.listSq.subarray(c * 16, c * 16 + counts[c])),
              before.slice(c * 16, c * 16 + counts[c]),
            );
          }
        }
        pos.doMove(moves[Math.floor(rnd() * moves.length)]);
      }
    }
  });
});
