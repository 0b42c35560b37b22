// The file format of Kirin's own networks (`.knet`, docs/NETWORK.md), read by
// the engine and written by the trainer. Little-endian throughout:
//
//   0   8 bytes  magic "KIRINNET"
//   8   u32      format version (1)
//   12  u32      inputs per perspective (arch.ts INPUTS)
//   16  u32      hidden size H (a multiple of 16, at most MAX_HIDDEN)
//   20  u32      output buckets (1..MAX_OUTPUT_BUCKETS)
//   24  u32      activation (1 = SCReLU)
//   28  u16 QA, u16 QB, u32 SCALE   (the quantisation: arch.ts; output terms >> 8)
//   36  u32      flags: bit 0 = tensors stored as signed LEB128
//   40  u32      description length in bytes (at most 4096), then UTF-8 text
//   then four tensors, each a u32 byte length and its bytes:
//       feature weights  int16[inputs][H]
//       feature biases   int16[H]
//       output weights   int16[buckets][2H]   (the side to move's half first)
//       output biases    int32[buckets]   (at QA * QB >> 8)
//   last 4 bytes: u32 FNV-1a hash of every byte before it.
//
// A file is checked completely before it is used: magic, version, shape,
// quantisation, every tensor's length (and each LEB128 value), the hash, and
// that nothing follows. Errors are Results with a code and a clear message.

import { err, ok, type Result } from '../../core/result.js';
import {
  INPUTS,
  MAX_HIDDEN,
  MAX_OUTPUT_BUCKETS,
  MAX_OUTPUT_WEIGHT,
  QA,
  QB,
  SCALE,
  type KirinNetShape,
} from './arch.js';

export const KNET_MAGIC = 'KIRINNET';
export const KNET_VERSION = 1;
const ACTIVATION_SCRELU = 1;
const FLAG_LEB128 = 1;
const MAX_DESCRIPTION = 4096;
const HEADER_BYTES = 44;

/** A network's integer weights and what the file says about them. */
export interface KirinNetWeights {
  readonly shape: KirinNetShape;
  readonly description: string;
  /** int16[inputs * H], row i = input i. */
  readonly ftWeights: Int16Array;
  readonly ftBias: Int16Array;
  /** int16[buckets * 2H]: bucket b's weights at b * 2H, the side to move's H first. */
  readonly outWeights: Int16Array;
  readonly outBias: Int32Array;
}

export type KnetLoadCode =
  | 'not-knet'
  | 'truncated'
  | 'bad-version'
  | 'bad-shape'
  | 'bad-quantisation'
  | 'bad-tensor'
  | 'bad-hash'
  | 'trailing-bytes';

/** True when `bytes` start with the magic of a Kirin network file. */
export function isKirinNet(bytes: Uint8Array): boolean {
  if (bytes.length < 8) return false;
  for (let i = 0; i < 8; i++) if (bytes[i] !== KNET_MAGIC.charCodeAt(i)) return false;
  return true;
}

/** 32-bit FNV-1a of bytes[0 .. end). */
export function fnv1a(bytes: Uint8Array, end = bytes.length): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < end; i++) h = Math.imul(h ^ bytes[i], 0x01000193);
  return h >>> 0;
}

/** Checks a shape: the inputs this engine computes, H a multiple of 16, buckets in range. */
export function checkShape(s: KirinNetShape): string | null {
  if (s.inputs !== INPUTS) return `${s.inputs} inputs per perspective (this engine computes ${INPUTS})`;
  if (s.hidden < 16 || s.hidden > MAX_HIDDEN || s.hidden % 16 !== 0)
    return `hidden size ${s.hidden} (must be a multiple of 16 from 16 to ${MAX_HIDDEN})`;
  if (s.outputBuckets < 1 || s.outputBuckets > MAX_OUTPUT_BUCKETS)
    return `${s.outputBuckets} output buckets (must be 1 to ${MAX_OUTPUT_BUCKETS})`;
  return null;
}

// ---- Writing --------------------------------------------------------------------

class ByteWriter {
  private buf = new Uint8Array(1 << 16);
  length = 0;
  private ensure(n: number): void {
    if (this.length + n <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < this.length + n) size *= 2;
    const b = new Uint8Array(size);
    b.set(this.buf.subarray(0, this.length));
    this.buf = b;
  }
  u8(v: number): void {
    this.ensure(1);
    this.buf[this.length++] = v & 255;
  }
  u16(v: number): void {
    this.u8(v);
    this.u8(v >>> 8);
  }
  u32(v: number): void {
    this.u16(v & 0xffff);
    this.u16(v >>> 16);
  }
  bytes(b: Uint8Array): void {
    this.ensure(b.length);
    this.buf.set(b, this.length);
    this.length += b.length;
  }
  sleb(v: number): void {
    for (;;) {
      const byte = v & 0x7f;
      v >>= 7;
      const done = (v === 0 && (byte & 0x40) === 0) || (v === -1 && (byte & 0x40) !== 0);
      this.u8(done ? byte : byte | 0x80);
      if (done) return;
    }
  }
  result(): Uint8Array {
    return this.buf.slice(0, this.length);
  }
}

function encodeTensor(values: Int16Array | Int32Array, leb: boolean): Uint8Array {
  const w = new ByteWriter();
  if (leb) for (let i = 0; i < values.length; i++) w.sleb(values[i]);
  else if (values instanceof Int16Array) for (let i = 0; i < values.length; i++) w.u16(values[i]);
  else for (let i = 0; i < values.length; i++) w.u32(values[i]);
  return w.result();
}

/**
 * The file bytes of a network. Tensors are stored as signed LEB128 when that
 * is smaller than raw little-endian (it is for trained networks: most weights
 * fit in one or two bytes), unless `leb128` forces a choice.
 */
export function encodeKirinNet(net: KirinNetWeights, leb128?: boolean): Uint8Array {
  const problem = checkShape(net.shape) ?? checkSizes(net);
  if (problem) throw new RangeError(`encodeKirinNet: ${problem}`);
  const tensors = [net.ftWeights, net.ftBias, net.outWeights, net.outBias];
  const raw = tensors.map((t) => encodeTensor(t, false));
  const leb = tensors.map((t) => encodeTensor(t, true));
  const size = (ts: Uint8Array[]) => ts.reduce((a, t) => a + t.length, 0);
  const useLeb = leb128 ?? size(leb) < size(raw);
  const desc = new TextEncoder().encode(net.description);
  if (desc.length > MAX_DESCRIPTION) throw new RangeError(`encodeKirinNet: description over ${MAX_DESCRIPTION} bytes`);
  const w = new ByteWriter();
  for (let i = 0; i < 8; i++) w.u8(KNET_MAGIC.charCodeAt(i));
  w.u32(KNET_VERSION);
  w.u32(net.shape.inputs);
  w.u32(net.shape.hidden);
  w.u32(net.shape.outputBuckets);
  w.u32(ACTIVATION_SCRELU);
  w.u16(QA);
  w.u16(QB);
  w.u32(SCALE);
  w.u32(useLeb ? FLAG_LEB128 : 0);
  w.u32(desc.length);
  w.bytes(desc);
  for (const t of useLeb ? leb : raw) {
    w.u32(t.length);
    w.bytes(t);
  }
  const body = w.result();
  w.u32(fnv1a(body));
  return w.result();
}

function checkSizes(net: KirinNetWeights): string | null {
  const { inputs, hidden, outputBuckets } = net.shape;
  if (net.ftWeights.length !== inputs * hidden) return 'feature weights of the wrong size';
  if (net.ftBias.length !== hidden) return 'feature biases of the wrong size';
  if (net.outWeights.length !== outputBuckets * 2 * hidden) return 'output weights of the wrong size';
  if (net.outBias.length !== outputBuckets) return 'output biases of the wrong size';
  return checkOutputRange(net.outWeights);
}

/** Output weights stay within +-MAX_OUTPUT_WEIGHT (arch.ts), so no output sum can overflow. */
function checkOutputRange(w: Int16Array): string | null {
  for (let i = 0; i < w.length; i++)
    if (w[i] > MAX_OUTPUT_WEIGHT || w[i] < -MAX_OUTPUT_WEIGHT)
      return `output weight ${i} is ${w[i]}, outside +-${MAX_OUTPUT_WEIGHT}`;
  return null;
}

// ---- Reading --------------------------------------------------------------------

/**
 * Reads and checks a network file's bytes (`name` for messages). Everything is
 * checked before anything is returned; a damaged file is refused with a code.
 */
export function decodeKirinNet(bytes: Uint8Array, name: string): Result<KirinNetWeights, KnetLoadCode> {
  const fail = (code: KnetLoadCode, why: string) => err(code, `${name}: ${why}`);
  if (!isKirinNet(bytes)) return fail('not-knet', 'not a Kirin network file (no KIRINNET magic)');
  if (bytes.length < HEADER_BYTES + 4)
    return fail('truncated', `truncated: ${bytes.length} bytes, shorter than the header`);
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const version = dv.getUint32(8, true);
  if (version !== KNET_VERSION)
    return fail('bad-version', `format version ${version}; this engine reads version ${KNET_VERSION}`);
  const shape: KirinNetShape = {
    inputs: dv.getUint32(12, true),
    hidden: dv.getUint32(16, true),
    outputBuckets: dv.getUint32(20, true),
  };
  const shapeProblem = checkShape(shape);
  if (shapeProblem) return fail('bad-shape', `unsupported architecture: ${shapeProblem}`);
  const activation = dv.getUint32(24, true);
  if (activation !== ACTIVATION_SCRELU) return fail('bad-shape', `unknown activation ${activation} (1 = SCReLU)`);
  const qa = dv.getUint16(28, true),
    qb = dv.getUint16(30, true),
    scale = dv.getUint32(32, true);
  if (qa !== QA || qb !== QB || scale !== SCALE)
    return fail(
      'bad-quantisation',
      `quantisation QA ${qa}, QB ${qb}, SCALE ${scale} (this engine: ${QA}, ${QB}, ${SCALE})`,
    );
  const flags = dv.getUint32(36, true);
  if ((flags & ~FLAG_LEB128) !== 0) return fail('bad-version', `unknown flags 0x${flags.toString(16)}`);
  const descLength = dv.getUint32(40, true);
  if (descLength > MAX_DESCRIPTION)
    return fail('bad-shape', `description of ${descLength} bytes (at most ${MAX_DESCRIPTION})`);
  const hashAt = bytes.length - 4;
  let at = HEADER_BYTES + descLength;
  if (at > hashAt) return fail('truncated', `truncated in the description (${bytes.length} bytes)`);
  let description: string;
  try {
    description = new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(HEADER_BYTES, at));
  } catch {
    return fail('bad-shape', 'the description is not UTF-8');
  }
  const { inputs, hidden, outputBuckets } = shape;
  const leb = (flags & FLAG_LEB128) !== 0;
  const specs: [string, number, 16 | 32][] = [
    ['feature weights', inputs * hidden, 16],
    ['feature biases', hidden, 16],
    ['output weights', outputBuckets * 2 * hidden, 16],
    ['output biases', outputBuckets, 32],
  ];
  const tensors: (Int16Array | Int32Array)[] = [];
  for (const [what, count, bits] of specs) {
    if (at + 4 > hashAt) return fail('truncated', `truncated before the ${what}`);
    const length = dv.getUint32(at, true);
    at += 4;
    if (length > hashAt - at) return fail('truncated', `truncated in the ${what} (${length} bytes declared)`);
    const out = bits === 16 ? new Int16Array(count) : new Int32Array(count);
    const problem = leb
      ? readLeb(bytes, at, at + length, out, bits)
      : length !== count * (bits / 8)
        ? `${length} bytes for ${count} values`
        : readRaw(dv, at, out, bits);
    if (problem) return fail('bad-tensor', `${what}: ${problem}`);
    tensors.push(out);
    at += length;
  }
  if (at !== hashAt) return fail('trailing-bytes', `${hashAt - at} unexpected bytes after the output biases`);
  const stored = dv.getUint32(hashAt, true),
    actual = fnv1a(bytes, hashAt);
  if (stored !== actual)
    return fail('bad-hash', `damaged: hash ${hex(actual)} does not match the stored ${hex(stored)}`);
  const range = checkOutputRange(tensors[2] as Int16Array);
  if (range) return fail('bad-tensor', range);
  return ok({
    shape,
    description,
    ftWeights: tensors[0] as Int16Array,
    ftBias: tensors[1] as Int16Array,
    outWeights: tensors[2] as Int16Array,
    outBias: tensors[3] as Int32Array,
  });
}

const hex = (v: number) => v.toString(16).padStart(8, '0');

function readRaw(dv: DataView, at: number, out: Int16Array | Int32Array, bits: 16 | 32): null {
  if (bits === 16) for (let i = 0; i < out.length; i++) out[i] = dv.getInt16(at + 2 * i, true);
  else for (let i = 0; i < out.length; i++) out[i] = dv.getInt32(at + 4 * i, true);
  return null;
}

function readLeb(
  bytes: Uint8Array,
  at: number,
  end: number,
  out: Int16Array | Int32Array,
  bits: 16 | 32,
): string | null {
  const max = bits === 16 ? 32767 : 2147483647;
  for (let i = 0; i < out.length; i++) {
    let v = 0,
      shift = 0,
      byte = 0x80;
    while (byte & 0x80) {
      if (at >= end) return `ends after ${i} of ${out.length} values`;
      if (shift > 35) return `value ${i} is not a valid LEB128 number`;
      byte = bytes[at++];
      v += (byte & 0x7f) * 2 ** shift;
      shift += 7;
    }
    if (byte & 0x40) v -= 2 ** shift;
    if (v > max || v < -max - 1) return `value ${i} (${v}) out of the int${bits} range`;
    out[i] = v;
  }
  if (at !== end) return `${end - at} bytes left after ${out.length} values`;
  return null;
}
