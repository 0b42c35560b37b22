#!/usr/bin/env node
// Writes a deterministic synthetic Pikafish network (test/support/nnue-synthetic.ts),
// byte-identical to make_random_net.py with the same seed and options. Needs `npx tsc`
// (or `npm run build`) first. Do not commit network files.
//
//   node tools/nnue/make-net.mjs --out FILE [--seed N] [--container zstd-raw|none]
//        [--description TEXT] [--no-material] [--no-sort-ft]
//
// The default container is a zstd frame of stored blocks (what Pikafish loads);
// `--container none` writes the bare payload.

import { createHash } from 'node:crypto';
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const usage = 'usage: node tools/nnue/make-net.mjs --out FILE [--seed N] [--container zstd-raw|none] '
  + '[--description TEXT] [--no-material] [--no-sort-ft]';
const args = process.argv.slice(2);
let out = null;
let seed = 1;
const options = {};
for (let i = 0; i < args.length; i++) {
  const a = args[i];
  if (a === '--out') out = args[++i];
  else if (a === '--seed') seed = Number(args[++i]);
  else if (a === '--container') options.container = args[++i];
  else if (a === '--description') options.description = args[++i];
  else if (a === '--no-material') options.noMaterial = true;
  else if (a === '--no-sort-ft') options.noSortFt = true;
  else if (a === '--help' || a === '-h') {
    console.log(usage);
    process.exit(0);
  } else {
    console.error(`unknown argument: ${a}\n${usage}`);
    process.exit(2);
  }
}
if (!out) {
  console.error(`--out is required\n${usage}`);
  process.exit(2);
}
if (!Number.isSafeInteger(seed)) {
  console.error(`--seed must be an integer\n${usage}`);
  process.exit(2);
}
if (options.container !== undefined && options.container !== 'zstd-raw' && options.container !== 'none') {
  console.error(`--container must be zstd-raw or none\n${usage}`);
  process.exit(2);
}

const { makeSyntheticNet, networkHash } = await import(pathToFileURL(join(root, 'dist/test/support/nnue-synthetic.js')).href);
const t0 = performance.now();
const bytes = makeSyntheticNet(seed, options);
const ms = performance.now() - t0;
const path = resolve(out);
mkdirSync(dirname(path), { recursive: true });
const temp = `${path}.${process.pid}.tmp`;
writeFileSync(temp, bytes);
renameSync(temp, path);
const sha = createHash('sha256').update(bytes).digest('hex');
console.log(`wrote ${path}: ${bytes.length} bytes (seed ${seed}, container ${options.container ?? 'zstd-raw'}, `
  + `net hash 0x${networkHash().toString(16).toUpperCase().padStart(8, '0')}, ${ms.toFixed(0)} ms) sha256 ${sha}`);
