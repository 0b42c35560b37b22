// The WebAssembly zstd decoder: the reference zstd C decoder as npm `zstddec`
// compiles it, whose module the build takes out of that package into zstd.wasm
// (dist/browser/, assembly/build.js), driven here through its own exports -
// one decoder context per stream, one input and one output buffer in its memory
// - so that the decoded output reaches the parser as a view of that memory, with
// no copy and no fresh buffer per piece (zstddec's own streaming loop slices a
// new 128 KB buffer out of its memory for every piece: a third of a page's
// network load, docs/NNUE.md "Loading"). Every stream frees what it used, also
// when the data is damaged, so the decoder stays usable after any file.

/** What the module exports (zstd's streaming API over 32-bit pointers, and the allocator). */
interface ZstdExports {
  readonly memory: { readonly buffer: ArrayBuffer };
  malloc(bytes: number): number;
  free(pointer: number): void;
  ZSTD_createDCtx(): number;
  ZSTD_freeDCtx(dctx: number): number;
  /** Decodes from the ZSTD_inBuffer at `input` into the ZSTD_outBuffer at `output` ({pointer, size, pos}, 3 x u32 each). */
  ZSTD_decompressStream(dctx: number, output: number, input: number): number;
}

/** The part of the WebAssembly API used here (the project compiles without the DOM library). */
interface WasmApi {
  compile(bytes: Uint8Array): Promise<object>;
  Module: { exports(module: object): { name: string }[] };
  instantiate(module: object, imports: object): Promise<{ readonly exports: object }>;
}

/** What this code calls of the module; the build (assembly/build.js) checks zstd.wasm against the same list. */
const NEEDED = ['memory', 'malloc', 'free', 'ZSTD_createDCtx', 'ZSTD_freeDCtx', 'ZSTD_decompressStream'] as const;

/** The names in NEEDED that a module exporting `names` lacks. */
export function missingZstdExports(names: Iterable<string>): string[] {
  const have = new Set(names);
  return NEEDED.filter((n) => !have.has(n));
}

/** Input is copied into the decoder's memory in parts of at most this size. */
const IN_BYTES = 1 << 20;
/** The output buffer: what one step gives at most (a larger one means fewer calls across the boundary). */
const OUT_BYTES = 1 << 20;

/** A zstd stream that the decoder refused (its message is zstd's error code, negated). */
export class ZstdError extends Error {
  override name = 'ZstdError';
}

/** The decoder, compiled and instantiated once; streams are made from it. */
export class WasmZstd {
  private constructor(private readonly x: ZstdExports) {}

  /** Instantiates the decoder module `bytes` (zstd.wasm); throws when it is not the module this code drives. */
  static async create(bytes: Uint8Array): Promise<WasmZstd> {
    const api = (globalThis as { WebAssembly?: WasmApi }).WebAssembly;
    if (!api) throw new Error('no WebAssembly here');
    const module = await api.compile(bytes);
    const missing = missingZstdExports(api.Module.exports(module).map((e) => e.name));
    if (missing.length) throw new Error(`zstd.wasm lacks ${missing.join(', ')}`);
    // The module tells its host when its memory grows; views are re-made on use instead.
    const instance = await api.instantiate(module, { env: { emscripten_notify_memory_growth: () => {} } });
    return new WasmZstd(instance.exports as unknown as ZstdExports);
  }

  /** The size of the decoder's memory in bytes (it grows when a stream needs more, and never shrinks). */
  get memoryBytes(): number {
    return this.x.memory.buffer.byteLength;
  }

  /**
   * A stream decoding the zstd frames in `input` (pieces in order, any sizes);
   * close() it when done. `outBytes`: the most one step gives.
   */
  stream(input: Iterable<Uint8Array>, outBytes = OUT_BYTES): ZstdStream {
    return new ZstdStream(this.x, input[Symbol.iterator](), outBytes);
  }
}

/**
 * One stream's decoding, step by step. next() gives the next output as a view
 * of the decoder's memory, valid until the next call; null at the end of the
 * input. Throws ZstdError when the data is damaged (or the decoder's memory
 * is full), and what the input throws. complete: the last frame
 * was decoded to its end.
 */
export class ZstdStream {
  private dctx: number;
  /** One block of the decoder's memory: [input struct, output struct, input buffer, output buffer]. */
  private readonly block: number;
  /** The input piece being fed and how much of it is in the decoder already. */
  private piece: Uint8Array | null = null;
  private pieceAt = 0;
  /** The last output filled the buffer: the decoder may hold more before it needs input. */
  private flushing = false;
  private lastHint = -1;
  private closed = false;
  /** The decoder had no memory for the stream: next() throws. */
  private readonly broken: boolean;

  constructor(
    private readonly x: ZstdExports,
    private readonly input: Iterator<Uint8Array>,
    private readonly outBytes: number,
  ) {
    this.dctx = x.ZSTD_createDCtx();
    this.block = x.malloc(24 + IN_BYTES + outBytes);
    this.broken = this.dctx === 0 || this.block === 0;
    if (this.broken) return;
    const w = this.words();
    w[this.inStruct >> 2] = this.inBuf;
    w[(this.inStruct >> 2) + 1] = 0;
    w[(this.inStruct >> 2) + 2] = 0;
  }

  private get inStruct(): number {
    return this.block;
  }
  private get outStruct(): number {
    return this.block + 12;
  }
  private get inBuf(): number {
    return this.block + 24;
  }
  private get outBuf(): number {
    return this.block + 24 + IN_BYTES;
  }

  /** True once the input has ended exactly at the end of a frame, all of it given out. */
  get complete(): boolean {
    return this.lastHint === 0 && !this.flushing && this.piece === null;
  }

  private words(): Uint32Array {
    return new Uint32Array(this.x.memory.buffer);
  }

  /** Moves the next part of the input into the decoder's input buffer; false at the end of the input. */
  private feed(w: Uint32Array): boolean {
    while (this.piece === null || this.pieceAt >= this.piece.length) {
      const step = this.input.next();
      if (step.done) {
        this.piece = null;
        return false;
      }
      this.piece = step.value;
      this.pieceAt = 0;
    }
    const n = Math.min(IN_BYTES, this.piece.length - this.pieceAt);
    new Uint8Array(this.x.memory.buffer, this.inBuf, n).set(this.piece.subarray(this.pieceAt, this.pieceAt + n));
    this.pieceAt += n;
    w[(this.inStruct >> 2) + 1] = n;
    w[(this.inStruct >> 2) + 2] = 0;
    return true;
  }

  next(): Uint8Array | null {
    if (this.closed) return null;
    if (this.broken) throw new ZstdError('the zstd decoder has no memory left');
    for (;;) {
      let w = this.words();
      const inS = this.inStruct >> 2;
      if (!this.flushing && w[inS + 2] >= w[inS + 1] && !this.feed(w)) return null;
      const before = w[inS + 2];
      const outS = this.outStruct >> 2;
      w[outS] = this.outBuf;
      w[outS + 1] = this.outBytes;
      w[outS + 2] = 0;
      const hint = this.x.ZSTD_decompressStream(this.dctx, this.outStruct, this.inStruct);
      // size_t results: zstd's errors are the last codes below 2^32, negative here.
      if (hint < 0) throw new ZstdError(`zstd error ${-hint}`);
      this.lastHint = hint;
      w = this.words(); // the memory may have grown
      const produced = w[outS + 2];
      // A full output buffer may leave output in the decoder, unless the frame ended (0: decoded and all
      // given out): zstd's API says to call again then, input or not. (This build keeps the end of a
      // block's input unread until its output is all out, so the input loop covers it too.)
      this.flushing = produced === this.outBytes && hint !== 0;
      if (produced > 0) return new Uint8Array(this.x.memory.buffer, this.outBuf, produced);
      // No output and no input taken: a decoder that cannot go on (never seen; guards the loop).
      if (w[inS + 2] === before && w[inS + 2] < w[inS + 1]) throw new ZstdError('the zstd decoder made no progress');
    }
  }

  /** Frees the stream's decoder context and buffers, and closes its input. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    if (this.dctx) this.x.ZSTD_freeDCtx(this.dctx);
    if (this.block) this.x.free(this.block);
    this.dctx = 0;
    this.input.return?.();
  }
}
