// The twins stand in for each other: each browser twin exports its Node
// module's names, with types the Node module's users accept (checked by the
// compiler below), and the swap table names every module of platform/node/.

import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { test } from 'node:test';
import type * as browserBookFiles from './browser/book-files.js';
import type * as browserFiles from './browser/files.js';
import type * as browserPageToucher from './browser/page-toucher.js';
import type * as browserSearchThread from './browser/search-thread.js';
import type * as browserThreadHost from './browser/thread-host.js';
import type * as nodeBookFiles from './node/book-files.js';
import type * as nodeFiles from './node/files.js';
import type * as nodePageToucher from './node/page-toucher.js';
import type * as nodeSearchThread from './node/search-thread.js';
import type * as nodeThreadHost from './node/thread-host.js';
import { BROWSER_TWINS, PLATFORM_MODULES } from './twins.js';

/** True when module `B` can stand where module `N` is imported: every name of N, with a type N's users accept. */
type StandsFor<B, N> = [B] extends [{ [K in keyof N]: N[K] }] ? true : false;

test("each browser twin has its Node module's names and types", async () => {
  // A twin that lacks a name or changes a type turns one of these into `false`, which does not compile.
  const agree: [
    StandsFor<typeof browserFiles, typeof nodeFiles>,
    StandsFor<typeof browserBookFiles, typeof nodeBookFiles>,
    StandsFor<typeof browserPageToucher, typeof nodePageToucher>,
    StandsFor<typeof browserSearchThread, typeof nodeSearchThread>,
    StandsFor<typeof browserThreadHost, typeof nodeThreadHost>,
  ] = [true, true, true, true, true];
  assert.deepEqual(agree, [true, true, true, true, true]);
  // And at run time, the names (thread-host needs a worker's `self`: the browser tests load it).
  const browserOnly = [
    'provideKernelModule',
    'fetchKernelModule',
    'fetchEmbeddedNetwork',
    'fetchEmbeddedBook',
    'provideZstdModuleUrl',
  ];
  for (const [nodeModule, twin] of Object.entries(BROWSER_TWINS)) {
    if (twin.endsWith('/thread-host.js')) continue;
    const a = Object.keys((await import(`../${nodeModule}`)) as object).sort();
    const b = Object.keys((await import(`../${twin}`)) as object)
      .filter((k) => !browserOnly.includes(k))
      .sort();
    assert.deepEqual(b, a, `${twin} vs ${nodeModule}`);
  }
});

test('the swap table names every module of platform/node/ and platform/browser/ has each twin', () => {
  const names = (dir: string) =>
    readdirSync(new URL(dir, import.meta.url))
      .filter((f) => f.endsWith('.js'))
      .map((f) => f.slice(0, -3))
      .sort();
  assert.deepEqual(names('./node/'), [...PLATFORM_MODULES].sort());
  for (const m of PLATFORM_MODULES) assert.ok(names('./browser/').includes(m), m);
});
