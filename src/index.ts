// Kirin's library API: the rules core, evaluation, judgement and the engine.
//
//   import { Engine } from 'kirin-xiangqi';
//   const engine = new Engine();
//   engine.setPosition(null, ['h2e2']);
//   const { bestMove } = await engine.go({ depth: 10, startTime: Date.now() });
//   await engine.close();

export * from './core/types.js';
export { START_FEN, parseFen, isValidSquareFor, type ParsedFen, type FenResult } from './core/fen.js';
export { Position } from './core/position.js';
export { generate, legalMoves, hasLegalMove } from './core/movegen.js';
export { perft, perftDivide, perftReport, type DivideEntry } from './core/perft.js';
export * from './core/rules.js';
export { evaluate } from './eval/evaluate.js';
export { evaluateClassical, traceClassical } from './eval/classical.js';
export { NnueNetwork, NnueEvaluator, type NetworkHandle } from './eval/nnue/network.js';
export type { NnueLoadCode, NetworkData } from './eval/nnue/loader.js';
export { Engine, parseLegalMove, ENGINE_NAME, ENGINE_VERSION, type SearchListener } from './engine.js';
export { Searcher } from './search/search.js';
export type { SearchLimits, SearchOptions, SearchInfo, SearchResult, Bound } from './search/types.js';
export { formatScore, toCp, wdl, materialCount, type ScoreType } from './protocol/score.js';
export { Uci, runUci, parseGo } from './protocol/uci.js';
