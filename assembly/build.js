// Compiles the AssemblyScript in assembly/ (after tsc): the engine's SIMD kernels
// (nnue-kernels.ts for Pikafish's networks and kirinnet-kernels.ts for Kirin's,
// one module) - kernels.wasm imports an ordinary memory, kernels-shared.wasm a
// shared one (WebAssembly cannot import one kind as the other) -, takes the
// WebAssembly zstd decoder out of npm zstddec (zstd.wasm) and copies Kirin's
// embedded network (src/eval/kirinnet/kirin.knet) and default opening book
// (src/book/kirin.book), when committed, all into dist/browser/: the package
// ships each file once, there, where the browser build's kirin.js finds them
// beside itself and the Node engine reads them (src/platform/node/files.ts,
// book-files.ts). Then, unless --product, the
// training kernels of `kirin train` (train-kernels.ts) into
// dist/commands/train/train-kernels.wasm (shared memory). Plain JavaScript, so the
// product builds without compiling the tools.
//
//   node assembly/build.js [--product]

import { Buffer } from 'node:buffer';
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import asc from 'assemblyscript/asc';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const productOnly = process.argv.slice(2).includes('--product');
const options = [
  '-O3',
  '--runtime',
  'stub',
  '--importMemory',
  '--noExportMemory',
  '--enable',
  'simd',
  '--noAssert',
  '--use',
  'abort=',
];
const engine = [join(root, 'assembly/nnue-kernels.ts'), join(root, 'assembly/kirinnet-kernels.ts')];
const shared = ['--enable', 'threads', '--sharedMemory', '--maximumMemory', '65536'];
const variants = [
  [engine, 'dist/browser/kernels.wasm', []],
  [engine, 'dist/browser/kernels-shared.wasm', shared],
];
if (!productOnly) variants.push([[join(root, 'assembly/train-kernels.ts')], 'dist/commands/train/train-kernels.wasm', shared]);

// Nothing to do when every output is newer than every input (the sources, the
// embedded network, the compiler, zstddec, the driver tsc compiled, this
// script): \`npm run test:unit\` runs this script on every call.
const zstddecFile = fileURLToPath(import.meta.resolve('zstddec/stream'));
const netSource = join(root, 'src/eval/kirinnet/kirin.knet');
const bookSource = join(root, 'src/book/kirin.book');
const explorerSource = join(root, 'src/explorer/masters.explorer');
const puzzlesSource = join(root, 'src/puzzles/puzzles.json');
const inputs = [
  ...new Set(variants.flatMap(([sources]) => sources)),
  netSource,
  bookSource,
  explorerSource,
  puzzlesSource,
  fileURLToPath(import.meta.url),
  join(root, 'node_modules/assemblyscript/package.json'),
  zstddecFile,
  join(root, 'dist/src/eval/nnue/zstd-wasm.js'),
].filter((f) => existsSync(f));
const outputs = [
  ...variants.map(([, file]) => join(root, file)),
  join(root, 'dist/browser/zstd.wasm'),
  join(root, 'dist/browser/zstd.wasm.LICENSE'),
  ...(existsSync(netSource) ? [join(root, 'dist/browser/kirin.knet')] : []),
  ...(existsSync(bookSource) ? [join(root, 'dist/browser/kirin.book')] : []),
  ...(existsSync(explorerSource) ? [join(root, 'dist/browser/masters.explorer')] : []),
  ...(existsSync(puzzlesSource) ? [join(root, 'dist/browser/puzzles.json')] : []),
];
const newestInput = Math.max(...inputs.map((f) => statSync(f).mtimeMs));
if (outputs.every((f) => existsSync(f) && statSync(f).mtimeMs > newestInput)) {
  process.stdout.write('assembly/build.js: the kernels, zstd.wasm and kirin.knet are up to date\n');
  process.exit(0);
}
mkdirSync(join(root, 'dist/browser'), { recursive: true });
for (const [sources, file, extra] of variants) {
  const { error, stderr } = await asc.main([...sources, ...options, ...extra, '-o', join(root, file)]);
  if (error) {
    process.stderr.write(`${stderr.toString()}\nassembly/build.js: ${file}: ${error.message}\n`);
    process.exit(1);
  }
}

// The WebAssembly zstd decoder (src/eval/nnue/zstd-wasm.ts drives it): the
// reference zstd C decoder as npm `zstddec` compiles it, which that package
// carries as base64 text in its JavaScript; taken out into zstd.wasm, checked
// to be a module with what zstd-wasm.ts calls.
{
  const file = zstddecFile;
  const found = /const wasm = "([A-Za-z0-9+/=]+)"/.exec(readFileSync(file, 'utf8'));
  const fail = (why) => {
    process.stderr.write(`assembly/build.js: zstd.wasm: ${why} in ${file} (zstddec's layout changed?)\n`);
    process.exit(1);
  };
  if (!found) fail('no base64 WebAssembly module');
  const bytes = Buffer.from(found[1], 'base64');
  let names = [];
  try {
    names = WebAssembly.Module.exports(new WebAssembly.Module(bytes)).map((e) => e.name);
  } catch (e) {
    fail(`an invalid WebAssembly module (${e.message})`);
  }
  // The list of what the driver calls, from the driver itself (tsc has compiled it by now).
  const { missingZstdExports } = await import('../dist/src/eval/nnue/zstd-wasm.js');
  const missing = missingZstdExports(names);
  if (missing.length) fail(`a module without ${missing.join(', ')}`);
  writeFileSync(join(root, 'dist/browser/zstd.wasm'), bytes);
  // Its licences (zstddec's MIT, zstd's BSD-3-Clause notice from the same file) go beside it.
  const bsd = /\/\*\*\s*\* BSD License[\s\S]*?\*\//.exec(readFileSync(file, 'utf8'));
  if (!bsd) fail("no zstd licence notice");
  const mit = readFileSync(join(dirname(dirname(file)), 'LICENSE'), 'utf8');
  const notice = `zstd.wasm: the zstd decoder (https://github.com/facebook/zstd) as built by npm zstddec\n(https://github.com/donmccurdy/zstddec), taken from zstddec's dist/zstddec-stream.mjs.\n\n${mit.trim()}\n\n${bsd[0]}\n`;
  writeFileSync(join(root, 'dist/browser/zstd.wasm.LICENSE'), notice);
}

// Kirin's embedded network (committed beside its code) goes beside the others
// (src/platform/node/files.ts readEmbeddedNetwork, src/platform/browser/assets.ts).
const net = netSource;
const netOut = join(root, 'dist/browser/kirin.knet');
if (existsSync(net)) copyFileSync(net, netOut);
else rmSync(netOut, { force: true });

// Kirin's default opening book likewise (src/platform/node/book-files.ts readEmbeddedBook).
const bookOut = join(root, 'dist/browser/kirin.book');
if (existsSync(bookSource)) copyFileSync(bookSource, bookOut);
else rmSync(bookOut, { force: true });

// Kirin's explorer of master games likewise (src/cli/explorer.ts readMastersExplorer; the browser
// fetches it when asked, fetchMastersExplorer in src/browser/index.ts).
const explorerOut = join(root, 'dist/browser/masters.explorer');
if (existsSync(explorerSource)) copyFileSync(explorerSource, explorerOut);
else rmSync(explorerOut, { force: true });

// Kirin's puzzles likewise (the browser fetches them when asked: fetchPuzzles in src/browser/index.ts).
const puzzlesOut = join(root, 'dist/browser/puzzles.json');
if (existsSync(puzzlesSource)) copyFileSync(puzzlesSource, puzzlesOut);
else rmSync(puzzlesOut, { force: true });
