// Deterministic pseudo-random numbers: every generator Kirin and its tools use,
// in one place. Each keeps its exact sequence, because the sequences are fixed
// by what was built on them: the Zobrist keys (and so the transposition table
// and the bench node count), Skill Level's picks, and the seeded random games
// of the tests and of the rule-oracle data (tools/rules/gen-computer-oracle.ts).

/** One xorshift32 step (shifts 13, 17, 5). */
export function xorshift32(x: number): number {
  x ^= x << 13;
  x ^= x >>> 17;
  x ^= x << 5;
  return x;
}

/** xorshift32 with a multiplied output: uniform unsigned 32-bit integers. Search (Skill Level) and tests. */
export class Prng {
  private s: number;
  constructor(seed: number) {
    this.s = seed | 0 || 0x9e3779b9;
  }
  /** Uniform unsigned 32-bit integer. */
  next(): number {
    this.s = xorshift32(this.s);
    return Math.imul(this.s, 0x2545f491) >>> 0;
  }
}

/** The Zobrist key generator: two xorshift32 streams combined into int32 values. */
export class KeyPrng {
  private a: number;
  private b: number;
  constructor(seed: number) {
    this.a = seed | 0 || 1;
    this.b = (seed * 2654435761) | 0 || 7;
  }
  next(): number {
    const x = (this.a = xorshift32(this.a));
    let y = this.b;
    y ^= y << 11;
    y ^= y >>> 19;
    y ^= y << 7;
    this.b = y;
    return (x + Math.imul(y, 0x9e3779b1)) | 0;
  }
}

/** mulberry32: floats in [0, 1). Tests' random positions and tools' random games. */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
