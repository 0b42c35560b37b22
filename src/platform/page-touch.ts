// What the page helper does (page-toucher.ts and its browser twin run this
// function's source text in their helper thread): one 32-bit word written per
// 4 KB page of each range, in order, with Atomics.add(word, 0), which leaves a
// value the parser has already written there as it was.

/** A byte range [from, to) of a memory. */
export type ByteRange = readonly [from: number, to: number];

/**
 * Touches the pages of `ranges` of `buffer`. Self-contained (no names from
 * outside but Atomics and Int32Array): the twins pass its source to a worker.
 */
export function touchPageRanges(buffer: SharedArrayBuffer, ranges: readonly ByteRange[]): void {
  const words = new Int32Array(buffer);
  for (const [from, to] of ranges)
    for (let i = ((from + 4095) >> 12) << 10; i < to >> 2; i += 1024) Atomics.add(words, i, 0);
}
