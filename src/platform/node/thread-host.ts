// What the search thread (worker.ts) needs from its host, on Node: the port to
// the engine and the data it was started with (node:worker_threads). The
// browser build (scripts/web/build.ts) replaces this module by
// src/platform/browser/thread-host.ts, which adapts a Web Worker's `self` to the same
// names (docs/ARCHITECTURE.md, the platform seam).

export { parentPort, workerData } from 'node:worker_threads';
