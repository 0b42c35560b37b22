// The development tools' entry point: the library (src/index.ts). A tool
// (toolkit/, commands/, lab/, scripts/) takes the library from here and any
// other name from the module that defines it (src/eval/kirinnet/arch.ts,
// src/core/movegen.ts ...), as the tests do; a module of the platform seam it
// imports by its #platform/NAME name (package.json "imports"), which Node
// resolves to the Node module, never by the path of a twin.
// test/architecture.test.ts checks it. Not part of the package's "exports"
// (npm ships it, but `import 'kirin-xiangqi/...'` cannot reach it), and nothing
// here is a promise to the package's users.

export * from './index.js';
