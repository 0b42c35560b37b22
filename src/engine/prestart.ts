// The main search thread started ahead of the engine. bin/kirin.js calls
// prestartSearchThread() before it imports the rest of the engine: the thread
// loads its own modules and builds its tables on the other core meanwhile, so
// its warm-up starts hundreds of milliseconds earlier and `readyok` comes
// sooner. The engine takes the thread with takePrestartedSearchThread() when it
// starts its main search thread. Through the platform seam (src/platform/) this
// works the same with a Web Worker in the browser build.

import { spawnSearchWorker } from '#platform/search-thread';
import type { SearchThread as PlatformThread } from '../platform/seam.js';
import type { FromWorker, ToWorker, WorkerStart } from '../search/worker.js';

/** The engine's end of a search thread: it is sent the search's messages and sends their answers. */
export type SearchThread = PlatformThread<ToWorker, FromWorker>;

/** Starts a search thread (src/search/worker.ts) with its start data. */
export function startSearchThread(start: WorkerStart): SearchThread {
  return spawnSearchWorker<ToWorker, FromWorker>(start);
}

/** The thread started ahead (null: none, or taken), and whether it failed meanwhile. */
let prestarted: { thread: SearchThread; failed: boolean } | null = null;

/** Starts the main search thread now (once: a second call keeps the first); a thread never taken keeps no process alive. */
export function prestartSearchThread(): void {
  if (prestarted) return;
  const entry = { thread: startSearchThread({ index: 0 }), failed: false };
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
