#!/usr/bin/env node
// Soak test: many games of Kirin against itself with the in-project match runner
// (`kirin match`, 2 games at once by default), at a very fast time control.
// Checks: zero crashes, zero illegal moves, zero time losses, every game
// finished, and the engines' memory (resident set size, read from /proc) not
// growing from an early game to the last one.
//
//   node dist/lab/protocol/soak.js [--games 1000] [--tc 1+0.01] [--concurrency 2]
//       [--early 100] [--rss-growth-mb 24] [--engine "node bin/kirin.js"] [--json]
//
// The RSS check compares the summed RSS of the engine processes after game
// `--early` (or a third of the games, when fewer: the first games still grow the
// heaps, compiled code and the search's tables) with the end of the run: the
// end may not exceed the early figure by more than --rss-growth-mb per engine
// process. V8 sizes its heaps by the allocation rate it sees (the young
// generation of each of an engine's two threads may grow from 1 to 16 MB once),
// so RSS can step up by some megabytes and then stay flat; a leak keeps growing
// with the games. The summary's trajectory (RSS every tenth of the run) shows which.
// RSS sampling needs Linux /proc; elsewhere that check is skipped and said so.
// Exit status 0 when every check passed.

import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Termination } from '../../commands/match/game.js';
import { commandSpec, scriptCommandLine } from '../../toolkit/command-line.js';
import { repoRoot } from '../../toolkit/files.js';

const root = repoRoot();
const argv = process.argv.slice(2);
const USAGE = `usage: node dist/lab/protocol/soak.js [--games 1000] [--tc 1+0.01] [--concurrency 2]
           [--early 100] [--rss-growth-mb 24] [--engine "node bin/kirin.js"] [--json]`;
const cl = scriptCommandLine(
  argv,
  commandSpec({
    name: 'soak',
    usage: USAGE,
    options: {
      games: { type: 'string' },
      tc: { type: 'string' },
      concurrency: { type: 'string' },
      early: { type: 'string' },
      'rss-growth-mb': { type: 'string' },
      engine: { type: 'string' },
      json: { type: 'boolean' },
    },
  }),
);
const games = cl.number('games', 1000);
const tc = cl.string('tc', '1+0.01');
const concurrency = cl.number('concurrency', 2);
const early = Math.min(cl.number('early', 100), Math.max(1, Math.floor(games / 3)));
const growthMbPerEngine = cl.number('rss-growth-mb', 24);
const engine = cl.string('engine', `${process.execPath} ${join(root, 'bin', 'kirin.js')}`);
const json = cl.flag('json');
if (!(games >= 2)) {
  process.stderr.write(`soak: --games must be a number >= 2\n${USAGE}\n`);
  process.exit(2);
}

const work = mkdtempSync(join(tmpdir(), 'kirin-soak-'));
const logFile = join(work, 'games.log');
const openings = join(root, 'data', 'openings', 'openings.txt');
const args = [
  join(root, 'bin', 'kirin.js'),
  'match',
  '--engine',
  engine,
  '--engine',
  engine,
  '--name',
  '1:KirinA',
  '--name',
  '2:KirinB',
  '--tc',
  tc,
  '--games',
  String(games),
  '--concurrency',
  String(concurrency),
  '--log',
  logFile,
  '--rating-interval',
  '0',
  '--option',
  'Hash=16',
];
if (existsSync(openings)) args.push('--openings', openings, '--openings-order', 'random');

const started = Date.now();
const runner = spawn(process.execPath, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
let out = '';
runner.stdout.on('data', (d: Buffer) => (out += d.toString()));
runner.stderr.on('data', (d: Buffer) => (out += d.toString()));

/** Pids of the processes below `pid` (Linux /proc), with their RSS in kB. */
function descendants(pid: number | undefined): { pid: number; rssKb: number }[] | null {
  if (!existsSync('/proc/self/stat')) return null;
  const parent = new Map<number, number>();
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = readFileSync(`/proc/${d}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      parent.set(Number(d), ppid);
    } catch {
      /* gone */
    }
  }
  const out: { pid: number; rssKb: number }[] = [];
  for (const [p] of parent) {
    let q = parent.get(p);
    while (q !== undefined && q !== pid && q > 1) q = parent.get(q);
    if (q === pid) {
      try {
        const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${p}/status`, 'utf8'));
        if (m) out.push({ pid: p, rssKb: Number(m[1]) });
      } catch {
        /* gone */
      }
    }
  }
  return out;
}

const samples: { games: number; rssKb: number; engines: number; pids: number[] }[] = [];
let lastCount = -1;
const poll = setInterval(() => {
  let count = 0;
  try {
    count = readFileSync(logFile, 'utf8')
      .split('\n')
      .filter((l) => l.startsWith('game ')).length;
  } catch {
    /* not yet */
  }
  if (count !== lastCount) {
    lastCount = count;
    const d = descendants(runner.pid);
    if (d)
      samples.push({
        games: count,
        rssKb: d.reduce((s, x) => s + x.rssKb, 0),
        engines: d.length,
        pids: d.map((x) => x.pid),
      });
    if (!json && count % 50 === 0 && count)
      process.stderr.write(
        `soak: ${count}/${games} games, engines' RSS ${d ? Math.round(d.reduce((s, x) => s + x.rssKb, 0) / 1024) + ' MB' : '?'}\n`,
      );
  }
}, 200);

// Interrupted (Ctrl-C, kill): end the match and report the games played so far.
let interrupted = false;
for (const sig of ['SIGINT', 'SIGTERM']) {
  process.on(sig, () => {
    interrupted = true;
    // The runner finishes the games in progress on SIGINT (a second one ends it at once).
    runner.kill('SIGINT');
  });
}

const code = await new Promise<number | null>((r) => runner.on('exit', r));
clearInterval(poll);
const seconds = Math.round((Date.now() - started) / 1000);

const lines = existsSync(logFile)
  ? readFileSync(logFile, 'utf8')
      .split('\n')
      .filter((l) => l.startsWith('game '))
  : [];
rmSync(work, { recursive: true, force: true });
// The log line's last field is the match runner's termination code (`end crash` ...).
const endOf = (l: string): string => /\| end (\w+)$/.exec(l)?.[1] ?? '';
const count = (t: Termination): number => lines.filter((l) => endOf(l) === t).length;
const crashes = count('crash') + (out.match(/Could not restart/g) ?? []).length;
const illegal = count('illegal');
const timeLosses = count('time');
const results = { red: 0, black: 0, draw: 0 };
for (const l of lines) {
  const r = l.split(' | ')[2] ?? '';
  if (r.startsWith('1-0')) results.red++;
  else if (r.startsWith('0-1')) results.black++;
  else results.draw++;
}

// RSS: the sample at game `early` (first sample at or after it with all engines up) vs the last.
const full = samples.filter((s) => s.engines >= 2 * concurrency);
const earlySample = full.find((s) => s.games >= early) ?? null;
const lastSample = full.filter((s) => s.games < games).at(-1) ?? full.at(-1) ?? null;
const samePids = earlySample && lastSample && earlySample.pids.join() === lastSample.pids.join();
const rss =
  earlySample && lastSample
    ? {
        earlyGame: earlySample.games,
        earlyMb: Math.round(earlySample.rssKb / 1024),
        lastGame: lastSample.games,
        lastMb: Math.round(lastSample.rssKb / 1024),
        growthMb: Math.round((lastSample.rssKb - earlySample.rssKb) / 1024),
        maxMb: Math.round(Math.max(...full.map((s) => s.rssKb)) / 1024),
        sameProcesses: !!samePids,
        // The summed RSS every tenth of the run (games, MB): a leak climbs steadily, a heap settling levels off.
        trajectory: full
          .filter(
            (x, i) => i === 0 || Math.floor((x.games * 10) / games) !== Math.floor((full[i - 1].games * 10) / games),
          )
          .map((x) => [x.games, Math.round(x.rssKb / 1024)]),
      }
    : null;

const problems: string[] = [];
if (code !== 0 && !interrupted) problems.push(`the match runner exited with code ${code}: ${out.slice(-800)}`);
if (lines.length !== games && !interrupted) problems.push(`${lines.length} of ${games} games finished`);
if (crashes) problems.push(`${crashes} crashes`);
if (illegal) problems.push(`${illegal} illegal moves`);
if (timeLosses) problems.push(`${timeLosses} time losses`);
const engines = 2 * concurrency;
if (rss && rss.growthMb > growthMbPerEngine * engines) {
  problems.push(
    `engine RSS grew by ${rss.growthMb} MB (${engines} processes) from game ${rss.earlyGame} to game ${rss.lastGame}`,
  );
}
if (rss && !rss.sameProcesses) problems.push('the engine processes were restarted during the run');

const summary = {
  games: lines.length,
  interrupted,
  tc,
  concurrency,
  seconds,
  results,
  crashes,
  illegalMoves: illegal,
  timeLosses,
  rss: rss ?? 'not measured (no /proc)',
  problems,
  failedGames: lines.filter((l) => ['crash', 'illegal', 'time'].includes(endOf(l))).slice(0, 5),
};
if (json) process.stdout.write(JSON.stringify(summary) + '\n');
else {
  if (interrupted) console.log(`interrupted after ${summary.games} of ${games} games`);
  console.log(
    `${summary.games} games at ${tc}, ${concurrency} at once, in ${seconds} s: red ${results.red}, black ${results.black}, draws ${results.draw}`,
  );
  console.log(`crashes ${crashes}, illegal moves ${illegal}, time losses ${timeLosses}`);
  console.log(
    rss
      ? `engines' RSS: ${rss.earlyMb} MB after game ${rss.earlyGame}, ${rss.lastMb} MB after game ${rss.lastGame} (max ${rss.maxMb} MB)`
      : 'RSS not measured (no /proc)',
  );
  if (rss) console.log(`RSS by games: ${rss.trajectory.map(([g, mb]) => `${g}:${mb}`).join(' ')}`);
  for (const p of problems) console.log('FAIL', p);
  for (const g of summary.failedGames) console.log('  ', g.slice(0, 300));
}
process.exitCode = problems.length ? 1 : 0;
