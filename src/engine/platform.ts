// The platform seam (docs/ARCHITECTURE.md): how the engine starts its search
// thread. This is the Node implementation (node:worker_threads running
// src/search/worker.ts); the browser build (tools/web/build.ts) replaces this
// module by src/browser/platform.ts, a Web Worker with the same interface.

import { Worker } from 'node:worker_threads';
import type { FromWorker, ToWorker, WorkerStart } from '../search/worker.js';

/** The engine's end of a search thread (a subset of Node's Worker). */
export interface SearchThread {
  postMessage(message: ToWorker): void;
  on(event: 'message', listener: (message: FromWorker) => void): unknown;
  on(event: 'error', listener: (error: Error) => void): unknown;
  on(event: 'exit', listener: (code: number) => void): unknown;
  /** Keep the process alive while the thread works (a no-op where there is no process). */
  ref(): void;
  unref(): void;
  terminate(): Promise<unknown>;
}

/** Starts a search thread (src/search/worker.ts) with its start data. */
export function spawnSearchWorker(start: WorkerStart): SearchThread {
  return new Worker(new URL('../search/worker.js', import.meta.url), { workerData: start });
}

/** The main search thread started ahead of the engine (null: none, or taken), and whether it failed meanwhile. */
let prestarted: { thread: SearchThread; failed: boolean } | null = null;

/**
 * Starts the main search thread now, before the rest of the engine's modules
 * load (bin/kirin.js calls this first): the thread loads its own modules and
 * builds its tables on the other core meanwhile, so its warm-up starts hundreds
 * of milliseconds earlier and `readyok` comes sooner. The engine takes it with
 * takePrestartedSearchThread(); a thread never taken keeps no process alive.
 */
export function prestartSearchThread(): void {
  if (prestarted) return;
  const entry = { thread: spawnSearchWorker({ index: 0 }), failed: false };
  // A failure before the engine listens is kept: the engine then starts a fresh thread.
  entry.thread.on('error', () => (entry.failed = true));
  entry.thread.on('exit', () => (entry.failed = true));
  entry.thread.unref();
  prestarted = entry;
}

/** The prestarted main search thread, once (null when none was started or it failed). */
export function takePrestartedSearchThread(): SearchThread | null {
  const entry = prestarted;
  prestarted = null;
  if (!entry) return null;
  if (entry.failed) {
    void entry.thread.terminate();
    return null;
  }
  return entry.thread;
}
