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
//   (default)   web/dist/ (or --outdir): the page, minified, with source maps
// The platform seam (docs/ARCHITECTURE.md): each Node-only module of src/ has a
// browser twin exporting the same names, substituted here. The build is for
// platform=browser, so a Node built-in left anywhere in that path fails it; the
// bundles are checked for `node:` imports as well.
//
//   node dist/scripts/web/build.js [--outdir <dir>] [--package]

import { copyFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import * as esbuild from 'esbuild';
import { commandSpec, isMain, repoRoot, scriptCommandLine } from '../../commands/lib.js';
import { BROWSER_TWINS } from '../../src/platform/twins.js';

/** The Node built-ins a bundle imports (`import ... from "node:x"`, `import("node:x")`, `require("node:x")`). */
export function nodeImports(code: string): string[] {
  const re = /(?:\bfrom\s*|\bimport\s*\(?\s*|\brequire\s*\(\s*)["'](node:[^"']+)["']/g;
  return [...code.matchAll(re)].map((m) => m[1]);
}

function twinsPlugin(srcDir: string): esbuild.Plugin {
  return {
    name: 'kirin-browser-twins',
    setup(b) {
      b.onResolve({ filter: /^\.\.?\// }, (args) => {
        const target = join(args.resolveDir, args.path);
        const rel = relative(srcDir, target).split(sep).join('/');
        const twin = BROWSER_TWINS[rel];
        return twin ? { path: join(srcDir, twin) } : undefined;
      });
      // The page imports the library by its source path (for types); in the browser it is ./kirin.js.
      b.onResolve({ filter: /\/src\/browser\/index\.js$/ }, (args) =>
        args.kind === 'entry-point' ? undefined : { path: './kirin.js', external: true },
      );
    },
  };
}

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

export interface WebBuild {
  outdir: string;
  /** Output file name -> bytes: the bundles, then the files they name. */
  sizes: Record<string, number>;
  /** The files copied beside the bundles (names as the bundles give them). */
  assets: string[];
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
  await esbuild.build({
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    sourcemap: opts.minify,
    minify: opts.minify,
    // The glyph outlines' licence notice (web/board/glyphs.ts) stays in app.js.
    legalComments: 'inline',
    logLevel: 'silent',
    plugins: [twinsPlugin(srcDir)],
    entryPoints,
    outdir,
  });
  const bundles = Object.keys(entryPoints).map((e) => `${e}.js`);
  const sizes: Record<string, number> = {};
  const assets: string[] = [];
  for (const f of bundles) {
    const code = readFileSync(join(outdir, f), 'utf8');
    sizes[f] = code.length;
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

/** The page's build into `outdir` (default web/dist): the library, the search thread, the page, the files they name. */
export function buildWeb(outdir = join(repoRoot(), 'web', 'dist')): Promise<WebBuild> {
  return buildBrowser(outdir, { page: true, minify: true });
}

/** The package's browser entry (dist/browser/): the library, the search thread and the files they name. */
export function buildPackageBrowser(outdir = join(repoRoot(), 'dist', 'browser')): Promise<WebBuild> {
  return buildBrowser(outdir, { page: false, minify: false });
}

const USAGE = 'usage: node dist/scripts/web/build.js [--outdir <dir>] [--package]';

if (isMain(import.meta.url)) {
  const cl = scriptCommandLine(
    process.argv.slice(2),
    commandSpec({
      name: 'build-web',
      usage: USAGE,
      options: { outdir: { type: 'string' }, package: { type: 'boolean' } },
    }),
  );
  const outdir = cl.string('outdir', '') || undefined;
  try {
    const r = await (cl.flag('package') ? buildPackageBrowser(outdir) : buildWeb(outdir));
    const rel = relative(process.cwd(), r.outdir) || '.';
    for (const [f, n] of Object.entries(r.sizes)) process.stdout.write(`${join(rel, f)}  ${n} bytes\n`);
  } catch (e) {
    process.stderr.write(`build-web: ${(e as Error).message}\n`);
    process.exitCode = 1;
  }
}
