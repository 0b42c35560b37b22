// Kirin's library API for the browser (bundled by `npm run build:web` into
// web/dist/kirin.js, with the search thread in web/dist/worker.js beside it):
// the platform-neutral library (src/library.ts) plus what a page needs. The
// UCI text protocol over stdin and network files stay on Node:
// networks come as bytes (Engine.loadNetworkBytes, e.g. from fetch or a file
// picker). Searching needs SharedArrayBuffer, so the page must be cross-origin
// isolated (COOP same-origin + COEP require-corp).
//
//   import { Engine, moveToUci } from './kirin.js';
//   const engine = new Engine();
//   engine.setPosition(null, ['h2e2']);
//   const { bestMove } = await engine.go({ movetime: 1000, startTime: Date.now() });
//   console.log(moveToUci(bestMove));

import { fetchKernelModule } from './nnue-files.js';
import { web } from './web.js';

export * from '../library.js';

/** Whether this page can search: SharedArrayBuffer needs cross-origin isolation. */
export function canSearch(): boolean {
  return typeof SharedArrayBuffer === 'function' && web.crossOriginIsolated !== false;
}

/**
 * Why the WebAssembly SIMD kernels could not be fetched for this page's own
 * network evaluator (`Engine.traceEval`, `Engine.evaluationName`), or null when
 * they were: kirin.js fetches kernels*.wasm from its own folder when it is
 * imported, as the search thread does. Without them the portable kernels give
 * the same numbers, slower.
 */
export const kernelModuleProblem: string | null = await fetchKernelModule(new URL('./', import.meta.url));
