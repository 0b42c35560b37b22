// Compiles the SIMD kernels (assembly/nnue-kernels.ts for Pikafish's networks and
// assembly/kirinnet-kernels.ts for Kirin's, one module) with AssemblyScript into
// dist/src/eval/nnue/: kernels.wasm imports an ordinary memory, kernels-shared.wasm a
// shared one (WebAssembly cannot import one kind as the other); and the training
// kernels of `kirin train` (assembly/train-kernels.ts) into
// dist/tools/train/train-kernels.wasm (shared memory). Part of `npm run build`
// (after tsc):
//
//   node dist/tools/nnue/build-wasm.js

import { copyFileSync, existsSync, mkdirSync, rmSync } from 'node:fs';
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
const engine = [join(root, 'assembly/nnue-kernels.ts'), join(root, 'assembly/kirinnet-kernels.ts')];
const shared = ['--enable', 'threads', '--sharedMemory', '--maximumMemory', '65536'];
const variants: [string[], string, string[]][] = [
  [engine, 'dist/src/eval/nnue/kernels.wasm', []],
  [engine, 'dist/src/eval/nnue/kernels-shared.wasm', shared],
  [[join(root, 'assembly/train-kernels.ts')], 'dist/tools/train/train-kernels.wasm', shared],
];
for (const [sources, file, extra] of variants) {
  const { error, stderr } = await asc.main([...sources, ...options, ...extra, '-o', join(root, file)]);
  if (error) {
    process.stderr.write(`${stderr.toString()}\nbuild-wasm: ${file}: ${error.message}\n`);
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
