// The platform seam (docs/ARCHITECTURE.md): package.json "imports" names each
// module that differs per platform, #platform/NAME, leading Node to
// src/platform/node/NAME.ts and a browser build (the "browser" condition) to
// its twin src/platform/browser/NAME.ts. The twins stand in for each other:
// each browser twin exports its Node module's names, with types the Node
// module's users accept (checked by the compiler below; tsconfig.browser.json
// type-checks the library itself against the browser twins).

import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { test } from 'node:test';
import type * as nodeBookFiles from '#platform/book-files';
import type * as nodeFiles from '#platform/files';
import type * as nodePageToucher from '#platform/page-toucher';
import type * as nodeSearchThread from '#platform/search-thread';
import type * as nodeThreadHost from '#platform/thread-host';
import type * as browserBookFiles from './browser/book-files.js';
import type * as browserFiles from './browser/files.js';
import type * as browserPageToucher from './browser/page-toucher.js';
import type * as browserSearchThread from './browser/search-thread.js';
import type * as browserThreadHost from './browser/thread-host.js';

/** True when module `B` can stand where module `N` is imported: every name of N, with a type N's users accept. */
type StandsFor<B, N> = [B] extends [{ [K in keyof N]: N[K] }] ? true : false;

/** The names of the seam: package.json "imports", each #platform/NAME with its conditions and targets. */
function seamNames(): Record<string, Record<string, string>> {
  const pkg = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as {
    imports: Record<string, Record<string, string>>;
  };
  return pkg.imports;
}

/** The modules (file names less .js) of a folder of dist/src/platform/. */
function modules(dir: string): string[] {
  return readdirSync(new URL(dir, import.meta.url))
    .filter((f) => f.endsWith('.js'))
    .map((f) => f.slice(0, -3))
    .sort();
}

test('package.json "imports" names every module of platform/node/, each with its browser twin', () => {
  const names = seamNames();
  const nodeModules = modules('./node/');
  assert.deepEqual(Object.keys(names).sort(), nodeModules.map((m) => `#platform/${m}`).sort());
  for (const m of nodeModules) {
    // "browser" first: a resolver that has both conditions (TypeScript with customConditions) takes the twin.
    assert.deepEqual(
      Object.entries(names[`#platform/${m}`]),
      [
        ['browser', `./dist/src/platform/browser/${m}.js`],
        ['node', `./dist/src/platform/node/${m}.js`],
      ],
      m,
    );
    assert.ok(modules('./browser/').includes(m), `the browser twin of ${m}`);
  }
});

test('Node resolves each #platform/ name to the Node module, as compiled in dist/src/', () => {
  for (const name of Object.keys(seamNames()))
    assert.equal(
      import.meta.resolve(name),
      new URL(`./node/${name.slice('#platform/'.length)}.js`, import.meta.url).href,
    );
});

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
  for (const name of Object.keys(seamNames())) {
    const m = name.slice('#platform/'.length);
    if (m === 'thread-host') continue;
    const a = Object.keys((await import(name)) as object).sort();
    const b = Object.keys((await import(`./browser/${m}.js`)) as object)
      .filter((k) => !browserOnly.includes(k))
      .sort();
    assert.deepEqual(b, a, `./browser/${m}.js vs ${name}`);
  }
});
