// The platform seam (docs/ARCHITECTURE.md): each Node-only module of src/ and
// its browser twin, which exports the same names. The browser build
// (scripts/web/build.ts) substitutes the twins; test/architecture.test.ts checks
// that the library reaches Node built-ins only through these modules.

/** Node-only module -> its browser twin (paths in dist/src, as compiled). */
export const BROWSER_TWINS: Readonly<Record<string, string>> = {
  'platform/node/search-thread.js': 'platform/browser/search-thread.js',
  'platform/node/files.js': 'platform/browser/files.js',
  'platform/node/page-toucher.js': 'platform/browser/page-toucher.js',
  'platform/node/thread-host.js': 'platform/browser/thread-host.js',
};
