// Compiles the AssemblyScript in assembly/ (after tsc): the engine's SIMD kernels
// (nnue-kernels.ts for Pikafish's networks and kirinnet-kernels.ts for Kirin's,
// one module) into dist/src/eval/nnue/ - kernels.wasm imports an ordinary memory,
// kernels-shared.wasm a shared one (WebAssembly cannot import one kind as the
// other) - takes the WebAssembly zstd decoder out of npm zstddec into
// dist/src/eval/nnue/zstd.wasm, and puts Kirin's embedded network (src/eval/kirinnet/kirin.knet, when
// committed) and default opening book (src/book/kirin.book) next to the compiled code that reads them; then, unless --product, the
// training kernels of `kirin train` (train-kernels.ts) into
// dist/tools/train/train-kernels.wasm (shared memory). Plain JavaScript, so the
// product builds without compiling the tools.
//
//   node assembly/build.js [--product]

import { Buffer } from 'node:buffer';
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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
  [engine, 'dist/src/eval/nnue/kernels.wasm', []],
  [engine, 'dist/src/eval/nnue/kernels-shared.wasm', shared],
];
if (!productOnly) variants.push([[join(root, 'assembly/train-kernels.ts')], 'dist/tools/train/train-kernels.wasm', shared]);
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
  const file = fileURLToPath(import.meta.resolve('zstddec/stream'));
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
  writeFileSync(join(root, 'dist/src/eval/nnue/zstd.wasm'), bytes);
  // Its licences (zstddec's MIT, zstd's BSD-3-Clause notice from the same file) go beside it.
  const bsd = /\/\*\*\s*\* BSD License[\s\S]*?\*\//.exec(readFileSync(file, 'utf8'));
  if (!bsd) fail("no zstd licence notice");
  const mit = readFileSync(join(dirname(dirname(file)), 'LICENSE'), 'utf8');
  const notice = `zstd.wasm: the zstd decoder (https://github.com/facebook/zstd) as built by npm zstddec\n(https://github.com/donmccurdy/zstddec), taken from zstddec's dist/zstddec-stream.mjs.\n\n${mit.trim()}\n\n${bsd[0]}\n`;
  writeFileSync(join(root, 'dist/src/eval/nnue/zstd.wasm.LICENSE'), notice);
}

// Kirin's embedded network (committed beside its code) goes next to the
// compiled code that reads it (src/eval/nnue/files.ts readEmbeddedNetwork).
const net = join(root, 'src/eval/kirinnet/kirin.knet');
const netOut = join(root, 'dist/src/eval/kirinnet/kirin.knet');
if (existsSync(net)) {
  mkdirSync(join(root, 'dist/src/eval/kirinnet'), { recursive: true });
  copyFileSync(net, netOut);
} else rmSync(netOut, { force: true });

// Kirin's default opening book likewise (src/book/files.ts readEmbeddedBook).
const book = join(root, 'src/book/kirin.book');
const bookOut = join(root, 'dist/src/book/kirin.book');
if (existsSync(book)) {
  mkdirSync(join(root, 'dist/src/book'), { recursive: true });
  copyFileSync(book, bookOut);
} else rmSync(bookOut, { force: true });
