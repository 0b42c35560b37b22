// Kirin's library API for the browser (bundled by scripts/web/build.ts into
// kirin.js, with the search thread worker.js and the kernels beside it:
// dist/browser/ in the package, the "browser" and "worker" conditions of its
// exports; web/dist/ for the page): the platform-neutral library
// (src/library.ts) plus what a page needs. The UCI text protocol over stdin and
// network files stay on Node: networks come as bytes (Engine.loadNetworkBytes,
// e.g. from fetch or a file picker). Searching needs SharedArrayBuffer, so the
// page must be cross-origin isolated (COOP same-origin + COEP require-corp);
// browserSupport() says what a browser lacks.
//
//   import { Engine, moveToUci } from 'kirin-xiangqi';
//   const engine = new Engine();
//   engine.setPosition(null, ['h2e2']);
//   const { bestMove } = await engine.go({ movetime: 1000, startTime: Date.now() });
//   console.log(moveToUci(bestMove));

import { fetchExplorer, type Explorer } from '../explorer/explorer.js';
import type { ExplorerLoadCode } from '../explorer/format.js';
import { err, type Result } from '../core/result.js';
import { readPuzzles, type PuzzleSet } from '../puzzles/puzzle.js';
import { wasmSimdSupported } from '../platform/simd.js';
import { ASSET_URLS } from '../platform/browser/assets.js';
import { fetchEmbeddedBook } from '../platform/browser/book-files.js';
import { fetchEmbeddedNetwork, fetchKernelModule, provideZstdModuleUrl } from '../platform/browser/files.js';
import { runtimeSupport, type BrowserSupport } from './support.js';

export * from '../library.js';
export type { BrowserSupport, SupportFacts, SupportProblem } from './support.js';

/**
 * What this browser offers Kirin and what is missing, in words: what the
 * browser lacks (cross-origin isolation, SharedArrayBuffer, WebAssembly, SIMD)
 * and the files kirin.js could not fetch from beside itself (the kernels, the
 * embedded network and book: kernelModuleProblem, embeddedNetworkProblem,
 * embeddedBookProblem), each naming its URL. A missing search thread
 * (worker.js) fails the first search with an error naming its URL.
 */
export function browserSupport(): BrowserSupport {
  const missing: string[] = [];
  if (kernelModuleProblem !== null && wasmSimdSupported()) missing.push(kernelModuleProblem);
  if (embeddedNetworkProblem !== null) missing.push(embeddedNetworkProblem);
  if (embeddedBookProblem !== null) missing.push(embeddedBookProblem);
  return runtimeSupport(missing);
}

/** Whether this page can search: SharedArrayBuffer needs cross-origin isolation (browserSupport() says more). */
export function canSearch(): boolean {
  return browserSupport().canSearch;
}

// The default opening book is fetched while the kernels and the network load.
const bookFetch = fetchEmbeddedBook(ASSET_URLS.book);

// prepareNetworkDecoder() fetches the zstd decoder from beside kirin.js.
provideZstdModuleUrl(ASSET_URLS.zstd);

/**
 * Why the WebAssembly SIMD kernels could not be fetched for this page's own
 * network evaluator (`Engine.traceEval`, `Engine.evaluationName`), or null when
 * they were: kirin.js fetches kernels*.wasm from beside itself (assets.ts) when
 * it is imported, as the search thread does. Without them the portable kernels
 * give the same numbers, slower.
 */
export const kernelModuleProblem: string | null = wasmSimdSupported()
  ? await fetchKernelModule(ASSET_URLS)
  : 'NNUE kernels not loaded: this browser has no WebAssembly SIMD (the portable kernels run)';

/**
 * Why Kirin's embedded network could not be fetched from beside kirin.js
 * (assets.ts), or null when it was: kirin.js fetches it when it is imported, and
 * it is what an Engine plays with until a network is loaded
 * (Engine.loadNetworkBytes) or `Use NNUE` is off. Without it the classical
 * evaluation plays.
 */
export const embeddedNetworkProblem: string | null = await fetchEmbeddedNetwork(ASSET_URLS.network);

/**
 * Why Kirin's default opening book could not be fetched from beside kirin.js
 * (assets.ts), or null when it was: kirin.js fetches it when it is imported
 * (in parallel with the network), and an Engine with `OwnBook` on plays from it
 * unless a book is loaded (Engine.loadBookBytes). Without it there is no book.
 */
export const embeddedBookProblem: string | null = await bookFetch;

/**
 * Fetches Kirin's explorer of master games (masters.explorer beside kirin.js,
 * about 1.3 MB; docs/EXPLORER.md) and reads it. Nothing is fetched until this is
 * called: a page calls it when it first shows its explorer.
 */
export function fetchMastersExplorer(): Promise<Result<Explorer, ExplorerLoadCode | 'explorer-fetch'>> {
  return fetchExplorer(ASSET_URLS.explorer);
}

/**
 * Fetches Kirin's puzzles from master games (puzzles.json beside kirin.js;
 * docs/PUZZLES.md) and reads them. Nothing is fetched until this is called.
 */
export async function fetchPuzzles(): Promise<Result<PuzzleSet, 'puzzles-format' | 'puzzles-fetch'>> {
  let text: string;
  try {
    const r = await fetch(ASSET_URLS.puzzles);
    if (!r.ok) return err('puzzles-fetch', `puzzles ${ASSET_URLS.puzzles}: HTTP ${r.status}`);
    text = await r.text();
  } catch (e) {
    return err('puzzles-fetch', `puzzles ${ASSET_URLS.puzzles}: ${(e as Error).message}`);
  }
  return readPuzzles(text);
}
