// Random Kirin networks for tests: integer weights drawn from a seeded
// generator, realistic in size (feature weights within +-`ftRange`, output
// weights within the format's +-512) or extreme when asked.

import { mulberry32 } from '../../src/core/prng.js';
import { DEFAULT_SHAPE, type KirinNetShape } from '../../src/eval/kirinnet/arch.js';
import type { KirinNetWeights } from '../../src/eval/kirinnet/format.js';

export function randomKirinNet(
  seed: number,
  shape: KirinNetShape = DEFAULT_SHAPE,
  ftRange = 60,
  outRange = 512,
): KirinNetWeights {
  const rnd = mulberry32(seed);
  const int = (range: number) => Math.floor(rnd() * (2 * range + 1)) - range;
  const { inputs, hidden, outputBuckets } = shape;
  const fill16 = (n: number, range: number) => Int16Array.from({ length: n }, () => int(range));
  return {
    shape,
    description: `random test network, seed ${seed}`,
    ftWeights: fill16(inputs * hidden, ftRange),
    ftBias: fill16(hidden, 3 * ftRange),
    outWeights: fill16(outputBuckets * 2 * hidden, outRange),
    outBias: Int32Array.from({ length: outputBuckets }, () => int(20000)),
  };
}
