// PLACEHOLDER (branch nnue): the real generator of the synthetic networks
// (make_random_net.py reproduced byte for byte) is written on branch nnue-gen
// and replaces this file at merge. Until then the tests read a network written
// by make_random_net.py: $KIRIN_TEST_NET, or /tmp/nnue/seed1.nnue.

/** Path of the synthetic network of `seed` (placeholder: seed 1 only, from outside the repository). */
export function syntheticNetFile(seed = 1): string {
  if (seed !== 1) throw new Error('placeholder nnue-synthetic.ts knows seed 1 only');
  return process.env.KIRIN_TEST_NET ?? '/tmp/nnue/seed1.nnue';
}

/** The synthetic network of `seed` as bytes (placeholder: not implemented here). */
export function makeSyntheticNet(seed: number): Uint8Array {
  throw new Error(`placeholder nnue-synthetic.ts cannot generate seed ${seed}; the generator comes from branch nnue-gen`);
}
