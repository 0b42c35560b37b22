// The package as a web developer gets it: `npm pack`, installed offline into a
// tiny app (with an empty npm cache: the runtime dependencies come packed from
// node_modules beside the tarball), built with esbuild and with Vite as the
// README's "In a browser app" says, and run in headless Chromium (Debian's
// /usr/bin/chromium), served cross-origin isolated; and the same app on Vite's
// dev server. The app imports
// 'kirin-xiangqi' (the exports' "browser" condition), loads the synthetic
// seed-1 network, and a search answers a move; the page reports that the
// WebAssembly kernels were found beside the bundle (no "kernels not loaded"
// message, the search thread evaluates with wasm-simd kernels). The TypeScript
// types of 'kirin-xiangqi/browser' are checked with the bundler resolution.
// Without /usr/bin/chromium the builds still run; only the browser part is
// skipped.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import * as esbuild from 'esbuild';
import { Position } from '../src/core/position.js';
import { legalMoves } from '../src/core/movegen.js';
import { moveToUci } from '../src/core/types.js';
import { playUciMoves } from '../src/core/ucimove.js';
import { repoRoot } from '../toolkit/files.js';
import { syntheticNetFile } from '../toolkit/nnue/synthetic-net.js';
import { CHROMIUM, launchChromium } from '../lab/web/chromium.js';
import { ISOLATION_HEADERS, serveWeb } from '../scripts/web/serve.js';

const root = repoRoot();
const noChromium = existsSync(CHROMIUM)
  ? false
  : `${CHROMIUM} is absent (Debian package chromium): browser run skipped`;

/** The tiny app: one page, one module using the package as the README shows. */
const APP_HTML = `<!doctype html>
<html><head><meta charset="utf-8"><title>app</title><link rel="icon" href="data:,"><script type="module" src="./main.js"></script></head>
<body><p id="out">...</p></body></html>
`;
const APP_JS = `import { Engine, browserSupport, embeddedBookProblem, kernelModuleProblem, moveToUci, prepareNetworkDecoder } from 'kirin-xiangqi';

const messages = [];
const problems = browserSupport().problems.map((p) => p.message).join(' | ');
const report = (data) => Object.assign(document.body.dataset, { problems, ...data });
try {
  const decoder = await prepareNetworkDecoder();
  const engine = new Engine();
  engine.onMessage = (line) => messages.push(line);
  const net = await fetch('seed1.nnue').then((r) => r.arrayBuffer());
  const loaded = engine.loadNetworkBytes(new Uint8Array(net), 'seed1.nnue');
  if (!loaded.ok) throw new Error(loaded.error.message);
  engine.setPosition(null, ['h2e2']);
  const { bestMove } = await engine.go({ movetime: 300, startTime: Date.now() });
  const { evaluation } = await engine.searchThreadEvaluation();
  document.getElementById('out').textContent = moveToUci(bestMove);
  report({
    move: moveToUci(bestMove),
    evaluation,
    canSearch: String(browserSupport().canSearch),
    kernels: kernelModuleProblem ?? 'found',
    book: embeddedBookProblem ?? 'found',
    bookMoves: String(engine.bookMoves().length),
    decoder: String(decoder),
    messages: messages.join(' | '),
  });
} catch (e) {
  report({ error: String(e && e.message) });
}
`;

let work = '';
let app = '';

function run(cmd: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = process.env) {
  return spawnSync(cmd, args, { cwd, env, encoding: 'utf8', timeout: 180_000 });
}

/** The runtime dependencies the lock file records, each as node_modules holds it (to be packed). */
function runtimeDependencyFolders(): string[] {
  const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, { dev?: boolean; devOptional?: boolean; optional?: boolean }>;
  };
  return Object.entries(lock.packages)
    .filter(([path, e]) => path !== '' && e.dev !== true && e.devOptional !== true)
    .map(([path]) => join(root, path))
    .filter((folder) => existsSync(folder));
}

before(() => {
  assert.ok(
    existsSync(join(root, 'dist', 'browser', 'kirin.js')),
    'dist/browser/kirin.js is missing: run `npm run build` (its build:browser step)',
  );
  work = mkdtempSync(join(tmpdir(), 'kirin-browser-app-'));
  const env = { ...process.env, npm_config_cache: join(work, 'npm-cache') };
  const deps = runtimeDependencyFolders();
  const packed = run(
    'npm',
    ['pack', '--ignore-scripts', '--silent', '--pack-destination', work, '.', ...deps],
    root,
    env,
  );
  assert.equal(packed.status, 0, packed.stderr);
  const tarballs = packed.stdout
    .trim()
    .split('\n')
    .map((name) => join(work, name.trim()));
  assert.equal(tarballs.length, 1 + deps.length, packed.stdout);
  app = join(work, 'app');
  mkdirSync(app);
  // The app's folder as a web developer starts one: \`npm init -y\` (npm 11 writes "type": "commonjs").
  const init = run('npm', ['init', '-y'], app, env);
  assert.equal(init.status, 0, init.stderr);
  // Offline with an empty cache: everything comes from the tarballs.
  const inst = run('npm', ['install', '--offline', '--no-audit', '--no-fund', ...tarballs], app, env);
  assert.equal(inst.status, 0, inst.stderr);
  writeFileSync(join(app, 'index.html'), APP_HTML);
  writeFileSync(join(app, 'main.js'), APP_JS);
});

after(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

/** The installed package's browser folder (what the README tells an esbuild user to copy). */
const installedBrowserDir = (): string => join(app, 'node_modules', 'kirin-xiangqi', 'dist', 'browser');

/**
 * Serves `dir` cross-origin isolated, opens it in Chromium and returns what the
 * app reported (with `pageErrors`: the errors the page logged, else none allowed).
 */
async function runInChromium(dir: string, pageErrors?: string[]): Promise<Record<string, string>> {
  copyFileSync(syntheticNetFile(1), join(dir, 'seed1.nnue'));
  const { server, url } = await serveWeb({ port: 0, webDir: dir, distDir: null });
  try {
    return await openApp(url, pageErrors);
  } finally {
    server.close();
  }
}

/** Opens the app at `url` in Chromium and returns what it reported (document.body.dataset). */
async function openApp(url: string, pageErrors?: string[]): Promise<Record<string, string>> {
  const browser = await launchChromium();
  const errors: string[] = [];
  try {
    const page = await browser.newPage();
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(m.text());
    });
    await page.goto(url);
    await page.waitForFunction('document.body.dataset.move || document.body.dataset.error', null, { timeout: 90_000 });
    const data = (await page.evaluate('({ ...document.body.dataset })')) as Record<string, string>;
    if (pageErrors) pageErrors.push(...errors);
    else assert.deepEqual(errors, [], 'no errors in the page');
    return data;
  } finally {
    await browser.close();
  }
}

/** What every build of the app must report: a legal reply, found kernels and zstd decoder, the network on wasm-simd. */
function assertAnswered(data: Record<string, string>): void {
  assert.equal(data.error, undefined, data.error);
  const pos = new Position();
  assert.ok(playUciMoves(pos, ['h2e2']).ok);
  assert.ok(legalMoves(pos).map(moveToUci).includes(data.move), `${data.move} is a legal reply to h2e2`);
  assert.equal(data.canSearch, 'true');
  assert.equal(data.kernels, 'found', 'kirin.js found the kernels beside it');
  assert.equal(data.book, 'found', 'kirin.js found the default opening book (kirin.book) beside it');
  assert.ok(Number(data.bookMoves) > 1, `${data.bookMoves} book replies to h2e2`);
  assert.equal(data.decoder, 'true', 'kirin.js found the zstd decoder (zstd.wasm) beside it');
  assert.equal(data.messages, '', 'the search thread found the kernels too');
  assert.equal(data.problems, '', 'browserSupport() finds nothing missing');
  assert.match(data.evaluation, /^NNUE seed1\.nnue .*\(wasm-simd kernels\)$/);
}

test(
  'an app bundled with esbuild (assets copied beside the bundle) answers a move',
  { timeout: 180_000 },
  async (t) => {
    const out = join(app, 'out-esbuild');
    await esbuild.build({
      absWorkingDir: app,
      entryPoints: ['main.js'],
      bundle: true,
      format: 'esm',
      platform: 'browser',
      outdir: out,
      logLevel: 'silent',
    });
    // As the README says: the package's browser files beside the bundle (esbuild does not copy them).
    cpSync(installedBrowserDir(), out, { recursive: true });
    writeFileSync(join(out, 'index.html'), APP_HTML);
    const code = readFileSync(join(out, 'main.js'), 'utf8');
    assert.match(code, /new URL\("\.\/worker\.js", import\.meta\.url\)/, 'the browser build was bundled');
    assert.doesNotMatch(code, /from "node:|require\("node:/, 'not the Node entry');
    if (noChromium) return t.skip(noChromium);
    assertAnswered(await runInChromium(out));
  },
);

test(
  'an app bundled with esbuild without the files beside it: browserSupport() and the search name what is missing',
  { timeout: 180_000 },
  async (t) => {
    if (noChromium) return t.skip(noChromium);
    const out = join(app, 'out-bare');
    await esbuild.build({
      absWorkingDir: app,
      entryPoints: ['main.js'],
      bundle: true,
      format: 'esm',
      platform: 'browser',
      outdir: out,
      logLevel: 'silent',
    });
    writeFileSync(join(out, 'index.html'), APP_HTML);
    const logged: string[] = [];
    const data = await runInChromium(out, logged);
    // The kernels and the embedded network, each by its URL, as problems that do not block.
    assert.match(data.problems, /NNUE kernels not loaded: http:\/\/[^ ]*\/kernels(-shared)?\.wasm: HTTP 404/);
    assert.match(data.problems, /embedded network not loaded: http:\/\/[^ ]*\/kirin\.knet: HTTP 404/);
    assert.match(data.problems, /dist\/browser\/ files belong beside the bundle/);
    // The search thread: the first search fails with its URL.
    assert.match(data.error, /the search thread http:\/\/[^ ]*\/worker\.js failed to load/);
    assert.ok(logged.length > 0, 'the browser logged the failed requests');
  },
);

test('an app built with Vite (assets emitted by Vite itself) answers a move', { timeout: 180_000 }, async (t) => {
  const { build } = await import('vite');
  const out = join(app, 'out-vite');
  await build({ root: app, configFile: false, logLevel: 'silent', build: { outDir: out, emptyOutDir: true } });
  // Vite found the worker and the kernels through `new URL(..., import.meta.url)` and emitted them.
  const assets = (spawnSync('ls', [join(out, 'assets')], { encoding: 'utf8' }).stdout ?? '').split('\n');
  for (const name of ['worker', 'kernels', 'kernels-shared', 'zstd'])
    assert.ok(
      assets.some((f) => new RegExp(`^${name}-[\\w-]+\\.(js|wasm)$`).test(f)),
      `Vite emitted ${name}: ${assets.join(' ')}`,
    );
  if (noChromium) return t.skip(noChromium);
  assertAnswered(await runInChromium(out));
});

test(
  "an app on Vite's dev server (no configuration but the isolation headers) answers a move",
  { timeout: 180_000 },
  async (t) => {
    if (noChromium) return t.skip(noChromium);
    const { createServer } = await import('vite');
    // The dev server serves public/ as is, and the app from source through Vite's dependency optimizer.
    mkdirSync(join(app, 'public'), { recursive: true });
    copyFileSync(syntheticNetFile(1), join(app, 'public', 'seed1.nnue'));
    const server = await createServer({
      root: app,
      configFile: false,
      logLevel: 'silent',
      server: { host: '127.0.0.1', port: 0, headers: { ...ISOLATION_HEADERS } },
    });
    await server.listen();
    try {
      assertAnswered(await openApp(server.resolvedUrls!.local[0]));
    } finally {
      await server.close();
    }
  },
);

test("the browser entry's types, and the docs' examples, type-check under TypeScript's bundler resolution", () => {
  // Every example that imports the package in the pages about using it (README.md, the library and
  // browser pages), as a TypeScript module of the app. (docs/NOTATION.md shows fragments.)
  const pages = ['README.md', 'docs/LIBRARY.md', 'docs/BROWSER.md'];
  const examples = pages
    .flatMap((page) => [...readFileSync(join(root, page), 'utf8').matchAll(/```(?:ts|js)\n([\s\S]*?)```/g)])
    .map((m) => m[1])
    .filter((code) => /from 'kirin-xiangqi/.test(code));
  assert.ok(examples.length >= 2, 'the docs show the library and the browser package');
  examples.forEach((code, i) => writeFileSync(join(app, `readme-${i}.ts`), code));
  writeFileSync(
    join(app, 'typed.ts'),
    [
      "import { Engine, browserSupport, moveToUci, type BrowserSupport } from 'kirin-xiangqi/browser';",
      'const s: BrowserSupport = browserSupport();',
      'const engine = new Engine();',
      "const set = engine.setPosition(null, ['h2e2']);",
      'if (set.ok && s.canSearch) void engine.go({ depth: 3, startTime: Date.now() }).then((r) => moveToUci(r.bestMove));',
      '',
    ].join('\n'),
  );
  const tsc = run(
    process.execPath,
    [
      join(root, 'node_modules', 'typescript', 'bin', 'tsc'),
      '--noEmit',
      '--strict',
      '--module',
      'esnext',
      '--moduleResolution',
      'bundler',
      '--target',
      'es2022',
      '--lib',
      'es2022,dom',
      '--skipLibCheck',
      'typed.ts',
      ...examples.map((_, i) => `readme-${i}.ts`),
    ],
    app,
  );
  assert.equal(tsc.status, 0, tsc.stdout + tsc.stderr);
});
