// What the page's service worker keeps for offline use (web/pwa/sw.ts), worked
// out by the build (build.ts) from the files it has just written: the page's
// own files beside index.html (PAGE_FILES, every stylesheet, the icons) and
// everything the build wrote into dist/ (the bundles, the boot script, the
// kernels, the decoder, the network, the book: whatever the bundles name beside
// themselves comes on its own). The list goes into sw.js with a hash of the
// files' names and contents as the cache's version: a new build with any file
// changed gets a new sw.js, and the browser replaces the old cache.
//
// A file a later feature adds: one the library fetches beside kirin.js (`new
// URL('./name', import.meta.url)`, src/platform/browser/assets.ts) is copied
// into dist/ and kept with no more work; one that lives beside index.html is
// added to PAGE_FILES (or put in a folder of PAGE_FOLDERS). A large file only
// some visits need (the explorer of master games, the puzzles) is named in
// LAZY_FILES: the worker does not download it on install but keeps it when
// the page first fetches it, so it too works offline after its first use.

import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The page's own files beside index.html kept offline (each must exist), besides every *.css there. */
export const PAGE_FILES: readonly string[] = ['index.html', 'manifest.webmanifest', 'glyphs-OFL.txt'];

/**
 * Files of dist/ that are fetched only when the player asks for them (the 开局库
 * tab, 练习): kept at run time when first fetched, not stored on install, so that
 * a first visit does not download 1.3 MB it may never use.
 */
export const LAZY_FILES: readonly string[] = ['masters.explorer', 'puzzles.json'];

/** The page's folders whose every file is kept offline. */
const PAGE_FOLDERS: readonly string[] = ['icons'];

/** The page's files in `dir` (its folder), relative to it: PAGE_FILES, the stylesheets, the files of PAGE_FOLDERS. */
export function pageFiles(dir: string): string[] {
  for (const f of PAGE_FILES)
    if (!existsSync(join(dir, f))) throw new Error(`the page's ${f} is not in ${dir} (scripts/web/precache.ts)`);
  const css = readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith('.css'))
    .map((e) => e.name);
  const inFolders = PAGE_FOLDERS.flatMap((d) =>
    existsSync(join(dir, d))
      ? readdirSync(join(dir, d), { withFileTypes: true })
          .filter((e) => e.isFile())
          .map((e) => `${d}/${e.name}`)
      : [],
  );
  return [...PAGE_FILES, ...css.sort(), ...inFolders.sort()];
}

/** A page file's URL relative to sw.js (the page's folder): index.html is kept as the folder itself, './'. */
export function precacheUrl(file: string): string {
  return file === 'index.html' ? './' : file;
}

/** One file kept offline: its URL relative to sw.js and its bytes. */
export interface PrecacheFile {
  url: string;
  bytes: Uint8Array;
}

/** The cache's version: 16 hex digits of a SHA-256 of the files' URLs and contents, whatever their order. */
export function precacheVersion(files: readonly PrecacheFile[]): string {
  const hash = createHash('sha256');
  for (const f of [...files].sort((a, b) => (a.url < b.url ? -1 : a.url > b.url ? 1 : 0))) {
    hash.update(`${f.url}\0${f.bytes.length}\0`);
    hash.update(f.bytes);
  }
  return hash.digest('hex').slice(0, 16);
}

/** What sw.js is built with, and the cache's size. */
export interface Precache {
  version: string;
  /** Relative to sw.js: the page's files, then dist/'s, stored on install. */
  urls: string[];
  /** The bytes of the files stored on install. */
  bytes: number;
  /** Relative to sw.js: dist/'s LAZY_FILES, kept when first fetched. */
  lazy: string[];
  /** Their bytes (what the cache holds more once each was used). */
  lazyBytes: number;
}

/**
 * The precache of the page in `pageDir` whose build wrote `distFiles` (names)
 * into `distDir`, which is served as the page's dist/ folder.
 */
export function precacheOf(pageDir: string, distDir: string, distFiles: readonly string[]): Precache {
  const dist = (names: readonly string[]): PrecacheFile[] =>
    names.map((f) => ({ url: `dist/${f}`, bytes: readFileSync(join(distDir, f)) }));
  const files: PrecacheFile[] = [
    ...pageFiles(pageDir).map((f) => ({ url: precacheUrl(f), bytes: readFileSync(join(pageDir, f)) })),
    ...dist(distFiles.filter((f) => !LAZY_FILES.includes(f))),
  ];
  const lazy = dist(distFiles.filter((f) => LAZY_FILES.includes(f)));
  const sum = (fs: readonly PrecacheFile[]): number => fs.reduce((n, f) => n + f.bytes.length, 0);
  return {
    // The lazy files are of the build too: a new explorer is a new cache.
    version: precacheVersion([...files, ...lazy]),
    urls: files.map((f) => f.url),
    bytes: sum(files),
    lazy: lazy.map((f) => f.url),
    lazyBytes: sum(lazy),
  };
}
