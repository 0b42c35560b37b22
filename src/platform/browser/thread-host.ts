// The browser implementation of #platform/thread-host (package.json "imports":
// the "browser" condition; on Node it is src/platform/node/thread-host.ts), so
// web/dist/worker.js is src/search/worker.ts itself. It adapts the Web Worker's `self` to the
// `parentPort` the search thread talks to, takes the start data from the first
// message (Node's workerData), and fetches the WebAssembly kernel module from
// the URL that message gives before the search thread's code runs. Messages
// that arrive meanwhile are kept and handed over in order.

import { wasmSimdSupported } from '../simd.js';
import { fetchKernelModule } from './files.js';
import type { HostPort } from '../seam.js';
import type { StartMessage } from './search-thread.js';
import { web } from './web.js';

const scope = web.self;
let handler: ((message: unknown) => void) | null = null;
const waiting: unknown[] = [];
let resolveStart!: (data: StartMessage) => void;
const started = new Promise<StartMessage>((resolve) => (resolveStart = resolve));
let gotStart = false;

scope.addEventListener('message', (e) => {
  if (!gotStart) {
    gotStart = true;
    resolveStart(e.data as StartMessage);
    return;
  }
  if (handler) handler(e.data);
  else waiting.push(e.data);
});

/** The engine's end of the channel, shaped like node:worker_threads' parentPort. */
export const parentPort: HostPort = {
  postMessage(message: unknown): void {
    scope.postMessage(message);
  },
  on(event: 'message', listener: (message: never) => void): void {
    if (event !== 'message') return;
    handler = listener as (message: unknown) => void;
    for (const m of waiting.splice(0)) handler(m);
  },
};

const start = await started;
// The kernels for the network memory (the portable kernels play without them).
if (wasmSimdSupported()) {
  const kernels = await fetchKernelModule(start.assets);
  if (kernels !== null) scope.postMessage({ type: 'text', id: 0, line: kernels });
}

export const workerData: unknown = start.kirinStart ?? {};
