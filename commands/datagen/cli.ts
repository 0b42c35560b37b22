// `kirin datagen`: self-play training data (docs/DATAGEN.md).
//
//   kirin datagen --out FILE [--positions N] [--threads T] [--nodes N | --depth D]
//                 [--random-plies P] [--openings FILE] [--seed S] [--max-ply N]
//   kirin datagen --to-text FILE [--limit N]
//   kirin datagen --count FILE[,FILE...]
//
// Appends to FILE; an existing file is resumed (its positions count towards
// --positions and are not written again).

import { closeSync, writeSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { Position } from '../../src/dev.js';
import { commandSpec, integerOption, readCommandLine, reportCommandLine, repoPath } from '../lib.js';
import { loadOpenings } from '../match/openings.js';
import {
  RECORD_SIZE,
  dedupKey,
  decodeRecord,
  forEachRecord,
  openForAppend,
  recordPosition,
  recordText,
} from './format.js';
import { countPositions, formatCount } from './count.js';
import { ADJUDICATION, datagenNetwork, type GameMessage, type WorkerConfig } from './worker.js';

const USAGE = `usage: kirin datagen --out FILE [--positions N] [--threads T] [--nodes N | --depth D]
                     [--random-plies P] [--openings FILE] [--seed S] [--max-ply N] [--hash MB]
                     [--eval-file NETWORK | --eval-file classical]
       kirin datagen --to-text FILE [--limit N]
       kirin datagen --count FILE[,FILE...]

The games are played with the engine's default evaluation (Kirin's embedded
network when the build has one, else the classical evaluation) unless
--eval-file names a network file (Pikafish's .nnue or Kirin's .knet) or says
classical. --count prints how many positions the files hold and how many
different ones (board and side to move), per file and in all.
`;

const SPEC = commandSpec({
  name: 'kirin datagen',
  usage: USAGE,
  options: {
    out: { type: 'string' },
    positions: { type: 'string' },
    threads: { type: 'string' },
    nodes: { type: 'string' },
    depth: { type: 'string' },
    'random-plies': { type: 'string' },
    openings: { type: 'string' },
    seed: { type: 'string' },
    'max-ply': { type: 'string' },
    hash: { type: 'string' },
    'eval-file': { type: 'string' },
    'to-text': { type: 'string' },
    count: { type: 'string' },
    limit: { type: 'string' },
  },
});

/** The numeric options shared with `kirin cluster datagen`: name, default, least value. */
export const DATAGEN_NUMBERS: ReadonlyArray<readonly [string, number, number]> = [
  ['positions', 100000, 1],
  ['nodes', 0, 0],
  ['depth', 0, 0],
  ['random-plies', 6, 0],
  ['max-ply', 400, 10],
  ['hash', 16, 1],
];
/** Nodes per move when neither --nodes nor --depth is given. */
export const DEFAULT_NODES = 5000;
export const DEFAULT_OPENINGS = repoPath('data', 'openings', 'openings.txt');

function fmtTime(s: number): string {
  if (!Number.isFinite(s)) return '--:--';
  s = Math.round(s);
  const h = Math.floor(s / 3600),
    mi = Math.floor((s % 3600) / 60),
    se = s % 60;
  return h ? `${h}h${String(mi).padStart(2, '0')}m` : `${mi}m${String(se).padStart(2, '0')}s`;
}

export function progressLine(done: number, total: number, rate: number, games: number): string {
  const width = 30;
  const frac = total > 0 ? Math.min(1, done / total) : 0;
  const fill = Math.round(frac * width);
  const eta = rate > 0 ? (total - done) / rate : Infinity;
  return `[${'#'.repeat(fill)}${'.'.repeat(width - fill)}] ${done}/${total} positions ${rate.toFixed(1)} pos/s, ${games} games, left ${fmtTime(eta)}`;
}

function toText(path: string, limit: number): number {
  const board = new Uint8Array(90);
  let out = '';
  const r = forEachRecord(path, (buf, off, i) => {
    if (limit > 0 && i >= limit) return;
    out += recordText(decodeRecord(buf, off, board)) + '\n';
    if (out.length > 1 << 16) {
      process.stdout.write(out);
      out = '';
    }
  });
  if (!r.ok) {
    process.stderr.write(`kirin datagen: ${r.error.message}\n`);
    return 2;
  }
  process.stdout.write(out);
  return 0;
}

export async function runDatagenCli(argv: string[]): Promise<number> {
  const cl = readCommandLine(argv, SPEC);
  if (!cl.ok) return reportCommandLine(SPEC, cl.error);
  const args = cl.value.values;
  const refuse = (message: string): number => {
    process.stderr.write(`kirin datagen: ${message}\n`);
    return 2;
  };
  if (args.count !== undefined) {
    const paths = args.count.split(',').filter((p) => p !== '');
    if (paths.length === 0) return refuse('--count needs at least one file');
    const report = countPositions(paths);
    if (!report.ok) return refuse(report.error.message);
    process.stdout.write(formatCount(report.value) + '\n');
    return 0;
  }
  if (args['to-text'] !== undefined) {
    const limit = integerOption(args, 'limit', 0, { min: 0 });
    if (!limit.ok) return refuse(limit.error.message);
    return toText(args['to-text'], limit.value);
  }
  const out = args.out;
  if (!out) {
    process.stderr.write('kirin datagen: --out FILE is required\n' + USAGE);
    return 2;
  }
  const nums: Record<string, number> = {};
  for (const [name, def, min] of [...DATAGEN_NUMBERS, ['threads', 1, 1], ['seed', Date.now() % 1000000, 0]] as const) {
    const v = integerOption(args, name, def, { min });
    if (!v.ok) return refuse(v.error.message);
    nums[name] = v.value;
  }
  if (nums.nodes === 0 && nums.depth === 0) nums.nodes = DEFAULT_NODES;
  const openingsPath = args.openings ?? DEFAULT_OPENINGS;
  const loaded = loadOpenings(openingsPath);
  if (!loaded.ok) {
    process.stderr.write(`kirin datagen: openings: ${loaded.error.message}\n`);
    return 2;
  }
  const openings = loaded.value;
  const evalFile = args['eval-file'];
  const net = datagenNetwork(evalFile);
  if (!net.ok) return refuse(`--eval-file: ${net.error.message}`);
  process.stderr.write(`kirin datagen: evaluation: ${net.value ? `NNUE ${net.value.label()}` : 'classical'}\n`);

  const opened = openForAppend(out);
  if (!opened.ok) {
    process.stderr.write(`kirin datagen: ${out}: ${opened.error.message}\n`);
    return 2;
  }
  const { fd } = opened.value;
  // Resume: the keys of what is in the file already.
  const seen = new Set<number>();
  {
    const pos = new Position(null);
    const board = new Uint8Array(90);
    let badRecord = '';
    const r = forEachRecord(out, (buf, off) => {
      const set = recordPosition(decodeRecord(buf, off, board), pos);
      if (set.ok) seen.add(dedupKey(set.value));
      else badRecord ||= set.error.message;
    });
    if (!r.ok || badRecord) {
      closeSync(fd);
      process.stderr.write(`kirin datagen: ${out}: ${r.ok ? badRecord : r.error.message}\n`);
      return 2;
    }
  }
  let written = opened.value.records;
  if (written || opened.value.truncated) {
    process.stderr.write(
      `kirin datagen: resuming ${out}: ${written} positions` +
        (opened.value.truncated ? `, cut a partial record of ${opened.value.truncated} bytes` : '') +
        '\n',
    );
  }
  const target = nums.positions;
  if (written >= target) {
    closeSync(fd);
    process.stderr.write(`kirin datagen: ${out} has ${written} positions already (target ${target})\n`);
    return 0;
  }

  const start = performance.now();
  const startCount = written;
  let games = 0,
    dupes = 0;
  const workers: Worker[] = [];
  const workerUrl = new URL('./worker.js', import.meta.url);
  let finished = false;
  let lastDraw = 0;
  const draw = (force = false): void => {
    const now = performance.now();
    if (!force && now - lastDraw < 500) return;
    lastDraw = now;
    const rate = ((written - startCount) * 1000) / Math.max(1, now - start);
    if (process.stderr.isTTY) process.stderr.write('\r' + progressLine(written, target, rate, games));
    else if (force || now - lastDrawLine > 10000) {
      lastDrawLine = now;
      process.stderr.write(progressLine(written, target, rate, games) + '\n');
    }
  };
  let lastDrawLine = 0;

  const code = await new Promise<number>((resolveDone) => {
    const stop = (c: number): void => {
      if (finished) return;
      finished = true;
      for (const w of workers) void w.terminate();
      resolveDone(c);
    };
    process.once('SIGINT', () => stop(130));
    for (let t = 0; t < nums.threads; t++) {
      const cfg: WorkerConfig = {
        id: t,
        seed: (nums.seed * 7919 + t * 104729 + written) >>> 0,
        openings,
        randomPlies: nums['random-plies'],
        nodes: nums.nodes,
        depth: nums.depth,
        maxPly: nums['max-ply'],
        ...ADJUDICATION,
        hashMb: nums.hash,
        evalFile,
      };
      const w = new Worker(workerUrl, { workerData: cfg });
      w.on('message', (m: GameMessage) => {
        if (finished) return;
        games++;
        // Keep new positions only (within the run and against the file), whole records, one write per game.
        const keep = new Uint8Array(m.records.length);
        let k = 0;
        for (let i = 0; i < m.keys.length && written + k < target; i++) {
          if (seen.has(m.keys[i])) {
            dupes++;
            continue;
          }
          seen.add(m.keys[i]);
          keep.set(m.records.subarray(i * RECORD_SIZE, (i + 1) * RECORD_SIZE), k * RECORD_SIZE);
          k++;
        }
        if (k) writeSync(fd, keep, 0, k * RECORD_SIZE);
        written += k;
        draw();
        if (written >= target) stop(0);
      });
      w.on('error', (e) => {
        process.stderr.write(`\nkirin datagen: worker ${t}: ${e.stack ?? e}\n`);
        stop(1);
      });
      workers.push(w);
    }
  });
  closeSync(fd);
  draw(true);
  const secs = (performance.now() - start) / 1000;
  process.stderr.write(
    `\nkirin datagen: ${written - startCount} new positions in ${secs.toFixed(1)} s ` +
      `(${((written - startCount) / secs).toFixed(1)} pos/s), ${games} games, ${dupes} duplicates skipped; ${out} has ${written}\n`,
  );
  return code;
}
