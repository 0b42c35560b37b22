// Measures evaluations per second of evaluate() on positions from random games:
//   node dist/lab/eval/speed.js [positions=64] [seconds=3]
// A small set of positions keeps their data in cache, as in a search (which
// evaluates one Position object over and over).

import { evaluate, Position } from '../../src/dev.js';
import { evaluateClassical } from '../../src/eval/classical.js';
import { randomFens as randomPositions } from './random-fens.js';
import { commandSpec, scriptCommandLine } from '../../toolkit/command-line.js';
import { throughput } from '../timing.js';

const cl = scriptCommandLine(
  process.argv.slice(2),
  commandSpec({
    name: 'speed',
    usage: 'usage: node dist/lab/eval/speed.js [positions=64] [seconds=3]',
    options: {},
    positionals: { max: 2 },
  }),
);
const count = cl.numberAt(0, 'positions', 64, { min: 1 });
const seconds = cl.numberAt(1, 'seconds', 3, { min: 0 });
const fens = randomPositions(count, 7);
const positions = fens.flatMap((f) => {
  const p = Position.fromFen(f);
  return p.ok ? [p.value] : [];
});

let sink = 0;
function run(fn: (p: Position) => number, label: string): void {
  const pass = (): number => {
    for (let i = 0; i < positions.length; i++) sink += fn(positions[i]);
    return positions.length;
  };
  const { work: evals, ms } = throughput(seconds, pass, 20);
  const elapsed = ms / 1000;
  console.log(
    `${label}: ${evals} evals in ${elapsed.toFixed(2)} s = ${Math.round(evals / elapsed).toLocaleString('en-US')} evals/s (${((elapsed * 1e9) / evals).toFixed(0)} ns/eval)`,
  );
}
run(evaluateClassical, 'evaluateClassical');
run((p) => evaluate(p, 0), 'evaluate        ');
if (sink === 0.5) console.log(sink);
