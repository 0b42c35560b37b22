// Cross-origin isolation on any static host. Kirin's search thread needs
// SharedArrayBuffer, which a browser gives only to a cross-origin isolated page:
// one whose document (and worker scripts) came with
//   Cross-Origin-Opener-Policy: same-origin
//   Cross-Origin-Embedder-Policy: require-corp
// A host that sends no such headers (GitHub Pages, a file server on a USB
// stick) still gets an isolated page: the page's service worker (sw.ts) serves
// every response of the page's own origin with the two headers added, and the
// boot script (boot.ts) reloads the page once when the worker has just taken it
// over. The pure parts of both live here: the headers added to a response, and
// what the boot script does given what the browser offers.

/** The two headers that make a page cross-origin isolated. */
export const ISOLATION_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'Cross-Origin-Opener-Policy': 'same-origin',
  // require-corp, not credentialless: everything the page loads is its own
  // origin's (or fetched with CORS, as a network from another site), which
  // require-corp allows, and every browser that isolates pages supports it.
  'Cross-Origin-Embedder-Policy': 'require-corp',
});

/**
 * `response` with the isolation headers, each one added where the response
 * lacks it (a host's own value is kept). A response whose headers cannot be
 * read or rewritten (an opaque one, status 0) and one that already has both
 * are returned as they are.
 */
export function withIsolation(response: Response): Response {
  if (response.status === 0) return response;
  const missing = Object.keys(ISOLATION_HEADERS).filter((h) => !response.headers.has(h));
  if (missing.length === 0) return response;
  const headers = new Headers(response.headers);
  for (const h of missing) headers.set(h, ISOLATION_HEADERS[h]);
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}

/** Why the page cannot isolate itself (each said on the page in the player's language: messages.ts). */
export type IsolationProblem =
  /** Opened as a file (file://): no service worker, and browsers do not run the page's modules there. */
  | 'file'
  /** Not a secure context (plain http from another machine): service workers need https or localhost. */
  | 'insecure'
  /** No service worker in this browser (a private window in some browsers, or switched off). */
  | 'no-service-worker'
  /** sw.js could not be registered. */
  | 'register-failed'
  /** sw.js was registered but its installation (storing the page's files) failed. */
  | 'install-failed'
  /** The worker controls the page, a reload happened, and the page is still not isolated. */
  | 'no-effect'
  /** No sessionStorage to remember the reload, so reloading could loop. */
  | 'no-storage';

/** What the browser offers the page as it loads. */
export interface BootFacts {
  /** self.crossOriginIsolated. */
  isolated: boolean;
  /** location.protocol, e.g. 'https:' or 'file:'. */
  protocol: string;
  /** self.isSecureContext. */
  secureContext: boolean;
  /** 'serviceWorker' in navigator. */
  serviceWorker: boolean;
}

/** The boot script's first step. */
export type BootPlan =
  /** The host sent the headers: register the worker for offline use, nothing more. */
  | { kind: 'isolated' }
  /** Register the worker, wait until it is active, then decide with afterActive. */
  | { kind: 'register' }
  /** Say why the page stays as it is. */
  | { kind: 'problem'; problem: IsolationProblem };

export function bootPlan(f: BootFacts): BootPlan {
  if (f.isolated) return { kind: 'isolated' };
  if (f.protocol === 'file:') return { kind: 'problem', problem: 'file' };
  if (!f.secureContext) return { kind: 'problem', problem: 'insecure' };
  if (!f.serviceWorker) return { kind: 'problem', problem: 'no-service-worker' };
  return { kind: 'register' };
}

/**
 * Once the worker is active and the page is still not isolated: reload once
 * (the reloaded page is the worker's, with the headers), unless this tab did
 * so already (`reloaded`; null when there is no sessionStorage to remember it
 * in), which would loop.
 */
export function afterActive(
  reloaded: boolean | null,
): { kind: 'reload' } | { kind: 'problem'; problem: IsolationProblem } {
  if (reloaded === null) return { kind: 'problem', problem: 'no-storage' };
  return reloaded ? { kind: 'problem', problem: 'no-effect' } : { kind: 'reload' };
}
