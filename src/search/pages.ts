// Bringing a large table into memory before it is needed: an untouched typed
// array costs the process nothing until its pages are first written, and then
// the cost (page faults, a growing resident size) falls inside the searches.
// Touching one word per 4 KiB page maps the whole table without changing it.

/** int32 words per 4 KiB page. */
export const PAGE_WORDS = 1024;

/** Whether a typed array lives on a SharedArrayBuffer (where the runtime has one). */
export function isShared(array: ArrayBufferView): boolean {
  return typeof SharedArrayBuffer === 'function' && array.buffer instanceof SharedArrayBuffer;
}

/**
 * Touches one word per page from word `from`, at most `pages` pages, and changes
 * no word: on shared memory by an atomic compare-exchange of 0 with 0 (another
 * thread may be writing the entry), else by writing back the value read.
 * Returns the index of the first word not reached (>= words.length when done).
 */
export function touchPages(words: Int32Array, from: number, pages: number): number {
  const shared = isShared(words);
  let i = from;
  for (; pages > 0 && i < words.length; i += PAGE_WORDS, pages--) {
    if (shared) Atomics.compareExchange(words, i, 0, 0);
    else words[i] |= 0;
  }
  return i;
}

/**
 * Runs `f` on a later turn of the event loop without a timer's clamp (browsers
 * hold nested zero-delay timers to 4 ms): setImmediate where the runtime has it
 * (Node), else a message to itself on a MessageChannel (browsers), else setTimeout.
 */
let nextTurn: ((f: () => void) => void) | null = null;
/** The runtime's setImmediate, looked up (the browser build is type-checked without Node's globals: tsconfig.browser.json). */
const host = globalThis as { setImmediate?: (f: () => void) => unknown };
function laterTurn(f: () => void): void {
  if (!nextTurn) {
    const setImmediate = host.setImmediate;
    if (typeof setImmediate === 'function') nextTurn = (g) => void setImmediate(g);
    else if (typeof MessageChannel === 'function') {
      const channel = new MessageChannel();
      const queue: Array<() => void> = [];
      // The browser's MessagePort (Node's, which has setImmediate anyway, types another).
      (channel.port1 as unknown as { onmessage: (() => void) | null }).onmessage = () => queue.shift()?.();
      nextTurn = (g) => {
        queue.push(g);
        channel.port2.postMessage(0);
      };
    } else nextTurn = (g) => void setTimeout(g, 0);
  }
  nextTurn(f);
}

/**
 * Touches every page of `buffers` (shared memory another thread uses: nothing
 * changes), `pages` pages per turn of the event loop, starting on the next turn,
 * so that the caller goes on at once and input waiting meanwhile (a GUI's `uci`
 * at start-up) waits for one slice at most: 4 MB by default, about 15 ms of page
 * faults here. Resolves with the number of pages touched when all are.
 */
export function touchInSlices(buffers: readonly ArrayBufferLike[], pages = 1024): Promise<number> {
  let b = 0,
    word = 0,
    touched = 0;
  return new Promise((resolve) => {
    const slice = (): void => {
      let left = pages;
      while (left > 0 && b < buffers.length) {
        const words = new Int32Array(buffers[b], 0, buffers[b].byteLength >> 2);
        const next = touchPages(words, word, left);
        const n = Math.ceil((next - word) / PAGE_WORDS);
        left -= n;
        touched += n;
        word = next;
        if (word >= words.length) {
          b++;
          word = 0;
        }
      }
      if (b < buffers.length) laterTurn(slice);
      else resolve(touched);
    };
    laterTurn(slice);
  });
}
