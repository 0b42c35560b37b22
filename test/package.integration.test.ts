// The package as a user gets it: the README's library example runs against
// the package name (through the `exports` map), the API holds nothing mutable,
// importing it has no side effects, and `npm pack` ships no tests and no tools.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { repoRoot } from '../toolkit/files.js';

const root = repoRoot();

function node(args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, args, { cwd: root, encoding: 'utf8', timeout: 60000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

test("the README's library example runs as written", () => {
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  const block = /## Library\n[\s\S]*?```ts\n([\s\S]*?)```/.exec(readme);
  assert.ok(block, 'README has a ```ts block under ## Library');
  // The example is TypeScript without annotations, so it also runs as a module.
  // It must sit inside the package for the self-reference 'kirin-xiangqi' to resolve.
  const dir = mkdtempSync(join(root, 'dist', 'readme-'));
  try {
    const file = join(dir, 'example.mjs');
    writeFileSync(file, block[1]);
    const r = node([file]);
    assert.equal(r.status, 0, r.stderr);
    const lines = r.stdout.trim().split('\n');
    assert.deepEqual(lines.slice(0, 2), ['44', 'none']);
    assert.match(lines[2], /^[a-i][0-9][a-i][0-9]$/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the exports map leads Node to src/index.ts, browsers to dist/browser/, and nowhere else', () => {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { exports: Record<string, unknown> };
  assert.deepEqual(Object.keys(pkg.exports).sort(), ['.', './browser', './browser/*', './package.json']);
  const r0 = node(['--input-type=module', '-e', "console.log(import.meta.resolve('kirin-xiangqi'))"]);
  assert.match(r0.stdout.trim(), /\/dist\/src\/index\.js$/);
  const r = node([
    '--input-type=module',
    '-e',
    "import('kirin-xiangqi/dist/src/core/position.js').then(() => console.log('reached'), (e) => console.log(e.code))",
  ]);
  assert.equal(r.stdout.trim(), 'ERR_PACKAGE_PATH_NOT_EXPORTED');
});

test('nothing the API exports is mutable (the package, and the browser entry web/dist/kirin.js is built from)', async () => {
  for (const entry of ['kirin-xiangqi', '../src/browser/index.js']) {
    const api = (await import(entry)) as Record<string, unknown>;
    assert.ok(typeof api.Engine === 'function' && typeof api.Position === 'function', entry);
    for (const [name, value] of Object.entries(api)) {
      if (value !== null && typeof value === 'object')
        assert.ok(Object.isFrozen(value), `${entry}: ${name} is not frozen`);
    }
  }
});

test('importing the package has no side effects: no output, no throw', () => {
  const r = node(['--input-type=module', '-e', "await import('kirin-xiangqi');"]);
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stdout + r.stderr, '');
});

test('npm pack ships the product only, each file once: no tests, tools, test support, data or source maps', () => {
  const r = spawnSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
    cwd: root,
    encoding: 'utf8',
    timeout: 60000,
  });
  assert.equal(r.status, 0, r.stderr);
  const files = (JSON.parse(r.stdout) as { files: { path: string }[] }[])[0].files.map((f) => f.path);
  assert.ok(
    files.includes('dist/src/index.js') &&
      files.includes('bin/kirin.js') &&
      files.includes('dist/src/search/worker.js') &&
      files.includes('dist/browser/kirin.js') &&
      files.includes('dist/browser/worker.js') &&
      files.includes('dist/browser/kirin.book') &&
      files.includes('dist/src/cli/opening.js'),
    'the package holds the engine, the browser entry, the default book (once, for both) and kirin opening',
  );
  const bad = files.filter((f) =>
    /\.test\.|^(commands|lab|scripts|tools|test|data)\/|^dist\/(commands|lab|scripts|tools|test)\/|^src\/|\.map$/.test(
      f,
    ),
  );
  assert.deepEqual(bad, []);
  // The kernels, the zstd decoder, the embedded network and book once each, in dist/browser/ (Node reads them there too).
  const assets = files.filter((f) => /\.(wasm|knet|book|explorer)$|puzzles\.json$/.test(f)).sort();
  assert.deepEqual(assets, [
    'dist/browser/kernels-shared.wasm',
    'dist/browser/kernels.wasm',
    'dist/browser/kirin.book',
    'dist/browser/kirin.knet',
    'dist/browser/masters.explorer',
    'dist/browser/puzzles.json',
    'dist/browser/zstd.wasm',
  ]);
});

test('the package runs nothing when installed (npm warns of install scripts): it builds on pack, not on install', () => {
  const scripts = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> })
    .scripts;
  for (const hook of ['preinstall', 'install', 'postinstall', 'prepare'])
    assert.equal(scripts[hook], undefined, `scripts.${hook}`);
  assert.match(scripts.prepack, /build:product/);
});

// The runtime dependencies the lock file records (not dev, not dev-optional), each
// as it lies in node_modules; an entry nested under another package's node_modules
// could not be installed beside the tarball, so none may be.
function runtimeDependencyFolders(): string[] {
  const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, { dev?: boolean; devOptional?: boolean; optional?: boolean }>;
  };
  const folders: string[] = [];
  for (const [path, entry] of Object.entries(lock.packages)) {
    if (path === '' || entry.dev === true || entry.devOptional === true) continue;
    assert.match(path, /^node_modules\/(@[^/]+\/)?[^/]+$/, `runtime dependency ${path} is nested`);
    const folder = join(root, path);
    if (entry.optional === true && !existsSync(folder)) continue;
    folders.push(folder);
  }
  return folders;
}

test('the packed tarball installs offline and runs: npx kirin (UCI and UCCI), the library, its types', () => {
  const dir = mkdtempSync(join(tmpdir(), 'kirin-pack-'));
  // An empty npm cache of its own, as on a machine that never saw the registry:
  // the install may use nothing but the tarballs it is given.
  const env = { ...process.env, npm_config_cache: join(dir, 'npm-cache') };
  const run = (cmd: string, args: string[], cwd: string, input?: string) =>
    spawnSync(cmd, args, { cwd, input, env, encoding: 'utf8', timeout: 120000 });
  try {
    const deps = runtimeDependencyFolders();
    assert.ok(
      deps.some((d) => d.endsWith(join('node_modules', 'fzstd'))),
      'fzstd is a runtime dependency',
    );
    // The package, then each runtime dependency packed from node_modules (npm ci
    // put exactly the locked versions there): one tarball per line of output.
    const packed = run('npm', ['pack', '--ignore-scripts', '--silent', '--pack-destination', dir, '.', ...deps], root);
    assert.equal(packed.status, 0, packed.stderr);
    const tarballs = packed.stdout
      .trim()
      .split('\n')
      .map((name) => join(dir, name.trim()));
    assert.equal(tarballs.length, 1 + deps.length, packed.stdout);
    assert.match(tarballs[0], /kirin-xiangqi-[^/]*\.tgz$/);
    const app = join(dir, 'app');
    mkdirSync(app);
    writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'app', version: '1.0.0', type: 'module' }));
    // Offline, with the empty cache: everything comes from the tarballs installed together.
    const inst = run('npm', ['install', '--offline', '--no-audit', '--no-fund', ...tarballs], app);
    assert.equal(inst.status, 0, inst.stderr);
    const uci = run('npx', ['--offline', 'kirin'], app, 'uci\nquit\n');
    assert.equal(uci.status, 0, uci.stderr);
    assert.match(uci.stdout, /^id name Kirin /m);
    assert.match(uci.stdout, /^uciok$/m);
    // The default book ships with the package: a book move at once.
    const book = run('npx', ['--offline', 'kirin'], app, 'setoption name OwnBook value true\ngo depth 5\nquit\n');
    assert.match(book.stdout, /^info string book move [a-i]\d[a-i]\d from kirin\.book /m);
    // kirin opening, a product command.
    writeFileSync(join(app, 'g.pgn'), '1. h2e2 h9g7 2. h0g2 i9h9 *\n');
    const opening = run('npx', ['--offline', 'kirin', 'opening', 'g.pgn'], app);
    assert.equal(opening.status, 0, opening.stderr);
    assert.equal(opening.stdout, 'B05\t中炮对进左马\t\n');
    const ucci = run('npx', ['--offline', 'kirin'], app, 'ucci\nquit\n');
    assert.match(ucci.stdout, /^ucciok$/m);
    assert.match(ucci.stdout, /^bye$/m);
    const lib = join(app, 'use.ts');
    writeFileSync(
      lib,
      [
        "import { DEFAULT_RULES, Engine, Position, judge, legalMoves, moveToUci, type Judgement } from 'kirin-xiangqi';",
        'const pos = new Position();',
        'const j: Judgement = judge(pos, DEFAULT_RULES);',
        'console.log(legalMoves(pos).length, j.code);',
        // The published Position is a read-only view: its methods, not the engine's typed arrays.
        'console.log(pos.sideToMove, pos.pieceOn(4), pos.plies);',
        '// @ts-expect-error the board array is internal',
        'void pos.board;',
        '// @ts-expect-error the side is read through sideToMove',
        'pos.side = 1;',
        "const bad = Position.fromFen('not a fen');",
        "console.log(bad.ok ? 'accepted' : bad.error.code.startsWith('fen-'));",
        'const engine = new Engine();',
        "const set = engine.setPosition(null, ['h2e2']);",
        'if (!set.ok) throw new Error(set.error.message);',
        'const r = await engine.go({ depth: 3, startTime: Date.now() });',
        'console.log(moveToUci(r.bestMove));',
        'await engine.close();',
        '',
      ].join('\n'),
    );
    // The published types: a strict TypeScript program against the installed package.
    const tsc = run(
      process.execPath,
      [
        join(root, 'node_modules', 'typescript', 'bin', 'tsc'),
        '--strict',
        '--module',
        'nodenext',
        '--moduleResolution',
        'nodenext',
        '--target',
        'es2022',
        '--types',
        'node',
        '--typeRoots',
        join(root, 'node_modules', '@types'),
        '--skipLibCheck',
        'use.ts',
      ],
      app,
    );
    assert.equal(tsc.status, 0, tsc.stdout + tsc.stderr);
    const used = run(process.execPath, ['use.js'], app);
    assert.equal(used.status, 0, used.stderr);
    const lines = used.stdout.trim().split('\n');
    assert.equal(lines[0], '44 none');
    assert.equal(lines[1], '0 7 0', 'red to move, the red king on e0, no plies');
    assert.equal(lines[2], 'true', 'a bad FEN is a fen-* error');
    assert.match(lines[3], /^[a-i][0-9][a-i][0-9]$/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
