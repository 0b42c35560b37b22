// Kept for the evaluation measurement tools (speed.ts, selfplay.ts): the helpers
// now live in src/testing/fixtures.ts, which the tests import directly.

export { mulberry32 as rng, randomFens as randomPositions } from '../testing/fixtures.js';
