// Bringing a large table into memory before it is needed: an untouched typed
// array costs the process nothing until its pages are first written, and then
// the cost (page faults, a growing resident size) falls inside the searches.
// Touching one word per 4 KiB page maps the whole table without changing it.

/** int32 words per 4 KiB page. */
export const PAGE_WORDS = 1024;

/** Whether the words live on a SharedArrayBuffer (where the runtime has one). */
export function isShared(words: Int32Array): boolean {
  return typeof SharedArrayBuffer === 'function' && words.buffer instanceof SharedArrayBuffer;
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
