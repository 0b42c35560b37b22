// The platform seam (docs/ARCHITECTURE.md): how the engine starts its search
// thread. This is the Node implementation of #platform/search-thread
// (node:worker_threads running src/search/worker.ts); the browser build resolves
// that name to src/platform/browser/search-thread.ts, a Web Worker with the same interface.
// The messages are the search's (src/search/worker.ts names them); the
// platform carries them without knowing them.

import { Worker } from 'node:worker_threads';
import type { SearchThread } from '../seam.js';

/**
 * Nodes the warm-up searches beyond its usual half second (src/search/warmup.ts).
 * None in Node: its optimising compiler has the hot code compiled by then (the
 * first search reaches about 0.8x of later ones; lab/protocol/first-move-bench).
 */
export const WARMUP_EXTRA_NODES: number = 0;

/** Starts a search thread (src/search/worker.ts) with its start data (its `workerData`). */
export function spawnSearchWorker<In, Out>(start: unknown): SearchThread<In, Out> {
  return new Worker(new URL('../../search/worker.js', import.meta.url), { workerData: start });
}
