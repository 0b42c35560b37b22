import assert from 'node:assert/strict';
import { test } from 'node:test';

import { Position } from '../core/position.js';
import { VALUE_MATED_IN_MAX_PLY, VALUE_MATE_IN_MAX_PLY } from '../core/types.js';
import { evaluateClassical } from './classical.js';
import { evaluate, postProcess } from './evaluate.js';
import { mirrorFen, randomFens } from '../../test/support/fixtures.js';

const START = 'rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1';

test('blend: optimism moves the score, weighted by the material left', () => {
  const p = new Position(START);
  const e = evaluateClassical(p);
  const material = p.majorMaterial[0] + p.majorMaterial[1];
  assert.equal(evaluate(p, 0), Math.trunc((e * (17380 + material)) / 20582));
  assert.equal(evaluate(p, 100), Math.trunc((e * (17380 + material) + 100 * (3061 + material)) / 20582));
  assert.ok(evaluate(p, 100) > evaluate(p, 0));
  assert.ok(evaluate(p, -100) < evaluate(p, 0));
});

test('rule-60 damping shrinks the score linearly', () => {
  const fen = 'rnbakabn1/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1';
  const fresh = evaluate(new Position(fen), 0);
  const p = new Position(fen.replace(' 0 1', ' 100 1'));
  assert.equal(p.rule60Count(), 100);
  const damped = evaluate(p, 0);
  assert.ok(fresh > 1000);
  assert.equal(damped, fresh - Math.trunc((fresh * 100) / 253));
  // Symmetric for the losing side.
  const q = new Position(mirrorFen(fen).replace(' 0 1', ' 100 1'));
  assert.equal(evaluate(q, 0), damped);
  const qb = new Position(fen.replace(' w ', ' b ').replace(' 0 1', ' 100 1'));
  assert.ok(evaluate(qb, 0) < 0);
});

test('clamp keeps huge scores out of the mate range', () => {
  const p = new Position(START);
  assert.equal(postProcess(p, 1_000_000, 0), VALUE_MATE_IN_MAX_PLY - 1);
  assert.equal(postProcess(p, -1_000_000, 0), VALUE_MATED_IN_MAX_PLY + 1);
  assert.equal(postProcess(p, 0, 0), 0);
  // Integer results, truncated towards zero symmetrically.
  for (const e of [1, 7, 123, 4567]) assert.equal(postProcess(p, -e, -e), -postProcess(p, e, e));
});

test('no evaluation of a random position reaches the mate range', () => {
  for (const fen of randomFens(400, 99)) {
    const p = new Position(fen);
    for (const opt of [0, 150, -150]) {
      const v = evaluate(p, opt);
      assert.ok(Number.isInteger(v));
      assert.ok(v > VALUE_MATED_IN_MAX_PLY && v < VALUE_MATE_IN_MAX_PLY, `${fen}: ${v}`);
      assert.ok(Math.abs(v) < 15000, `${fen}: ${v}`);
    }
  }
});
