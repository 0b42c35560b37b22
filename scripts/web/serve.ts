// The page's local server (`npm run web`): static files of web/ on 127.0.0.1,
// with the headers that make the page cross-origin isolated (the search thread
// needs SharedArrayBuffer): Cross-Origin-Opener-Policy: same-origin and
// Cross-Origin-Embedder-Policy: require-corp. --plain leaves them out, as
// GitHub Pages or a file server on a USB stick would: the page then isolates
// itself through its service worker (web/pwa/sw.ts). /dist/ is the build's
// folder (web/dist/, or one a test built), and a sw.js found there is served as
// /sw.js: the service worker of that build, beside index.html. Files go with
// Cache-Control: no-cache and an ETag, so the browser revalidates its copy and
// gets 304 Not Modified when it is current, as from a static host.
//
//   node dist/scripts/web/serve.js [--port 8080] [--plain]

import { createReadStream, existsSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, sep } from 'node:path';
import { commandSpec, scriptCommandLine } from '../../toolkit/command-line.js';
import { repoRoot } from '../../toolkit/files.js';
import { isMain } from '../../toolkit/script.js';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.wasm': 'application/wasm',
  '.nnue': 'application/octet-stream',
  '.knet': 'application/octet-stream',
  '.txt': 'text/plain; charset=utf-8',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
  '.ico': 'image/x-icon',
  '.webmanifest': 'application/manifest+json',
};

/** The headers every answer carries. */
export const ISOLATION_HEADERS: Readonly<Record<string, string>> = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
  'Cross-Origin-Resource-Policy': 'same-origin',
};

export interface ServeOptions {
  /** 0 = any free port. */
  port?: number;
  /** The folder served (default web/). */
  webDir?: string;
  /** The folder served as /dist/ (default <webDir>/dist); null: none (/dist/ is a folder of webDir). */
  distDir?: string | null;
  /** Send ISOLATION_HEADERS (default true; false: as a plain static host, where the page isolates itself through its service worker). */
  isolated?: boolean;
}

/** Starts the server on 127.0.0.1; resolves with it and its base URL. */
export function serveWeb(opts: ServeOptions = {}): Promise<{ server: Server; url: string }> {
  const webDir = opts.webDir ?? join(repoRoot(), 'web');
  const distDir = opts.distDir === undefined ? join(webDir, 'dist') : opts.distDir;
  const isolation = opts.isolated === false ? {} : ISOLATION_HEADERS;
  const server = createServer((req, res) => {
    const send = (status: number, text: string): void => {
      res.writeHead(status, { ...isolation, 'Content-Type': 'text/plain; charset=utf-8' });
      res.end(text);
    };
    if (req.method !== 'GET' && req.method !== 'HEAD') return send(405, 'method not allowed\n');
    let path: string;
    try {
      path = decodeURIComponent(new URL(req.url ?? '/', 'http://localhost').pathname);
    } catch {
      return send(400, 'bad path\n');
    }
    if (path.endsWith('/')) path += 'index.html';
    const fromDist =
      distDir !== null && (path.startsWith('/dist/') || (path === '/sw.js' && existsSync(join(distDir, 'sw.js'))));
    const [base, rest] = fromDist ? [distDir, path.slice(path === '/sw.js' ? 1 : 6)] : [webDir, path.slice(1)];
    const file = normalize(join(base, rest));
    if (file !== base && !file.startsWith(base.endsWith(sep) ? base : base + sep)) return send(403, 'forbidden\n');
    let size: number;
    let etag: string;
    try {
      const st = statSync(file);
      if (!st.isFile()) return send(404, 'not found\n');
      size = st.size;
      etag = `W/"${size.toString(16)}-${Math.floor(st.mtimeMs).toString(16)}"`;
    } catch {
      return send(404, 'not found\n');
    }
    // A copy the browser already has is revalidated, not sent again (as static hosts do).
    const cached = (req.headers['if-none-match'] ?? '').split(/\s*,\s*/).includes(etag);
    res.writeHead(cached ? 304 : 200, {
      ...isolation,
      'Content-Type': TYPES[extname(file)] ?? 'application/octet-stream',
      ...(cached ? {} : { 'Content-Length': size }),
      'Cache-Control': 'no-cache',
      ETag: etag,
    });
    if (cached || req.method === 'HEAD') return res.end();
    createReadStream(file).pipe(res);
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 8080, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({ server, url: `http://127.0.0.1:${port}/` });
    });
  });
}

if (isMain(import.meta.url)) {
  const cl = scriptCommandLine(
    process.argv.slice(2),
    commandSpec({
      name: 'serve',
      usage: 'usage: node dist/scripts/web/serve.js [--port 8080] [--plain]   (npm run web -- --port 9000)',
      options: { port: { type: 'string' }, plain: { type: 'boolean' } },
    }),
  );
  const port = cl.integer('port', 8080, { min: 0, max: 65535 });
  const plain = cl.flag('plain');
  try {
    const { url } = await serveWeb({ port, isolated: !plain });
    const how = plain ? ', without the isolation headers, as a plain static host' : '';
    process.stdout.write(`Kirin in the browser: ${url}${how}  (Ctrl-C to stop)\n`);
  } catch (e) {
    process.stderr.write(`serve: ${(e as Error).message}\n`);
    process.exitCode = 1;
  }
}
