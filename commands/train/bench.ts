// The training throughput of `kirin train` (docs/NETWORK.md): positions per
// second, and per core, for each kernel and number of threads, on a data file or
// on synthetic games. Each measurement trains whole epochs (no validation) for
// about --seconds after a one-epoch warm-up.
//
//   node dist/commands/train/bench.js [--data FILE] [--hidden H] [--buckets B] [--batch N]
//                                  [--threads 1,2] [--kernels wasm,js] [--seconds S]

import { writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir, cpus } from 'node:os';
import { join } from 'node:path';
import { err, ok, type Result } from '../../src/dev.js';
import { INPUTS } from '../../src/eval/kirinnet/arch.js';
import {
  commandSpec,
  integerOption,
  readCommandLine,
  reportCommandLine,
  type CommandLineCode,
} from '../../toolkit/command-line.js';
import { runMain } from '../../toolkit/script.js';
import type { KernelName } from './core.js';
import { DEFAULT_FILTER, readTrainData, type TrainData } from './data.js';
import { syntheticDataFile } from './synthetic.js';
import { train, type TrainCode, type TrainConfig } from './trainer.js';

const SPEC = commandSpec({
  name: 'train bench',
  usage: `usage: node dist/commands/train/bench.js [--data FILE] [--hidden H] [--buckets B] [--batch N]
                                       [--threads 1,2] [--kernels wasm,js] [--seconds S]`,
  options: {
    data: { type: 'string' },
    hidden: { type: 'string' },
    buckets: { type: 'string' },
    batch: { type: 'string' },
    threads: { type: 'string' },
    kernels: { type: 'string' },
    seconds: { type: 'string' },
  },
});

interface BenchArgs {
  data?: string;
  hidden: number;
  buckets: number;
  batch: number;
  threads: number[];
  kernels: KernelName[];
  seconds: number;
}

/** The command line: the benchmark's settings, or why they are refused ('help' for --help). */
function parse(argv: readonly string[]): Result<BenchArgs, CommandLineCode> {
  const cl = readCommandLine(argv, SPEC);
  if (!cl.ok) return cl;
  const v = cl.value.values;
  const hidden = integerOption(v, 'hidden', 256, { min: 16 });
  if (!hidden.ok) return hidden;
  const buckets = integerOption(v, 'buckets', 8, { min: 1 });
  if (!buckets.ok) return buckets;
  const batch = integerOption(v, 'batch', 16384, { min: 1 });
  if (!batch.ok) return batch;
  const seconds = integerOption(v, 'seconds', 10, { min: 1 });
  if (!seconds.ok) return seconds;
  const threads: number[] = [];
  for (const t of (v.threads ?? '1').split(',')) {
    const n = integerOption({ threads: t }, 'threads', 1, { min: 1 });
    if (!n.ok) return n;
    threads.push(n.value);
  }
  const kernels = (v.kernels ?? 'wasm,js').split(',');
  for (const k of kernels)
    if (k !== 'wasm' && k !== 'js') return err('arguments', `--kernels: unknown kernel "${k}" (wasm, js)`);
  return ok({
    data: v.data,
    hidden: hidden.value,
    buckets: buckets.value,
    batch: batch.value,
    threads,
    kernels: kernels as KernelName[],
    seconds: seconds.value,
  });
}

/** Positions per second of `threads` threads: a timed run of about `seconds` after a one-epoch warm-up. */
async function rate(
  data: TrainData,
  config: TrainConfig,
  threads: number,
  seconds: number,
): Promise<Result<number, TrainCode>> {
  const t0 = performance.now();
  const warm = await train(data, { ...config, epochs: 1 }, { threads });
  if (!warm.ok) return warm;
  const first = (performance.now() - t0) / 1000;
  const epochs = Math.max(1, Math.round(seconds / first));
  const t1 = performance.now();
  const timed = await train(data, { ...config, epochs }, { threads });
  if (!timed.ok) return timed;
  return ok((epochs * data.train.length) / ((performance.now() - t1) / 1000));
}

async function main(argv: string[]): Promise<number> {
  const parsed = parse(argv);
  if (!parsed.ok) return reportCommandLine(SPEC, parsed.error);
  const a = parsed.value;
  let path = a.data;
  let tmp: string | undefined;
  if (!path) {
    tmp = mkdtempSync(join(tmpdir(), 'kirin-train-bench-'));
    path = join(tmp, 'synthetic.bin');
    writeFileSync(path, syntheticDataFile(2000, 1));
  }
  try {
    const read = readTrainData([path], DEFAULT_FILTER, 0);
    if (!read.ok) {
      process.stderr.write(`train bench: ${read.error.message}\n`);
      return 1;
    }
    const data = read.value;
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
        const measured = await rate(data, { ...config, kernel }, threads, a.seconds);
        if (!measured.ok) {
          process.stderr.write(`train bench: ${kernel}, ${threads} thread(s): ${measured.error.message}\n`);
          return 1;
        }
        const r = measured.value;
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

runMain(import.meta.url, main);
