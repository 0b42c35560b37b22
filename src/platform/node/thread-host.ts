// What the search thread (src/search/worker.ts) needs from its host, on Node:
// the port to the engine and the data it was started with
// (node:worker_threads). The browser build (src/platform/twins.ts) replaces this
// module by src/platform/browser/thread-host.ts, which adapts a Web Worker's
// `self` to the same names (docs/ARCHITECTURE.md, the platform seam).

import { parentPort as nodePort, workerData as nodeData } from 'node:worker_threads';

/** The search thread's end of its channel to the engine (what both twins give). */
export interface HostPort {
  postMessage(message: unknown): void;
  on(event: 'message', listener: (message: never) => void): unknown;
}

/** The port to the engine; null outside a worker thread. */
export const parentPort = nodePort as HostPort | null;
/** The data the thread was started with (src/search/worker.ts: WorkerStart). */
export const workerData: unknown = nodeData;
