import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { Position } from '../core/position.js';
import { legalMoves } from '../core/movegen.js';
import { Searcher } from './search.js';
import { ELO_CALIBRATION, ELO_MAX, ELO_MIN, Skill, eloToLevel } from './skill.js';
import { moveToUci } from '../core/types.js';
import { defaultOptions, recordingIO } from '../../test/support/fixtures.js';
import { repoRoot } from '../../toolkit/files.js';

const searcher = new Searcher(4);

test('a weakened search stops at depth 1 + level with its pick, however much time it has', () => {
  for (const [label, over, depth] of [
    [`UCI_Elo ${ELO_MIN}`, { limitStrength: true, elo: ELO_MIN }, 1],
    ['Skill Level 2', { skillLevel: 2 }, 3],
    ['Skill Level 5', { skillLevel: 5 }, 6],
    // A fractional level from the calibration plays the depth of its whole part.
    ['UCI_Elo 1800', { limitStrength: true, elo: 1800 }, 1 + Math.floor(eloToLevel(1800))],
  ] as const) {
    const pos = new Position();
    searcher.clear();
    const io = recordingIO();
    // A long clock: without the stop at the pick the search would go on far deeper.
    const r = searcher.search(
      pos,
      { wtime: 600000, btime: 600000, startTime: performance.now() },
      defaultOptions(over),
      io,
    );
    assert.equal(r.depth, depth, `${label}: searched to depth ${r.depth}`);
    assert.ok(Math.max(...io.infos.map((i) => i.depth)) <= depth);
    assert.ok(legalMoves(pos).includes(r.bestMove));
    assert.equal(io.infos[io.infos.length - 1].pv[0], r.bestMove, 'the last line shown is the move played');
  }
});

test('an infinite weakened search goes on after its pick until stop', () => {
  const pos = new Position();
  searcher.clear();
  const level = 1;
  const io = recordingIO((info, signals) => {
    if (info.depth >= level + 3) Atomics.store(signals, 0, 1);
  });
  const r = searcher.search(
    pos,
    { infinite: true, startTime: performance.now() },
    defaultOptions({ skillLevel: level }),
    io,
  );
  assert.ok(Math.max(...io.infos.map((i) => i.depth)) >= level + 3);
  assert.ok(legalMoves(pos).includes(r.bestMove));
});

test('a weak level sometimes leaves a piece hanging that a stronger level always takes', () => {
  // Red's rook takes the undefended knight on a5 for free; the other moves are quiet.
  // The handicap's random part (up to a pawn) outweighs the knight's discounted value
  // at level 0 (weakness 120: 8/128 of it remains) but not at level 8 (24/128).
  const fen = '2bak4/4a4/4b4/9/n8/9/9/4B4/4A4/R2AK1B2 w - - 0 1';
  const takes = (skillLevel: number): number => {
    searcher.clear();
    let n = 0;
    for (let i = 0; i < 30; i++) {
      // Each search draws other random numbers (the seed mixes in a search counter).
      const r = searcher.search(
        new Position(fen),
        { wtime: 600000, btime: 600000, startTime: performance.now() },
        defaultOptions({ skillLevel }),
        recordingIO(),
      );
      if (moveToUci(r.bestMove) === 'a0a5') n++;
    }
    return n;
  };
  const weak = takes(0),
    strong = takes(8);
  assert.equal(strong, 30, `level 8 took the knight ${strong} times of 30`);
  assert.ok(weak <= 25 && weak >= 10, `level 0 took the knight ${weak} times of 30`);
});

// The calibration points as docs/STRENGTH.md tables them (its "UCI_Elo" and "level" rows, measured with
// lab/strength/elo-scale.ts; fit.test.ts checks that ELO_CALIBRATION follows from the stored measurement,
// test/data/strength-scale.json).
function documentedPoints(): Array<[number, number]> {
  const lines = readFileSync(join(repoRoot(), 'docs', 'STRENGTH.md'), 'utf8').split('\n');
  const at = lines.findIndex((l) => l.startsWith('| UCI_Elo |'));
  assert.ok(at >= 0 && lines[at + 2]?.startsWith('| level '), 'docs/STRENGTH.md tables UCI_Elo over level');
  const cells = (line: string): number[] =>
    line
      .split('|')
      .slice(2, -1)
      .map((cell) => Number(cell.trim()));
  const [elos, levels] = [cells(lines[at]), cells(lines[at + 2])];
  assert.equal(elos.length, levels.length, 'one level for each UCI_Elo');
  return elos.map((elo, k) => [elo, levels[k]]);
}

test('UCI_Elo maps to skill levels: the documented points, monotonic over 1280..3133', () => {
  const documented = documentedPoints();
  assert.deepEqual(
    ELO_CALIBRATION.map(([e, l]) => [e, l]),
    documented,
  );
  for (const [elo, level] of documented) assert.ok(Math.abs(eloToLevel(elo) - level) < 1e-9, `${elo}`);
  assert.equal(eloToLevel(ELO_MIN), 0);
  assert.equal(eloToLevel(ELO_MIN - 100), 0);
  assert.ok(eloToLevel(ELO_MAX) < 20, 'the top of the scale is still limited');
  assert.ok(new Skill(20, true, ELO_MAX).enabled());
  assert.equal(eloToLevel(ELO_MAX + 100), eloToLevel(ELO_MAX));
  let prev = -1;
  for (let e = ELO_MIN; e <= ELO_MAX; e++) {
    const l = eloToLevel(e);
    assert.ok(l > prev, `not increasing at ${e}`);
    prev = l;
  }
  // Between two points the level is interpolated linearly.
  assert.ok(Math.abs(eloToLevel((documented[1][0] + documented[2][0]) / 2) - 1.5) < 1e-9);
});

test('Skill Level 20 and UCI_LimitStrength off are full strength', () => {
  assert.equal(new Skill(20, false, 1500).enabled(), false);
  assert.equal(new Skill(20, true, 1500).enabled(), true, 'UCI_LimitStrength overrides Skill Level');
  assert.equal(new Skill(20, true, ELO_MAX).enabled(), true);
  assert.equal(new Skill(3, false, ELO_MAX).timeToPick(4), true);
});
