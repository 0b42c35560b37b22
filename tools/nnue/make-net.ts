// Writes a deterministic synthetic Pikafish network (tools/nnue/synthetic.ts),
// byte-identical to make_random_net.py with the same seed and options. Do not commit
// network files.
//
//   node dist/tools/nnue/make-net.js --out FILE [--seed N] [--container zstd-raw|none]
//        [--description TEXT] [--no-material] [--no-sort-ft]
//
// The default container is a zstd frame of stored blocks (what Pikafish loads);
// `--container none` writes the bare payload.

import { createHash } from 'node:crypto';
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

import { makeSyntheticNet, networkHash, type SyntheticNetOptions } from './synthetic.js';

const usage =
  'usage: node dist/tools/nnue/make-net.js --out FILE [--seed N] [--container zstd-raw|none] ' +
  '[--description TEXT] [--no-material] [--no-sort-ft]';

function fail(message: string): never {
  process.stderr.write(`${message}\n${usage}\n`);
  process.exit(2);
}

const args = process.argv.slice(2);
let out: string | null = null;
let seed = 1;
const options: SyntheticNetOptions = {};
for (let i = 0; i < args.length; i++) {
  const a = args[i];
  if (a === '--out') out = args[++i] ?? fail('--out needs a file');
  else if (a === '--seed') seed = Number(args[++i]);
  else if (a === '--container') {
    const c = args[++i];
    if (c !== 'zstd-raw' && c !== 'none') fail('--container must be zstd-raw or none');
    options.container = c;
  } else if (a === '--description') options.description = args[++i] ?? fail('--description needs a text');
  else if (a === '--no-material') options.noMaterial = true;
  else if (a === '--no-sort-ft') options.noSortFt = true;
  else if (a === '--help' || a === '-h') {
    process.stdout.write(`${usage}\n`);
    process.exit(0);
  } else fail(`unknown argument: ${a}`);
}
if (out === null) fail('--out is required');
if (!Number.isSafeInteger(seed)) fail('--seed must be an integer');

const t0 = performance.now();
const bytes = makeSyntheticNet(seed, options);
const ms = performance.now() - t0;
const path = resolve(out);
mkdirSync(dirname(path), { recursive: true });
const temp = `${path}.${process.pid}.tmp`;
writeFileSync(temp, bytes);
renameSync(temp, path);
const sha = createHash('sha256').update(bytes).digest('hex');
const hash = networkHash().toString(16).toUpperCase().padStart(8, '0');
process.stdout.write(
  `wrote ${path}: ${bytes.length} bytes (seed ${seed}, container ${options.container ?? 'zstd-raw'}, ` +
    `net hash 0x${hash}, ${ms.toFixed(0)} ms) sha256 ${sha}\n`,
);
