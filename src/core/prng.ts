// Deterministic pseudo-random numbers: every generator Kirin and its tools use,
// in one place. Each keeps its exact sequence, because the sequences are fixed
// by what was built on them: the Zobrist keys (and so the transposition table
// and the bench node count), Skill Level's picks, and the seeded random games
// of the tests and of the rule-oracle data (lab/rules/gen-computer-oracle.ts).

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

/**
 * Pikafish's PRNG (xorshift64*, Vigna), which makes its Zobrist keys: each
 * next() gives one 64-bit number as its low and high int32 halves. BigInt
 * arithmetic, for start-up tables only.
 */
export class Xorshift64Star {
  private s: bigint;
  lo = 0;
  hi = 0;
  constructor(seed: number) {
    this.s = BigInt(seed);
  }
  /** The next number; its halves are then in `lo` and `hi`. */
  next(): void {
    const mask = (1n << 64n) - 1n;
    let s = this.s;
    s ^= s >> 12n;
    s = (s ^ (s << 25n)) & mask;
    s ^= s >> 27n;
    this.s = s;
    const r = (s * 2685821657736338717n) & mask;
    this.lo = Number(r & 0xffffffffn) | 0;
    this.hi = Number(r >> 32n) | 0;
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
