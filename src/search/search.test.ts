import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Worker } from 'node:worker_threads';
import { START_FEN } from '../core/fen.js';
import { legalMoves } from '../core/movegen.js';
import { Position } from '../core/position.js';
import { DEFAULT_RULES } from '../core/rules.js';
import { MOVE_NONE, VALUE_MATE, mateIn, moveToUci, type Move } from '../core/types.js';
import { BENCH_FENS } from '../protocol/benchpositions.js';
import { Histories, PIECE_TO } from './history.js';
import { Searcher, quietFutilityMargin, razoringMargin, reverseFutilityMargin } from './search.js';
import type { SearchLimits } from './types.js';
import { Prng } from '../core/prng.js';
import { Skill } from './skill.js';
import {
  defaultOptions,
  forcesMate,
  mirrorFen,
  moveForcesMate,
  randomPositions,
  recordingIO,
} from '../../test/support/fixtures.js';

// One searcher for most tests (its tables are large); clear() between uses.
const searcher = new Searcher(4);

const MIDDLEGAMES = [
  'r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1',
  '2bak4/9/3a5/p2Np3p/3n1P3/3pc3P/P4r1c1/B2CC2R1/4A4/3AK1B2 b - - 0 1',
  '1r1akabr1/1c7/2n1b1n2/p1p1p3p/6p2/PN3R3/1cP1P1P1P/2C1C1N2/1R7/2BAKAB2 b - - 0 1',
];

function isLegal(pos: Position, m: Move): boolean {
  return legalMoves(pos).includes(m);
}

// Positions with a forced win (the opponent left without a legal move) in exactly N moves,
// found with an exhaustive solver; the mirrored copies test the black side.
const MATES: Array<[string, number]> = [
  ['3rkr3/R8/9/3N5/9/9/9/9/4A4/4K4 w - - 0 1', 1],
  ['3a5/3k5/3a5/9/9/9/7C1/3K5/3R5/9 w - - 0 1', 2],
  ['3a1a3/9/5k3/9/5C3/9/9/9/4K2R1/9 w - - 0 1', 2],
  ['3k5/4a3C/3a5/9/9/9/5R3/4K4/9/9 w - - 0 1', 3],
  ['5k3/4R4/3a1a3/9/9/2C6/9/5K3/9/9 w - - 0 1', 3],
];

test('finds forced mates in 1, 2 and 3 moves for either side', () => {
  for (const [fen0, n] of MATES) {
    for (const fen of [fen0, mirrorFen(fen0)]) {
      const pos = new Position(fen);
      // The solver confirms the premise: a mate in n, none shorter.
      if (n > 1) assert.equal(forcesMate(pos, n - 1), false, `${fen} has a shorter mate`);
      searcher.clear();
      const io = recordingIO();
      const r = searcher.search(pos, { mate: n, depth: 30, startTime: performance.now() }, defaultOptions(), io);
      assert.equal(r.score, mateIn(2 * n - 1), `${fen}: score ${r.score}, want mate in ${n}`);
      assert.ok(moveForcesMate(pos, r.bestMove, n), `${fen}: ${moveToUci(r.bestMove)} does not mate in ${n}`);
      const last = io.infos[io.infos.length - 1];
      assert.equal(last.score, mateIn(2 * n - 1));
      assert.equal(last.pv[0], r.bestMove);
      assert.ok(last.pv.length <= 2 * n - 1);
      assert.equal(pos.fen(), new Position(fen).fen(), 'the position is restored');
    }
  }
});

test('no legal move: MOVE_NONE at once, with a depth 0 mated info', () => {
  // Black is mated (the rook box from the mate-in-1 test, after the mate).
  const pos = new Position('3rkr3/4R4/9/3N5/9/9/9/9/4A4/4K4 b - - 1 1');
  assert.equal(legalMoves(pos).length, 0);
  const io = recordingIO();
  const r = searcher.search(pos, { depth: 5, startTime: performance.now() }, defaultOptions(), io);
  assert.equal(r.bestMove, MOVE_NONE);
  assert.equal(r.ponderMove, MOVE_NONE);
  assert.equal(io.infos.length, 1);
  assert.equal(io.infos[0].depth, 0);
  assert.equal(io.infos[0].score, -VALUE_MATE);
});

test('a search stopped before it began: the first root move with one info line, nothing searched, the next search unchanged', () => {
  const pos = new Position(MIDDLEGAMES[0]);
  const legal = legalMoves(pos);
  const stopped = (p: Position, limits: Partial<SearchLimits>, over: Parameters<typeof defaultOptions>[0] = {}) => {
    const io = recordingIO();
    Atomics.store(io.signals, 0, 1);
    const r = searcher.answerStopped(
      p,
      { ponder: true, ...limits, startTime: performance.now() },
      defaultOptions(over),
      io,
    );
    return { r, lines: io.infos.map((i) => [i.depth, i.multipv, i.score, i.bound, i.nodes, i.pv]) };
  };
  searcher.clear();
  const generation = searcher.tt.generation();
  // As Pikafish: the first root move, and the PV line it prints before every bestmove.
  const one = stopped(pos, {});
  assert.deepEqual(one.r, { bestMove: legal[0], ponderMove: MOVE_NONE, score: 0, nodes: 0, depth: 0 });
  assert.deepEqual(one.lines, [[1, 1, 0, 'exact', 0, [legal[0]]]]);
  // MultiPV: a line per shown root move; searchmoves: the first legal one of the list, in its order.
  assert.deepEqual(
    stopped(pos, {}, { multiPV: 3 }).lines.map((l) => l[5]),
    legal.slice(0, 3).map((m) => [m]),
  );
  const some = stopped(pos, { searchmoves: [legal[5], MOVE_NONE, legal[2]] }, { multiPV: 3 });
  assert.equal(some.r.bestMove, legal[5]);
  assert.deepEqual(
    some.lines.map((l) => l[5]),
    [[legal[5]], [legal[2]]],
  );
  // No legal move: the mated line and no move, as a search answers.
  const mated = stopped(new Position('3rkr3/4R4/9/3N5/9/9/9/9/4A4/4K4 b - - 1 1'), {});
  assert.equal(mated.r.bestMove, MOVE_NONE);
  assert.deepEqual(mated.lines, [[0, 1, -VALUE_MATE, 'exact', 0, []]]);
  // Tables, histories and time manager untouched: the next search is the one a cleared searcher makes.
  assert.equal(searcher.tt.generation(), generation);
  const next = searcher.search(pos, { depth: 6, startTime: performance.now() }, defaultOptions(), recordingIO());
  searcher.clear();
  assert.deepEqual(
    searcher.search(pos, { depth: 6, startTime: performance.now() }, defaultOptions(), recordingIO()),
    next,
  );
});

test('best and ponder moves are legal; depth limit honoured; info lines consistent', () => {
  const positions = [new Position(), ...MIDDLEGAMES.map((f) => new Position(f)), ...randomPositions(4, 4242, 40)];
  for (const pos of positions) {
    searcher.clear();
    const io = recordingIO();
    const fen = pos.fen();
    const r = searcher.search(pos, { depth: 6, startTime: performance.now() }, defaultOptions(), io);
    assert.ok(isLegal(pos, r.bestMove), `illegal best move ${moveToUci(r.bestMove)} in ${fen}`);
    assert.equal(r.depth, 6);
    assert.equal(Math.max(...io.infos.map((i) => i.depth)), 6);
    const depths = io.infos.map((i) => i.depth);
    for (let i = 1; i < depths.length; i++) assert.ok(depths[i] >= depths[i - 1], 'depths increase');
    const last = io.infos[io.infos.length - 1];
    assert.equal(last.pv[0], r.bestMove);
    assert.equal(last.nodes, r.nodes);
    // The whole PV is a legal line.
    const p = pos.clone();
    for (const m of last.pv) {
      assert.ok(isLegal(p, m), `illegal PV move ${moveToUci(m)} in ${fen}`);
      p.doMove(m);
    }
    if (r.ponderMove !== MOVE_NONE) {
      const q = pos.clone();
      q.doMove(r.bestMove);
      assert.ok(isLegal(q, r.ponderMove), 'ponder move legal');
    }
    assert.equal(pos.fen(), fen, 'the position is restored');
  }
});

test('MultiPV returns distinct root moves with non-increasing scores', () => {
  for (const fen of [START_FEN, MIDDLEGAMES[0]]) {
    const pos = new Position(fen);
    searcher.clear();
    const io = recordingIO();
    const r = searcher.search(pos, { depth: 5, startTime: performance.now() }, defaultOptions({ multiPV: 4 }), io);
    const final = io.infos.slice(-4);
    assert.ok(final.every((i) => i.depth === 5));
    assert.deepEqual(
      final.map((i) => i.multipv),
      [1, 2, 3, 4],
    );
    const firsts = final.map((i) => i.pv[0]);
    assert.equal(new Set(firsts).size, 4, 'distinct root moves');
    for (const m of firsts) assert.ok(isLegal(pos, m));
    for (let i = 1; i < final.length; i++) assert.ok(final[i].score <= final[i - 1].score, 'scores do not increase');
    assert.equal(r.bestMove, firsts[0]);
  }
});

test('searchmoves restricts the root', () => {
  const pos = new Position();
  const all = legalMoves(pos);
  // Two unremarkable moves: the edge pawn and a rook lift.
  const allowed = all.filter((m) => ['a3a4', 'i0i1'].includes(moveToUci(m)));
  assert.equal(allowed.length, 2);
  searcher.clear();
  const io = recordingIO();
  const r = searcher.search(
    pos,
    { depth: 5, searchmoves: allowed, startTime: performance.now() },
    defaultOptions({ multiPV: 3 }),
    io,
  );
  assert.ok(allowed.includes(r.bestMove));
  for (const i of io.infos) assert.ok(allowed.includes(i.pv[0]), `info pv starts with ${moveToUci(i.pv[0])}`);
  // Only two lines exist even though MultiPV is 3.
  assert.ok(io.infos.every((i) => i.multipv <= 2));
  // Illegal searchmoves are ignored (all moves are searched then).
  const r2 = searcher.search(
    pos,
    { depth: 2, searchmoves: [(0 << 7) | 89], startTime: performance.now() },
    defaultOptions(),
    recordingIO(),
  );
  assert.ok(isLegal(pos, r2.bestMove));
});

test('node limit is honoured closely', () => {
  const pos = new Position(MIDDLEGAMES[2]);
  for (const limit of [300, 5000, 20000]) {
    searcher.clear();
    const r = searcher.search(pos, { nodes: limit, startTime: performance.now() }, defaultOptions(), recordingIO());
    assert.ok(r.nodes >= limit, `stopped early: ${r.nodes} < ${limit}`);
    assert.ok(r.nodes <= limit * 1.05 + 400, `node limit overshot: ${r.nodes} for ${limit}`);
    assert.ok(isLegal(pos, r.bestMove));
  }
});

test('fixed-depth searches are deterministic (same nodes, move, score)', () => {
  const pos = new Position(MIDDLEGAMES[1]);
  const results = [];
  for (let k = 0; k < 2; k++) {
    searcher.clear();
    results.push(searcher.search(pos, { depth: 7, startTime: performance.now() }, defaultOptions(), recordingIO()));
  }
  assert.deepEqual(results[0], results[1]);
  // A fresh searcher gives the same again.
  const other = new Searcher(4);
  assert.deepEqual(other.search(pos, { depth: 7, startTime: Date.now() }, defaultOptions(), recordingIO()), results[0]);
});

test('a silent search (data generation) builds no info lines and searches the same tree', () => {
  const pos = new Position(MIDDLEGAMES[0]);
  searcher.clear();
  const heard = recordingIO();
  const loud = searcher.search(pos, { depth: 7, startTime: performance.now() }, defaultOptions(), heard);
  assert.ok(heard.infos.length >= 7);
  searcher.clear();
  const quiet = recordingIO();
  const silent = searcher.search(pos, { depth: 7, startTime: performance.now() }, defaultOptions(), {
    ...quiet,
    silent: true,
  });
  assert.equal(quiet.infos.length, 0);
  assert.deepEqual(silent, loud);
});

test('clear() after searches resets every history entry (each write marks its table)', () => {
  const own = new Searcher(4);
  const fresh = new Histories();
  const h = own.hist;
  const marked = [
    ['cont', h.contUsed],
    ['contCorr', h.contCorrUsed],
    ['pawn', h.pawnUsed],
  ] as const;
  const written = new Set<string>();
  for (const fen of BENCH_FENS.slice(0, 24)) {
    own.search(new Position(fen), { depth: 7, startTime: performance.now() }, defaultOptions(), recordingIO());
    // Every [piece][to] table that differs from a fresh one is marked as written.
    for (const [t, used] of marked) {
      const a = h[t];
      const b = fresh[t];
      for (let k = 0; k < used.length; k++) {
        if (used[k]) continue;
        for (let i = k * PIECE_TO; i < (k + 1) * PIECE_TO; i++)
          if (a[i] !== b[i]) assert.fail(`${fen}: ${t} table ${k} written but not marked`);
      }
    }
    const tables = ['main', 'lowPly', 'capture', 'cont', 'contCorr', 'pawn', 'correction'] as const;
    for (const t of tables) if (h[t].some((v, i) => v !== fresh[t][i])) written.add(t);
    own.clear();
    for (const t of tables) {
      const a = h[t];
      const b = fresh[t];
      for (let i = 0; i < a.length; i++)
        if (a[i] !== b[i]) assert.fail(`${t}[${i}] is ${a[i]} after clear, want ${b[i]}`);
    }
    assert.ok(marked.every(([, used]) => used.every((v) => v === 0)));
  }
  assert.equal(written.size, 7, 'the searches wrote every table');
});

test('the stop flag ends an infinite search', () => {
  const pos = new Position();
  searcher.clear();
  const io = recordingIO((i, signals) => {
    if (i.depth >= 4) Atomics.store(signals, 0, 1);
  });
  const t0 = performance.now();
  const r = searcher.search(pos, { infinite: true, startTime: t0 }, defaultOptions(), io);
  assert.ok(isLegal(pos, r.bestMove));
  assert.ok(r.depth >= 4 && r.depth <= 6, `depth ${r.depth}`);
});

/** Raises signals[index] after `ms` from another thread (the search blocks this one). */
function raiseLater(signals: Int32Array, index: number, ms: number): Worker {
  return new Worker(
    `const { workerData } = require('node:worker_threads');
     const s = new Int32Array(workerData.buf);
     setTimeout(() => { Atomics.store(s, workerData.index, 1); Atomics.notify(s, 0); }, workerData.ms);`,
    { eval: true, workerData: { buf: signals.buffer, index, ms } },
  );
}

test('infinite and ponder searches return only after stop / ponderhit', async () => {
  const pos = new Position();
  // Infinite with a depth limit: done quickly, but must wait for `stop`.
  {
    const io = recordingIO();
    const w = raiseLater(io.signals, 0, 300);
    const t0 = performance.now();
    const r = searcher.search(pos, { infinite: true, depth: 2, startTime: t0 }, defaultOptions(), io);
    const dt = performance.now() - t0;
    await w.terminate();
    assert.ok(dt >= 250, `returned after ${dt.toFixed(0)} ms, before stop`);
    assert.ok(isLegal(pos, r.bestMove));
  }
  // Ponder: ponderhit switches to a normal search which then ends by itself.
  {
    const io = recordingIO();
    const w = raiseLater(io.signals, 1, 300);
    const t0 = performance.now();
    const r = searcher.search(pos, { ponder: true, depth: 2, startTime: t0 }, defaultOptions(), io);
    const dt = performance.now() - t0;
    await w.terminate();
    assert.ok(dt >= 250, `ponder returned after ${dt.toFixed(0)} ms, before ponderhit`);
    assert.equal(Atomics.load(io.signals, 0), 0, 'no stop was needed');
    assert.ok(isLegal(pos, r.bestMove));
  }
  // No legal move while pondering: still waits.
  {
    const mated = new Position('3rkr3/4R4/9/3N5/9/9/9/9/4A4/4K4 b - - 1 1');
    const io = recordingIO();
    const w = raiseLater(io.signals, 0, 200);
    const t0 = performance.now();
    const r = searcher.search(mated, { infinite: true, startTime: t0 }, defaultOptions(), io);
    await w.terminate();
    assert.ok(performance.now() - t0 >= 150);
    assert.equal(r.bestMove, MOVE_NONE);
  }
});

test('time limits: movetime and a short clock end the search in time', () => {
  const pos = new Position(MIDDLEGAMES[0]);
  searcher.clear();
  let t0 = performance.now();
  let r = searcher.search(pos, { movetime: 150, startTime: t0 }, defaultOptions(), recordingIO());
  let dt = performance.now() - t0;
  assert.ok(dt >= 140 && dt < 1500, `movetime 150 took ${dt.toFixed(0)} ms`);
  assert.ok(isLegal(pos, r.bestMove));
  t0 = Date.now();
  r = searcher.search(
    pos,
    { wtime: 400, btime: 400, startTime: t0 },
    defaultOptions({ moveOverhead: 50 }),
    recordingIO(),
  );
  dt = Date.now() - t0;
  assert.ok(dt < 1000, `clock of 400 ms took ${dt} ms`);
  assert.ok(isLegal(pos, r.bestMove));
});

test('weak skill picks sub-optimal lines sometimes, strong skill keeps the best', () => {
  const lines = [
    { score: 120, move: 1 },
    { score: 100, move: 2 },
    { score: 60, move: 3 },
    { score: -400, move: 4 },
  ];
  const count = (level: number) => {
    const seen = new Map<number, number>();
    const skill = new Skill(level, false, 0);
    for (let s = 1; s <= 400; s++) {
      const m = skill.pickBest(lines, 4, new Prng(s * 7919));
      seen.set(m, (seen.get(m) ?? 0) + 1);
    }
    return seen;
  };
  const weak = count(0),
    strong = count(19);
  assert.ok((weak.get(2) ?? 0) + (weak.get(3) ?? 0) > 40, `level 0 picks: ${JSON.stringify([...weak])}`);
  assert.ok((strong.get(1) ?? 0) > (weak.get(1) ?? 0), 'stronger keeps the best line more often');
  assert.equal(strong.get(4) ?? 0, 0, 'level 19 never chooses a line 5 pawns worse');
  assert.ok((weak.get(4) ?? 0) > 0, 'level 0 sometimes blunders badly');
  // The same seed gives the same choice.
  const s = new Skill(5, false, 0);
  assert.equal(s.pickBest(lines, 4, new Prng(42)), new Skill(5, false, 0).pickBest(lines, 4, new Prng(42)));
});

test('a weakened search plays one of its MultiPV lines', () => {
  const pos = new Position();
  searcher.clear();
  const io = recordingIO();
  const r = searcher.search(
    pos,
    { depth: 4, startTime: performance.now() },
    defaultOptions({ skillLevel: 0, multiPV: 4 }),
    io,
  );
  const final = io.infos.filter((i) => i.depth === io.infos[io.infos.length - 1].depth).map((i) => i.pv[0]);
  assert.ok(final.includes(r.bestMove) || io.infos.some((i) => i.pv[0] === r.bestMove));
  assert.ok(isLegal(pos, r.bestMove));
});

test('the 60-move counter changes the result and the TT does not leak across counters', () => {
  // Mate in 2 (3 plies). With 118 plies on the counter the game is drawn first.
  const fen = (r60: number) => `3a5/3k5/3a5/9/9/9/7C1/3K5/3R5/9 w - - ${r60} 1`;
  searcher.clear();
  const run = (r60: number, rule60MaxPly = 120) =>
    searcher.search(
      new Position(fen(r60)),
      { depth: 10, startTime: performance.now() },
      defaultOptions({ rules: { ...DEFAULT_RULES, rule60MaxPly } }),
      recordingIO(),
    );
  assert.equal(run(0).score, mateIn(3));
  assert.equal(run(117).score, mateIn(3), 'the mate lands on ply 120: still a mate');
  const drawn = run(118);
  assert.ok(Math.abs(drawn.score) < 50, `counter 118: ${drawn.score}`);
  assert.equal(run(0).score, mateIn(3), 'no draw score leaks back through the TT');
  // With the rule switched off the counter does not matter.
  assert.equal(run(118, 0).score, mateIn(3));
});

test("the pruning margins follow Pikafish's search.cpp formulas", () => {
  // Step 6: eval < alpha - 1370 - 244 * depth * depth.
  assert.equal(razoringMargin(1), 1614);
  assert.equal(razoringMargin(3), 3566);
  // Step 7: futilityMult = min(40 + 4 * depth, 129) - 33 * !ttHit; margin = futilityMult * depth
  // - (2512 * improving + 340 * opponentWorsening) * futilityMult / 1024 + |correction| / 132109.
  assert.equal(reverseFutilityMargin(3, true, false, false, 0), 156);
  assert.equal(reverseFutilityMargin(3, false, false, false, 0), 57);
  assert.equal(reverseFutilityMargin(30, true, false, false, 0), 3870, 'the multiplier caps at 129');
  assert.equal(reverseFutilityMargin(3, true, true, false, 0), 156 - 127); // 2512 * 52 / 1024 = 127.56
  assert.equal(reverseFutilityMargin(3, true, false, true, 0), 156 - 17); // 340 * 52 / 1024 = 17.27
  assert.equal(reverseFutilityMargin(3, true, false, false, 400000), 156 + 3);
  // Step 13: staticEval + 47 + 272 * !bestMove + 129 * lmrDepth + 112 * (staticEval > alpha).
  assert.equal(quietFutilityMargin(2, false, false), 305);
  assert.equal(quietFutilityMargin(2, true, true), 305 + 272 + 112);
  assert.equal(quietFutilityMargin(-1, false, false), -82);
});
