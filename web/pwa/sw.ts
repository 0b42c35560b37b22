// The page's service worker, bundled by scripts/web/build.ts as sw.js beside
// index.html (a worker controls the pages at and below its own folder, so it
// must sit there, not in dist/). Registered by the boot script (boot.ts), it
// does two things:
//
// - Isolation: every response of the page's own origin it serves carries the
//   COOP and COEP headers (isolation.ts), so the page is cross-origin isolated
//   and Kirin can search on a host that sends no such headers. Requests to
//   other origins are left to the browser.
// - Offline: on install it stores the page's files (the list the build wrote
//   into KIRIN_PRECACHE: the page, its stylesheets, icons and manifest, the
//   bundles, the kernels, the network, the book) in a cache named by a hash of
//   their contents, and the large files only some visits use (KIRIN_PRECACHE.lazy:
//   the explorer, the puzzles) in the same cache when the page first fetches
//   them; on activate it deletes this page's older caches. The page
//   itself (a navigation) comes from the network first and from the cache when
//   the network fails; every other file from the cache first. A new build
//   changes the hash, so sw.js changes; the browser installs the new worker on
//   the next visit, which stores the new files and then takes over.
//
// The cache holds exactly one build: the page fetched from the network is not
// stored over the cached one, so that offline the page and its scripts always
// come from the same build.

import { withIsolation } from './isolation.js';

declare let self: ServiceWorkerGlobalScope;

/** Filled in by the build (esbuild's define): the files kept offline, relative to sw.js, and a hash of their contents. */
declare const KIRIN_PRECACHE: {
  readonly version: string;
  readonly urls: readonly string[];
  /** Large files only some visits use (the explorer, the puzzles): kept when first fetched, not on install. */
  readonly lazy: readonly string[];
};

/** This page's caches (one page per scope: two copies of the page on one site keep apart). */
const CACHE_PREFIX = `kirin ${self.registration.scope} `;
const CACHE = CACHE_PREFIX + KIRIN_PRECACHE.version;
const PRECACHE = KIRIN_PRECACHE.urls.map((u) => new URL(u, self.location.href).href);
const LAZY = new Set(KIRIN_PRECACHE.lazy.map((u) => new URL(u, self.location.href).href));
/** The page's folder, under which the page (index.html) is kept. */
const PAGE = new URL('./', self.location.href).href;

self.addEventListener('install', (event) => {
  event.waitUntil(
    (async () => {
      const cache = await caches.open(CACHE);
      // Revalidated with the host ('no-cache'): a copy of an older build in the
      // HTTP cache must not be kept under this build's name.
      await cache.addAll(PRECACHE.map((u) => new Request(u, { cache: 'no-cache' })));
      // Take over at once, also from an older worker: its cache is the previous build's.
      await self.skipWaiting();
    })(),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys())
        if (name.startsWith(CACHE_PREFIX) && name !== CACHE) await caches.delete(name);
      // Control the page that registered the worker now (the boot script then reloads it once).
      await self.clients.claim();
    })(),
  );
});

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  // A request the browser may answer only from its HTTP cache cannot be made by a worker for another mode.
  if (request.cache === 'only-if-cached' && request.mode !== 'same-origin') return;
  event.respondWith(request.mode === 'navigate' ? networkFirst(request, url) : cacheFirst(request));
});

/** The page: from the network, else (offline, host gone) the cached page. Its query does not matter; index.html is its folder. */
async function networkFirst(request: Request, url: URL): Promise<Response> {
  try {
    return withIsolation(await fetch(request));
  } catch (e) {
    const path = url.origin + url.pathname;
    const key = path === `${PAGE}index.html` ? PAGE : path;
    const kept = await (await caches.open(CACHE)).match(key);
    if (kept) return withIsolation(kept);
    throw e;
  }
}

/**
 * Any other file: the cached copy, else the network (a file not kept offline,
 * such as a network the player loads). A lazy file of the build fetched whole
 * is kept then, so that it works offline after its first use.
 */
async function cacheFirst(request: Request): Promise<Response> {
  const cache = await caches.open(CACHE);
  const kept = await cache.match(request);
  if (kept) return withIsolation(kept);
  const response = await fetch(request);
  const url = new URL(request.url);
  if (response.status === 200 && LAZY.has(url.origin + url.pathname)) await cache.put(url.href, response.clone());
  return withIsolation(response);
}
