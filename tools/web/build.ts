// The browser build (`npm run build:web`, after `npm run build`): bundles the
// compiled library (dist/src) with esbuild into web/dist/ as ES modules:
//   kirin.js    the library (src/browser/index.ts)
//   worker.js   the search thread (src/search/worker.ts)
//   app.js      the page (web/app.ts), importing ./kirin.js
//   kernels.wasm, kernels-shared.wasm   the NNUE SIMD kernels (fetched by worker.js)
// The platform seam (docs/ARCHITECTURE.md): each Node-only module of src/ has a
// browser twin exporting the same names, substituted here. The build is for
// platform=browser, so a Node built-in left anywhere in that path fails it; the
// bundles are checked for `node:` imports as well.
//
//   node dist/tools/web/build.js [--outdir <dir>]

import { copyFileSync, mkdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import * as esbuild from 'esbuild';
import { isMain, repoRoot } from '../lib.js';
import { BROWSER_TWINS } from './twins.js';

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

export interface WebBuild {
  outdir: string;
  /** Output file name -> bytes. */
  sizes: Record<string, number>;
}

/** Builds the browser bundles into `outdir` (default web/dist). Throws with esbuild's messages on failure. */
export async function buildWeb(outdir = join(repoRoot(), 'web', 'dist')): Promise<WebBuild> {
  const root = repoRoot();
  const srcDir = join(root, 'dist', 'src');
  mkdirSync(outdir, { recursive: true });
  const common: esbuild.BuildOptions = {
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    sourcemap: true,
    minify: true,
    logLevel: 'silent',
    plugins: [twinsPlugin(srcDir)],
  };
  await esbuild.build({
    ...common,
    entryPoints: {
      kirin: join(srcDir, 'browser', 'index.js'),
      worker: join(srcDir, 'search', 'worker.js'),
      app: join(root, 'web', 'app.ts'),
    },
    outdir,
  });
  for (const f of ['kernels.wasm', 'kernels-shared.wasm'])
    copyFileSync(join(srcDir, 'eval', 'nnue', f), join(outdir, f));
  const sizes: Record<string, number> = {};
  for (const f of ['kirin.js', 'worker.js', 'app.js', 'kernels.wasm', 'kernels-shared.wasm']) {
    const bytes = readFileSync(join(outdir, f));
    sizes[f] = bytes.length;
    if (f.endsWith('.js')) {
      const found = nodeImports(bytes.toString('utf8'));
      if (found.length > 0) throw new Error(`${f} imports Node built-ins: ${found.join(', ')}`);
    }
  }
  return { outdir, sizes };
}

if (isMain(import.meta.url)) {
  const i = process.argv.indexOf('--outdir');
  const outdir = i > 0 ? process.argv[i + 1] : undefined;
  try {
    const r = await buildWeb(outdir);
    const rel = relative(process.cwd(), r.outdir) || '.';
    for (const [f, n] of Object.entries(r.sizes)) process.stdout.write(`${join(rel, f)}  ${n} bytes\n`);
  } catch (e) {
    process.stderr.write(`build-web: ${(e as Error).message}\n`);
    process.exitCode = 1;
  }
}
