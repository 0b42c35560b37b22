// Measures the NNUE evaluation speed of each kernel path on this machine:
//   node dist/lab/nnue/speed.js <network file> [seconds=2]
// Per path: propagate alone (the layer stack of one position), a full refresh
// of both accumulators plus propagate, and the incremental evaluation along
// random games (one move, then evaluate: what a search does).

import { NnueEvaluator, NnueNetwork, Position } from '../../src/dev.js';
import { generate } from '../../src/core/movegen.js';
import { mulberry32 } from '../../src/core/prng.js';
import { GEN_LEGAL, MAX_MOVES } from '../../src/core/types.js';
import { PortableKernels } from '../../src/eval/nnue/kernels-portable.js';
import { type NnueKernels } from '../../src/eval/nnue/kernels.js';
import { STACK_BYTES, STACKS } from '../../src/eval/nnue/layout.js';
import { createKernels } from '../../src/eval/nnue/network.js';
import { randomFens } from '../eval/random-fens.js';
import { commandSpec, scriptCommandLine } from '../../toolkit/command-line.js';
import { throughput } from '../timing.js';

const cl = scriptCommandLine(
  process.argv.slice(2),
  commandSpec({
    name: 'speed',
    usage: 'usage: node dist/lab/nnue/speed.js <network file> [seconds=2]',
    options: {},
    positionals: { min: 1, max: 2 },
  }),
);
const file = cl.positionals[0];
const seconds = cl.numberAt(1, 'seconds', 2, { min: 0 });
const loaded = NnueNetwork.load(file);
if (!loaded.ok) {
  console.log(`ERROR: ${loaded.error.message}`);
  process.exit(1);
}
const net = loaded.value;
const positions = randomFens(64, 11).flatMap((f) => {
  const p = Position.fromFen(f);
  return p.ok ? [p.value] : [];
});

function rate(label: string, body: () => number): void {
  const { work: n, ms } = throughput(seconds, body, 3);
  console.log(
    `  ${label.padEnd(34)} ${Math.round((n * 1000) / ms)
      .toLocaleString('en-US')
      .padStart(10)} /s  (${((ms * 1000) / n).toFixed(2)} us)`,
  );
}

const paths: NnueKernels[] = [createKernels(net.memory)];
if (paths[0].name !== 'portable') paths.push(new PortableKernels(net.memory.buffer));
for (const kernels of paths) {
  console.log(`${kernels.name} kernels:`);
  const ev = new NnueEvaluator(net, 0, kernels);
  const p0 = positions[0];
  ev.computeFull(p0);
  const us = ev.verifyOffset(p0.side),
    them = ev.verifyOffset(p0.side ^ 1);
  let sink = 0;
  rate('propagate', () => {
    for (let i = 0; i < 100; i++)
      sink += kernels.propagate(us, them, STACKS + ev.bucket * STACK_BYTES, ev.scratchOffset());
    return 100;
  });
  rate('full refresh + propagate', () => {
    for (const p of positions) {
      ev.computeFull(p);
      sink += ev.positional;
    }
    return positions.length;
  });
  const rnd = mulberry32(5);
  const list = new Int32Array(MAX_MOVES);
  const pos = new Position();
  let plies = 0;
  rate('incremental (move, evaluate)', () => {
    let n = 0;
    for (let k = 0; k < 50; k++) {
      let count = generate(pos, GEN_LEGAL, list, 0);
      if (count === 0 || plies > 150) {
        pos.setFen(positions[k].fen());
        plies = 0;
        count = generate(pos, GEN_LEGAL, list, 0);
      }
      pos.doMove(list[Math.floor(rnd() * count)]);
      plies++;
      if (pos.inCheck()) continue;
      ev.compute(pos);
      sink += ev.positional;
      n++;
    }
    return n;
  });
  if (sink === 0.5) console.log(sink);
}
