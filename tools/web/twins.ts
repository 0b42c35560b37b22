// The platform seam (docs/ARCHITECTURE.md): each Node-only module of src/ and
// its browser twin, which exports the same names. The browser build
// (tools/web/build.ts) substitutes the twins; test/architecture.test.ts checks
// that the library reaches Node built-ins only through these modules.

/** Node-only module -> its browser twin (paths in dist/src, as compiled). */
export const BROWSER_TWINS: Readonly<Record<string, string>> = {
  'book/files.js': 'browser/book-files.js',
  'engine/platform.js': 'browser/platform.js',
  'eval/nnue/files.js': 'browser/nnue-files.js',
  'eval/nnue/page-toucher.js': 'browser/page-toucher.js',
  'search/thread-host.js': 'browser/thread-host.js',
};
