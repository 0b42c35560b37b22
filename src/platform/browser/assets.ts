// The files the browser build ships beside kirin.js (dist/browser/ in the
// package, web/dist/ for the page), each found relative to the module that
// names it. Each is written out as `new URL('./name', import.meta.url)`, the
// form bundlers recognise (Vite and webpack copy the file into the app's build
// and rewrite the URL; with esbuild or no bundler the files sit beside the
// bundle). Adding a file is one line here: the build (scripts/web/build.ts) copies
// every file named so, finding it by name under dist/src.

/** Where the browser build's files are, as URLs (absolute, resolved against this module). */
export const ASSET_URLS = Object.freeze({
  /** The search thread (src/search/worker.ts bundled for the browser). */
  worker: new URL('./worker.js', import.meta.url).href,
  /** The NNUE SIMD kernels for an ordinary network memory. */
  kernels: new URL('./kernels.wasm', import.meta.url).href,
  /** The same kernels for a shared network memory (where SharedArrayBuffer exists). */
  kernelsShared: new URL('./kernels-shared.wasm', import.meta.url).href,
  /** The WebAssembly zstd decoder (unpacks compressed Pikafish networks; src/eval/nnue/zstd-wasm.ts). */
  zstd: new URL('./zstd.wasm', import.meta.url).href,
  /** Kirin's embedded network (src/eval/kirinnet/kirin.knet), what plays when no network is loaded. */
  network: new URL('./kirin.knet', import.meta.url).href,
  /** Kirin's default opening book (src/book/kirin.book), what OwnBook plays from unless BookFile names another. */
  book: new URL('./kirin.book', import.meta.url).href,
  /** Kirin's explorer of master games (src/explorer/masters.explorer), fetched only when a page asks for it. */
  explorer: new URL('./masters.explorer', import.meta.url).href,
  /** Kirin's puzzles from master games (src/puzzles/puzzles.json), fetched only when a page asks for them. */
  puzzles: new URL('./puzzles.json', import.meta.url).href,
});

/** The files' URLs by name (what the search thread is handed in its first message). */
export type AssetUrls = Readonly<Record<keyof typeof ASSET_URLS, string>>;
