// Compiles the AssemblyScript in assembly/ (after tsc): the engine's SIMD kernels
// (nnue-kernels.ts for Pikafish's networks and kirinnet-kernels.ts for Kirin's,
// one module) into dist/src/eval/nnue/ - kernels.wasm imports an ordinary memory,
// kernels-shared.wasm a shared one (WebAssembly cannot import one kind as the
// other) - and puts Kirin's embedded network (src/eval/kirinnet/kirin.knet, when
// committed) next to the compiled code that reads it; then, unless --product, the
// training kernels of `kirin train` (train-kernels.ts) into
// dist/tools/train/train-kernels.wasm (shared memory). Plain JavaScript, so the
// product builds without compiling the tools.
//
//   node assembly/build.js [--product]

import { copyFileSync, existsSync, mkdirSync, rmSync } from 'node:fs';
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

// Kirin's embedded network (committed beside its code) goes next to the
// compiled code that reads it (src/eval/nnue/files.ts readEmbeddedNetwork).
const net = join(root, 'src/eval/kirinnet/kirin.knet');
const netOut = join(root, 'dist/src/eval/kirinnet/kirin.knet');
if (existsSync(net)) {
  mkdirSync(join(root, 'dist/src/eval/kirinnet'), { recursive: true });
  copyFileSync(net, netOut);
} else rmSync(netOut, { force: true });
