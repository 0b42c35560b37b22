// Kirin's own network in the engine: EvalFile tells the formats apart, uci/isready,
// eval and bench say which evaluation plays, a damaged file is refused and the
// evaluation in use stays, Use NNUE switches to the classical evaluation and back,
// and the search threads (one and two) evaluate with the same network.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';

import { Engine } from '../../engine/engine.js';
import { Position } from '../../core/position.js';
import { Uci } from '../../protocol/uci.js';
import { playUciMoves } from '../../core/ucimove.js';
import { runBench } from '../../protocol/bench.js';
import { CLASSICAL_WIN_RATE } from '../score.js';
import { randomKirinNet } from '../../../test/support/kirinnet-random.js';
import { encodeKirinNet } from './format.js';
import { KirinEvaluator, KirinNetwork } from './network.js';
import { referenceEvaluate } from './reference.js';

const FEN = 'r1bakab1r/9/1cn4c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C1N2/9/RNBAKAB1R b - - 5 3';

test('EvalFile loads a Kirin network; eval, bench and the search threads use it; bad files are refused; Use NNUE', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'kirin-knet-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const weights = randomKirinNet(77, undefined, 40, 30);
  const file = join(dir, 'test.knet');
  writeFileSync(file, encodeKirinNet(weights));
  const damaged = encodeKirinNet(weights);
  damaged[1000] ^= 4;
  writeFileSync(join(dir, 'damaged.knet'), damaged);
  writeFileSync(join(dir, 'short.knet'), damaged.subarray(0, 20));

  const engine = new Engine();
  const lines: string[] = [];
  const uci = new Uci(engine, (l) => lines.push(l));
  try {
    await uci.command('uci');
    assert.ok(lines.includes('option name Use NNUE type check default true'), lines.join('\n'));
    lines.length = 0;
    await uci.command(`setoption name EvalFile value ${file}`);
    assert.deepEqual(lines, ['info string NNUE evaluation using test.knet (Kirin network 1260x2-256-8 buckets)']);
    assert.deepEqual(engine.winRateModel(), CLASSICAL_WIN_RATE);

    // eval: the network's output equals the plain integer forward pass.
    await uci.command(`position fen ${FEN}`);
    lines.length = 0;
    await uci.command('eval');
    const pos = new Position(FEN);
    const raw = referenceEvaluate(weights, pos.board, pos.side);
    assert.ok(
      lines.some((l) => l.startsWith(`Network evaluation ${raw} (side to move, internal units)`)),
      lines.join('\n'),
    );
    assert.equal(lines.filter((l) => l.includes('<-- used (31 pieces)')).length, 1);
    const ev = new KirinEvaluator(KirinNetwork.fromWeights(weights, 'x'), 0);
    const final = ev.evaluate(pos, 0);
    assert.ok(lines.includes(`Final evaluation ${final} (side to move, internal units)`));

    // The search thread evaluates the same.
    const inThread = await engine.searchThreadEvaluation();
    assert.equal(inThread.value, final);
    assert.match(inThread.evaluation, /^NNUE test\.knet \(Kirin network 1260x2-256-8 buckets\) \(wasm-simd kernels\)$/);

    // Damaged files: one clear error each; the network stays.
    for (const [name, problem] of [
      ['damaged.knet', /damaged: hash/],
      ['short.knet', /truncated/],
    ] as const) {
      lines.length = 0;
      await uci.command(`setoption name EvalFile value ${join(dir, name)}`);
      assert.equal(lines.length, 1, lines.join('\n'));
      assert.match(lines[0], /^info string ERROR: EvalFile: /);
      assert.match(lines[0], problem);
      assert.match(lines[0], /the evaluation stays: NNUE test\.knet/);
    }

    // bench says which evaluation ran; Use NNUE off gives the classical evaluation, on gives the network back.
    const err: string[] = [];
    const withNet = await runBench(
      engine,
      ['16', '1', '5', 'current'],
      () => {},
      (l) => err.push(l),
    );
    assert.ok(
      err.some((l) => /^Evaluation +: NNUE test\.knet \(Kirin network/.test(l)),
      err.join('\n'),
    );
    lines.length = 0;
    await uci.command('setoption name Use NNUE value false');
    assert.deepEqual(lines, ['info string classical evaluation (Use NNUE is off)']);
    const classical = await runBench(
      engine,
      ['16', '1', '5', 'current'],
      () => {},
      (l) => err.push(l),
    );
    assert.ok(err.some((l) => /^Evaluation +: classical$/.test(l)));
    assert.equal((await engine.searchThreadEvaluation()).evaluation, 'classical');
    assert.ok(
      withNet.ok && classical.ok && withNet.value.nodes !== classical.value.nodes,
      'the two evaluations search different trees',
    );
    await uci.command('setoption name Use NNUE value true');
    const again = await runBench(
      engine,
      ['16', '1', '5', 'current'],
      () => {},
      () => {},
    );
    assert.ok(again.ok && withNet.ok);
    assert.equal(again.value.nodes, withNet.value.nodes, 'the same network searches the same tree');

    // Two search threads, both on the network: a legal move comes back.
    await uci.command('setoption name Threads value 2');
    await uci.command('position startpos moves h2e2');
    const result = await engine.go({ depth: 6, startTime: Date.now() });
    const legal = new Position();
    assert.ok(playUciMoves(legal, ['h2e2']).ok);
    assert.ok(
      result.depth >= 6 && legal.pseudoLegal(result.bestMove) && legal.legal(result.bestMove),
      `bestmove ${result.bestMove} at depth ${result.depth}`,
    );
  } finally {
    await engine.close();
  }
});
