// One-dimensional minimisation shared by the tuner's K fit (model.ts) and the
// scale report's (scale.ts).

/**
 * The x in [lo, hi] minimising a unimodal f, by golden-section search:
 * `iterations` steps, each shrinking the interval by 0.618; returns the
 * middle of the last interval.
 */
export function goldenSectionMinimum(f: (x: number) => number, lo: number, hi: number, iterations: number): number {
  const g = (Math.sqrt(5) - 1) / 2;
  let a = lo,
    b = hi;
  let c = b - g * (b - a),
    e = a + g * (b - a);
  let fc = f(c),
    fe = f(e);
  for (let it = 0; it < iterations; it++) {
    if (fc < fe) {
      b = e;
      e = c;
      fe = fc;
      c = b - g * (b - a);
      fc = f(c);
    } else {
      a = c;
      c = e;
      fc = fe;
      e = a + g * (b - a);
      fe = f(e);
    }
  }
  return (a + b) / 2;
}
