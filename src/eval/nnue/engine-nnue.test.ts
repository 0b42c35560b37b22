// The network in the engine: EvalFile, what uci/isready/eval/bench say, a bad
// file keeping the evaluation in use, and the search running on the network.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';

import { Engine } from '../../engine/engine.js';
import { Uci } from '../../protocol/uci.js';
import { runBench } from '../../protocol/bench.js';
import { evaluate } from '../evaluate.js';
import { syntheticNetFile } from '../../../toolkit/nnue/synthetic-net.js';

const FEN1 = '1n2kab2/rc2C4/b4a2r/p3p4/P1p4Pp/2P1P3P/9/2R1B1c2/C4N3/1N1AKn2R w - - 0 42';

test('EvalFile: the embedded network without a file, the network once loaded, a bad file refused and the network kept', async (t) => {
  const engine = new Engine();
  const lines: string[] = [];
  const uci = new Uci(engine, (l) => lines.push(l));
  try {
    // No pikafish.nnue anywhere: Kirin's embedded network plays, and uci/isready say so.
    await uci.command('uci');
    assert.ok(lines.includes('option name EvalFile type string default pikafish.nnue'));
    assert.ok(
      lines.some((l) =>
        /^info string NNUE evaluation using Kirin's embedded network kirin\.knet .*\(no pikafish\.nnue found/.test(l),
      ),
      lines.join('\n'),
    );
    lines.length = 0;
    await uci.command('isready');
    assert.match(lines[0], /^info string NNUE evaluation using Kirin's embedded network/);
    assert.equal(lines[1], 'readyok');

    // The seed-1 network.
    lines.length = 0;
    await uci.command(`setoption name EvalFile value ${syntheticNetFile(1)}`);
    assert.equal(lines.length, 1);
    assert.match(lines[0], /^info string NNUE evaluation using \S+ \(random net, make_random_net\.py seed=1\)$/);
    lines.length = 0;
    await uci.command(`position fen ${FEN1}`);
    await uci.command('eval');
    // Native Pikafish's numbers for this position (test/data/nnue/seed1-evals.tsv, first row).
    assert.ok(lines.includes('NNUE evaluation -166 (side to move, internal units)'), lines.join('\n'));
    assert.ok(lines.includes('NNUE parts psqt -252 positional 86'));
    assert.ok(lines.includes('Final evaluation -224 (side to move, internal units)'));
    assert.equal(lines.filter((l) => /^\| {2}\d+ +\|/.test(l)).length, 16);
    assert.equal(lines.filter((l) => l.endsWith('<-- this bucket is used')).length, 1);
    assert.ok(lines.some((l) => l.startsWith('|  11 ') && l.endsWith('<-- this bucket is used')));

    // Bad files: one clear error each, and the network stays.
    const dir = mkdtempSync(join(tmpdir(), 'kirin-evalfile-'));
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    writeFileSync(join(dir, 'empty.nnue'), new Uint8Array(0));
    writeFileSync(join(dir, 'garbage.nnue'), 'not a network at all');
    for (const [file, problem] of [
      [join(dir, 'missing.nnue'), /was not found/],
      [join(dir, 'empty.nnue'), /is empty/],
      [join(dir, 'garbage.nnue'), /has version/],
    ] as const) {
      lines.length = 0;
      await uci.command(`setoption name EvalFile value ${file}`);
      assert.equal(lines.length, 1, lines.join('\n'));
      assert.match(lines[0], /^info string ERROR: EvalFile: network file '.*' /);
      assert.ok(lines[0].includes(file));
      assert.match(lines[0], problem);
      assert.match(lines[0], /expected a Pikafish NNUE network/);
      assert.match(lines[0], /the evaluation stays: NNUE \S+ \(random net/);
      lines.length = 0;
      await uci.command('eval');
      assert.ok(lines.includes('NNUE parts psqt -252 positional 86'), 'the network still evaluates');
    }
    lines.length = 0;
    await uci.command('isready');
    assert.match(lines[0], /^info string NNUE evaluation using /);

    // The search thread evaluates with the same network: the same final evaluation.
    const inThread = await engine.searchThreadEvaluation();
    assert.equal(inThread.value, -224);
    assert.match(
      inThread.evaluation,
      /^NNUE \S+ \(random net, make_random_net\.py seed=1\) \((portable|wasm-simd) kernels\)$/,
    );

    // The search runs on the network, and bench says which evaluation ran.
    const out: string[] = [],
      err: string[] = [];
    const nnue = await runBench(
      engine,
      ['16', '1', '6', 'current'],
      (l) => out.push(l),
      (l) => err.push(l),
    );
    assert.ok(
      out.some((l) =>
        /^info string bench evaluation: NNUE \S+ \(random net, make_random_net\.py seed=1\), (portable|wasm-simd) kernels$/.test(
          l,
        ),
      ),
      out.slice(0, 3).join('\n'),
    );
    assert.ok(err.some((l) => /^Evaluation +: NNUE \S+ \(random net/.test(l)));
    await uci.command('setoption name Use NNUE value false');
    const classical = await runBench(
      engine,
      ['16', '1', '6', 'current'],
      () => {},
      (l) => err.push(l),
    );
    assert.ok(err.some((l) => /^Evaluation +: classical$/.test(l)));
    assert.deepEqual(await engine.searchThreadEvaluation(), {
      evaluation: 'classical',
      value: evaluate(engine.position(), 0),
    });
    assert.ok(
      nnue.ok && classical.ok && nnue.value.nodes !== classical.value.nodes,
      'the two evaluations search different trees',
    );
    // Same network, same search: the node count repeats.
    await uci.command('setoption name Use NNUE value true');
    const again = await runBench(
      engine,
      ['16', '1', '6', 'current'],
      () => {},
      () => {},
    );
    assert.ok(again.ok && nnue.ok);
    assert.equal(again.value.nodes, nnue.value.nodes);
  } finally {
    await engine.close();
  }
});
