// `kirin datagen`: self-play training data as game chains (docs/DATAGEN.md).
//
//   kirin datagen --out FILE [--positions N] [--threads T] [--nodes N | --depth D]
//                 [--random-plies P] [--openings FILE] [--seed S] [--max-ply N]
//   kirin datagen --to-text FILE [--limit N]
//   kirin datagen --count FILE[,FILE...]
//
// Appends games to FILE (commands/datagen/chain.ts) in blocks; an existing file is
// resumed (its positions - the record view, commands/datagen/records.ts - count
// towards --positions and are not written again; a cut-off last block is cut).

import { closeSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { commandSpec, integerOption, readCommandLine, reportCommandLine } from '../../toolkit/command-line.js';
import { repoPath } from '../../toolkit/files.js';
import { loadOpenings } from '../match/openings.js';
import { ChainWriter, openChainForAppend } from './chain.js';
import { cutGame } from './chain-codec.js';
import { decodeRecord, recordText } from './format.js';
import { forEachChainRecord, forEachRecord } from './records.js';
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
classical. --hash MB sizes each thread's transposition table (default 0: 4 MiB
for searches of up to 1000 nodes, else 16). FILE is a chain file (format
version 2; \`kirin data convert\` turns a version-1 file into one); its
positions are the quiet positions new in the file. --to-text prints its
records, --count how many positions the files hold and how many different ones
(board and side to move), per file and in all; both read either format.
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
  ['hash', 0, 0],
];
/** Nodes per move when neither --nodes nor --depth is given. */
export const DEFAULT_NODES = 5000;
export const DEFAULT_OPENINGS = repoPath('data', 'openings', 'openings.txt');
/** A block of games is written at the latest this long after the one before (and at the end). */
const BLOCK_MS = 60000;

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

  const opened = openChainForAppend(out);
  if (!opened.ok) {
    process.stderr.write(`kirin datagen: ${out}: ${opened.error.message}\n`);
    return 2;
  }
  const { fd } = opened.value;
  // Resume: the file's records (the record view) and their keys.
  const have = forEachChainRecord(out, () => {});
  if (!have.ok) {
    closeSync(fd);
    process.stderr.write(`kirin datagen: ${out}: ${have.error.message}\n`);
    return 2;
  }
  const seen = have.value.view.seen;
  let written = have.value.records;
  if (!opened.value.created) {
    process.stderr.write(
      `kirin datagen: resuming ${out}: ${written} positions in ${have.value.summary.games} games` +
        (opened.value.truncated ? `, cut a partial block of ${opened.value.truncated} bytes` : '') +
        '\n',
    );
  }
  const target = nums.positions;
  if (written >= target) {
    closeSync(fd);
    process.stderr.write(`kirin datagen: ${out} has ${written} positions already (target ${target})\n`);
    return 0;
  }
  const writer = new ChainWriter(fd);
  let lastBlock = performance.now();
  let writeError = '';

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
        // The game's quiet positions new within the run and against the file count; at the target the game is cut.
        let k = 0;
        let cut = m.game.scored.length;
        for (let i = 0; i < m.keys.length; i++) {
          if (seen.has(m.keys[i])) {
            dupes++;
            continue;
          }
          seen.add(m.keys[i]);
          k++;
          if (written + k >= target) {
            cut = m.quiet[i] + 1;
            break;
          }
        }
        let wrote = writer.add(cutGame(m.game, cut));
        if (wrote.ok && writer.waiting && performance.now() - lastBlock > BLOCK_MS) wrote = writer.flush();
        if (!writer.waiting) lastBlock = performance.now();
        if (!wrote.ok) {
          writeError = wrote.error.message;
          stop(1);
          return;
        }
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
  const last = writer.flush();
  closeSync(fd);
  if (!last.ok) writeError ||= last.error.message;
  if (writeError) {
    process.stderr.write(`\nkirin datagen: ${out}: ${writeError}\n`);
    return 1;
  }
  draw(true);
  const secs = (performance.now() - start) / 1000;
  process.stderr.write(
    `\nkirin datagen: ${written - startCount} new positions in ${secs.toFixed(1)} s ` +
      `(${((written - startCount) / secs).toFixed(1)} pos/s), ${games} games, ${dupes} duplicates skipped; ${out} has ${written}\n`,
  );
  return code;
}
