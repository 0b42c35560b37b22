// A deterministic pseudo-random Pikafish network, byte-identical to the reference
// generator make_random_net.py (Pikafish master 97133eeb format: Version 0x6A448AFA,
// HalfKAv2_hm + FullThreats, L1 = 1024, L2 = L3 = 32, 16 PSQT buckets / layer stacks).
// Tests and tools use it instead of a real network file: seed 1 gives exactly the file
// the reference script writes (SHA-256 f7cacaf5...de53454), so evaluations recorded
// with native Pikafish on that file can be checked here. Never commit the output.
//
// Randomness: every tensor is one SHAKE-256 stream keyed by the seed and a label. An i8
// tensor maps each uniform byte through a 256-entry table of rounded normal quantiles;
// a larger integer maps a little-endian uniform u16 through a 65536-entry table. Both
// tables come from Wichura's AS241 inverse normal CDF evaluated exactly as CPython's
// statistics.NormalDist.inv_cdf does (same operation order, IEEE doubles), and Python's
// round() rounds half to even. One caveat: in the tails (|p - 0.5| > 0.425) AS241 takes
// a logarithm, and V8's Math.log differs from the C library's log in the last bit for
// 140 of the 65536 u16 quantiles (1-3 ulp). After scaling and rounding, every table of
// the default magnitudes is identical to Python's (checked for all 65536 entries), so
// every seed with default magnitudes reproduces the script; a custom sigma could in
// principle land one of those 140 values within 1e-12 of a half-integer and differ.
//
// Not part of the engine: the tests' network, and the lab's (lab/nnue/make-net.ts
// writes its files; the kernel benchmark and the page measurements load it).

import { createHash, randomBytes } from 'node:crypto';
import { existsSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// ---- architecture constants (as in the reference script / FORMAT.md) -----------------

const VERSION = 0x6a448afa;
const PSQ_HASH = 0x7f234cb8; // HalfKAv2_hm::HashValue
const THREAT_HASH = 0x2e6b9d04; // FullThreats::HashValue
const PS_NB = 689;
const PSQ_DIMS = 24 * PS_NB; // 16536
const THREAT_DIMS = 45547;
const L1 = 1024;
const L2 = 32;
const L3 = 32;
const PSQT_BUCKETS = 16;
const LAYER_STACKS = 16;
const LEB_MAGIC = 'COMPRESSED_LEB128';

/** HalfKAv2_hm planes: own R, A, C, P, N, B, K then the enemy's, with their square counts. */
const PLANE_SIZES = [90, 5, 90, 55, 90, 7, 6, 90, 5, 90, 55, 90, 7, 9];
/** Piece values (internal units) of those planes. */
const PLANE_PIECE_VALUES = [1305, 219, 773, 144, 720, 187, 0, 1305, 219, 773, 144, 720, 187, 0];

const ZSTD_MAGIC = 0xfd2fb528;
const ZSTD_BLOCK = 128 * 1024;

/**
 * Bump when the generator's output changes for a given seed and options (the cached
 * file name of syntheticNetFile includes it, together with a hash of the generator code).
 */
const SYNTHETIC_NET_VERSION = 1;

// ---- hashes (FORMAT.md section 3) ------------------------------------------------------

const rotl32 = (x: number, n: number): number => ((x << n) | (x >>> (32 - n))) >>> 0;

/** FeatureTransformer::get_hash_value(): 0x23F47EB0. */
export function ftHash(): number {
  let h = 0;
  for (const component of [THREAT_HASH, PSQ_HASH]) h = (rotl32(h, 1) ^ component) >>> 0;
  return (h ^ (L1 * 2)) >>> 0;
}

function affineHash(prev: number, outDims: number): number {
  return ((0xcc03dae4 + outDims) ^ (prev >>> 1) ^ (prev << 31)) >>> 0;
}

const reluHash = (prev: number): number => (0x538d24c7 + prev) >>> 0;

/** NetworkArchitecture::get_hash_value() (the SqrClippedReLU layers are not part of it): 0x63337116. */
export function stackHash(): number {
  let h = (0xec42e90d ^ (L1 * 2)) >>> 0;
  h = reluHash(affineHash(h, L2)); // fc_0, ac_0
  h = reluHash(affineHash(h, L3)); // fc_1, ac_1
  return affineHash(h, 1); // fc_2
}

/** Network::hash: 0x40C70FA6. */
export function networkHash(): number {
  return (ftHash() ^ stackHash()) >>> 0;
}

// ---- normal quantiles, exactly as CPython computes them --------------------------------

// The coefficients are written with the digits CPython uses; they round to the same
// doubles, so the precision lint does not apply.
/* eslint-disable no-loss-of-precision */
/** Inverse standard normal CDF: AS241 (Wichura 1988) in CPython's operation order. */
export function normalQuantile(p: number): number {
  const q = p - 0.5;
  if (Math.abs(q) <= 0.425) {
    const r = 0.180625 - q * q;
    const num =
      (((((((2.5090809287301226727e3 * r + 3.3430575583588128105e4) * r + 6.7265770927008700853e4) * r +
        4.5921953931549871457e4) *
        r +
        1.3731693765509461125e4) *
        r +
        1.9715909503065514427e3) *
        r +
        1.3314166789178437745e2) *
        r +
        3.387132872796366608) *
      q;
    const den =
      ((((((5.226495278852854561e3 * r + 2.8729085735721942674e4) * r + 3.930789580009271061e4) * r +
        2.1213794301586595867e4) *
        r +
        5.3941960214247511077e3) *
        r +
        6.871870074920579083e2) *
        r +
        4.2313330701600911252e1) *
        r +
      1.0;
    return num / den;
  }
  let r = Math.sqrt(-Math.log(q <= 0 ? p : 1.0 - p));
  let num: number;
  let den: number;
  if (r <= 5.0) {
    r = r - 1.6;
    num =
      ((((((7.7454501427834140764e-4 * r + 2.27238449892691845833e-2) * r + 2.4178072517745061177e-1) * r +
        1.27045825245236838258) *
        r +
        3.64784832476320460504) *
        r +
        5.7694972214606914055) *
        r +
        4.6303378461565452959) *
        r +
      1.42343711074968357734;
    den =
      ((((((1.05075007164441684324e-9 * r + 5.475938084995344946e-4) * r + 1.51986665636164571966e-2) * r +
        1.4810397642748007459e-1) *
        r +
        6.8976733498510000455e-1) *
        r +
        1.6763848301838038494) *
        r +
        2.05319162663775882187) *
        r +
      1.0;
  } else {
    r = r - 5.0;
    num =
      ((((((2.01033439929228813265e-7 * r + 2.71155556874348757815e-5) * r + 1.2426609473880784386e-3) * r +
        2.6532189526576123093e-2) *
        r +
        2.9656057182850489123e-1) *
        r +
        1.7848265399172913358) *
        r +
        5.4637849111641143699) *
        r +
      6.6579046435011037772;
    den =
      ((((((2.04426310338993978564e-15 * r + 1.4215117583164458887e-7) * r + 1.8463183175100546818e-5) * r +
        7.868691311456132591e-4) *
        r +
        1.48753612908506148525e-2) *
        r +
        1.3692988092273580531e-1) *
        r +
        5.9983220655588793769e-1) *
        r +
      1.0;
  }
  const x = num / den;
  return q < 0 ? -x : x;
}
/* eslint-enable no-loss-of-precision */

/** Python's round() for doubles: to the nearest integer, ties to even. */
function roundHalfEven(x: number): number {
  let r = Math.round(x); // ties towards +infinity
  if (r - x === 0.5 && r % 2 !== 0) r -= 1;
  return r;
}

let q16Cache: Float64Array | null = null;

/** Standard normal quantiles at (u + 0.5) / 65536 for u = 0..65535. */
function normalQ16(): Float64Array {
  if (q16Cache === null) {
    q16Cache = new Float64Array(65536);
    for (let u = 0; u < 65536; u++) q16Cache[u] = normalQuantile((u + 0.5) / 65536.0);
  }
  return q16Cache;
}

/** Maps a uniform byte to round(sigma * quantile) clamped to [-127, 127], as a raw byte. */
function i8Table(sigma: number): Uint8Array {
  const t = new Uint8Array(256);
  if (sigma <= 0) return t;
  for (let u = 0; u < 256; u++) {
    const v = roundHalfEven(sigma * normalQuantile((u + 0.5) / 256.0));
    t[u] = Math.max(-127, Math.min(127, v)) & 0xff;
  }
  return t;
}

/** Maps a uniform u16 to clamp(round(mean + sigma * quantile), lo, hi). */
function u16Table(sigma: number, mean: number, lo: number, hi: number): Int32Array {
  const q = normalQ16();
  const t = new Int32Array(65536);
  for (let u = 0; u < 65536; u++) t[u] = Math.max(lo, Math.min(hi, roundHalfEven(mean + sigma * q[u])));
  return t;
}

// ---- SHAKE-256 streams ----------------------------------------------------------------

class Streams {
  private readonly prefix: Buffer;

  constructor(seed: string) {
    this.prefix = Buffer.concat([
      Buffer.from('pikafish-random-net\0', 'latin1'),
      Buffer.from(seed, 'utf8'),
      Buffer.from([0]),
    ]);
  }

  bytes(label: string, n: number): Buffer {
    return createHash('shake256', { outputLength: n }).update(this.prefix).update(label, 'utf8').digest();
  }

  /** n normal integers: table[u16] for each little-endian u16 of the stream. */
  ints(label: string, n: number, table: Int32Array): Int32Array {
    const b = this.bytes(label, 2 * n);
    const out = new Int32Array(n);
    for (let i = 0, j = 0; i < n; i++, j += 2) out[i] = table[b[j] | (b[j + 1] << 8)];
    return out;
  }
}

// ---- output buffer -------------------------------------------------------------------

/** A growable little-endian byte writer (grows rarely: the caller reserves the size). */
class Writer {
  buf: Uint8Array;
  pos = 0;

  constructor(capacity: number) {
    this.buf = new Uint8Array(capacity);
  }

  reserve(n: number): void {
    if (this.pos + n <= this.buf.length) return;
    const grown = new Uint8Array(Math.max(this.pos + n, this.buf.length * 2));
    grown.set(this.buf.subarray(0, this.pos));
    this.buf = grown;
  }

  u32(v: number): void {
    this.reserve(4);
    const b = this.buf;
    const p = this.pos;
    b[p] = v & 0xff;
    b[p + 1] = (v >>> 8) & 0xff;
    b[p + 2] = (v >>> 16) & 0xff;
    b[p + 3] = (v >>> 24) & 0xff;
    this.pos = p + 4;
  }

  i32s(values: Int32Array): void {
    for (let i = 0; i < values.length; i++) this.u32(values[i] >>> 0);
  }

  bytes(src: Uint8Array): void {
    this.reserve(src.length);
    this.buf.set(src, this.pos);
    this.pos += src.length;
  }

  /** src mapped through a 256-entry byte table (i8 tensors). */
  translated(src: Uint8Array, table: Uint8Array): void {
    const n = src.length;
    this.reserve(n);
    const b = this.buf;
    const p = this.pos;
    for (let i = 0; i < n; i++) b[p + i] = table[src[i]];
    this.pos = p + n;
  }

  /** A LEB128 block: the magic, the u32 byte count, then signed LEB128 of every value. */
  leb128Block(values: Int32Array): void {
    this.reserve(LEB_MAGIC.length + 4 + 5 * values.length);
    for (let i = 0; i < LEB_MAGIC.length; i++) this.buf[this.pos++] = LEB_MAGIC.charCodeAt(i);
    const countAt = this.pos;
    this.pos += 4;
    const b = this.buf;
    let p = this.pos;
    for (let i = 0; i < values.length; i++) {
      let x = values[i] | 0;
      for (;;) {
        const byte = x & 0x7f;
        x >>= 7; // arithmetic: the shortest signed encoding
        if ((x === 0 && (byte & 0x40) === 0) || (x === -1 && (byte & 0x40) !== 0)) {
          b[p++] = byte;
          break;
        }
        b[p++] = byte | 0x80;
      }
    }
    const count = p - this.pos;
    this.pos = countAt;
    this.u32(count);
    this.pos = p;
  }

  result(): Uint8Array {
    return this.pos === this.buf.length ? this.buf : this.buf.subarray(0, this.pos);
  }
}

// ---- the network -------------------------------------------------------------------

/** Options of makeSyntheticNet; every magnitude defaults to the reference script's value. */
export interface SyntheticNetOptions {
  /** 'zstd-raw' (default): a zstd frame of stored blocks, as Pikafish loads it; 'none': the bare payload. */
  container?: 'zstd-raw' | 'none';
  /** Header description; default "random net, make_random_net.py seed=<seed>". */
  description?: string;
  /** Purely random piece-square PSQT weights instead of piece values plus noise. */
  noMaterial?: boolean;
  /** Do not sort the feature-transformer neuron pairs by activation likelihood. */
  noSortFt?: boolean;
  ftBiasMean?: number;
  ftBiasSigma?: number;
  ftPsqSigma?: number;
  ftThreatSigma?: number;
  psqtNoiseSigma?: number;
  threatPsqtSigma?: number;
  fc0Sigma?: number;
  fc0BiasSigma?: number;
  /** Factor on fc_0 rows 30 and 31, which also feed the skip connection. */
  skipScale?: number;
  fc1Sigma?: number;
  fc1BiasSigma?: number;
  fc2Sigma?: number;
  fc2BiasSigma?: number;
}

const DEFAULTS = {
  ftBiasMean: -24.0,
  ftBiasSigma: 64.0,
  ftPsqSigma: 6.0,
  ftThreatSigma: 6.0,
  psqtNoiseSigma: 128.0,
  threatPsqtSigma: 64.0,
  fc0Sigma: 40.0,
  fc0BiasSigma: 1000.0,
  skipScale: 0.5,
  fc1Sigma: 16.0,
  fc1BiasSigma: 1000.0,
  fc2Sigma: 16.0,
  fc2BiasSigma: 500.0,
};

const I32_MIN = -2147483648;
const I32_MAX = 2147483647;

/**
 * The 1024 i16 FT biases. Output j of a perspective multiplies accumulator slots j and
 * j + 512, so the biases come in 512 pairs; the pairs are ordered by (min, max)
 * descending (a stable sort: equal keys keep their order), most likely active first.
 */
function ftBiases(rng: Streams, o: Required<SyntheticNetOptions>): Int32Array {
  const half = L1 / 2;
  const table = u16Table(o.ftBiasSigma, o.ftBiasMean, -2000, 2000);
  const a = rng.ints('ft.bias.a', half, table);
  const b = rng.ints('ft.bias.b', half, table);
  const order = Array.from({ length: half }, (_, i) => i);
  if (!o.noSortFt) {
    order.sort((i, j) => {
      const d = Math.min(a[j], b[j]) - Math.min(a[i], b[i]);
      if (d !== 0) return d;
      const e = Math.max(a[j], b[j]) - Math.max(a[i], b[i]);
      return e !== 0 ? e : i - j;
    });
  }
  const out = new Int32Array(L1);
  for (let k = 0; k < half; k++) {
    out[k] = a[order[k]];
    out[half + k] = b[order[k]];
  }
  return out;
}

/** Piece-square PSQT: +-16 x piece value (own/enemy plane) + N(0, noise) per bucket. */
function materialPsqt(rng: Streams, noiseSigma: number): Int32Array {
  const planeValue = new Int32Array(PS_NB);
  let sq = 0;
  PLANE_SIZES.forEach((size, k) => {
    const v = (k < 7 ? 16 : -16) * PLANE_PIECE_VALUES[k];
    planeValue.fill(v, sq, sq + size);
    sq += size;
  });
  const values = rng.ints('ft.psq.psqt', PSQ_DIMS * PSQT_BUCKETS, u16Table(noiseSigma, 0.0, I32_MIN, I32_MAX));
  for (let f = 0, i = 0; f < PSQ_DIMS; f++) {
    const base = planeValue[f % PS_NB];
    for (let k = 0; k < PSQT_BUCKETS; k++, i++) values[i] += base;
  }
  return values;
}

function buildPayload(seed: string, o: Required<SyntheticNetOptions>): Uint8Array {
  const rng = new Streams(seed);
  const desc = Buffer.from(o.description, 'utf8');
  // i8 tensors, dense layers and headers have fixed sizes; the LEB128 blocks take
  // at most 3 bytes per value in practice (grows if not).
  const w = new Writer(
    12 +
      desc.length +
      4 +
      (THREAT_DIMS + PSQ_DIMS) * L1 +
      3 * (L1 + (THREAT_DIMS + PSQ_DIMS) * PSQT_BUCKETS) +
      3 * 25 +
      LAYER_STACKS * (4 + 4 * L2 + L2 * L1 + 4 * L3 + L3 * 2 * L2 + 4 + 2 * L2 + 2 * L3),
  );

  // Header (Network::write_header).
  w.u32(VERSION);
  w.u32(networkHash());
  w.u32(desc.length);
  w.bytes(desc);

  // Feature transformer (FeatureTransformer::write_parameters).
  w.u32(ftHash());
  w.leb128Block(ftBiases(rng, o));
  w.translated(rng.bytes('ft.threat.w', THREAT_DIMS * L1), i8Table(o.ftThreatSigma));
  w.leb128Block(
    rng.ints('ft.threat.psqt', THREAT_DIMS * PSQT_BUCKETS, u16Table(o.threatPsqtSigma, 0.0, I32_MIN, I32_MAX)),
  );
  w.translated(rng.bytes('ft.psq.w', PSQ_DIMS * L1), i8Table(o.ftPsqSigma));
  w.leb128Block(
    o.noMaterial
      ? rng.ints('ft.psq.psqt', PSQ_DIMS * PSQT_BUCKETS, u16Table(o.psqtNoiseSigma, 0.0, I32_MIN, I32_MAX))
      : materialPsqt(rng, o.psqtNoiseSigma),
  );

  // 16 layer stacks (NetworkArchitecture::write_parameters).
  const hash = stackHash();
  const fc0B = u16Table(o.fc0BiasSigma, 0.0, I32_MIN, I32_MAX);
  const fc1B = u16Table(o.fc1BiasSigma, 0.0, I32_MIN, I32_MAX);
  const fc2B = u16Table(o.fc2BiasSigma, 0.0, I32_MIN, I32_MAX);
  const fc0W = i8Table(o.fc0Sigma);
  const fc1W = i8Table(o.fc1Sigma);
  const fc2W = i8Table(o.fc2Sigma);
  for (let s = 0; s < LAYER_STACKS; s++) {
    const p = `stack${s}.`;
    w.u32(hash);
    w.i32s(rng.ints(`${p}fc0.b`, L2, fc0B));
    const w0At = w.pos;
    w.translated(rng.bytes(`${p}fc0.w`, L2 * L1), fc0W);
    if (o.skipScale !== 1.0) {
      // Rows 30 and 31 also form the skip connection (o0[30] - o0[31]): scale them down.
      for (let i = w0At + (L2 - 2) * L1; i < w0At + L2 * L1; i++) {
        const v = (w.buf[i] << 24) >> 24;
        w.buf[i] = roundHalfEven(v * o.skipScale) & 0xff;
      }
    }
    w.i32s(rng.ints(`${p}fc1.b`, L3, fc1B));
    w.translated(rng.bytes(`${p}fc1.w`, L3 * 2 * L2), fc1W);
    w.i32s(rng.ints(`${p}fc2.b`, 1, fc2B));
    w.translated(rng.bytes(`${p}fc2.w`, 2 * L2 + 2 * L3), fc2W);
  }
  return w.result();
}

/** A zstd frame of stored blocks (4-byte content size, 128 KiB window, no checksum). */
export function zstdStoredFrame(payload: Uint8Array): Uint8Array {
  const n = payload.length;
  if (n >= 2 ** 32) throw new RangeError('payload too large for a 4-byte zstd content size');
  const blocks = Math.max(1, Math.ceil(n / ZSTD_BLOCK));
  const out = new Uint8Array(10 + 3 * blocks + n);
  const view = new DataView(out.buffer);
  view.setUint32(0, ZSTD_MAGIC, true);
  out[4] = 0x80; // frame header descriptor: 4-byte content size, not single-segment
  out[5] = 0x38; // window descriptor: 2^17 bytes
  view.setUint32(6, n, true);
  let o = 10;
  for (let pos = 0; ;) {
    const size = Math.min(ZSTD_BLOCK, n - pos);
    const last = pos + size >= n;
    const header = (last ? 1 : 0) | (size << 3); // block type 0 = raw
    out[o] = header & 0xff;
    out[o + 1] = (header >>> 8) & 0xff;
    out[o + 2] = (header >>> 16) & 0xff;
    out.set(payload.subarray(pos, pos + size), o + 3);
    o += 3 + size;
    pos += size;
    if (last) break;
  }
  return out;
}

/**
 * The network file for `seed`, byte-identical to
 * `make_random_net.py --seed <seed>` (with the same options): a zstd frame of stored
 * blocks by default, or the bare payload with `{ container: 'none' }`.
 */
export function makeSyntheticNet(seed: number, options: SyntheticNetOptions = {}): Uint8Array {
  if (!Number.isSafeInteger(seed)) throw new RangeError(`synthetic net seed must be an integer, got ${seed}`);
  const seedText = String(seed);
  const o: Required<SyntheticNetOptions> = {
    ...DEFAULTS,
    container: 'zstd-raw',
    description: `random net, make_random_net.py seed=${seedText}`,
    noMaterial: false,
    noSortFt: false,
    ...Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined)),
  };
  const payload = buildPayload(seedText, o);
  return o.container === 'none' ? payload : zstdStoredFrame(payload);
}

let generatorHashCache: string | null = null;

/**
 * A short hash of the generator's code and constants (the functions' own text, not the
 * file's comments), so a changed generator never reuses an old file.
 */
function generatorHash(): string {
  if (generatorHashCache === null) {
    const parts: unknown[] = [
      normalQuantile,
      roundHalfEven,
      normalQ16,
      i8Table,
      u16Table,
      Streams,
      Writer,
      ftBiases,
      materialPsqt,
      buildPayload,
      zstdStoredFrame,
      makeSyntheticNet,
      ftHash,
      affineHash,
      reluHash,
      stackHash,
      rotl32,
    ];
    const h = createHash('sha256');
    for (const f of parts) h.update(String(f));
    h.update(
      JSON.stringify([
        VERSION,
        PSQ_HASH,
        THREAT_HASH,
        PS_NB,
        PSQ_DIMS,
        THREAT_DIMS,
        L1,
        L2,
        L3,
        PSQT_BUCKETS,
        LAYER_STACKS,
        LEB_MAGIC,
        PLANE_SIZES,
        PLANE_PIECE_VALUES,
        ZSTD_MAGIC,
        ZSTD_BLOCK,
        DEFAULTS,
        I32_MIN,
        I32_MAX,
      ]),
    );
    generatorHashCache = h.digest('hex').slice(0, 12);
  }
  return generatorHashCache;
}

/**
 * Writes the default (zstd) synthetic net for `seed` into os.tmpdir() once and returns
 * its path. The name holds the seed, the generator version and a hash of the generator
 * code; the file is written under a temporary name and renamed into place, so parallel
 * test processes never see a partial file.
 */
export function syntheticNetFile(seed = 1): string {
  const path = join(tmpdir(), `kirin-synthetic-net-seed${seed}-v${SYNTHETIC_NET_VERSION}-${generatorHash()}.nnue`);
  if (existsSync(path)) return path;
  const bytes = makeSyntheticNet(seed);
  const temp = `${path}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    writeFileSync(temp, bytes);
    renameSync(temp, path);
  } catch (e) {
    try {
      unlinkSync(temp);
    } catch {
      // already gone
    }
    throw e;
  }
  return path;
}
