// Compiles the NNUE SIMD kernels (assembly/nnue-kernels.ts) with AssemblyScript into
// dist/src/eval/nnue/: kernels.wasm imports an ordinary memory, kernels-shared.wasm a
// shared one (WebAssembly cannot import one kind as the other); and the training
// kernels of `kirin train` (assembly/train-kernels.ts) into
// dist/tools/train/train-kernels.wasm (shared memory). Part of `npm run build`
// (after tsc):
//
//   node dist/tools/nnue/build-wasm.js

import { join } from 'node:path';

import asc from 'assemblyscript/asc';

import { repoRoot } from '../../test/support/fixtures.js';

const root = repoRoot();
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
const shared = ['--enable', 'threads', '--sharedMemory', '--maximumMemory', '65536'];
const variants: [string, string, string[]][] = [
  ['assembly/nnue-kernels.ts', 'dist/src/eval/nnue/kernels.wasm', []],
  ['assembly/nnue-kernels.ts', 'dist/src/eval/nnue/kernels-shared.wasm', shared],
  ['assembly/train-kernels.ts', 'dist/tools/train/train-kernels.wasm', shared],
];
for (const [source, file, extra] of variants) {
  const { error, stderr } = await asc.main([join(root, source), ...options, ...extra, '-o', join(root, file)]);
  if (error) {
    process.stderr.write(`${stderr.toString()}\nbuild-wasm: ${file}: ${error.message}\n`);
    process.exit(1);
  }
}
