// The browser implementation of #platform/search-thread (package.json "imports":
// the "browser" condition; on Node it is src/platform/node/search-thread.ts): the search thread is a module Web
// Worker running worker.js (src/search/worker.ts bundled with
// src/platform/browser/thread-host.ts), found beside kirin.js (assets.ts). Its first
// message carries its start data and the URLs of all the files (assets.ts): the
// worker looks nothing up relative to itself, so a bundler may copy it anywhere.

import type { SearchThread } from '../seam.js';
import { ASSET_URLS, type AssetUrls } from './assets.js';
import { web } from './web.js';

/** The first message a browser search thread receives: its start data (Node passes workerData) and where the files are. */
export interface StartMessage {
  kirinStart: unknown;
  assets: AssetUrls;
}

/**
 * Nodes the warm-up searches beyond its usual half second (src/search/warmup.ts).
 * Chromium's V8 compiles the search with its optimising compiler much later than
 * Node's: after the usual warm-up a page's first `go movetime 1000` reached a third
 * of the nodes of its fourth (lab/web/first-move-page), and searches ran at a
 * third of their final speed for about 200,000 more nodes. With 450,000 more the
 * page's first search reaches about 0.85x of its fourth (ready about 1.5 s later,
 * 2026-12-02). A `go` cuts the warm-up short.
 */
export const WARMUP_EXTRA_NODES: number = 450_000;

export function spawnSearchWorker<In, Out>(start: unknown): SearchThread<In, Out> {
  const w = new web.Worker(ASSET_URLS.worker, { type: 'module', name: 'kirin-search' });
  w.postMessage({ kirinStart: start, assets: ASSET_URLS } satisfies StartMessage);
  const thread = {
    postMessage(message: In): void {
      w.postMessage(message);
    },
    on(event: 'message' | 'error' | 'exit', listener: (arg: never) => void): unknown {
      if (event === 'message') {
        w.addEventListener('message', (e) => (listener as (m: Out) => void)(e.data as Out));
      } else if (event === 'error') {
        const fail = listener as (e: Error) => void;
        w.addEventListener('error', (e) => {
          e.preventDefault();
          // A worker script that is missing gives no message: the error names where it was looked for.
          const why = e.message ? `: ${e.message}` : '';
          fail(new Error(`the search thread ${ASSET_URLS.worker} failed to load or crashed${why}`));
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
  return thread as SearchThread<In, Out>;
}
