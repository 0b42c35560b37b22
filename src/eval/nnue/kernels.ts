// The NNUE kernels: the hot arithmetic of the network, implemented twice with
// identical results - as WebAssembly with 128-bit SIMD and as portable
// TypeScript. Every argument is an int32 byte offset (or count) into the one
// memory described in layout.ts; nothing is copied between calls.

export interface NnueKernels {
  /** 'wasm-simd' or 'portable'. */
  readonly name: string;
  /**
   * acc = FT bias + the sum of the feature rows listed at `features`
   * (i32[count] of row indices); PSQT part = the sum of their PSQT rows.
   * The i16 sums wrap (no saturation), the PSQT sums are i32.
   */
  refresh(acc: number, features: number, count: number): void;
  /**
   * dst = src + the rows listed at `added` - the rows listed at `removed`
   * (both parts of the accumulator). `dst` may equal `src`.
   */
  update(dst: number, src: number, added: number, addedCount: number, removed: number, removedCount: number): void;
  /**
   * The layer stack at byte offset `stack` applied to the accumulators of the
   * side to move (`accUs`) and the opponent (`accThem`): pairwise clipped
   * product, fc_0, SqrClippedReLU/ClippedReLU, fc_1, fc_2 and the skip
   * connection. Returns the positional output in internal units (side to move),
   * i.e. Pikafish's positional_raw / OutputScale with C++ truncation.
   * `scratch` is SCRATCH_BYTES of work space.
   */
  propagate(accUs: number, accThem: number, stack: number, scratch: number): number;
}
