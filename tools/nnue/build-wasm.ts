// Compiles the SIMD kernels (assembly/nnue-kernels.ts for Pikafish's networks and
// assembly/kirinnet-kernels.ts for Kirin's, one module) with AssemblyScript into
// dist/src/eval/nnue/: kernels.wasm imports an ordinary memory, kernels-shared.wasm a
// shared one (WebAssembly cannot import one kind as the other). Part of `npm run build`
// (after tsc):
//
//   node dist/tools/nnue/build-wasm.js

import { copyFileSync, existsSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';

import asc from 'assemblyscript/asc';

import { repoRoot } from '../../test/support/fixtures.js';

const root = repoRoot();
const common = [
  join(root, 'assembly/nnue-kernels.ts'),
  join(root, 'assembly/kirinnet-kernels.ts'),
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
const variants: [string, string[]][] = [
  ['kernels.wasm', []],
  ['kernels-shared.wasm', ['--enable', 'threads', '--sharedMemory', '--maximumMemory', '65536']],
];
for (const [file, extra] of variants) {
  const { error, stderr } = await asc.main([...common, ...extra, '-o', join(root, 'dist/src/eval/nnue', file)]);
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
