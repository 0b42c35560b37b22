// Move and game accuracy from win-chance drops (docs/REVIEW.md), after the
// model lichess publishes (lichess.org/page/accuracy), fed with Kirin's own
// win chance (the expected score of its WDL model) instead of a centipawn curve.
//
//   move accuracy  = 103.1668 * exp(-0.04354 * drop) - 3.1669, clamped to [0, 100],
//                    drop = the mover's win chance lost by the move, in percent (>= 0)
//   game accuracy  = the mean of a volatility-weighted mean and a harmonic mean of
//                    one side's move accuracies; a move's weight is the standard
//                    deviation of the win chance over a window of positions around
//                    it, clamped to [0.5, 12]

/** A move's accuracy in [0, 100] from the mover's win-chance drop in percent points (a gain counts as 0). */
export function moveAccuracy(dropPercent: number): number {
  const drop = Math.max(0, dropPercent);
  const raw = 103.1668 * Math.exp(-0.04354 * drop) - 3.1669;
  return Math.min(100, Math.max(0, raw));
}

/** Population standard deviation of a non-empty list. */
function standardDeviation(xs: readonly number[]): number {
  let mean = 0;
  for (const x of xs) mean += x;
  mean /= xs.length;
  let v = 0;
  for (const x of xs) v += (x - mean) * (x - mean);
  return Math.sqrt(v / xs.length);
}

/**
 * The volatility weight of each move: `redWin` holds Red's win chance in percent
 * at every position of the game (the start and after each move, so one more than
 * the moves). The window holds `size` = clamp(moves / 10, 2, 8) positions; move i
 * (from position i to i + 1) takes the window that ends at position i + 1 when
 * there is one that long, the first window otherwise. Its weight is the standard
 * deviation of the window, clamped to [0.5, 12]: a move in a calm game counts
 * little, one in a sharp game much.
 */
export function volatilityWeights(redWin: readonly number[]): number[] {
  const moves = redWin.length - 1;
  if (moves <= 0) return [];
  const size = Math.min(8, Math.max(2, Math.floor(moves / 10)));
  const weights: number[] = [];
  for (let i = 0; i < moves; i++) {
    const end = Math.min(redWin.length, Math.max(size, i + 2));
    const window = redWin.slice(Math.max(0, end - size), end);
    weights.push(Math.min(12, Math.max(0.5, standardDeviation(window))));
  }
  return weights;
}

/** Move accuracies below this count as this in the harmonic mean (one 0 would make the mean 0). */
const HARMONIC_FLOOR = 1;

/**
 * One side's game accuracy in [0, 100] from its moves' accuracies and weights:
 * (weighted mean + harmonic mean) / 2. Null for a side without a move.
 */
export function gameAccuracy(accuracies: readonly number[], weights: readonly number[]): number | null {
  if (accuracies.length === 0) return null;
  let sum = 0,
    weightSum = 0,
    reciprocals = 0;
  for (let i = 0; i < accuracies.length; i++) {
    sum += accuracies[i] * weights[i];
    weightSum += weights[i];
    reciprocals += 1 / Math.max(HARMONIC_FLOOR, accuracies[i]);
  }
  const weighted = sum / weightSum;
  const harmonic = accuracies.length / reciprocals;
  return Math.min(100, Math.max(0, (weighted + harmonic) / 2));
}
