// `kirin match gauntlet`: one or two candidates (a new network or search and,
// optionally, the one it would replace) each play a match against every
// opponent of a list - the outside yardstick of CONTRIBUTING.md - with the same
// openings in the same order, so that the candidates' results against each
// opponent can be compared. Each match is an ordinary `kirin match` (args.ts,
// play.ts) with its own game log in the log folder; `kirin match report` reads
// them again. With two candidates the second is the baseline: it plays first
// against each opponent, and an SPRT (`--sprt elo0= elo1=`) tests the first
// candidate's Elo against that opponent relative to the baseline's measured
// one (H0: baseline + elo0, H1: baseline + elo1).

import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { err, ok, type Result } from '../../src/dev.js';
import {
  commandSpec,
  readCommandLine,
  reportCommandLine,
  type CommandLine,
  type CommandLineCode,
  type OptionsSpec,
} from '../../toolkit/command-line.js';
import { MATCH_GROUPS, MATCH_OPTIONS, parseMatchArgs, type MatchArgs } from './args.js';
import { eloEstimate, formatElo, pentanomial, trinomial, type EloEstimate } from './elo.js';
import type { MatchStats } from './match.js';
import { playMatch } from './play.js';
import type { SprtParams } from './sprt.js';

const GAUNTLET_USAGE = `Usage: kirin match gauntlet --engine CMD [--engine CMD] --opponent NAME=CMD ... --log-dir DIR [options]

Each candidate (--engine; a second one is the baseline) plays a match against
each opponent, with the same openings in the same order, one game log each in
DIR (CANDIDATE-vs-OPPONENT.log). At the end: a table of every match (W-L-D,
Elo from the game pairs and from the games) and, with two candidates, the
first one's Elo minus the baseline's against each opponent and on average.

Candidates and opponents:
  --engine CMD               a candidate's command line (once or twice)
  --name N:NAME              candidate N's name (default candidate-1, candidate-2)
  --engine-option N:NAME=VALUE   a UCI option for candidate N only
  --opponent NAME=CMD        an opponent and its command line (repeatable)
  --opponent-option NAME:OPTION=VALUE   a UCI option for that opponent only
  --opponent-tc NAME:TC      a time control for that opponent (time odds)
  --log-dir DIR              where the game logs go (created if missing)

Every other option of kirin match applies to each match (--tc, --games,
--concurrency, --openings, --openings-order, --seed, --option, the rules,
adjudication, --rating-interval). --sprt elo0= elo1= ...: with one candidate,
each of its matches stops when the test decides; with two, the first
candidate's match against an opponent tests its Elo against the baseline's
(elo0 and elo1 are added to the baseline's Elo against that opponent).

Example (docs/ANCHORS.md):
  kirin match gauntlet --engine "node bin/kirin.js" --name 1:kirin-17 \\
    --engine "node bin/kirin.js" --engine-option 2:EvalFile=nets/kirin-11.knet --name 2:kirin-11 \\
    --opponent "hce=/work/bin/pikafish-hce" --opponent-option hce:Threads=1 \\
    --tc 10+0.1 --games 200 --concurrency 2 --openings data/openings/openings.txt \\
    --openings-order random --seed 7 --option Hash=16 --log-dir /tmp/gauntlet
`;

const GAUNTLET_OPTIONS = {
  ...MATCH_OPTIONS,
  opponent: { type: 'string', multiple: true },
  'opponent-option': { type: 'string', multiple: true },
  'opponent-tc': { type: 'string', multiple: true },
  'log-dir': { type: 'string' },
} as const satisfies OptionsSpec;

const GAUNTLET_SPEC = commandSpec({
  name: 'kirin match gauntlet',
  usage: GAUNTLET_USAGE,
  options: GAUNTLET_OPTIONS,
  groups: [...MATCH_GROUPS],
});

/** A player of the gauntlet: its name, command line, own options and own time control. */
interface GauntletPlayer {
  name: string;
  command: string;
  /** `NAME=VALUE` UCI options of this player only. */
  options: string[];
  /** Its own time control (null: the gauntlet's). */
  tc: string | null;
}

/** One match of the gauntlet: a candidate against an opponent, as `kirin match` reads it. */
interface GauntletMatch {
  candidate: string;
  opponent: string;
  /** The kirin match command line of this match (without --sprt when it is relative to the baseline). */
  argv: string[];
  /** The match it describes (checked before anything runs). */
  args: MatchArgs;
}

export interface GauntletPlan {
  candidates: GauntletPlayer[];
  opponents: GauntletPlayer[];
  logDir: string;
  /** In the order they are played: for each opponent, the baseline (when there is one), then the candidate. */
  matches: GauntletMatch[];
  /** The SPRT: for each match of a single candidate; with two, for the first candidate relative to the baseline. */
  sprt: SprtParams | null;
}

type ArgResult<T> = Result<T, 'arguments'>;

/** A file name from a player's name (letters, digits, '.', '_', '-'; others become '_'). */
function fileName(name: string): string {
  return name.replace(/[^A-Za-z0-9._-]/g, '_');
}

/** The `NAME:VALUE` options given for the named players, by name; an unknown name is an error. */
function byPlayer(flag: string, values: readonly string[], names: readonly string[]): ArgResult<Map<string, string[]>> {
  const out = new Map<string, string[]>(names.map((n) => [n, []]));
  for (const v of values) {
    const i = v.indexOf(':');
    const name = i > 0 ? v.slice(0, i) : '';
    if (!out.has(name))
      return err('arguments', `--${flag} "${v}": give NAME:VALUE with NAME one of the opponents (${names.join(', ')})`);
    out.get(name)!.push(v.slice(i + 1));
  }
  return ok(out);
}

/** The options of kirin match given on the gauntlet's command line that every match takes, as words again. */
function commonWords(cl: CommandLine<typeof GAUNTLET_OPTIONS>): string[] {
  const skip = new Set(['engine', 'name', 'engine-option', 'engine-tc', 'log', 'sprt', 'sprt-model', 'debug']);
  const words: string[] = [];
  for (const key of Object.keys(MATCH_OPTIONS) as (keyof typeof MATCH_OPTIONS)[]) {
    if (skip.has(key)) continue;
    const group = cl.groups[key as (typeof MATCH_GROUPS)[number]];
    if (group) {
      words.push(`--${key}`, ...group);
      continue;
    }
    const value = cl.values[key];
    if (value === undefined) continue;
    for (const v of Array.isArray(value) ? value : [value]) words.push(`--${key}`, String(v));
  }
  return words;
}

/** The gauntlet a command line describes, every match checked as kirin match checks it, or what is wrong. */
export function parseGauntletArgs(argv: readonly string[]): Result<GauntletPlan, CommandLineCode> {
  const cl = readCommandLine(argv, GAUNTLET_SPEC);
  if (!cl.ok) return cl;
  const v = cl.value.values;
  const commands = v.engine ?? [];
  if (commands.length < 1 || commands.length > 2)
    return err('arguments', `give one or two --engine candidates (got ${commands.length})`);
  const names = commands.map((_, i) => (commands.length === 1 ? 'candidate' : `candidate-${i + 1}`));
  const candidateOptions: string[][] = commands.map(() => []);
  for (const text of v.name ?? []) {
    const m = /^([12]):(.+)$/s.exec(text);
    if (!m || Number(m[1]) > commands.length) return err('arguments', `--name ${text}: give N:NAME for a candidate N`);
    names[Number(m[1]) - 1] = m[2];
  }
  for (const text of v['engine-option'] ?? []) {
    const m = /^([12]):(.+)$/s.exec(text);
    if (!m || Number(m[1]) > commands.length)
      return err('arguments', `--engine-option ${text}: give N:NAME=VALUE for a candidate N`);
    candidateOptions[Number(m[1]) - 1].push(m[2]);
  }
  if (v['engine-tc']) return err('arguments', '--engine-tc: give the candidates --tc and the opponents --opponent-tc');
  if (v.log) return err('arguments', '--log: the gauntlet writes one log per match into --log-dir');
  if (v.debug) return err('arguments', "--debug: run the one match with kirin match to see the engines' traffic");
  const opponents: GauntletPlayer[] = [];
  for (const text of v.opponent ?? []) {
    const i = text.indexOf('=');
    const name = i > 0 ? text.slice(0, i).trim() : '';
    const command = i > 0 ? text.slice(i + 1).trim() : '';
    if (!name || !command || name.includes(':'))
      return err('arguments', `--opponent "${text}": give NAME=COMMAND (a name without ':')`);
    if (opponents.some((o) => o.name === name) || names.includes(name))
      return err('arguments', `--opponent ${name}: the name is taken; give each player its own`);
    opponents.push({ name, command, options: [], tc: null });
  }
  if (opponents.length === 0) return err('arguments', 'give at least one --opponent NAME=COMMAND');
  if (new Set(names).size !== names.length) return err('arguments', 'give the two candidates different --name');
  const opponentNames = opponents.map((o) => o.name);
  const options = byPlayer('opponent-option', v['opponent-option'] ?? [], opponentNames);
  if (!options.ok) return options;
  const tcs = byPlayer('opponent-tc', v['opponent-tc'] ?? [], opponentNames);
  if (!tcs.ok) return tcs;
  for (const o of opponents) {
    o.options = options.value.get(o.name)!;
    const tc = tcs.value.get(o.name)!;
    if (tc.length > 1) return err('arguments', `--opponent-tc ${o.name}: given twice`);
    o.tc = tc[0] ?? null;
  }
  const logDir = v['log-dir'];
  if (!logDir) return err('arguments', 'give --log-dir DIR (one game log per match goes there)');
  const candidates: GauntletPlayer[] = commands.map((command, i) => ({
    name: names[i],
    command,
    options: candidateOptions[i],
    tc: null,
  }));
  const common = commonWords(cl.value);
  const sprtWords = cl.value.groups.sprt ? ['--sprt', ...cl.value.groups.sprt] : [];
  const modelWords = v['sprt-model'] ? ['--sprt-model', v['sprt-model']] : [];
  const matches: GauntletMatch[] = [];
  // Each opponent in turn: the baseline first (its Elo is the SPRT's reference), then the candidate.
  const order = candidates.length === 2 ? [candidates[1], candidates[0]] : candidates;
  let sprt: SprtParams | null = null;
  for (const o of opponents)
    for (const c of order) {
      const matchArgv = [
        ...common,
        '--engine',
        c.command,
        '--engine',
        o.command,
        '--name',
        `1:${c.name}`,
        '--name',
        `2:${o.name}`,
        ...c.options.flatMap((x) => ['--engine-option', `1:${x}`]),
        ...o.options.flatMap((x) => ['--engine-option', `2:${x}`]),
        ...(o.tc ? ['--engine-tc', `2:${o.tc}`] : []),
        // With a baseline the SPRT is relative and set when the baseline's match is done; the model is still read here.
        ...(candidates.length === 1 ? sprtWords : []),
        ...modelWords,
        '--log',
        join(logDir, `${fileName(c.name)}-vs-${fileName(o.name)}.log`),
      ];
      const parsed = parseMatchArgs(matchArgv);
      if (!parsed.ok) {
        const e = parsed.error;
        return err('arguments', `${c.name} vs ${o.name}: ${e.code === 'help' ? 'bad arguments' : e.message}`);
      }
      matches.push({ candidate: c.name, opponent: o.name, argv: matchArgv, args: parsed.value });
    }
  if (sprtWords.length > 0) {
    const probe = parseMatchArgs(['--engine', 'a', '--engine', 'b', '--nodes', '1', ...sprtWords, ...modelWords]);
    if (!probe.ok) return err('arguments', probe.error.code === 'help' ? 'bad --sprt' : probe.error.message);
    sprt = probe.value.sprt;
  }
  return ok({ candidates, opponents, logDir, matches, sprt });
}

/** The SPRT of a candidate's match against an opponent the baseline scored `baseline` Elo against. */
export function relativeSprt(sprt: SprtParams, baseline: number): SprtParams {
  return { ...sprt, elo0: baseline + sprt.elo0, elo1: baseline + sprt.elo1 };
}

/** One finished match of the gauntlet, as the summary shows it. */
export interface GauntletResult {
  candidate: string;
  opponent: string;
  stats: MatchStats;
}

/** Elo from the game pairs (pentanomial) when there is a complete pair, else from the games. */
function pairElo(stats: MatchStats): EloEstimate {
  return stats.pairs.some((n) => n > 0)
    ? eloEstimate(pentanomial(stats.pairs))
    : eloEstimate(trinomial(stats.wins, stats.draws, stats.losses));
}

/** Elo a - b with the two matches' errors added in quadrature (independent matches). */
function difference(a: EloEstimate, b: EloEstimate): { elo: number; error: number } {
  return { elo: a.elo - b.elo, error: Math.sqrt(a.error ** 2 + b.error ** 2) };
}

function signed(x: number): string {
  return (x >= 0 ? '+' : '') + x.toFixed(1);
}

/**
 * The gauntlet's summary: a table of the matches (candidate, opponent, games,
 * W-L-D, Elo from the pairs and from the games, forfeits) and, with a baseline
 * (the second candidate), the first candidate's Elo minus the baseline's against
 * each opponent both played and their average (errors added in quadrature).
 */
export function gauntletSummary(results: readonly GauntletResult[], candidates: readonly string[]): string[] {
  const out = [
    '| candidate | opponent | games | W-L-D | Elo (pentanomial, 95%) | Elo (trinomial, 95%) | forfeits |',
    '|---|---|---|---|---|---|---|',
  ];
  for (const r of results) {
    const s = r.stats;
    const n = s.wins + s.draws + s.losses;
    out.push(
      `| ${r.candidate} | ${r.opponent} | ${n} | ${s.wins}-${s.losses}-${s.draws} | ${formatElo(pairElo(s))} | ` +
        `${formatElo(eloEstimate(trinomial(s.wins, s.draws, s.losses)))} | ${s.forfeits[0]}/${s.forfeits[1]} |`,
    );
  }
  if (candidates.length !== 2) return out;
  const [cand, base] = candidates;
  const diffs: { opponent: string; elo: number; error: number }[] = [];
  for (const r of results) {
    if (r.candidate !== cand) continue;
    const b = results.find((x) => x.candidate === base && x.opponent === r.opponent);
    if (b) diffs.push({ opponent: r.opponent, ...difference(pairElo(r.stats), pairElo(b.stats)) });
  }
  if (diffs.length === 0) return out;
  out.push('');
  for (const d of diffs)
    out.push(`${cand} - ${base} against ${d.opponent}: ${signed(d.elo)} +/- ${d.error.toFixed(1)}`);
  if (diffs.length > 1) {
    const mean = diffs.reduce((a, d) => a + d.elo, 0) / diffs.length;
    const error = Math.sqrt(diffs.reduce((a, d) => a + d.error ** 2, 0)) / diffs.length;
    out.push(`${cand} - ${base} on average over ${diffs.length} opponents: ${signed(mean)} +/- ${error.toFixed(1)}`);
  }
  return out;
}

/** `kirin match gauntlet ...`: 0 when every match was played, 1 when one failed, 2 on bad arguments. */
export async function runGauntletCli(argv: readonly string[]): Promise<number> {
  const parsed = parseGauntletArgs(argv);
  if (!parsed.ok) return reportCommandLine(GAUNTLET_SPEC, parsed.error);
  const plan = parsed.value;
  const print = (line: string): void => {
    process.stdout.write(line + '\n');
  };
  try {
    mkdirSync(plan.logDir, { recursive: true });
  } catch (e) {
    process.stderr.write(`kirin match gauntlet: cannot create ${plan.logDir}: ${(e as Error).message}\n`);
    return 2;
  }
  let interrupted = false;
  const onSigint = (): void => {
    if (interrupted) process.exit(130);
    interrupted = true;
    print('Interrupted: finishing this match, then the summary (press Ctrl-C again to quit at once)');
  };
  process.on('SIGINT', onSigint);
  const results: GauntletResult[] = [];
  let code = 0;
  try {
    const baseline = plan.candidates.length === 2 ? plan.candidates[1].name : null;
    for (const [i, m] of plan.matches.entries()) {
      if (interrupted) break;
      const args: MatchArgs = { ...m.args };
      if (plan.sprt && baseline !== null && m.candidate !== baseline) {
        const b = results.find((r) => r.candidate === baseline && r.opponent === m.opponent);
        if (b) args.sprt = relativeSprt(plan.sprt, pairElo(b.stats).elo);
      }
      print(`\n# Gauntlet match ${i + 1} of ${plan.matches.length}: ${m.candidate} vs ${m.opponent}`);
      const played = await playMatch(args, print, () => interrupted);
      if (played.outcome) results.push({ candidate: m.candidate, opponent: m.opponent, stats: played.outcome.stats });
      if (played.code !== 0) {
        code = played.code === 2 ? 2 : 1;
        break;
      }
    }
    print('\nGauntlet:');
    for (const line of gauntletSummary(
      results,
      plan.candidates.map((c) => c.name),
    ))
      print(line);
    print(`Game logs: ${plan.logDir} (kirin match report LOG ... adds runs up)`);
    return code;
  } finally {
    process.off('SIGINT', onSigint);
  }
}
