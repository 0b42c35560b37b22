// The NNUE memory layout: one linear memory (a WebAssembly.Memory for the SIMD
// kernels, or any ArrayBuffer for the portable kernels) holds the network's
// weights followed by work areas, at the fixed byte offsets below. Both kernel
// paths read exactly this layout, so a forward pass never copies data between
// JavaScript and WebAssembly. Architecture constants as in Pikafish's
// nnue_architecture.h (see docs for the file format).

/** Accumulator width (transformed features per perspective). */
export const L1 = 1024;
/** Outputs of the first and second hidden layers. */
export const L2 = 32;
export const L3 = 32;
/** PSQT buckets = layer stacks. */
export const PSQT_BUCKETS = 16;
export const LAYER_STACKS = 16;
/** HalfKAv2_hm feature count: 6 king buckets x 4 attack buckets x 689 squares. */
export const PSQ_DIMS = 16536;
/** FullThreats feature count. */
export const THREAT_DIMS = 45547;
/**
 * Feature rows in memory: piece-square feature f is row f, threat feature t is
 * row PSQ_DIMS + t.
 */
export const FEATURE_ROWS = PSQ_DIMS + THREAT_DIMS;

const ALIGN = 64;
const align = (n: number): number => Math.ceil(n / ALIGN) * ALIGN;

/** Feature-transformer biases: i16[L1]. */
export const FT_BIAS = 0;
/** Feature-transformer weights: i8[FEATURE_ROWS * L1], row r at FT_WEIGHTS + r * L1. */
export const FT_WEIGHTS = align(FT_BIAS + 2 * L1);
/** PSQT weights: i32[FEATURE_ROWS * PSQT_BUCKETS], row r at FT_PSQT + r * 64. */
export const FT_PSQT = align(FT_WEIGHTS + FEATURE_ROWS * L1);

// One layer stack, offsets relative to its start. Dense weights are output-major
// (row o, column i at o * inputs + i), as in the file.
export const FC0_BIAS = 0; // i32[L2]
export const FC0_WEIGHTS = FC0_BIAS + 4 * L2; // i8[L2 * L1]
export const FC1_BIAS = FC0_WEIGHTS + L2 * L1; // i32[L3]
export const FC1_WEIGHTS = FC1_BIAS + 4 * L3; // i8[L3 * 2 * L2]
export const FC2_BIAS = FC1_WEIGHTS + L3 * 2 * L2; // i32[1], padded to 16 bytes
export const FC2_WEIGHTS = FC2_BIAS + 16; // i8[2 * L2 + 2 * L3]
export const STACK_BYTES = align(FC2_WEIGHTS + 2 * L2 + 2 * L3);

/** Layer stack s starts at STACKS + s * STACK_BYTES. */
export const STACKS = align(FT_PSQT + 4 * FEATURE_ROWS * PSQT_BUCKETS);
/** End of the weights; work areas (accumulators, feature lists, scratch) follow. */
export const WEIGHTS_END = align(STACKS + LAYER_STACKS * STACK_BYTES);

/**
 * One accumulator (one perspective): i16[L1] followed by the PSQT sums
 * i32[PSQT_BUCKETS].
 */
export const ACC_PSQT = 2 * L1;
export const ACC_BYTES = align(ACC_PSQT + 4 * PSQT_BUCKETS);

/** Scratch bytes `propagate` may use (transformed features and layer outputs). */
export const SCRATCH_BYTES = 4096;
