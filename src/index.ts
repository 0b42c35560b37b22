// Kirin's library API on Node (package.json "exports" "."; browsers get
// src/browser/index.ts): the platform-neutral library (src/library.ts), plus the
// engine's name and version (read from package.json) and the UCI text protocol. Importing it has
// no side effects (the search thread starts with the first search, files are
// read when asked for).
//
//   import { Engine, moveToUci } from 'kirin-xiangqi';
//   const engine = new Engine();
//   engine.setPosition(null, ['h2e2']);
//   const { bestMove } = await engine.go({ depth: 10, startTime: Date.now() });
//   console.log(moveToUci(bestMove));
//   await engine.close();

export * from './library.js';
export { ENGINE_AUTHOR, ENGINE_NAME, engineVersion } from './engine/version.js';

// The UCI text protocol over an Engine (for embedding the engine behind a stream).
export { Uci, runUci, type Writer } from './protocol/uci.js';
