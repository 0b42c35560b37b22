// The browser build (after `npm run build`'s tsc): bundles the compiled library
// (dist/src) with esbuild as ES modules, for platform=browser:
//   kirin.js    the library (src/browser/index.ts)
//   worker.js   the search thread (src/search/worker.ts)
//   app.js      the page (web/app.ts), importing ./kirin.js (web/dist/ only)
// and beside them every file the bundles name as `new URL('./name',
// import.meta.url)` (src/platform/browser/assets.ts: the kernels, the zstd
// decoder, the embedded network), which assembly/build.js put in dist/browser/
// (copied from there, unless that is the output folder). Two builds:
//   --package   dist/browser/: the package's browser entry (package.json
//               "exports", conditions "browser" and "worker"), readable (not
//               minified): an app's bundler minifies it
//   (default)   the page, minified, with source maps, in web/: the bundles
//               and boot.js (web/pwa/boot.ts, the classic script that
//               registers the service worker) in web/dist/, the service
//               worker (web/pwa/sw.ts) as web/sw.js, beside index.html (it
//               controls only its own folder); web/ is then the whole site,
//               for any static host
//   --site DIR  the same site in DIR: web/'s page files (index.html, the
//               stylesheets, the manifest, the icons: precache.ts's
//               pageFiles) copied there, DIR/dist/, DIR/sw.js
//   --outdir D  the page's bundles in D, with sw.js beside them (D is meant
//               to be served as web/'s dist/: scripts/web/serve.ts serves a
//               sw.js found there as /sw.js)
// The service worker keeps the page's files for offline use: the list and its
// version (a hash of the contents) are worked out from what the build wrote
// (precache.ts) and compiled into sw.js.
// The platform seam (docs/ARCHITECTURE.md): the product imports each module
// that differs between Node and a browser by its #platform/NAME name, and
// package.json "imports" maps that name to the Node module or, under the
// "browser" condition, to its browser twin. The build is for platform=browser,
// so esbuild resolves each such name to the twin; a Node built-in left
// anywhere in that path fails the build, and the bundles are checked for
// `node:` imports as well.
//
//   node dist/scripts/web/build.js [--site <dir> | --outdir <dir>] [--package]

import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import * as esbuild from 'esbuild';
import { commandSpec, scriptCommandLine } from '../../toolkit/command-line.js';
import { repoRoot } from '../../toolkit/files.js';
import { isMain } from '../../toolkit/script.js';
import { pageFiles, precacheOf, type Precache } from './precache.js';

/** The Node built-ins a bundle imports (`import ... from "node:x"`, `import("node:x")`, `require("node:x")`). */
export function nodeImports(code: string): string[] {
  const re = /(?:\bfrom\s*|\bimport\s*\(?\s*|\brequire\s*\(\s*)["'](node:[^"']+)["']/g;
  return [...code.matchAll(re)].map((m) => m[1]);
}

/** The page imports the library by its source path (for types); in the browser it is ./kirin.js. */
const libraryAsKirinJs: esbuild.Plugin = {
  name: 'kirin-library',
  setup(b) {
    b.onResolve({ filter: /\/src\/browser\/index\.js$/ }, (args) =>
      args.kind === 'entry-point' ? undefined : { path: './kirin.js', external: true },
    );
  },
};

/** The files a bundle names as `new URL('./name', import.meta.url)` (in the order they appear, once each). */
export function assetReferences(code: string): string[] {
  const re = /\bnew\s+URL\(\s*(["'`])\.\/([^"'`/]+)\1\s*,\s*import\.meta\.url\s*\)/g;
  return [...new Set([...code.matchAll(re)].map((m) => m[2]))];
}

/** Where assembly/build.js puts the files the bundles name (the package's dist/browser/). */
export function assetDir(): string {
  return join(repoRoot(), 'dist', 'browser');
}

/** The file named `name` in `dir`; throws, naming both, when it is not there. */
export function assetFile(dir: string, name: string): string {
  const path = join(dir, name);
  if (!existsSync(path))
    throw new Error(
      `the bundles name ./${name} (src/platform/browser/assets.ts), but there is no ${path} (run node assembly/build.js)`,
    );
  return path;
}

/** A classic script (the boot script, the service worker): one minified IIFE, no module syntax left. */
const CLASSIC_SCRIPT = {
  bundle: true,
  format: 'iife',
  platform: 'browser',
  target: 'es2020',
  minify: true,
  logLevel: 'silent',
} as const satisfies esbuild.BuildOptions;

export interface WebBuild {
  outdir: string;
  /** Output file name -> bytes: whatever esbuild wrote (the bundles, the page's boot.js), then the files the bundles name. */
  sizes: Record<string, number>;
  /** The files copied beside the bundles (names as the bundles give them). */
  assets: string[];
}

/** The page's build: the bundles, and the service worker with what it keeps offline. */
export interface PageBuild extends WebBuild {
  /** sw.js: where it was written and its bytes. */
  serviceWorker: { path: string; bytes: number };
  precache: Precache;
}

export interface BrowserBuildOptions {
  /** Also bundle the page (web/app.ts) as app.js. */
  page: boolean;
  /** Minify and write source maps (the page); the package's build stays readable. */
  minify: boolean;
}

/** Builds the browser bundles and copies the files they name into `outdir`. Throws with esbuild's messages on failure. */
export async function buildBrowser(outdir: string, opts: BrowserBuildOptions): Promise<WebBuild> {
  const root = repoRoot();
  const srcDir = join(root, 'dist', 'src');
  mkdirSync(outdir, { recursive: true });
  const entryPoints: Record<string, string> = {
    kirin: join(srcDir, 'browser', 'index.js'),
    worker: join(srcDir, 'search', 'worker.js'),
  };
  if (opts.page) entryPoints.app = join(root, 'web', 'app.ts');
  const main = await esbuild.build({
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    sourcemap: opts.minify,
    minify: opts.minify,
    // The glyph outlines' licence notice (web/board/glyphs.ts) stays in app.js.
    legalComments: 'inline',
    logLevel: 'silent',
    // platform=browser: esbuild resolves with the "browser" condition, so each
    // #platform/NAME import (package.json "imports") is the browser twin.
    plugins: [libraryAsKirinJs],
    entryPoints,
    outdir,
    metafile: true,
  });
  // The boot script is a classic script (it runs in <head> before the page's modules): no imports left.
  const boot = opts.page
    ? await esbuild.build({
        ...CLASSIC_SCRIPT,
        entryPoints: { boot: join(root, 'web', 'pwa', 'boot.ts') },
        outdir,
        metafile: true,
      })
    : undefined;
  // Every file esbuild wrote but the source maps (a stylesheet the page imports would be one).
  const written = [main, ...(boot ? [boot] : [])]
    .flatMap((r) => Object.keys(r.metafile.outputs))
    .map((p) => relative(outdir, resolve(p)).split(sep).join('/'))
    .filter((f) => !f.endsWith('.map'));
  const bundles = written.filter((f) => f.endsWith('.js'));
  const sizes: Record<string, number> = {};
  for (const f of written) if (!f.endsWith('.js')) sizes[f] = readFileSync(join(outdir, f)).length;
  const assets: string[] = [];
  for (const f of bundles) {
    const code = readFileSync(join(outdir, f), 'utf8');
    sizes[f] = Buffer.byteLength(code);
    const found = nodeImports(code);
    if (found.length > 0) throw new Error(`${f} imports Node built-ins: ${found.join(', ')}`);
    for (const a of assetReferences(code)) if (!bundles.includes(a) && !assets.includes(a)) assets.push(a);
  }
  const from = assetDir();
  for (const a of assets) {
    const file = assetFile(from, a);
    if (resolve(file) !== resolve(join(outdir, a))) copyFileSync(file, join(outdir, a));
    sizes[a] = readFileSync(join(outdir, a)).length;
    // A licence notice beside a file goes with it (zstd.wasm.LICENSE: assembly/build.js).
    if (existsSync(`${file}.LICENSE`) && resolve(file) !== resolve(join(outdir, a)))
      copyFileSync(`${file}.LICENSE`, join(outdir, `${a}.LICENSE`));
  }
  return { outdir, sizes, assets };
}

/** The page's source folder (index.html, its stylesheets, manifest and icons). */
export function webDir(): string {
  return join(repoRoot(), 'web');
}

/**
 * Bundles the service worker (web/pwa/sw.ts) with `precache` compiled in, as
 * the classic script `path` (a classic worker: every browser with service
 * workers runs one). Returns its bytes.
 */
export async function writeServiceWorker(path: string, precache: Precache): Promise<number> {
  const r = await esbuild.build({
    ...CLASSIC_SCRIPT,
    entryPoints: [join(repoRoot(), 'web', 'pwa', 'sw.ts')],
    define: {
      KIRIN_PRECACHE: JSON.stringify({ version: precache.version, urls: precache.urls, lazy: precache.lazy }),
    },
    write: false,
  });
  const code = r.outputFiles[0].contents;
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, code);
  return code.length;
}

/** The page's bundles and the files beside them, `outdir` relative: what the service worker keeps of dist/. */
function distFiles(b: WebBuild): string[] {
  return Object.keys(b.sizes);
}

/**
 * The page's bundles in `outdir` (the library, the search thread, the page,
 * the boot script, the files they name) and sw.js beside them, for a page of
 * web/ whose dist/ is `outdir` (scripts/web/serve.ts serves that sw.js as
 * /sw.js).
 */
export async function buildWeb(outdir: string): Promise<PageBuild> {
  const b = await buildBrowser(outdir, { page: true, minify: true });
  const precache = precacheOf(webDir(), outdir, distFiles(b));
  const path = join(outdir, 'sw.js');
  return { ...b, precache, serviceWorker: { path, bytes: await writeServiceWorker(path, precache) } };
}

/**
 * The whole page in `site` (default web/), ready for any static host: web/'s
 * page files copied there (unless `site` is web/), the bundles in
 * `site`/dist/, sw.js in `site`.
 */
export async function buildSite(site = webDir()): Promise<PageBuild> {
  const from = webDir();
  if (resolve(site) !== resolve(from))
    for (const f of pageFiles(from)) {
      mkdirSync(dirname(join(site, f)), { recursive: true });
      copyFileSync(join(from, f), join(site, f));
    }
  const outdir = join(site, 'dist');
  const b = await buildBrowser(outdir, { page: true, minify: true });
  const precache = precacheOf(site, outdir, distFiles(b));
  const path = join(site, 'sw.js');
  return { ...b, precache, serviceWorker: { path, bytes: await writeServiceWorker(path, precache) } };
}

/** The package's browser entry (dist/browser/): the library, the search thread and the files they name. */
export function buildPackageBrowser(outdir = join(repoRoot(), 'dist', 'browser')): Promise<WebBuild> {
  return buildBrowser(outdir, { page: false, minify: false });
}

const USAGE = 'usage: node dist/scripts/web/build.js [--site <dir> | --outdir <dir>] [--package]';

if (isMain(import.meta.url)) {
  const cl = scriptCommandLine(
    process.argv.slice(2),
    commandSpec({
      name: 'build-web',
      usage: USAGE,
      options: { outdir: { type: 'string' }, site: { type: 'string' }, package: { type: 'boolean' } },
    }),
  );
  const outdir = cl.string('outdir', '') || undefined;
  const site = cl.string('site', '') || undefined;
  try {
    if (site !== undefined && (outdir !== undefined || cl.flag('package')))
      throw new Error(`--site builds the page's whole site: give it alone\n${USAGE}`);
    const r = cl.flag('package')
      ? await buildPackageBrowser(outdir)
      : outdir !== undefined
        ? await buildWeb(outdir)
        : await buildSite(site);
    const rel = relative(process.cwd(), r.outdir) || '.';
    for (const [f, n] of Object.entries(r.sizes)) process.stdout.write(`${join(rel, f)}  ${n} bytes\n`);
    if ('precache' in r) {
      const p = r as PageBuild;
      process.stdout.write(`${relative(process.cwd(), p.serviceWorker.path)}  ${p.serviceWorker.bytes} bytes\n`);
      process.stdout.write(
        `offline cache: ${p.precache.urls.length} files, ${p.precache.bytes} bytes (version ${p.precache.version});` +
          ` kept when first used: ${p.precache.lazy.length} files, ${p.precache.lazyBytes} bytes\n`,
      );
    }
  } catch (e) {
    process.stderr.write(`build-web: ${(e as Error).message}\n`);
    process.exitCode = 1;
  }
}
