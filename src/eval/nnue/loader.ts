// Loading a Pikafish network file (docs/NNUE.md, Pikafish's Network::load and
// read_parameters): the file is found as Pikafish finds it, unpacked when it is
// zstd (as Pikafish ships it; plain payloads are accepted too), checked field
// by field - version, hashes, LEB128 blocks with exact byte counts, tensor
// sizes, the exact end - and written straight into one linear memory at the
// offsets of layout.ts. Every failure is a Result with a code and a message
// that names the file, the problem and the expected format; nothing throws.
//
// zstd: the WebAssembly decoder (zstd-wasm.ts: the reference zstd C decoder as
// npm `zstddec` compiles it, a few times faster than JavaScript) once
// prepareNetworkDecoder() has compiled it (WebAssembly compiles asynchronously);
// the JavaScript decoder of npm `fzstd`
// before that, where WebAssembly is missing, and for every stream the WebAssembly
// path does not take or refuses (no declared size, several frames, damaged
// data: fzstd then decodes it or words the error). Both give the same bytes.

import { Decompress } from 'fzstd';
import { err, ok, type KirinError, type Result } from '../../core/result.js';
import { loadZstdModule, openNetworkFile } from '#platform/files';
import { preparePageToucher, touchPagesAhead } from '#platform/page-toucher';
import type { ByteRange } from '../../platform/page-touch.js';
import type { NetworkFileCode, OpenedNetworkFile } from '../../platform/seam.js';
import { WasmZstd } from './zstd-wasm.js';
import {
  FC0_BIAS,
  FC0_WEIGHTS,
  FC1_BIAS,
  FC1_WEIGHTS,
  FC2_BIAS,
  FC2_WEIGHTS,
  FT_BIAS,
  FT_PSQT,
  FT_WEIGHTS,
  L1,
  L2,
  L3,
  LAYER_STACKS,
  PSQ_DIMS,
  PSQT_BUCKETS,
  STACKS,
  STACK_BYTES,
  THREAT_DIMS,
  WEIGHTS_END,
} from './layout.js';

export type NnueLoadCode =
  | 'not-found'
  | 'unreadable'
  | 'empty'
  | 'truncated'
  | 'bad-zstd'
  | 'bad-version'
  | 'bad-hash'
  | 'bad-leb128'
  | 'trailing-bytes'
  | 'too-large';

/** Version of the file format (nnue_common.h). */
export const NNUE_VERSION = 0x6a448afa;

const rotl1 = (h: number): number => ((h << 1) | (h >>> 31)) >>> 0;
/** Feature-transformer hash: FullThreats then HalfKAv2_hm combined, xor 2 * L1. */
export const FT_HASH = (rotl1(rotl1(0) ^ 0x2e6b9d04) ^ 0x7f234cb8 ^ (2 * L1)) >>> 0;
function affineHash(prev: number, outputs: number): number {
  return ((0xcc03dae4 + outputs) ^ (prev >>> 1) ^ (prev << 31)) >>> 0;
}
const clippedReluHash = (prev: number): number => (0x538d24c7 + prev) >>> 0;
/** Layer-stack hash (NetworkArchitecture::get_hash_value). */
export const STACK_HASH = affineHash(
  clippedReluHash(affineHash(clippedReluHash(affineHash((0xec42e90d ^ (2 * L1)) >>> 0, L2)), L3)),
  1,
);
/** Network hash in the file header. */
export const NETWORK_HASH = (FT_HASH ^ STACK_HASH) >>> 0;

/** Payloads larger than this are refused before they are unpacked (a real one is about 64 MiB). */
export const MAX_PAYLOAD_BYTES = 256 * 1024 * 1024;

const hex = (v: number): string => '0x' + (v >>> 0).toString(16).toUpperCase().padStart(8, '0');

/** What the loader expects, for error messages. */
const EXPECTED_FORMAT =
  `expected a Pikafish NNUE network: version ${hex(NNUE_VERSION)}, architecture hash ${hex(NETWORK_HASH)} ` +
  `(HalfKAv2_hm + FullThreats -> 2x${L1} -> ${L2} -> ${L3} -> 1, ${LAYER_STACKS} layer stacks), zstd-compressed as Pikafish ships it, or plain; or a Kirin network (.knet, starting with KIRINNET)`;

export interface NetworkData {
  /** The file that was loaded (as found). */
  readonly path: string;
  /** The description stored in the file. */
  readonly description: string;
  /** Size of the unpacked payload in bytes. */
  readonly payloadBytes: number;
  /** True when the file was zstd-compressed. */
  readonly compressed: boolean;
  /** The zstd decoder that unpacked it (null when it was plain). */
  readonly decoder?: ZstdDecoderName;
}

type Fail = { readonly ok: false; readonly error: { code: NnueLoadCode; message: string } };
const fail = (code: NnueLoadCode, name: string, problem: string): Fail =>
  err(code, `network file '${name}' ${problem}; ${EXPECTED_FORMAT}`);

/** A network file that could not be read, as the loader words it (with the format it expects). */
export function networkFileError(e: KirinError<NetworkFileCode>): Fail {
  return err(e.code, `${e.message}; ${EXPECTED_FORMAT}`);
}

const ZSTD_MAGIC = 0xfd2fb528;
const isZstd = (b: Uint8Array): boolean => {
  if (b.length < 4) return false;
  const m = (b[0] | (b[1] << 8) | (b[2] << 16) | (b[3] << 24)) >>> 0;
  return m === ZSTD_MAGIC || (m >= 0x184d2a50 && m <= 0x184d2a5f);
};

/** The WebAssembly zstd decoder, once prepareNetworkDecoder() has compiled it. */
let wasmDecoder: WasmZstd | null = null;
let preparing: Promise<boolean> | null = null;

/**
 * Compiles the WebAssembly zstd decoder, so that later network loads unpack
 * with it (a few times faster than the JavaScript decoder used until then).
 * Resolves to false where it cannot be had (no WebAssembly): loads then use the
 * JavaScript decoder (a later call tries again). The command line does this at
 * start-up; a page or an application can await it before loading a network.
 * In a browser it also makes the worker that touches a new network's pages
 * during a load (page-toucher.ts).
 */
export function prepareNetworkDecoder(): Promise<boolean> {
  preparePageToucher();
  preparing ??= (async () => {
    try {
      wasmDecoder = await WasmZstd.create(await loadZstdModule());
      return true;
    } catch {
      preparing = null;
      return false;
    }
  })();
  return preparing;
}

/** The content size a zstd frame header declares (null when it declares none or is not a zstd frame). */
function frameContentSize(b: Uint8Array): number | null {
  if (b.length < 6 || (b[0] | (b[1] << 8) | (b[2] << 16) | (b[3] << 24)) >>> 0 !== ZSTD_MAGIC) return null;
  const fhd = b[4];
  const single = (fhd >> 5) & 1;
  const fcsBytes = [single, 2, 4, 8][fhd >> 6];
  if (fcsBytes === 0) return null;
  const at = 5 + (single ? 0 : 1) + [0, 1, 2, 4][fhd & 3];
  if (b.length < at + fcsBytes) return null;
  const u32 = (i: number): number => (b[i] | (b[i + 1] << 8) | (b[i + 2] << 16) | (b[i + 3] << 24)) >>> 0;
  if (fcsBytes === 1) return b[at];
  if (fcsBytes === 2) return (b[at] | (b[at + 1] << 8)) + 256;
  if (fcsBytes === 4) return u32(at);
  return u32(at + 4) === 0 ? u32(at) : Infinity;
}

/** Pieces of a buffer handed to the parser or the WebAssembly decoder (views, no copies; the decoder copies each into its own memory). */
const BYTES_PIECE = 1 << 20;

/** `bytes` in pieces of BYTES_PIECE. */
function* bytePieces(bytes: Uint8Array): Generator<Uint8Array> {
  for (let i = 0; i < bytes.length; i += BYTES_PIECE) yield bytes.subarray(i, i + BYTES_PIECE);
}

/**
 * Unpacks one zstd frame of declared size with the WebAssembly decoder, output
 * piece by piece into one buffer of that size (zstdSource). Null when it does
 * not apply or fails (the caller then uses fzstd, which words the error).
 */
function unpackWasm(d: WasmZstd, bytes: Uint8Array): Uint8Array | null {
  const size = frameContentSize(bytes);
  if (size === null || size === 0 || size > MAX_PAYLOAD_BYTES) return null;
  const out = new Uint8Array(size);
  const source = zstdSource(d, bytePieces(bytes), size);
  let at = 0;
  // zstdSource never gives more than `size` bytes in all.
  for (let piece = source.next(); piece !== null; piece = source.next()) {
    out.set(piece, at);
    at += piece.length;
  }
  return source.finish() ? out : null;
}

/** Which zstd decoder unpacked a file (null: it was not compressed). */
export type ZstdDecoderName = 'zstddec' | 'fzstd' | null;

/**
 * Unpacks the file contents: zstd (detected by its magic) or plain. `js`: use
 * the JavaScript decoder even when the WebAssembly one is ready (for comparisons).
 */
export function unpackContainer(
  bytes: Uint8Array,
  name: string,
  js = false,
): Result<{ payload: Uint8Array; compressed: boolean; decoder: ZstdDecoderName }, NnueLoadCode> {
  if (bytes.length === 0) return fail('empty', name, 'is empty (0 bytes)');
  if (!isZstd(bytes)) return ok({ payload: bytes, compressed: false, decoder: null });
  if (wasmDecoder && !js) {
    const payload = unpackWasm(wasmDecoder, bytes);
    if (payload) return ok({ payload, compressed: true, decoder: 'zstddec' });
  }
  const chunks: Uint8Array[] = [];
  let total = 0;
  let tooLarge = false;
  try {
    const d = new Decompress((chunk) => {
      total += chunk.length;
      if (total > MAX_PAYLOAD_BYTES) {
        tooLarge = true;
        throw new Error('too large');
      }
      chunks.push(chunk);
    });
    d.push(bytes, true);
  } catch (e) {
    if (tooLarge) return fail('too-large', name, `unpacks to more than ${MAX_PAYLOAD_BYTES} bytes`);
    const msg = (e as Error).message || String(e);
    return fail('bad-zstd', name, `is not valid zstd data (${msg}) after ${total} unpacked bytes`);
  }
  if (total === 0) return fail('bad-zstd', name, 'is a zstd stream that unpacks to nothing');
  if (chunks.length === 1) return ok({ payload: chunks[0], compressed: true, decoder: 'fzstd' });
  const payload = new Uint8Array(total);
  let at = 0;
  for (const c of chunks) {
    payload.set(c, at);
    at += c.length;
  }
  return ok({ payload, compressed: true, decoder: 'fzstd' });
}

/**
 * The memory of a network: a WebAssembly.Memory (typed structurally, as the
 * project's TypeScript libraries do not declare WebAssembly).
 */
export interface NnueMemory {
  readonly buffer: ArrayBuffer | SharedArrayBuffer;
  /** WebAssembly.Memory.grow: adds pages, returns the old page count (throws past the maximum). */
  grow?(pages: number): number;
}
/** The most pages a shared network memory may grow to (4 GiB, the wasm32 limit; the kernels' module allows it). */
const MAX_SHARED_PAGES = 65536;
type MemoryConstructor = new (d: { initial: number; maximum?: number; shared?: boolean }) => NnueMemory;

/**
 * The memory a network lives in: the weights at the offsets of layout.ts, then
 * `workBytes` of work areas. A WebAssembly.Memory; where the runtime has no
 * WebAssembly (switched off, a JIT-less mode) a plain buffer of the same size,
 * on which the portable kernels run (it cannot grow).
 */
export function allocateNetworkMemory(workBytes: number, shared = typeof SharedArrayBuffer === 'function'): NnueMemory {
  const pages = Math.ceil((WEIGHTS_END + workBytes) / 65536);
  const WasmMemory = (globalThis as unknown as { WebAssembly?: { Memory: MemoryConstructor } }).WebAssembly?.Memory;
  if (WasmMemory === undefined)
    return { buffer: shared ? new SharedArrayBuffer(pages * 65536) : new ArrayBuffer(pages * 65536) };
  return shared
    ? // A shared memory may grow later (more search threads need more work slots).
      new WasmMemory({ initial: pages, maximum: Math.max(pages, MAX_SHARED_PAGES), shared: true })
    : new WasmMemory({ initial: pages, maximum: pages });
}

const LEB_MAGIC = 'COMPRESSED_LEB128';

/** The weights' byte ranges in the order parsePayload fills them (the file's order). */
const PARSE_ORDER: readonly ByteRange[] = [
  [FT_BIAS, FT_BIAS + 2 * L1],
  [FT_WEIGHTS + PSQ_DIMS * L1, FT_WEIGHTS + (PSQ_DIMS + THREAT_DIMS) * L1],
  [FT_PSQT + 4 * PSQ_DIMS * PSQT_BUCKETS, FT_PSQT + 4 * (PSQ_DIMS + THREAT_DIMS) * PSQT_BUCKETS],
  [FT_WEIGHTS, FT_WEIGHTS + PSQ_DIMS * L1],
  [FT_PSQT, FT_PSQT + 4 * PSQ_DIMS * PSQT_BUCKETS],
  [STACKS, WEIGHTS_END],
];

/** A fresh network memory whose weight pages a helper thread starts touching ahead of the parser (page-toucher.ts). */
function freshNetworkMemory(workBytes: number): NnueMemory {
  const memory = allocateNetworkMemory(workBytes);
  touchPagesAhead(memory.buffer, PARSE_ORDER);
  return memory;
}

/**
 * A payload piece by piece, in order: a file read in pieces, a zstd stream's
 * output, or one whole buffer. A piece may be reused for the next one once it
 * is asked for (the parser copies what it keeps). `total` is the payload's size
 * as declared (the file's size, the zstd frame's content size).
 */
export interface PayloadSource {
  readonly total: number;
  /** The next piece; null at the end. */
  next(): Uint8Array | null;
}

/** A whole payload as a source of one piece. */
function wholeSource(payload: Uint8Array): PayloadSource {
  let given = false;
  return {
    total: payload.length,
    next: () => {
      if (given) return null;
      given = true;
      return payload;
    },
  };
}

/** The source gave fewer bytes than it declared (a damaged stream: the caller falls back to the whole payload). */
class SourceEnded extends Error {}

/** Reads a payload source from the front, across its pieces. */
class Reader {
  private piece: Uint8Array = new Uint8Array(0);
  private at = 0;
  /** Payload offset of piece[0]. */
  private base = 0;
  constructor(private readonly source: PayloadSource) {}
  get total(): number {
    return this.source.total;
  }
  get pos(): number {
    return this.base + this.at;
  }
  get left(): number {
    return this.source.total - this.pos;
  }
  /** Makes piece[at] readable (throws SourceEnded when the source has no more). */
  private more(): void {
    while (this.at >= this.piece.length) {
      const p = this.source.next();
      if (p === null) throw new SourceEnded();
      this.base += this.piece.length;
      this.piece = p;
      this.at = 0;
    }
  }
  u8(): number {
    if (this.at >= this.piece.length) this.more();
    return this.piece[this.at++];
  }
  u32(): number {
    return (this.u8() | (this.u8() << 8) | (this.u8() << 16) | (this.u8() << 24)) >>> 0;
  }
  /** Copies the next n bytes to dest[to ...]. */
  copy(dest: Uint8Array, to: number, n: number): void {
    while (n > 0) {
      if (this.at >= this.piece.length) this.more();
      const k = Math.min(n, this.piece.length - this.at);
      dest.set(this.piece.subarray(this.at, this.at + k), to);
      this.at += k;
      to += k;
      n -= k;
    }
  }
  bytes(n: number): Uint8Array {
    const out = new Uint8Array(n);
    this.copy(out, 0, n);
    return out;
  }
}

/**
 * Parses a payload and writes its parameters into `memory` (layout.ts), or
 * into the memory `memory()` returns once the header has been checked (so a
 * file with a wrong header costs no allocation). On failure the memory may
 * hold part of the weights: callers load into a fresh memory and keep the
 * previous network until the load succeeds. Throws SourceEnded only when a
 * source gives fewer bytes than it declared.
 */
export function parsePayload(
  payload: Uint8Array | PayloadSource,
  memory: ArrayBufferLike | (() => ArrayBufferLike),
  name: string,
): Result<string, NnueLoadCode> {
  const r = new Reader(payload instanceof Uint8Array ? wholeSource(payload) : payload);
  const need = (n: number, what: string): Fail | null =>
    r.left < n
      ? fail(
          'truncated',
          name,
          `is truncated: ${what} needs ${n} bytes at offset ${r.pos}, but only ${r.left} remain (payload ${r.total} bytes)`,
        )
      : null;

  let e = need(4, 'the version');
  if (e) return e;
  const versionBytes = r.bytes(4);
  const version = new DataView(versionBytes.buffer).getUint32(0, true);
  if (version !== NNUE_VERSION) {
    return fail(
      'bad-version',
      name,
      `has version ${hex(version)} (first bytes ${Array.from(versionBytes, (b) => b.toString(16).padStart(2, '0')).join(' ')}), not ${hex(NNUE_VERSION)}`,
    );
  }
  if ((e = need(8, 'the header'))) return e;
  const netHash = r.u32();
  if (netHash !== NETWORK_HASH)
    return fail(
      'bad-hash',
      name,
      `has architecture hash ${hex(netHash)}, not ${hex(NETWORK_HASH)} (a different network architecture)`,
    );
  const descLen = r.u32();
  if (descLen > r.left) {
    return fail(
      descLen > MAX_PAYLOAD_BYTES || descLen > r.total ? 'too-large' : 'truncated',
      name,
      `claims a description of ${descLen} bytes, but only ${r.left} bytes follow`,
    );
  }
  const description = new TextDecoder().decode(r.bytes(descLen));
  if ((e = need(4, 'the feature-transformer hash'))) return e;
  const ftHash = r.u32();
  if (ftHash !== FT_HASH)
    return fail('bad-hash', name, `has feature-transformer hash ${hex(ftHash)}, not ${hex(FT_HASH)}`);

  const buffer = typeof memory === 'function' ? memory() : memory;
  const mem8 = new Uint8Array(buffer);
  const memView = new DataView(buffer);

  // A LEB128 block: magic, byte count, exactly `count` signed values in exactly
  // that many bytes, decoded as Pikafish's read_leb_128 does into `dest`
  // (an Int16Array or Int32Array view) from index `at`.
  const leb = (count: number, dest: Int16Array | Int32Array, at: number, what: string): Fail | null => {
    const f = need(21, `the ${what} block header`);
    if (f) return f;
    const markerAt = r.pos;
    let marked = true;
    for (let i = 0; i < 17; i++) if (r.u8() !== LEB_MAGIC.charCodeAt(i)) marked = false;
    if (!marked)
      return fail('bad-leb128', name, `has no COMPRESSED_LEB128 marker for the ${what} at offset ${markerAt}`);
    const bytes = r.u32();
    if (bytes > r.left) {
      return fail(
        bytes > r.total ? 'too-large' : 'truncated',
        name,
        `claims ${bytes} LEB128 bytes for the ${what}, but only ${r.left} bytes follow`,
      );
    }
    let used = 0;
    const maxShift = dest instanceof Int16Array ? 21 : 35;
    for (let i = 0; i < count; i++) {
      let v = 0,
        shift = 0,
        byte = 0;
      do {
        if (used >= bytes)
          return fail(
            'bad-leb128',
            name,
            `has ${bytes} LEB128 bytes for the ${what}, too few for ${count} values (value ${i} incomplete)`,
          );
        byte = r.u8();
        used++;
        if (shift < 32) v |= (byte & 0x7f) << shift;
        shift += 7;
        if (shift > maxShift)
          return fail('bad-leb128', name, `has an over-long LEB128 value in the ${what} (value ${i})`);
      } while (byte & 0x80);
      if (byte & 0x40 && shift < 32) v |= -1 << shift;
      dest[at + i] = v;
    }
    if (used !== bytes)
      return fail(
        'bad-leb128',
        name,
        `has ${bytes - used} unused bytes in the LEB128 block of the ${what} (${count} values in ${bytes} bytes expected to end exactly)`,
      );
    return null;
  };
  const plain = (bytes: number, dest: number, what: string): Fail | null => {
    const f = need(bytes, what);
    if (f) return f;
    r.copy(mem8, dest, bytes);
    return null;
  };

  const mem16 = new Int16Array(buffer, 0, buffer.byteLength >> 1);
  const mem32 = new Int32Array(buffer, 0, buffer.byteLength >> 2);
  if ((e = leb(L1, mem16, FT_BIAS >> 1, 'feature-transformer biases'))) return e;
  // The file stores threat weights first; in memory threat rows follow the piece-square rows.
  if ((e = plain(THREAT_DIMS * L1, FT_WEIGHTS + PSQ_DIMS * L1, 'the threat weights'))) return e;
  if ((e = leb(THREAT_DIMS * PSQT_BUCKETS, mem32, (FT_PSQT >> 2) + PSQ_DIMS * PSQT_BUCKETS, 'threat PSQT weights')))
    return e;
  if ((e = plain(PSQ_DIMS * L1, FT_WEIGHTS, 'the piece-square weights'))) return e;
  if ((e = leb(PSQ_DIMS * PSQT_BUCKETS, mem32, FT_PSQT >> 2, 'piece-square PSQT weights'))) return e;

  for (let s = 0; s < LAYER_STACKS; s++) {
    const base = STACKS + s * STACK_BYTES;
    if ((e = need(4, `the hash of layer stack ${s}`))) return e;
    const h = r.u32();
    if (h !== STACK_HASH)
      return fail('bad-hash', name, `has layer-stack hash ${hex(h)} in stack ${s}, not ${hex(STACK_HASH)}`);
    const i32s = (n: number, dest: number, what: string): Fail | null => {
      const f = need(4 * n, what);
      if (f) return f;
      for (let i = 0; i < n; i++) memView.setInt32(dest + 4 * i, r.u32() | 0, true);
      return null;
    };
    if ((e = i32s(L2, base + FC0_BIAS, `the fc_0 biases of stack ${s}`))) return e;
    if ((e = plain(L2 * L1, base + FC0_WEIGHTS, `the fc_0 weights of stack ${s}`))) return e;
    if ((e = i32s(L3, base + FC1_BIAS, `the fc_1 biases of stack ${s}`))) return e;
    if ((e = plain(L3 * 2 * L2, base + FC1_WEIGHTS, `the fc_1 weights of stack ${s}`))) return e;
    if ((e = i32s(1, base + FC2_BIAS, `the fc_2 bias of stack ${s}`))) return e;
    if ((e = plain(2 * L2 + 2 * L3, base + FC2_WEIGHTS, `the fc_2 weights of stack ${s}`))) return e;
  }
  if (r.left !== 0)
    return fail('trailing-bytes', name, `has ${r.left} bytes after the last layer stack (the payload must end there)`);
  return ok(description);
}

/** A loaded network: what the file said, and the memory its weights are in. */
interface LoadedNetwork {
  data: NetworkData;
  memory: NnueMemory;
}

/** What a load reads: bytes piece by piece, or all at once for the whole-payload path. */
interface NetworkInput {
  readonly size: number;
  /** The first bytes (64, or all when there are fewer). */
  readonly head: Uint8Array;
  /** The bytes in order, in pieces; a piece may be reused once the next is asked for. */
  pieces(): Iterable<Uint8Array>;
  /** All the bytes at once. */
  all(): Result<Uint8Array, NnueLoadCode>;
}

/** Finds (as Pikafish does), reads, unpacks and parses a network file into a fresh memory with `workBytes` of work areas. */
export function loadNetworkFile(
  given: string,
  workBytes: number,
  programDirs?: readonly string[],
): Result<LoadedNetwork, NnueLoadCode> {
  const file = openNetworkFile(given, MAX_PAYLOAD_BYTES, programDirs);
  if (!file.ok) return networkFileError(file.error);
  return loadOpenedNetworkFile(file.value, workBytes);
}

/** Reads (in pieces where it can), unpacks and parses a network file found by openNetworkFile. */
export function loadOpenedNetworkFile(file: OpenedNetworkFile, workBytes: number): Result<LoadedNetwork, NnueLoadCode> {
  return loadNetworkInput(
    {
      size: file.size,
      head: file.head,
      pieces: () => file.pieces(),
      all: () => {
        const r = file.readAll();
        return r.ok ? r : networkFileError(r.error);
      },
    },
    file.path,
    workBytes,
  );
}

/** Unpacks and parses the bytes of a network file (named `path` in messages). */
export function loadNetworkBytes(
  bytes: Uint8Array,
  path: string,
  workBytes: number,
): Result<LoadedNetwork, NnueLoadCode> {
  return loadNetworkInput(
    {
      size: bytes.length,
      head: bytes.subarray(0, 64),
      pieces: () => bytePieces(bytes),
      all: () => ok(bytes),
    },
    path,
    workBytes,
  );
}

/**
 * A load: streamed where it can be (a plain payload, or a zstd frame of declared
 * size with the WebAssembly decoder: the pieces go straight from the file through
 * the decoder into the parser, with no buffer of the payload's size), else - and
 * whenever a stream turns out damaged - from the whole bytes, which words every
 * error the same way.
 */
function loadNetworkInput(input: NetworkInput, path: string, workBytes: number): Result<LoadedNetwork, NnueLoadCode> {
  const streamed = loadStreamed(input, path, workBytes);
  if (streamed !== null) return streamed;
  const all = input.all();
  if (!all.ok) return all;
  return loadWhole(all.value, path, workBytes);
}

/** A payload source that can say, at the end, whether its stream was whole. */
interface StreamSource extends PayloadSource {
  /** Reads what is left (a zstd stream is decoded to its end); true when the stream was whole and of its declared size. */
  finish(): boolean;
}

/** The pieces as they come (a plain payload). */
function piecesSource(pieces: Iterable<Uint8Array>, total: number): StreamSource {
  const it = pieces[Symbol.iterator]();
  return {
    total,
    next: () => {
      const step = it.next();
      return step.done ? null : step.value;
    },
    finish: () => {
      it.return?.();
      return true;
    },
  };
}

/**
 * The output of a zstd frame of declared size `size`, decoded by the
 * WebAssembly decoder as the parser asks for it. A decoder error, a stream that
 * makes no progress or gives more or less than `size` makes finish() false.
 */
function zstdSource(d: WasmZstd, input: Iterable<Uint8Array>, size: number): StreamSource {
  const stream = d.stream(input);
  let produced = 0;
  let broken = false;
  let done = false;
  const next = (): Uint8Array | null => {
    if (done || broken) return null;
    let piece: Uint8Array | null;
    try {
      piece = stream.next();
    } catch {
      broken = true; // damaged data (ZstdError), or the file could not be read on
      return null;
    }
    if (piece === null) {
      done = true;
      return null;
    }
    produced += piece.length;
    if (produced > size) {
      broken = true; // more than the frame declared (another frame follows)
      return null;
    }
    return piece;
  };
  return {
    total: size,
    next,
    finish: () => {
      while (next() !== null);
      const whole = !broken && stream.complete && produced === size;
      // Frees the decoder's state and closes the input (the file), however the stream ended.
      stream.close();
      return whole;
    },
  };
}

/** The streamed load, or null when it does not apply or the stream was damaged (the whole path then decides). */
function loadStreamed(
  input: NetworkInput,
  path: string,
  workBytes: number,
): Result<LoadedNetwork, NnueLoadCode> | null {
  if (input.size === 0) return null;
  let source: StreamSource;
  let decoder: ZstdDecoderName = null;
  if (isZstd(input.head)) {
    const d = wasmDecoder;
    const size = frameContentSize(input.head);
    if (!d || size === null || size === 0 || size > MAX_PAYLOAD_BYTES) return null;
    source = zstdSource(d, input.pieces(), size);
    decoder = 'zstddec';
  } else source = piecesSource(input.pieces(), input.size);
  let memory: NnueMemory | null = null;
  let parsed: Result<string, NnueLoadCode> | null = null;
  try {
    parsed = parsePayload(source, () => (memory = freshNetworkMemory(workBytes)).buffer, path);
  } catch {
    // The source ended early (SourceEnded) or the file could not be read on: the whole path words it.
  }
  let whole = false;
  try {
    whole = source.finish();
  } catch {
    whole = false;
  }
  if (!whole || parsed === null) return null;
  if (!parsed.ok) return parsed;
  if (!memory) return null;
  const data: NetworkData = {
    path,
    description: parsed.value,
    payloadBytes: source.total,
    compressed: decoder !== null,
    decoder,
  };
  return ok({ data, memory });
}

/** The whole-payload load: unpacks all of it (either zstd decoder), then parses. */
function loadWhole(bytes: Uint8Array, path: string, workBytes: number): Result<LoadedNetwork, NnueLoadCode> {
  const un = unpackContainer(bytes, path);
  if (!un.ok) return un;
  const { payload, compressed, decoder } = un.value;
  if (payload.length > MAX_PAYLOAD_BYTES)
    return fail('too-large', path, `unpacks to ${payload.length} bytes, more than any network`);
  // The header is checked before the ~70 MB of the weights are allocated.
  let memory: NnueMemory | null = null;
  const parsed = parsePayload(payload, () => (memory = freshNetworkMemory(workBytes)).buffer, path);
  if (!parsed.ok) return parsed;
  if (!memory) return fail('truncated', path, 'has no weights');
  return ok({ data: { path, description: parsed.value, payloadBytes: payload.length, compressed, decoder }, memory });
}
