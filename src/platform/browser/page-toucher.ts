// The browser implementation of #platform/page-toucher (package.json "imports":
// the "browser" condition; on Node it is src/platform/node/page-toucher.ts): the same helper as a Web Worker
// made from its source text, for a page that loads a network into a shared
// memory (cross-origin isolated). A browser starts a worker only once the
// thread that made it is free again, and a load keeps the page's thread busy
// from start to end, so a worker made by the load would start after it: the
// helper is made ahead, by prepareNetworkDecoder() (which a page awaits before
// it loads networks), and kept for every later load; messages reach a running
// worker while the page's thread is busy. Where a worker cannot be made (a
// content security policy without blob: workers) the parser touches the pages
// itself.

import { touchPageRanges, type ByteRange } from '../page-touch.js';

/** The helper's script: touchPageRanges on the memory and ranges of each message. */
const TOUCHER = `self.onmessage = (e) => (${touchPageRanges.toString()})(e.data.buffer, e.data.ranges);`;

const page = globalThis as unknown as {
  Blob?: new (parts: string[], options: { type: string }) => object;
  URL: { createObjectURL?(blob: object): string };
  Worker?: new (url: string, options: { name: string }) => { postMessage(message: unknown): void };
};

/** The helper, once made (null: not yet, or it cannot be made here). */
let helper: { postMessage(message: unknown): void } | null = null;

/** Makes the helper worker now, so that it runs by the time a load needs it (only where a shared memory is possible). */
export function preparePageToucher(): void {
  if (helper || typeof SharedArrayBuffer !== 'function') return;
  if (!page.Blob || !page.Worker || !page.URL.createObjectURL) return;
  try {
    const url = page.URL.createObjectURL(new page.Blob([TOUCHER], { type: 'text/javascript' }));
    helper = new page.Worker(url, { name: 'kirin-page-toucher' });
  } catch {
    // No worker here: the parser touches the pages itself.
  }
}

/** Has the helper touch the pages of `ranges` of `buffer` (a SharedArrayBuffer; anything else is ignored). */
export function touchPagesAhead(buffer: ArrayBufferLike, ranges: readonly ByteRange[]): void {
  if (typeof SharedArrayBuffer !== 'function' || !(buffer instanceof SharedArrayBuffer)) return;
  preparePageToucher();
  helper?.postMessage({ buffer, ranges });
}
