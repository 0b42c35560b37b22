// The browser implementation of src/eval/nnue/page-toucher.ts (the browser
// build substitutes this module for that one). It starts no helper: in
// headless Chromium a Web Worker (from a blob: URL) touching the pages of a
// cross-origin isolated page's shared network memory made no difference to
// Engine.loadNetworkBytes (tools/web/load-page.ts, compressed seed-1 network,
// 3 fresh pages of 3 loads each: median first load 751 ms without, 739 with;
// later loads 594 and 591; docs/NNUE.md), so a page does not pay for a
// worker per load. Loads there touch the pages as they parse.

import type { ByteRange } from '../eval/nnue/page-toucher.js';

export type { ByteRange } from '../eval/nnue/page-toucher.js';

/** Does nothing in a browser (see above): the parser touches the pages itself. */
export function touchPagesAhead(_buffer: ArrayBufferLike, _ranges: readonly ByteRange[]): void {}
