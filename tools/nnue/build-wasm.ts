#!/usr/bin/env node
// Compiles the NNUE SIMD kernels (assembly/nnue-kernels.ts) with AssemblyScript into
// dist/src/eval/nnue/: kernels.wasm imports an ordinary memory, kernels-shared.wasm a shared
// one (WebAssembly cannot import one kind as the other). Part of `npm run build`.

import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import asc from 'assemblyscript/asc';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const common = [
  join(root, 'assembly/nnue-kernels.ts'), '-O3', '--runtime', 'stub', '--importMemory', '--noExportMemory',
  '--enable', 'simd', '--noAssert', '--use', 'abort=',
];
const variants = [
  ['kernels.wasm', []],
  ['kernels-shared.wasm', ['--enable', 'threads', '--sharedMemory', '--maximumMemory', '65536']],
];
for (const [file, extra] of variants) {
  const { error, stderr } = await asc.main([...common, ...extra, '-o', join(root, 'dist/src/eval/nnue', file)]);
  if (error) {
    console.error(stderr.toString());
    console.error(`build-wasm: ${file}: ${error.message}`);
    process.exit(1);
  }
}
