// The development tools' entry point: the library (src/index.ts) plus the
// internals that the tools (commands/, lab/) measure, tune and drive (the match
// runner, the data generator, the tuner, the speed and robustness checks).
// A tool imports the product through this file or src/index.ts, never by a
// deep path; test/architecture.test.ts checks it. Not part of the package's
// "exports" (npm ships it, but `import 'kirin-xiangqi/...'` cannot reach it),
// and nothing here is a promise to the package's users: these names change
// with the engine. Tests may import any module directly.

export * from './index.js';

// Opening books: the file format and keys (commands/book builds books).
export { BOOK_FLAG_MIRROR, encodeBook, type BookEntry } from './book/format.js';
export { bookKey } from './book/key.js';
export { crc32 } from './core/crc32.js';
export { bookMoveCode } from './book/book.js';
export { readEmbeddedBook } from './platform/node/book-files.js';

// Finding puzzles with the engine (commands/puzzles builds a set) and the explorer's year reading.
export { REJECTIONS, findPuzzle, scanGame, type Rejection } from './puzzles/find.js';
export { yearOf } from './explorer/build.js';

// Game files as the commands read them: --encoding, "no game in FILE", the exit codes.
export { EXIT_NOTHING, EXIT_PARTIAL, encodingOption, gameFilesIn, loadGameFile } from './cli/game-files.js';

// The guard of text that goes into an engine command (the match runner, the cluster).
export { checkCommandFields, checkCommandText, shownText } from './core/command-text.js';

// Rules internals: move generation into caller-owned lists, chase detection,
// random numbers, piece and value constants.
export { assignIds, chasedMask, idBoard, moveId } from './core/chase.js';
export { generate } from './core/movegen.js';
export { mulberry32, xorshift32 } from './core/prng.js';
export {
  ADVISOR,
  BISHOP,
  CANNON,
  FILE_OF,
  GEN_CAPTURES,
  GEN_LEGAL,
  KING,
  KNIGHT,
  MAX_MOVES,
  PAWN,
  PAWN_VALUE,
  PIECE_VALUE,
  RANK_OF,
  ROOK,
  SQUARE_NB,
  VALUE_INFINITE,
  VALUE_MATE,
  VALUE_MATE_IN_MAX_PLY,
  typeOf,
} from './core/types.js';

// The classical evaluation: its terms and weights (the tuner), the blend.
export * as classicalWeights from './eval/classical-weights.js';
export {
  F_NB,
  PATTERN_NAMES,
  RAW_TERMS,
  TEMPO,
  TERM_NAMES,
  T_CANNONS,
  T_DEFENCE,
  T_KING,
  T_NB,
  classicalRawTerms,
  evaluateClassical,
  mobilityCount,
  pstIndex,
  AS_WRITTEN,
  type TermWeights,
} from './eval/classical.js';
export { postProcess, postProcessFactor } from './eval/evaluate.js';
// The score model's mate scores (the cluster's game analysis).
export { isMateScore, mateInMoves } from './eval/score.js';

// Pikafish's NNUE: the memory layout, the kernels, the loader's pieces (the
// kernel benchmark and the speed measurements).
export type { NnueKernels } from './eval/nnue/kernels.js';
export { PortableKernels } from './eval/nnue/kernels-portable.js';
export { createWasmKernels, type WasmMemory } from './eval/nnue/kernels-wasm.js';
export { wasmSimdSupported } from './platform/simd.js';
export {
  ACC_BYTES,
  ACC_PSQT,
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
  PSQT_BUCKETS,
  PSQ_DIMS,
  SCRATCH_BYTES,
  STACKS,
  STACK_BYTES,
  THREAT_DIMS,
  WEIGHTS_END,
} from './eval/nnue/layout.js';
export { allocateNetworkMemory, parsePayload, unpackContainer } from './eval/nnue/loader.js';
export { loadEmbeddedNetwork, loadEvalNetwork, type EvalNetwork } from './eval/networks.js';
export { createKernels } from './eval/nnue/network.js';

// Kirin's own network: its architecture, its file format and the reference
// evaluation (kirin train fits, quantises, checks and writes it).
export {
  DEFAULT_SHAPE,
  INPUTS,
  MAX_HIDDEN,
  OUTPUT_UNIT,
  QA,
  QB,
  SCALE,
  WEIGHT_CLIP,
  appendFeatures,
  featureIndex,
  mirrorFor,
  outputBucket,
  pieceCount,
  screlu,
  type KirinNetShape,
} from './eval/kirinnet/arch.js';
export { checkShape, decodeKirinNet, encodeKirinNet, fnv1a, type KirinNetWeights } from './eval/kirinnet/format.js';
export { referenceEvaluate } from './eval/kirinnet/reference.js';

// The search, driven directly (data generation, self-play, the scale report).
export { Searcher, quietFutilityMargin, razoringMargin, reverseFutilityMargin } from './search/search.js';
export { ELO_MAX, ELO_MIN, eloToLevel } from './search/skill.js';
export { DEFAULT_SEARCH_OPTIONS, type SearchOptions } from './search/types.js';

// The bench (its positions and the fixed searches).
export { runBench } from './protocol/bench.js';
export { BENCH_FENS } from './protocol/benchpositions.js';

// The command-line reader of the product's commands, which the tools share (toolkit/command-line.ts).
export * from './cli/command-line.js';
