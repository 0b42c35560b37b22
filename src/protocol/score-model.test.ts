// `score cp` and `wdl` follow the win-rate model of the evaluation that plays:
// the classical evaluation's own model without a network, Pikafish's with one.
// The search is the same either way: only the display changes.

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { Engine } from '../engine/engine.js';
import { CLASSICAL_WIN_RATE, PIKAFISH_WIN_RATE, materialCount, wdl, winRateParams } from '../eval/score.js';
import { runBench } from './bench.js';
import { syntheticNetFile } from '../../toolkit/nnue/synthetic-net.js';

const FEN = 'r1bakab1r/9/1cn4c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C1N2/9/RNBAKAB1R b - - 3 3';

/** The last exact `info depth` line of a depth-6 bench of the current position, and the nodes. */
async function search(engine: Engine): Promise<{ line: string; nodes: number }> {
  const out: string[] = [];
  const r = await runBench(
    engine,
    ['16', '1', '6', 'current'],
    (l) => out.push(l),
    () => {},
  );
  const infos = out.filter((l) => l.startsWith('info depth 6 ') && !/lowerbound|upperbound/.test(l));
  assert.ok(infos.length && r.ok, out.join('\n'));
  return { line: infos.at(-1)!, nodes: r.value.nodes };
}

const cpOf = (line: string): number => Number(/ score cp (-?\d+) /.exec(line)![1]);

test("cp and wdl follow the classical model without a network and Pikafish's with one", async () => {
  const engine = new Engine();
  try {
    const r = engine.setPosition(FEN, []);
    assert.ok(r.ok);
    const material = materialCount(engine.position());
    for (const [net, model] of [
      [false, CLASSICAL_WIN_RATE],
      [true, PIKAFISH_WIN_RATE],
    ] as const) {
      if (net) {
        const l = engine.options.set('EvalFile', syntheticNetFile(1));
        assert.ok(l.ok);
        engine.setPosition(FEN, []);
      }
      assert.equal(engine.winRateModel(), model);
      assert.ok(engine.options.set('ScoreType', 'Raw').ok);
      assert.ok(engine.options.set('UCI_ShowWDL', 'true').ok);
      const raw = await search(engine);
      assert.ok(engine.options.set('ScoreType', 'PawnValueNormalized').ok);
      const shown = await search(engine);
      // The same search (bench clears the hash): the same nodes, only the display differs.
      assert.equal(shown.nodes, raw.nodes);
      const v = cpOf(raw.line);
      const { a } = winRateParams(material, model);
      assert.equal(cpOf(shown.line), Math.round((100 * v) / a), `${model.name}: ${shown.line}`);
      assert.ok(shown.line.includes(` wdl ${wdl(v, material, model).join(' ')} `), shown.line);
      if (!net) {
        // What Pikafish's model would have shown differs (the two a differ at this material).
        const other = Math.round((100 * v) / winRateParams(material, PIKAFISH_WIN_RATE).a);
        assert.ok(v !== 0 && other !== cpOf(shown.line), `${v} -> ${cpOf(shown.line)} vs ${other}`);
      }
    }
    // Back to the classical evaluation: its model again.
    assert.ok(engine.options.set('EvalFile', '<empty>').ok);
    assert.equal(engine.winRateModel(), CLASSICAL_WIN_RATE);
  } finally {
    await engine.close();
  }
});
