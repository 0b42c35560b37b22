// Writes a deterministic synthetic Pikafish network (toolkit/nnue/synthetic-net.ts),
// byte-identical to make_random_net.py with the same seed and options. Do not commit
// network files.
//
//   node dist/lab/nnue/make-net.js --out FILE [--seed N] [--container zstd-raw|none]
//        [--description TEXT] [--no-material] [--no-sort-ft]
//
// The default container is a zstd frame of stored blocks (what Pikafish loads);
// `--container none` writes the bare payload.

import { createHash } from 'node:crypto';
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

import { makeSyntheticNet, networkHash, type SyntheticNetOptions } from '../../toolkit/nnue/synthetic-net.js';
import { commandSpec, scriptCommandLine } from '../../toolkit/command-line.js';
import { exitWithError } from '../../toolkit/script.js';

const usage =
  'usage: node dist/lab/nnue/make-net.js --out FILE [--seed N] [--container zstd-raw|none] ' +
  '[--description TEXT] [--no-material] [--no-sort-ft]';

const SPEC = commandSpec({
  name: 'make-net',
  usage,
  options: {
    out: { type: 'string' },
    seed: { type: 'string' },
    container: { type: 'string' },
    description: { type: 'string' },
    'no-material': { type: 'boolean' },
    'no-sort-ft': { type: 'boolean' },
  },
});
const cl = scriptCommandLine(process.argv.slice(2), SPEC);
const out = cl.string('out', '');
if (out === '') exitWithError(SPEC.name, '--out is required', 2);
const seed = cl.integer('seed', 1);
const options: SyntheticNetOptions = {};
const container = cl.string('container', 'zstd-raw');
if (container !== 'zstd-raw' && container !== 'none')
  exitWithError(SPEC.name, '--container must be zstd-raw or none', 2);
if (cl.values.container !== undefined) options.container = container;
if (cl.values.description !== undefined) options.description = cl.values.description;
if (cl.flag('no-material')) options.noMaterial = true;
if (cl.flag('no-sort-ft')) options.noSortFt = true;

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
