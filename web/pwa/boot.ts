// The page's boot script: a classic script in index.html's <head>, bundled by
// scripts/web/build.ts as dist/boot.js, run before the page's modules. It
// registers the page's service worker (sw.js, beside index.html: sw.ts), which
// keeps the page's files for offline use and adds the isolation headers to
// every response (isolation.ts). Where the host sent the headers, that is all.
// Where it did not, the page is not cross-origin isolated and Kirin cannot
// search: once the worker is active the script reloads the page, once per tab
// (sessionStorage remembers it), and the reloaded page, served by the worker,
// is isolated. Where even that is impossible (a file:// page, plain http from
// another machine, no service worker, a failed install, a reload that did not
// help) it says why in the page's #isolation banner, under its support
// message (#fatal), in the player's language (the page's own choice:
// web/i18n/language.ts). <html data-isolation> tells tests and styles how it
// went: isolated, pending (the worker is on its way) or the problem's name.

import { chooseLanguage } from '../i18n/language.js';
import { storedPrefs } from '../settings/prefs.js';
import { afterActive, bootPlan, type IsolationProblem } from './isolation.js';
import { isolationMessage } from './messages.js';

/** The sessionStorage key that marks a tab the boot script has reloaded. */
const RELOADED = 'kirin-isolation-reload';
/** The service worker, beside index.html so that its scope is the page's folder. */
const SERVICE_WORKER = 'sw.js';

function sessionStore(): Storage | null {
  try {
    return window.sessionStorage;
  } catch {
    return null; // storage blocked: reading the property throws
  }
}

/** Says `problem` in the page's #isolation banner (one made under #fatal where the page has none), once the body is there. */
function say(problem: IsolationProblem, error = ''): void {
  document.documentElement.dataset.isolation = problem;
  const show = (): void => {
    let p = document.getElementById('isolation');
    if (!p) {
      p = document.createElement('p');
      p.id = 'isolation';
      p.className = 'banner error';
      p.setAttribute('role', 'alert');
      const fatal = document.getElementById('fatal');
      if (fatal) fatal.after(p);
      else document.body.prepend(p);
    }
    const languages = navigator.languages.length > 0 ? navigator.languages : [navigator.language];
    p.textContent = isolationMessage(
      problem,
      chooseLanguage(storedPrefs(() => localStorage).get('language'), languages),
      error,
    );
    p.hidden = false;
  };
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', show, { once: true });
  else show();
}

function boot(): void {
  const plan = bootPlan({
    isolated: window.crossOriginIsolated === true,
    protocol: location.protocol,
    secureContext: isSecureContext,
    serviceWorker: 'serviceWorker' in navigator,
  });
  if (plan.kind === 'problem') return say(plan.problem);
  const store = sessionStore();
  if (plan.kind === 'isolated') {
    document.documentElement.dataset.isolation = 'isolated';
    store?.removeItem(RELOADED);
    // Only for offline use here: a failure costs nothing else, so it is a warning.
    navigator.serviceWorker
      .register(SERVICE_WORKER)
      .catch((e: unknown) => console.warn(`Kirin: no offline copy, sw.js did not register: ${String(e)}`));
    return;
  }
  document.documentElement.dataset.isolation = 'pending';
  navigator.serviceWorker.register(SERVICE_WORKER).then(
    (registration: ServiceWorkerRegistration | undefined) => {
      // A browser (or its automation) that refuses service workers may resolve with nothing.
      if (registration === undefined) return say('no-service-worker');
      const installing = registration.installing;
      installing?.addEventListener('statechange', () => {
        if (installing.state === 'redundant' && !registration.active) say('install-failed');
      });
      return navigator.serviceWorker.ready.then(() => {
        const step = afterActive(store === null ? null : store.getItem(RELOADED) !== null);
        if (step.kind === 'problem') return say(step.problem);
        try {
          store!.setItem(RELOADED, String(Date.now()));
        } catch {
          return say('no-storage'); // full or refused: a reload could not be remembered
        }
        location.reload();
      });
    },
    (e: unknown) => say('register-failed', e instanceof Error ? e.message : String(e)),
  );
}

boot();
