// Kirin's library API for the browser (bundled by `npm run build:web` into
// web/dist/kirin.js, with the search thread in web/dist/worker.js beside it).
// The same engine component as src/index.ts, less what needs Node (the UCI text
// protocol over stdin, network files): networks come as bytes
// (Engine.loadNetworkBytes). Searching needs SharedArrayBuffer, so the page
// must be cross-origin isolated (COOP same-origin + COEP require-corp).
//
//   import { Engine, moveToUci } from './kirin.js';
//   const engine = new Engine();
//   engine.setPosition(null, ['h2e2']);
//   const { bestMove } = await engine.go({ movetime: 1000, startTime: Date.now() });
//   console.log(moveToUci(bestMove));

import { fetchKernelModule } from './nnue-files.js';
import { web } from './web.js';

export { Engine, type SearchListener } from '../engine/engine.js';
export type { OptionErrorCode, OptionInfo, OptionType, OptionValue, SetResult } from '../engine/options.js';
export type { Bound, SearchInfo, SearchLimits, SearchResult, StaticEvaluation } from '../search/types.js';
export { Position } from '../core/position.js';
export { START_FEN, parseFen, type FenErrorCode, type FenResult, type ParsedFen } from '../core/fen.js';
export { hasLegalMove, legalMoves } from '../core/movegen.js';
export { parseLegalMove, parseUciMove, playUciMoves, type MoveErrorCode } from '../core/ucimove.js';
export {
  BLACK,
  MOVE_NONE,
  RED,
  makeMove,
  moveFrom,
  moveTo,
  moveToUci,
  parseSquare,
  squareName,
  type Color,
  type Move,
} from '../core/types.js';
export {
  DEFAULT_RULES,
  DRAW_RULES,
  REPETITION_RULES,
  formatJudgement,
  isBoardReason,
  judge,
  judgeGame,
  reasonText,
  ruleConfigFrom,
  type DrawRule,
  type Judgement,
  type ReasonCode,
  type RepetitionRule,
  type RuleConfig,
} from '../core/rules.js';
export { evaluate } from '../eval/evaluate.js';
export { formatScore, materialCount, toCp, wdl, type ScoreType } from '../eval/score.js';
export { NnueNetwork } from '../eval/nnue/network.js';
export type { NnueLoadCode } from '../eval/nnue/loader.js';
export { err, ok, type KirinError, type Result } from '../core/result.js';

/** Whether this page can search: SharedArrayBuffer needs cross-origin isolation. */
export function canSearch(): boolean {
  return typeof SharedArrayBuffer === 'function' && web.crossOriginIsolated !== false;
}

/**
 * Why the WebAssembly SIMD kernels could not be fetched for this page's own
 * network evaluator (`eval`, Engine.evaluationName), or null when they were:
 * kirin.js fetches kernels*.wasm from its own folder when it is imported, as
 * the search thread does. Without them the portable kernels give the same numbers, slower.
 */
export const kernelModuleProblem: string | null = await fetchKernelModule(new URL('./', import.meta.url));
