// What the search thread (src/search/worker.ts) needs from its host, on Node
// (#platform/thread-host): the port to the engine and the data it was started
// with (node:worker_threads). The browser build resolves
// that name to src/platform/browser/thread-host.ts, which adapts a Web Worker's
// `self` to the same names (docs/ARCHITECTURE.md, the platform seam).

import { parentPort as nodePort, workerData as nodeData } from 'node:worker_threads';
import type { HostPort } from '../seam.js';

/** The port to the engine; null outside a worker thread. */
export const parentPort = nodePort as HostPort | null;
/** The data the thread was started with (src/search/worker.ts: WorkerStart). */
export const workerData: unknown = nodeData;
