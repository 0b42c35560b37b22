// Touching a network's fresh memory on another thread while this one unpacks
// and parses the file (docs/NNUE.md, "Loading"). The first write to a page of
// fresh memory costs the kernel a page fault and a zeroed page - on the
// development machine about 3.5 ms per MB, a third of the time a load of the
// official network takes - so a helper thread writes each 4 KB page of the
// weights ahead of the parser, in the order the parser fills them, and the
// parser then copies into pages that are already there (../page-touch.ts: what
// the helper does). Only a shared memory (a SharedArrayBuffer) can be
// touched from another thread; other memories are left alone.
//
// This is the Node implementation (node:worker_threads) of #platform/page-toucher;
// the browser build resolves that name to src/platform/browser/page-toucher.ts.

import { Worker } from 'node:worker_threads';
import { touchPageRanges, type ByteRange } from '../page-touch.js';

/** The helper's script: touchPageRanges on the memory and ranges of its workerData. */
const TOUCHER = `const { workerData } = require('node:worker_threads');
(${touchPageRanges.toString()})(workerData.buffer, workerData.ranges);`;

/**
 * Readies the helper ahead of a load: nothing to do in Node, whose worker
 * threads start while the loading thread is busy (the browser twin makes its
 * worker here).
 */
export function preparePageToucher(): void {}

/**
 * Starts a helper thread that touches the pages of `ranges` of `buffer` (a
 * SharedArrayBuffer; anything else is ignored) and returns at once. The helper
 * ends by itself and never keeps the process alive. A helper that cannot be
 * started changes nothing but the time the load takes.
 */
export function touchPagesAhead(buffer: ArrayBufferLike, ranges: readonly ByteRange[]): void {
  if (typeof SharedArrayBuffer !== 'function' || !(buffer instanceof SharedArrayBuffer)) return;
  try {
    const helper = new Worker(TOUCHER, { eval: true, workerData: { buffer, ranges } });
    helper.unref();
    helper.on('error', () => {});
  } catch {
    // No threads here: the parser touches the pages itself.
  }
}
