// The browser implementation of src/engine/platform.ts (the browser build
// substitutes this module for that one): the search thread is a module Web
// Worker running worker.js (src/search/worker.ts bundled with
// src/browser/thread-host.ts), found beside kirin.js (assets.ts). Its first
// message carries its start data and the URLs of all the files (assets.ts): the
// worker looks nothing up relative to itself, so a bundler may copy it anywhere.

import type { SearchThread } from '../engine/platform.js';
import type { FromWorker, ToWorker, WorkerStart } from '../search/worker.js';
import { ASSET_URLS, type AssetUrls } from './assets.js';
import { web } from './web.js';

/** The first message a browser search thread receives: its start data (Node passes workerData) and where the files are. */
export interface StartMessage {
  kirinStart: WorkerStart;
  assets: AssetUrls;
}

export function spawnSearchWorker(start: WorkerStart): SearchThread {
  const w = new web.Worker(ASSET_URLS.worker, { type: 'module', name: 'kirin-search' });
  w.postMessage({ kirinStart: start, assets: ASSET_URLS } satisfies StartMessage);
  const thread = {
    postMessage(message: ToWorker): void {
      w.postMessage(message);
    },
    on(event: 'message' | 'error' | 'exit', listener: (arg: never) => void): unknown {
      if (event === 'message') {
        w.addEventListener('message', (e) => (listener as (m: FromWorker) => void)(e.data as FromWorker));
      } else if (event === 'error') {
        const fail = listener as (e: Error) => void;
        w.addEventListener('error', (e) => {
          e.preventDefault();
          fail(new Error(e.message ?? 'the search worker failed to load or crashed'));
        });
        w.addEventListener('messageerror', () => fail(new Error('a message from the search worker could not be read')));
      }
      // 'exit': a Web Worker ends only when terminated; there is nothing to report.
      return thread;
    },
    // No process to keep alive in a browser.
    ref(): void {},
    unref(): void {},
    terminate(): Promise<void> {
      w.terminate();
      return Promise.resolve();
    },
  };
  return thread as SearchThread;
}
