// The platform seam (docs/ARCHITECTURE.md): the product's few Node-only
// modules, each under src/platform/node/, and their browser twins under
// src/platform/browser/ with the same file name. A twin exports the names of
// its Node module with the same types (twins.test.ts checks both), so it can
// stand in its place: the product imports the Node module, and the browser
// build (scripts/web/build.ts) swaps in the twin. test/architecture.test.ts
// checks that the library reaches Node built-ins only through these modules.

/** The platform's modules: src/platform/node/NAME.ts and its twin src/platform/browser/NAME.ts. */
export const PLATFORM_MODULES = ['search-thread', 'thread-host', 'files', 'book-files', 'page-toucher'] as const;

/** Node module -> its browser twin (paths in dist/src, as compiled): what the browser build swaps. */
export const BROWSER_TWINS: Readonly<Record<string, string>> = Object.fromEntries(
  PLATFORM_MODULES.map((m) => [`platform/node/${m}.js`, `platform/browser/${m}.js`]),
);
