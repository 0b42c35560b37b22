// The browser implementation of src/eval/nnue/page-toucher.ts (the browser
// build substitutes this module for that one): the same helper as a Web Worker
// made from its source text, for a page that loads a network into a shared
// memory (cross-origin isolated). Elsewhere, and where a worker cannot be made
// (a content security policy without blob: workers), the parser touches the
// pages itself.

import type { ByteRange } from '../eval/nnue/page-toucher.js';

export type { ByteRange } from '../eval/nnue/page-toucher.js';

const TOUCHER = `
self.onmessage = (e) => {
  const words = new Int32Array(e.data.buffer);
  for (const [from, to] of e.data.ranges)
    for (let i = (from + 4095) >> 12 << 10; i < to >> 2; i += 1024) Atomics.add(words, i, 0);
  self.close();
};
`;

const page = globalThis as unknown as {
  Blob?: new (parts: string[], options: { type: string }) => object;
  URL: { createObjectURL?(blob: object): string };
  Worker?: new (url: string) => { postMessage(message: unknown): void };
};

/** The helper's script as a blob: URL, made once and kept for every load. */
let toucherUrl: string | null = null;

/** Starts a helper worker that touches the pages of `ranges` of `buffer` (a SharedArrayBuffer; anything else is ignored). */
export function touchPagesAhead(buffer: ArrayBufferLike, ranges: readonly ByteRange[]): void {
  if (typeof SharedArrayBuffer !== 'function' || !(buffer instanceof SharedArrayBuffer)) return;
  if (!page.Blob || !page.Worker || !page.URL.createObjectURL) return;
  try {
    toucherUrl ??= page.URL.createObjectURL(new page.Blob([TOUCHER], { type: 'text/javascript' }));
    new page.Worker(toucherUrl).postMessage({ buffer, ranges });
  } catch {
    // No worker here: the parser touches the pages itself.
  }
}
