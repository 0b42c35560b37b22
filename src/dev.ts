// The development tools' entry point: the library (src/index.ts) plus the
// pieces of the platform seam that the tools use on Node. A tool (toolkit/,
// commands/, lab/, scripts/) takes the library from here and any other name
// from the module that defines it (src/eval/kirinnet/arch.ts, src/core/movegen.ts
// ...), as the tests do; the platform seam (src/platform/) it reaches only here,
// so that no tool names a twin. test/architecture.test.ts checks it. Not part
// of the package's "exports" (npm ships it, but `import 'kirin-xiangqi/...'`
// cannot reach it), and nothing here is a promise to the package's users.

export * from './index.js';

// The default opening book as Node reads it (commands/book builds and probes books).
export { readEmbeddedBook } from './platform/node/book-files.js';
// The WebAssembly SIMD probe (the trainer's kernels).
export { wasmSimdSupported } from './platform/simd.js';
