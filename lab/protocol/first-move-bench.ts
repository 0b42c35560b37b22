#!/usr/bin/env node
// First-move benchmark: is the first search of a fresh engine process as fast
// as the later ones, and how long does a fresh process take to say `readyok`?
// Starts --processes fresh engine processes one after another. Each gets `uci`
// and `isready` (the time from the start of the process to `readyok` is
// printed), then `position startpos` and `go movetime <ms>`; then
// `ucinewgame` / `position startpos` / `go movetime <ms>` --runs - 1 more times
// (each after the previous bestmove, each from an empty table). Prints the nodes
// of every search and, per process, the nodes of the first search over those of
// the last (go #1 / go #4 with the default --runs 4), then the median of these
// ratios and of the readyok times.
//
//   node dist/lab/protocol/first-move-bench.js [--processes 3] [--runs 4] [--movetime 1000]
//       [--engine "node bin/kirin.js"] [--option Name=Value ...]
//       [--no-isready]  send the first go right after uci, without waiting for readyok
//       [--json]        one JSON object instead of the table
//
// A measurement, not a test: the numbers depend on the machine and its load;
// compare the ratios (first and last search of one process run moments apart).

import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { commandSpec, scriptCommandLine } from '../../toolkit/command-line.js';
import { repoRoot } from '../../toolkit/files.js';
import { medianOf, repeat } from '../timing.js';

const root = repoRoot();
const USAGE = `usage: node dist/lab/protocol/first-move-bench.js [--processes 3] [--runs 4] [--movetime 1000]
           [--engine "node bin/kirin.js"] [--option Name=Value ...] [--no-isready] [--json]`;
const cl = scriptCommandLine(
  process.argv.slice(2),
  commandSpec({
    name: 'first-move-bench',
    usage: USAGE,
    options: {
      processes: { type: 'string' },
      runs: { type: 'string' },
      movetime: { type: 'string' },
      engine: { type: 'string' },
      option: { type: 'string', multiple: true },
      json: { type: 'boolean' },
      'no-isready': { type: 'boolean' },
    },
  }),
);
const processes = cl.integer('processes', 3, { min: 1, max: 1000 });
const runs = cl.integer('runs', 4, { min: 2, max: 1000 });
const movetime = cl.integer('movetime', 1000, { min: 1 });
const engineCmd = cl.string('engine', `"${process.execPath}" "${join(root, 'bin', 'kirin.js')}"`);
const options = cl.nameValues('option');
const waitReady = !cl.flag('no-isready');
const json = cl.flag('json');

interface Search {
  depth: number;
  nodes: number;
  nps: number;
  /** Milliseconds from `go` to `bestmove`. */
  wall: number;
}
interface ProcessRun {
  /** Milliseconds from the start of the process to `readyok` (null with --no-isready). */
  readyok: number | null;
  /**
   * CPU milliseconds (all threads, user + system) the engine process had used at
   * `readyok`, from /proc (null where there is none or the command is not a
   * single process): about what readyok would take on an idle machine, which
   * runs the main thread and the search thread side by side.
   */
  readyokCpu: number | null;
  searches: Search[];
  /** Nodes of the first search over nodes of the last. */
  ratio: number;
}

async function oneProcess(): Promise<ProcessRun> {
  const started = performance.now();
  // `exec`: the shell becomes the engine, so child.pid is the engine's (its CPU time).
  const child = spawn(`exec ${engineCmd}`, { shell: true, stdio: ['pipe', 'pipe', 'inherit'], cwd: root });
  let buf = '';
  let waiter: (() => void) | null = null;
  const lines: string[] = [];
  child.stdout.on('data', (d: Buffer) => {
    buf += d.toString();
    let i;
    while ((i = buf.indexOf('\n')) >= 0) {
      lines.push(buf.slice(0, i).replace(/\r$/, ''));
      buf = buf.slice(i + 1);
    }
    if (waiter) waiter();
  });
  const exited = new Promise((r) => child.on('exit', r));
  const send = (l: string): boolean => child.stdin.write(l + '\n');
  async function waitFor(re: RegExp, from: number): Promise<number> {
    for (;;) {
      for (let i = from; i < lines.length; i++) if (re.test(lines[i])) return i;
      await new Promise<void>((r) => (waiter = r));
    }
  }
  send('uci');
  for (const [name, value] of options) send(`setoption name ${name} value ${value}`);
  let readyok: number | null = null;
  let readyokCpu: number | null = null;
  if (waitReady) {
    send('isready');
    await waitFor(/^readyok$/, 0);
    readyok = Math.round(performance.now() - started);
    readyokCpu = cpuMs(child.pid);
  }
  const searches: Search[] = [];
  for (let r = 0; r < runs; r++) {
    const from = lines.length;
    if (r > 0) send('ucinewgame');
    send('position startpos');
    const sent = performance.now();
    send(`go movetime ${movetime}`);
    const bi = await waitFor(/^bestmove /, from);
    const wall = Math.round(performance.now() - sent);
    const infos = lines.slice(from, bi).filter((l) => /^info depth /.test(l));
    const last = infos[infos.length - 1] ?? '';
    const num = (k: string): number => Number(new RegExp(`\\b${k} (\\d+)`).exec(last)?.[1] ?? 0);
    searches.push({ depth: num('depth'), nodes: num('nodes'), nps: num('nps'), wall });
  }
  send('quit');
  await exited;
  const ratio = searches[0].nodes / Math.max(1, searches[searches.length - 1].nodes);
  return { readyok, readyokCpu, searches, ratio: Math.round(ratio * 1000) / 1000 };
}

/** CPU milliseconds used by process `pid` (Linux /proc; null elsewhere, or when it is a shell around the engine). */
function cpuMs(pid: number | undefined): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (/^(\/bin\/)?(ba|da)?sh$/.test(readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')[0])) return null;
    // utime and stime (fields 14 and 15 of the line) in clock ticks of 10 ms.
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return null;
  }
}

const all = await repeat(processes, oneProcess, (r, p) => {
  if (json) return;
  const cells = r.searches.map((s) => `${s.nodes}`.padStart(8) + ` d${s.depth}`.padEnd(4)).join(' ');
  console.log(
    `process ${String(p + 1).padStart(2)}  readyok ${r.readyok === null ? '   -' : String(r.readyok).padStart(5)} ms (CPU ${r.readyokCpu === null ? '-' : r.readyokCpu} ms)  nodes ${cells}  #1/#${runs} ${r.ratio.toFixed(2)}`,
  );
});
const summary = {
  movetime,
  runs,
  processes,
  options,
  medianRatio: medianOf(all, (r) => r.ratio),
  medianReadyok: waitReady ? medianOf(all, (r) => r.readyok ?? 0) : null,
  medianReadyokCpu: all.every((r) => r.readyokCpu !== null) ? medianOf(all, (r) => r.readyokCpu ?? 0) : null,
  results: all,
};
if (json) process.stdout.write(JSON.stringify(summary) + '\n');
else
  console.log(
    `go movetime ${movetime} from the start position, ${runs} searches per fresh process (${waitReady ? 'after readyok' : 'first go right after uci'}); ` +
      `median nodes #1/#${runs}: ${summary.medianRatio.toFixed(2)}` +
      (waitReady ? `, median readyok ${summary.medianReadyok} ms after the process started` : '') +
      (summary.medianReadyokCpu !== null ? ` (${summary.medianReadyokCpu} CPU ms)` : ''),
  );
