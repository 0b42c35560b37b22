// Kirin's search is Pikafish's: with the same network, the same rules and the
// same table size it searches the same trees, node for node. The reference is
// native Pikafish's `bench 16 1 9` with the synthetic seed-1 network
// (test/data/pikafish-bench-seed1.tsv). Any difference in move generation
// order, keys, table layout, move ordering, pruning, extensions or history
// updates changes some position's count; lab/parity/ finds where.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';

import { Engine } from '../engine/engine.js';
import { runBench } from '../protocol/bench.js';
import { BENCH_FENS } from '../protocol/benchpositions.js';
import { Uci } from '../protocol/uci.js';
import { tableLines, testDataPath } from '../../test/support/fixtures.js';
import { syntheticNetFile } from '../../toolkit/nnue/synthetic-net.js';

test("bench with the seed-1 network searches native Pikafish's nodes, position by position", async () => {
  const lines = tableLines(readFileSync(testDataPath('pikafish-bench-seed1.tsv'), 'utf8'));
  assert.deepEqual(lines[0].split('\t'), ['position', 'fen', 'nodes']);
  const rows = lines.slice(1).map((l) => l.split('\t'));
  assert.deepEqual(
    rows.map((r) => r[1]),
    BENCH_FENS,
    'the reference covers the bench positions in order',
  );

  const engine = new Engine();
  try {
    const uci = new Uci(engine, () => {});
    await uci.command(`setoption name EvalFile value ${syntheticNetFile(1)}`);
    // Pikafish's own repetition judgement (rule_judge) inside the search.
    await uci.command('setoption name Repetition Rule value ComputerRule');
    const out: string[] = [];
    const bench = await runBench(
      engine,
      ['16', '1', '9'],
      (l) => out.push(l),
      () => {},
    );
    assert.ok(bench.ok);
    // Each search's nodes: those of its last info line before its bestmove.
    const nodes: number[] = [];
    let last = -1;
    for (const l of out) {
      const m = / nodes (\d+) /.exec(l);
      if (l.startsWith('info depth') && m) last = Number(m[1]);
      else if (l.startsWith('bestmove')) nodes.push(last);
    }
    assert.deepEqual(
      nodes.map((n, i) => `${i + 1}: ${n}`),
      rows.map((r) => `${r[0]}: ${r[2]}`),
    );
    assert.equal(bench.value.nodes, 809_829);
  } finally {
    await engine.close();
  }
});
