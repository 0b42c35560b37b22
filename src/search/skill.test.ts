import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { START_FEN } from '../core/fen.js';
import { Position } from '../core/position.js';
import { legalMoves } from '../core/movegen.js';
import { Searcher } from './search.js';
import { ELO_CALIBRATION, ELO_MAX, ELO_MIN, Skill, eloToLevel } from './skill.js';
import type { Move } from '../core/types.js';
import { defaultOptions, play, randomPositions, recordingIO, repoRoot } from '../../test/support/fixtures.js';

const searcher = new Searcher(4);

test('a weakened search stops at depth 1 + level with its pick, however much time it has', () => {
  for (const [elo, depth] of [
    [ELO_MIN, 1],
    [1500, 1 + Math.floor(eloToLevel(1500))],
    [2100, 1 + Math.floor(eloToLevel(2100))],
  ]) {
    const pos = new Position();
    searcher.clear();
    const io = recordingIO();
    // A long clock: without the stop at the pick the search would go on far deeper.
    const r = searcher.search(
      pos,
      { wtime: 600000, btime: 600000, startTime: performance.now() },
      defaultOptions({ limitStrength: true, elo }),
      io,
    );
    assert.equal(r.depth, depth, `UCI_Elo ${elo}: searched to depth ${r.depth}`);
    assert.ok(Math.max(...io.infos.map((i) => i.depth)) <= depth);
    assert.ok(legalMoves(pos).includes(r.bestMove));
    assert.equal(io.infos[io.infos.length - 1].pv[0], r.bestMove, 'the last line shown is the move played');
  }
});

test('an infinite weakened search goes on after its pick until stop', () => {
  const pos = new Position();
  searcher.clear();
  const level = Math.floor(eloToLevel(1500));
  const io = recordingIO((info, signals) => {
    if (info.depth >= level + 3) Atomics.store(signals, 0, 1);
  });
  const r = searcher.search(
    pos,
    { infinite: true, startTime: performance.now() },
    defaultOptions({ limitStrength: true, elo: 1500 }),
    io,
  );
  assert.ok(Math.max(...io.infos.map((i) => i.depth)) >= level + 3);
  assert.ok(legalMoves(pos).includes(r.bestMove));
});

test('weaker settings play worse moves', () => {
  // Quiet positions (the ends of the match openings, data/openings/openings.txt) and
  // tactical ones (random games). Each move played is valued by a full-strength
  // search of depth 5 after it; the weakest setting must lose more than UCI_Elo 2100.
  const lines = readFileSync(join(repoRoot(), 'data', 'openings', 'openings.txt'), 'utf8')
    .split('\n')
    .map((l) => l.replace(/#.*/, '').trim())
    .filter(Boolean);
  const positions = [
    ...Array.from({ length: 10 }, (_, k) => play(START_FEN, lines[(k * 11) % lines.length])),
    ...randomPositions(10, 3, 24),
  ];
  const value = new Map<string, number>();
  const valueOf = (pos: Position, m: Move): number => {
    const key = `${pos.fen()} ${m}`;
    let v = value.get(key);
    if (v === undefined) {
      const after = new Position(pos.fen());
      after.doMove(m);
      searcher.clear();
      v = -searcher.search(after, { depth: 5, startTime: performance.now() }, defaultOptions(), recordingIO()).score;
      value.set(key, v);
    }
    return v;
  };
  const play1 = (elo: number): { total: number; moves: Move[] } => {
    let total = 0;
    const moves: Move[] = [];
    for (const p of positions) {
      searcher.clear();
      const r = searcher.search(
        new Position(p.fen()),
        { wtime: 600000, btime: 600000, startTime: performance.now() },
        defaultOptions({ limitStrength: true, elo }),
        recordingIO(),
      );
      moves.push(r.bestMove);
      total += Math.max(-2000, Math.min(2000, valueOf(p, r.bestMove)));
    }
    return { total, moves };
  };
  const weakest = play1(ELO_MIN),
    stronger = play1(2100);
  const differ = weakest.moves.filter((m, k) => m !== stronger.moves[k]).length;
  assert.ok(differ >= 6, `UCI_Elo ${ELO_MIN} and 2100 chose differently in only ${differ} of 20 positions`);
  assert.ok(
    weakest.total < stronger.total,
    `value of the moves played: UCI_Elo ${ELO_MIN} ${weakest.total}, 2100 ${stronger.total}`,
  );
});

// The calibration points of docs/STRENGTH.md (measured with tools/strength/elo-scale.ts).
const DOCUMENTED: Array<[number, number]> = [
  [1280, 0],
  [1777, 4],
  [2268, 7],
  [2568, 10],
  [2850, 13],
  [3133, 19],
];

test('UCI_Elo maps to skill levels: the documented points, monotonic over 1280..3133', () => {
  assert.deepEqual(
    ELO_CALIBRATION.map(([e, l]) => [e, l]),
    DOCUMENTED,
  );
  for (const [elo, level] of DOCUMENTED) assert.ok(Math.abs(eloToLevel(elo) - level) < 1e-9, `${elo}`);
  assert.equal(eloToLevel(ELO_MIN), 0);
  assert.equal(eloToLevel(ELO_MIN - 100), 0);
  assert.ok(eloToLevel(ELO_MAX) < 20, 'the top of the scale is still limited');
  assert.equal(eloToLevel(ELO_MAX + 100), eloToLevel(ELO_MAX));
  let prev = -1;
  for (let e = ELO_MIN; e <= ELO_MAX; e++) {
    const l = eloToLevel(e);
    assert.ok(l > prev, `not increasing at ${e}`);
    prev = l;
  }
});

test('Skill Level 20 and UCI_LimitStrength off are full strength', () => {
  assert.equal(new Skill(20, false, 1500).enabled(), false);
  assert.equal(new Skill(20, true, 1500).enabled(), true, 'UCI_LimitStrength overrides Skill Level');
  assert.equal(new Skill(20, true, ELO_MAX).enabled(), true);
  assert.equal(new Skill(3, false, ELO_MAX).timeToPick(4), true);
});
