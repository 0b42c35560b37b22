// The training throughput of `kirin train` (docs/NETWORK.md): positions per
// second, and per core, for each kernel and number of threads, on a data file or
// on synthetic games. Each measurement trains whole epochs (no validation) for
// about --seconds after a one-epoch warm-up.
//
//   node dist/commands/train/bench.js [--data FILE] [--hidden H] [--buckets B] [--batch N]
//                                  [--threads 1,2] [--kernels wasm,js] [--seconds S]

import { parseArgs } from 'node:util';
import { writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir, cpus } from 'node:os';
import { join } from 'node:path';
import { INPUTS } from '../../src/dev.js';
import type { KernelName } from './core.js';
import { DEFAULT_FILTER, loadTrainData, type TrainData } from './data.js';
import { syntheticDataFile } from './synthetic.js';
import { train, type TrainConfig } from './trainer.js';

const USAGE = `usage: node dist/commands/train/bench.js [--data FILE] [--hidden H] [--buckets B] [--batch N]
                                       [--threads 1,2] [--kernels wasm,js] [--seconds S]
`;

interface BenchArgs {
  data?: string;
  hidden: number;
  buckets: number;
  batch: number;
  threads: number[];
  kernels: KernelName[];
  seconds: number;
}

function parse(argv: string[]): BenchArgs | string {
  try {
    const { values } = parseArgs({
      args: argv,
      strict: true,
      options: {
        data: { type: 'string' },
        hidden: { type: 'string', default: '256' },
        buckets: { type: 'string', default: '8' },
        batch: { type: 'string', default: '16384' },
        threads: { type: 'string', default: '1' },
        kernels: { type: 'string', default: 'wasm,js' },
        seconds: { type: 'string', default: '10' },
        help: { type: 'boolean', short: 'h' },
      },
    });
    if (values.help) return '';
    const int = (s: string, name: string) => {
      const n = Number(s);
      if (!Number.isInteger(n) || n < 1) throw new RangeError(`--${name} must be a positive integer (got "${s}")`);
      return n;
    };
    const kernels = values.kernels.split(',');
    for (const k of kernels) if (k !== 'wasm' && k !== 'js') return `unknown kernel "${k}"`;
    return {
      data: values.data,
      hidden: int(values.hidden, 'hidden'),
      buckets: int(values.buckets, 'buckets'),
      batch: int(values.batch, 'batch'),
      threads: values.threads.split(',').map((t) => int(t, 'threads')),
      kernels: kernels as KernelName[],
      seconds: int(values.seconds, 'seconds'),
    };
  } catch (e) {
    return (e as Error).message;
  }
}

async function rate(data: TrainData, config: TrainConfig, threads: number, seconds: number): Promise<number> {
  const t0 = performance.now();
  await train(data, { ...config, epochs: 1 }, { threads });
  const first = (performance.now() - t0) / 1000;
  const epochs = Math.max(1, Math.round(seconds / first));
  const t1 = performance.now();
  await train(data, { ...config, epochs }, { threads });
  return (epochs * data.train.length) / ((performance.now() - t1) / 1000);
}

async function main(): Promise<number> {
  const a = parse(process.argv.slice(2));
  if (typeof a === 'string') {
    process.stderr.write(a ? `train bench: ${a}\n${USAGE}` : USAGE);
    return a ? 2 : 0;
  }
  let path = a.data;
  let tmp: string | undefined;
  if (!path) {
    tmp = mkdtempSync(join(tmpdir(), 'kirin-train-bench-'));
    path = join(tmp, 'synthetic.bin');
    writeFileSync(path, syntheticDataFile(2000, 1));
  }
  try {
    const data = loadTrainData([path], DEFAULT_FILTER, 0);
    const config: TrainConfig = {
      shape: { inputs: INPUTS, hidden: a.hidden, outputBuckets: a.buckets },
      epochs: 1,
      batch: a.batch,
      lr: 0.001,
      schedule: 'cosine',
      lrEnd: 0.01,
      stepEpochs: 1,
      gamma: 1,
      warmup: 0,
      weightDecay: 0,
      lambda: 0.5,
      power: 2,
      k: 400,
      seed: 1,
      kernel: 'wasm',
    };
    let pieces = 0;
    for (let i = 0; i < data.count; i++) pieces += data.start[i + 1] - data.start[i];
    process.stdout.write(
      `train bench: ${data.train.length} positions (${(pieces / data.count).toFixed(1)} pieces on average) from ` +
        `${a.data ?? 'synthetic games'}, H ${a.hidden}, ${a.buckets} buckets, batch ${a.batch}; ` +
        `${cpus()[0]?.model ?? 'unknown CPU'}, ${cpus().length} cores, Node ${process.version}\n` +
        `kernel  threads  positions/s  per core\n`,
    );
    for (const kernel of a.kernels)
      for (const threads of a.threads) {
        const r = await rate(data, { ...config, kernel }, threads, a.seconds);
        process.stdout.write(
          `${kernel.padEnd(6)}  ${String(threads).padStart(7)}  ${Math.round(r).toString().padStart(11)}  ${Math.round(
            r / threads,
          )
            .toString()
            .padStart(8)}\n`,
        );
      }
  } finally {
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  }
  return 0;
}

process.exitCode = await main();
