// `kirin train`: trains Kirin's own network (src/eval/kirinnet) on `kirin datagen`
// files and writes it in the engine's format (.knet). See docs/NETWORK.md.

import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { err, ok, type Result } from '../../src/dev.js';
import { DEFAULT_SHAPE, INPUTS, type KirinNetShape } from '../../src/eval/kirinnet/arch.js';
import { checkShape, decodeKirinNet, encodeKirinNet, type KirinNetWeights } from '../../src/eval/kirinnet/format.js';
import {
  commandSpec,
  integerOption,
  numberOption,
  readCommandLine,
  reportCommandLine,
  type CommandLineCode,
} from '../../toolkit/command-line.js';
import { identityDifferences, loadCheckpoint, saveCheckpoint, type RunIdentity } from './checkpoint.js';
import type { KernelName } from './core.js';
import { DEFAULT_FILTER, fitK, readTrainData, type DataFilter } from './data.js';
import { trainKernelModule } from './kernel-wasm.js';
import { quantisationCheck } from './quantcheck.js';
import { dequantise, paramLayout, quantise } from './model.js';
import { train, type Progress, type TrainConfig } from './trainer.js';

export const USAGE = `usage: kirin train --data FILE[,FILE...] --out NET.knet [options]

data
  --data FILE[,FILE...]   kirin datagen files, chains or version-1 records (may be repeated)
  --validation F          fraction of games held out for validation (default 0.05)
  --max-score S           drop positions with |score| above S internal units (default ${DEFAULT_FILTER.maxScore})
  --min-ply N             drop positions before game ply N (default ${DEFAULT_FILTER.minPly})
  --keep-check            keep positions whose side to move is in check (dropped by default)
  --keep-captures         keep positions whose best move is a capture (dropped by default)
  --mirror                also train on each training position's left-right mirror image
network
  --hidden H              hidden units, a multiple of 16 (default ${DEFAULT_SHAPE.hidden})
  --buckets B             output buckets by piece count (default ${DEFAULT_SHAPE.outputBuckets})
  --init NET.knet         start from this Kirin network's weights (and shape) instead of random ones;
                          with a larger --hidden the network is grown: the new units start at 0 output
training
  --epochs N              passes over the training positions (default 20)
  --batch N               positions per step (default 16384)
  --lr X                  peak learning rate of AdamW (default 0.001)
  --schedule S            cosine (to lr * lr-end) or step (times gamma every step-epochs) (default cosine)
  --lr-end F              cosine: final learning rate as a fraction of --lr (default 0.01)
  --step-epochs N         step: epochs between decays (default 8)
  --gamma G               step: decay factor (default 0.3)
  --warmup N              steps of linear warm-up (default 100)
  --wd X                  AdamW weight decay of the weights (default 0)
  --lambda L              target = L * result + (1 - L) * sigmoid(score / K) (default 0.25)
  --power P               loss |prediction - target|^P (default 2)
  --k K                   sigmoid scale (default: fitted to the game results)
  --seed N                initialisation and shuffles (default 1)
run
  --threads N             worker threads (default: all cores, ${availableParallelism()} here)
  --kernel wasm|js        WebAssembly SIMD or plain JavaScript kernels (default wasm)
  --checkpoint FILE       checkpoint written after every epoch (default NET.knet.ckpt)
  --resume                continue the run saved in the checkpoint (same options and data)
  --help                  this text
`;

const SPEC = commandSpec({
  name: 'kirin train',
  usage: USAGE,
  options: {
    data: { type: 'string', multiple: true },
    out: { type: 'string' },
    validation: { type: 'string' },
    'max-score': { type: 'string' },
    'min-ply': { type: 'string' },
    'keep-check': { type: 'boolean' },
    'keep-captures': { type: 'boolean' },
    mirror: { type: 'boolean' },
    hidden: { type: 'string' },
    buckets: { type: 'string' },
    init: { type: 'string' },
    epochs: { type: 'string' },
    batch: { type: 'string' },
    lr: { type: 'string' },
    schedule: { type: 'string' },
    'lr-end': { type: 'string' },
    'step-epochs': { type: 'string' },
    gamma: { type: 'string' },
    warmup: { type: 'string' },
    wd: { type: 'string' },
    lambda: { type: 'string' },
    power: { type: 'string' },
    k: { type: 'string' },
    seed: { type: 'string' },
    threads: { type: 'string' },
    kernel: { type: 'string' },
    checkpoint: { type: 'string' },
    resume: { type: 'boolean' },
  },
});

/** A parsed command line. */
export interface TrainArgs {
  readonly data: string[];
  readonly out: string;
  readonly checkpoint: string;
  readonly resume: boolean;
  /** --init: the network to start from; null: random weights. */
  readonly init: string | null;
  /** Which of --hidden and --buckets were given (with --init they must agree with the network). */
  readonly shapeGiven: { readonly hidden: boolean; readonly buckets: boolean };
  readonly filter: DataFilter;
  readonly validation: number;
  readonly config: Omit<TrainConfig, 'k'>;
  /** 0: fit K to the data. */
  readonly k: number;
  readonly threads: number;
}

/**
 * Reads the command line (toolkit/command-line.ts): the arguments, or 'help' (--help,
 * -h) or 'arguments' with the message naming the option refused.
 */
export function parseTrainArgs(argv: readonly string[]): Result<TrainArgs, CommandLineCode> {
  const cl = readCommandLine(argv, SPEC);
  if (!cl.ok) return cl;
  const values = cl.value.values;
  // The first refused value, if any (each reader names its option).
  let refused: string | null = null;
  const take = (r: Result<number, 'arguments'>): number => {
    if (!r.ok) refused ??= r.error.message;
    return r.ok ? r.value : 0;
  };
  const int = (name: string, def: number, min: number, max: number) =>
    take(integerOption(values, name, def, { min, max }));
  const num = (name: string, def: number, min: number, max: number) =>
    take(numberOption(values, name, def, { min, max }));
  const data = (values.data ?? []).flatMap((d) => d.split(',')).filter((d) => d !== '');
  if (data.length === 0) return err('arguments', '--data FILE is required');
  const out = values.out;
  if (!out) return err('arguments', '--out NET.knet is required');
  const shape: KirinNetShape = {
    inputs: INPUTS,
    hidden: int('hidden', DEFAULT_SHAPE.hidden, 16, 1024),
    outputBuckets: int('buckets', DEFAULT_SHAPE.outputBuckets, 1, 16),
  };
  const schedule = values.schedule ?? 'cosine';
  if (schedule !== 'cosine' && schedule !== 'step')
    return err('arguments', `--schedule must be cosine or step (got "${schedule}")`);
  const kernel = values.kernel ?? 'wasm';
  if (kernel !== 'wasm' && kernel !== 'js') return err('arguments', `--kernel must be wasm or js (got "${kernel}")`);
  const args: TrainArgs = {
    data,
    out,
    checkpoint: values.checkpoint ?? `${out}.ckpt`,
    resume: values.resume === true,
    init: values.init ?? null,
    shapeGiven: { hidden: values.hidden !== undefined, buckets: values.buckets !== undefined },
    filter: {
      dropCheck: values['keep-check'] !== true,
      dropCaptures: values['keep-captures'] !== true,
      maxScore: num('max-score', DEFAULT_FILTER.maxScore, 0, 32767),
      minPly: int('min-ply', DEFAULT_FILTER.minPly, 0, 65535),
      mirror: values.mirror === true,
    },
    validation: num('validation', 0.05, 0, 0.9),
    config: {
      shape,
      epochs: int('epochs', 20, 1, 100000),
      batch: int('batch', 16384, 1, 1 << 20),
      lr: num('lr', 0.001, 1e-9, 10),
      schedule,
      lrEnd: num('lr-end', 0.01, 0, 1),
      stepEpochs: int('step-epochs', 8, 1, 100000),
      gamma: num('gamma', 0.3, 0, 1),
      warmup: int('warmup', 100, 0, 1e9),
      weightDecay: num('wd', 0, 0, 1),
      lambda: num('lambda', 0.25, 0, 1),
      power: num('power', 2, 1, 4),
      seed: int('seed', 1, 0, 2 ** 31 - 1),
      kernel: kernel as KernelName,
    },
    k: num('k', 0, 0, 1e6),
    threads: int('threads', availableParallelism(), 1, 256),
  };
  if (refused !== null) return err('arguments', refused);
  const shapeProblem = checkShape(shape);
  if (shapeProblem) return err('arguments', shapeProblem);
  return ok(args);
}

function fmtTime(s: number): string {
  if (!Number.isFinite(s)) return '--:--';
  s = Math.round(s);
  const h = Math.floor(s / 3600),
    m = Math.floor((s % 3600) / 60),
    x = s % 60;
  return h ? `${h}h${String(m).padStart(2, '0')}m` : `${m}m${String(x).padStart(2, '0')}s`;
}

const fix6 = (x: number): string => (Number.isFinite(x) ? x.toFixed(6) : '-');

/** The progress line (stderr). */
export function progressLine(p: Progress): string {
  const width = 20;
  const fill = Math.round((p.done / p.total) * width);
  return (
    `[${'#'.repeat(fill)}${'.'.repeat(width - fill)}] epoch ${p.epoch}/${p.epochs} ` +
    `${((100 * p.done) / p.total).toFixed(0)}% ${(p.rate / 1000).toFixed(1)}k pos/s loss ${p.loss.toFixed(5)} ` +
    `left ${fmtTime(p.left)}`
  );
}

export async function runTrainCli(argv: string[]): Promise<number> {
  const parsed = parseTrainArgs(argv);
  if (!parsed.ok) return reportCommandLine(SPEC, parsed.error);
  const a = parsed.value;
  const say = (s: string) => process.stdout.write(s + '\n');
  const fail = (s: string) => {
    process.stderr.write(`kirin train: ${s}\n`);
    return 1;
  };
  if (a.config.kernel === 'wasm') {
    const m = trainKernelModule();
    if (typeof m === 'string') return fail(`--kernel wasm: ${m} (--kernel js runs without it)`);
  }
  if (a.resume && !existsSync(a.checkpoint)) return fail(`--resume: no checkpoint ${a.checkpoint}`);
  let start: { net: KirinNetWeights; sha256: string } | null = null;
  if (a.init !== null) {
    let bytes: Uint8Array;
    try {
      bytes = readFileSync(a.init);
    } catch (e) {
      return fail(`--init: cannot read ${a.init} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
    }
    const net = decodeKirinNet(bytes, a.init);
    if (!net.ok) return fail(`--init: ${net.error.message}`);
    const s = net.value.shape;
    if (a.shapeGiven.hidden && s.hidden > a.config.shape.hidden)
      return fail(
        `--init: ${a.init} has ${s.hidden} hidden units, more than the ${a.config.shape.hidden} of --hidden ` +
          `(a run can grow a network, not shrink it)`,
      );
    if (a.shapeGiven.buckets && s.outputBuckets !== a.config.shape.outputBuckets)
      return fail(
        `--init: ${a.init} has ${s.outputBuckets} output buckets, not the ${a.config.shape.outputBuckets} of --buckets`,
      );
    start = { net: net.value, sha256: createHash('sha256').update(bytes).digest('hex') };
  }

  const t0 = performance.now();
  const read = readTrainData(a.data, a.filter, a.validation);
  if (!read.ok) return fail(read.error.message);
  const data = read.value;
  const c = data.counts;
  say(
    `data: ${c.records} records in ${a.data.length} file(s), ${data.games} games; kept ${c.kept} ` +
      `(dropped: in check ${c.inCheck}, capture ${c.capture}, |score| > ${a.filter.maxScore} ${c.score}, ` +
      `ply < ${a.filter.minPly} ${c.ply}); training ${data.train.length}` +
      `${c.mirrored > 0 ? ` (${c.mirrored} of them mirror images)` : ''}, validation ${data.valid.length} ` +
      `(${data.validGames} games); read in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
  );
  if (data.train.length === 0) return fail('no training positions after filtering');
  const k = a.k > 0 ? a.k : fitK(data, data.train);
  say(`K = ${k.toFixed(2)}${a.k > 0 ? ' (given)' : ' (fitted to the game results of the training positions)'}`);
  // With --init the shape is the network's, but for a larger --hidden: the run
  // then grows it (new units that start with no say in the output; model.ts dequantise).
  const config: TrainConfig = start
    ? {
        ...a.config,
        shape: { ...start.net.shape, hidden: a.shapeGiven.hidden ? a.config.shape.hidden : start.net.shape.hidden },
        k,
        init: start.sha256,
      }
    : { ...a.config, k };
  if (start)
    say(
      `starting from ${a.init} (SHA-256 ${start.sha256})` +
        (config.shape.hidden > start.net.shape.hidden
          ? `, grown from ${start.net.shape.hidden} to ${config.shape.hidden} hidden units`
          : ''),
    );
  const identity: RunIdentity = {
    config,
    dataOptions: { ...a.filter, validation: a.validation },
    files: data.files.map((f) => ({ records: f.records, hash: f.hash })),
  };
  let resume;
  if (a.resume) {
    const saved = loadCheckpoint(a.checkpoint);
    if (!saved.ok) return fail(`--resume: ${saved.error.message}`);
    const diff = identityDifferences(saved.value.identity, identity);
    if (diff.length) return fail(`--resume: ${a.checkpoint} is of another run:\n  ${diff.join('\n  ')}`);
    resume = saved.value.checkpoint;
    say(`resuming ${a.checkpoint} after epoch ${resume.epochsDone} of ${config.epochs}`);
  }
  const h = config.shape.hidden;
  say(
    `network: ${INPUTS} inputs x2 -> ${h} SCReLU -> ${config.shape.outputBuckets} output buckets; ` +
      `${config.epochs} epochs, batch ${config.batch}, lr ${config.lr} (${config.schedule}), wd ${config.weightDecay}, ` +
      `lambda ${config.lambda}, power ${config.power}, seed ${config.seed}, ${a.threads} thread(s), kernel ${config.kernel}`,
  );
  const tty = process.stderr.isTTY === true;
  let lastLine = 0;
  const trained = await train(data, config, {
    threads: a.threads,
    resume,
    initial: start ? dequantise(paramLayout(config.shape), start.net, config.seed) : undefined,
    onProgress: (p) => {
      if (tty) process.stderr.write(`\r${progressLine(p)}\x1b[K`);
      else if (performance.now() - lastLine > 30000) {
        lastLine = performance.now();
        process.stderr.write(progressLine(p) + '\n');
      }
    },
    onEpoch: (s, state) => {
      if (tty) process.stderr.write('\r\x1b[K');
      say(
        `epoch ${String(s.epoch).padStart(3)}/${config.epochs}  train ${s.train.toFixed(6)}  valid ${fix6(s.valid)}  ` +
          `valid-result ${fix6(s.validResult)}  lr ${s.lr.toExponential(2)}  ${s.seconds.toFixed(1)} s`,
      );
      saveCheckpoint(a.checkpoint, identity, state);
    },
  });
  if (tty) process.stderr.write('\r\x1b[K');
  if (!trained.ok) return fail(trained.error.message);
  const result = trained.value;
  const best = result.history.reduce((b, s) => (s.valid < b.valid ? s : b), result.history[0]);
  const lastEpoch = result.history[result.history.length - 1];
  const description =
    `kirin train: ${c.kept} positions (${data.train.length} training) from ${a.data.length} file(s), ` +
    (start ? `from ${start.sha256.slice(0, 16)}, ` : '') +
    `${config.epochs} epochs, batch ${config.batch}, lr ${config.lr} ${config.schedule}, wd ${config.weightDecay}, ` +
    `lambda ${config.lambda}, power ${config.power}, K ${k.toFixed(2)}, seed ${config.seed}; ` +
    (data.valid.length > 0
      ? `valid ${fix6(lastEpoch.valid)} (best ${fix6(best.valid)} at epoch ${best.epoch})`
      : 'no validation positions');
  const net = quantise(result.layout, result.params, description);
  const check = quantisationCheck(result.layout, result.params, net, data);
  say(
    `quantised vs float on ${check.positions} positions: mean |diff| ${check.meanAbs.toFixed(2)}, ` +
      `max ${check.maxAbs.toFixed(2)} internal units (mean |eval| ${check.meanAbsEval.toFixed(1)})`,
  );
  if (check.problem) return fail(`quantisation check failed: ${check.problem}; the network is not written`);
  const bytes = encodeKirinNet(net);
  const back = decodeKirinNet(bytes, a.out);
  if (!back.ok) return fail(`the encoded network does not read back: ${back.error.message}`);
  writeFileSync(a.out, bytes);
  say(`wrote ${a.out} (${bytes.length} bytes) in ${fmtTime((performance.now() - t0) / 1000)}`);
  return 0;
}
