// `kirin cluster sprt`: a match (and its SPRT) played as game-pair jobs.
//
// The coordinator reads `kirin match`'s own arguments, checks the engines by
// starting each once (a command that does not run, an option the engine does
// not have or refuses: refused before anything is queued), and queues the
// schedule of `kirin match` (game 2k and 2k+1 on opening k, colours swapped) as
// jobs of `pairs` game pairs each. A worker plays its job with the match
// runner itself (runMatch, one game at a time) and sends back the job's W/D/L,
// pentanomial pair counts, forfeits, endings and game-log lines. The
// coordinator adds them up as they arrive, prints the running score and LLR as
// `kirin match` does, stops the run when the SPRT decides (the jobs not begun
// are removed, the ones running stop at their next move) and ends with
// `kirin match`'s result lines.

import { writeFileSync } from 'node:fs';
import { UciEngine } from '../match/uci-engine.js';
import { formatTimeControl, resultString } from '../match/game.js';
import { checkMatchText, endingsLine, gameLogLine, runMatch, summaryLines, type MatchStats } from '../match/match.js';
import type { MatchArgs } from '../match/args.js';
import { loadOpenings, shuffled, type Opening } from '../match/openings.js';
import { formatSprt, sprtStatus, type SprtStatus } from '../match/sprt.js';
import { eloEstimate, formatElo, pentanomial, trinomial } from '../match/elo.js';
import { err, ok, type Result } from '../../src/dev.js';
import type { HandlerCheck, RunHandler, WorkContext } from './runs.js';
import type { SprtSpec } from './specs.js';
import { validateRun } from './validate.js';

/** What a worker sends back for one job: the match's counts over its games, and their lines. */
export interface PairResult extends Omit<MatchStats, 'finished'> {
  /** `kirin match --log` lines of the job's games, numbered in the whole match. */
  log: string[];
  /** One short text per game: "1-0 {checkmate}". */
  brief: string[];
}

export function sprtJobs(spec: SprtSpec): number {
  return Math.ceil(spec.games / (2 * spec.pairs));
}

/** The first game and the number of games of job `index`. */
function jobGames(spec: SprtSpec, index: number): { first: number; count: number } {
  const first = index * 2 * spec.pairs;
  return { first, count: Math.max(0, Math.min(spec.games, first + 2 * spec.pairs) - first) };
}

/** The openings of job `index`'s pairs (pair k of the match plays opening k of the set, cycling). */
function jobOpenings(spec: SprtSpec, index: number): Opening[] {
  const { first, count } = jobGames(spec, index);
  if (spec.openings.length === 0) return [];
  const out: Opening[] = [];
  for (let p = first >> 1; p < (first + count + 1) >> 1; p++) out.push(spec.openings[p % spec.openings.length]);
  return out;
}

/**
 * The run's spec from `kirin match`'s arguments, with the engines checked. First
 * the spec as text (validateRun: no control character anywhere, no option that
 * writes files), before any engine starts; then each engine is started once: a
 * command that does not start, an option it does not declare or one it answers
 * with an error is refused.
 */
export async function makeSprtSpec(
  args: MatchArgs,
  pairs: number,
  startTimeoutMs = 60000,
): Promise<Result<SprtSpec, 'request'>> {
  let openings: Opening[] = [];
  if (args.openingsFile) {
    const loaded = loadOpenings(args.openingsFile, args.rules);
    if (!loaded.ok) return err('request', loaded.error.message);
    openings = args.order === 'random' ? shuffled(loaded.value, args.seed) : loaded.value;
  }
  const text = checkMatchText(args.engines, openings);
  if (!text.ok) return err('request', text.error.message);
  const games = args.games ?? 2 * Math.max(1, openings.length);
  const draft: SprtSpec = {
    engines: [args.engines[0], args.engines[1]],
    names: ['', ''],
    tc: args.tc,
    games,
    pairs: Math.min(pairs, Math.ceil(games / 2)),
    openings,
    openingsLabel: openings.length ? `${openings.length} openings from ${args.openingsFile}` : 'start position',
    rules: args.rules,
    maxPlies: args.maxPlies,
    repetitions: args.repetitions,
    timeMarginMs: args.timeMarginMs,
    moveTimeoutMs: args.moveTimeoutMs,
    adjudication: args.adjudication,
    sprt: args.sprt,
    sprtModel: args.sprtModel,
    ratingInterval: args.ratingInterval,
    logFile: args.logFile,
  };
  // JSON's view of the spec (as Redis will hold it: no undefined fields).
  const valid = validateRun('sprt', JSON.parse(JSON.stringify(draft)), null);
  if (!valid.ok) return err('request', valid.error.message);
  const names: [string, string] = ['', ''];
  for (let i = 0; i < 2; i++) {
    const spec = args.engines[i];
    const errors: string[] = [];
    const eng = new UciEngine(spec, (_e, dir, line) => {
      if (dir === '<' && /^info string ERROR\b/i.test(line)) errors.push(line.replace(/^info string /i, ''));
    });
    const started = await eng.start(startTimeoutMs);
    if (!started.ok)
      return err('request', `engine ${i + 1} ("${spec.command}") does not start: ${started.error.message}`);
    const missing = spec.options.filter(([k]) => !eng.declaredOptions.has(k.toLowerCase())).map(([k]) => k);
    names[i] = eng.name;
    await eng.quit();
    if (missing.length)
      return err('request', `engine ${i + 1} (${names[i]}) has no option ${missing.map((m) => `"${m}"`).join(', ')}`);
    if (errors.length) return err('request', `engine ${i + 1} (${names[i]}) refused its options: ${errors.join('; ')}`);
  }
  if (names[0] === names[1]) names[1] += ' (2)';
  return ok({ ...draft, names });
}

/** The header line, as `kirin match` prints it. */
export function sprtHeader(spec: SprtSpec): string {
  const tcText = spec.tc.map(formatTimeControl);
  return (
    `Match: ${spec.games} games, tc ${tcText[0] === tcText[1] ? tcText[0] : `${tcText[0]} / ${tcText[1]}`}, ` +
    `${sprtJobs(spec)} jobs of ${spec.pairs} game pair(s), ${spec.openingsLabel}, ` +
    `rules ${spec.rules.repetitionRule}/rule60=${spec.rules.rule60MaxPly}/${spec.repetitions}-fold`
  );
}

/**
 * Worker side: plays job `index` with the match runner (the spec was checked
 * against the worker's policy: validateRun). Null when the run ended meanwhile.
 */
export async function playPairJob(
  spec: SprtSpec,
  index: number,
  ctx: WorkContext,
): Promise<Result<PairResult | null, 'job'>> {
  const { first, count } = jobGames(spec, index);
  if (count === 0) return err('job', `job ${index} is beyond the match's ${spec.games} games`);
  const out = await runMatch(
    {
      engines: spec.engines,
      tc: spec.tc,
      games: count,
      concurrency: 1,
      openings: jobOpenings(spec, index),
      rules: spec.rules,
      timeMarginMs: spec.timeMarginMs,
      moveTimeoutMs: spec.moveTimeoutMs,
      maxPlies: spec.maxPlies,
      repetitions: spec.repetitions,
      adjudication: spec.adjudication,
      sprt: null,
      sprtModel: spec.sprtModel,
      print: () => {},
      gameLog: null,
      engineLog: null,
      ratingInterval: 0,
      startTimeoutMs: 60000,
    },
    ctx.cancelled,
  );
  if (ctx.cancelled()) return ok(null);
  if (out.error) return err('job', out.error);
  const played = out.stats.finished.length;
  if (played !== count) return err('job', `job ${index} played ${played} of its ${count} games`);
  const games = out.stats.finished.slice().sort((a, b) => a.game.index - b.game.index);
  // The match's names, so that the log reads like `kirin match`'s.
  const rename = (n: string): string => (n === out.names[0] ? spec.names[0] : n === out.names[1] ? spec.names[1] : n);
  return ok({
    wins: out.stats.wins,
    draws: out.stats.draws,
    losses: out.stats.losses,
    pairs: out.stats.pairs,
    forfeits: out.stats.forfeits,
    terminations: out.stats.terminations,
    log: games.map((fg) =>
      gameLogLine({
        ...fg,
        game: { ...fg.game, index: first + fg.game.index, pair: (first >> 1) + fg.game.pair },
        record: { ...fg.record, redName: rename(fg.record.redName), blackName: rename(fg.record.blackName) },
      }),
    ),
    brief: games.map((fg) => `${resultString(fg.record.result)} {${fg.record.reason}}`),
  });
}

/** A job's result as read from Redis: the counts and lines the tally adds up, their types checked. */
function readPairResult(value: unknown, index: number, games: number): Result<PairResult, 'result'> {
  const v = value as Partial<PairResult> | null;
  const bad = (what: string): Result<never, 'result'> => err('result', `job ${index}: malformed result (${what})`);
  const count = (n: unknown): n is number => typeof n === 'number' && Number.isSafeInteger(n) && n >= 0;
  const texts = (l: unknown): l is string[] => Array.isArray(l) && l.every((x) => typeof x === 'string');
  if (typeof v !== 'object' || v === null) return bad('not an object');
  if (!count(v.wins) || !count(v.draws) || !count(v.losses)) return bad('W/D/L');
  if (v.wins + v.draws + v.losses !== games) return bad(`${v.wins + v.draws + v.losses} games, not ${games}`);
  if (!Array.isArray(v.pairs) || v.pairs.length !== 5 || !v.pairs.every(count)) return bad('pairs');
  if (!Array.isArray(v.forfeits) || v.forfeits.length !== 2 || !v.forfeits.every(count)) return bad('forfeits');
  const t = v.terminations;
  if (typeof t !== 'object' || t === null || !Object.values(t).every(count)) return bad('terminations');
  if (!texts(v.log) || !texts(v.brief)) return bad('log');
  return ok({
    wins: v.wins,
    draws: v.draws,
    losses: v.losses,
    pairs: v.pairs,
    forfeits: [v.forfeits[0], v.forfeits[1]],
    terminations: t,
    log: v.log,
    brief: v.brief,
  });
}

/** Coordinator side: adds the jobs' results up and decides. */
export class SprtTally implements RunHandler {
  readonly stats: MatchStats = {
    wins: 0,
    draws: 0,
    losses: 0,
    pairs: [0, 0, 0, 0, 0],
    forfeits: [0, 0],
    terminations: {},
    finished: [],
  };
  /** Game-log lines by job. */
  readonly log = new Map<number, string[]>();
  games = 0;
  sprt: SprtStatus | null = null;
  private lastRating = 0;

  constructor(
    readonly spec: SprtSpec,
    private readonly print: (line: string) => void,
    private readonly quiet = false,
  ) {}

  get jobs(): number {
    return sprtJobs(this.spec);
  }

  result(index: number, value: unknown, replay = false): Result<null, 'result'> {
    // As `kirin match`: once the test has decided, games still coming in are not counted.
    if (this.sprt?.decision) return ok(null);
    const read = readPairResult(value, index, jobGames(this.spec, index).count);
    if (!read.ok) return read;
    const r = read.value;
    const s = this.stats;
    s.wins += r.wins;
    s.draws += r.draws;
    s.losses += r.losses;
    for (let k = 0; k < 5; k++) s.pairs[k] += r.pairs[k];
    s.forfeits[0] += r.forfeits[0];
    s.forfeits[1] += r.forfeits[1];
    for (const [t, n] of Object.entries(r.terminations)) s.terminations[t] = (s.terminations[t] ?? 0) + n;
    this.log.set(index, r.log);
    this.games += r.wins + r.draws + r.losses;
    if (this.spec.sprt) {
      const dist = this.spec.sprtModel === 'pentanomial' ? pentanomial(s.pairs) : trinomial(s.wins, s.draws, s.losses);
      this.sprt = sprtStatus(dist, this.spec.sprt);
    }
    if (this.quiet || replay) return ok(null);
    const { first, count } = jobGames(this.spec, index);
    const n = this.games;
    const names = this.spec.names;
    this.print(`Finished games ${first + 1}-${first + count} (job ${index}): ${r.brief.join(', ')}`);
    this.print(
      `Score of ${names[0]} vs ${names[1]}: ${s.wins} - ${s.losses} - ${s.draws}  [${((s.wins + s.draws / 2) / n).toFixed(3)}] ${n}`,
    );
    if (this.sprt) {
      const st = this.sprt;
      this.print(
        `SPRT: llr ${st.llr.toFixed(2)} (${((100 * st.llr) / st.upper).toFixed(1)}%), lbound ${st.lower.toFixed(2)}, ubound ${st.upper.toFixed(2)}`,
      );
      if (st.decision) this.print(`SPRT: ${st.decision === 'H1' ? 'H1 was accepted' : 'H0 was accepted'}`);
    }
    const every = this.spec.ratingInterval;
    if (
      every > 0 &&
      Math.floor(n / every) > Math.floor(this.lastRating / every) &&
      n < this.spec.games &&
      !this.sprt?.decision
    ) {
      for (const l of summaryLines(names, s, null, this.spec.sprtModel)) this.print(l);
    }
    this.lastRating = n;
    return ok(null);
  }

  check(): HandlerCheck {
    if (this.sprt?.decision || this.log.size >= this.jobs) return ok({ state: 'done', summary: this.summary() });
    return ok(null);
  }

  summary(): string {
    const s = this.stats;
    const e = eloEstimate(s.pairs.some((p) => p > 0) ? pentanomial(s.pairs) : trinomial(s.wins, s.draws, s.losses));
    let text = `${this.games}/${this.spec.games} games, ${s.wins}-${s.losses}-${s.draws} (W-L-D), Elo ${formatElo(e)}`;
    if (this.spec.sprt && this.sprt) {
      text += `, LLR ${this.sprt.llr.toFixed(2)} (${this.sprt.lower.toFixed(2)}, ${this.sprt.upper.toFixed(2)})`;
      if (this.sprt.decision) text += ` ${this.sprt.decision} accepted`;
    }
    return text;
  }

  /** `kirin match`'s closing lines. */
  finalLines(): string[] {
    const out = [''];
    const stopped = this.games < this.spec.games;
    out.push(`Results${stopped ? ` (stopped after ${this.games} of ${this.spec.games} games)` : ''}:`);
    out.push(...summaryLines(this.spec.names, this.stats, this.spec.sprt, this.spec.sprtModel));
    const endings = endingsLine(this.stats);
    if (endings) out.push(endings);
    return out;
  }

  /** Writes the game log (every counted game, in game order) when --log was given. */
  writeLog(): Result<null, 'file'> {
    if (!this.spec.logFile) return ok(null);
    const lines = [...this.log.entries()].sort((a, b) => a[0] - b[0]).flatMap(([, l]) => l);
    try {
      writeFileSync(this.spec.logFile, lines.map((l) => l + '\n').join(''));
      return ok(null);
    } catch (e) {
      return err('file', `cannot write the game log ${this.spec.logFile}: ${(e as Error).message}`);
    }
  }

  /** The SPRT's line, as in the results. */
  sprtLine(): string | null {
    return this.spec.sprt && this.sprt ? formatSprt(this.spec.sprt, this.sprt) : null;
  }
}
