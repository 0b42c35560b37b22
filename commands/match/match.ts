// A match between two UCI engines: game pairs over an opening set (each
// opening once with each engine as red), several games at once, running
// W/D/L, Elo with error bars (trinomial and pentanomial), and an optional SPRT
// that stops the match as soon as it decides.

import { err, ok, type Result, type RuleConfig } from '../../src/dev.js';
import { eloEstimate, formatElo, pentanomial, trinomial, type EloEstimate, type ScoreDistribution } from './elo.js';
import { UciEngine, checkEngineOptions, type EngineLogger, type EngineSpec } from './uci-engine.js';
import {
  checkOpeningText,
  playGame,
  resultString,
  type Adjudication,
  type GameRecord,
  type TimeControl,
} from './game.js';
import { scheduleGames, type Opening, type ScheduledGame } from './openings.js';
import { thinkingField } from './thinking.js';
import { formatSprt, parseSprtParams, sprtStatus, type SprtParams, type SprtStatus } from './sprt.js';

export type SprtModel = 'pentanomial' | 'trinomial';

/**
 * The SPRT options of a command line, as `kirin match` and `kirin match report`
 * read them: the words of `--sprt` (absent: no SPRT) and `--sprt-model`.
 */
export function sprtOptions(
  words: readonly string[] | undefined,
  model: string | undefined,
): Result<{ sprt: SprtParams | null; model: SprtModel }, 'arguments'> {
  const m = model ?? 'pentanomial';
  if (m !== 'pentanomial' && m !== 'trinomial') return err('arguments', '--sprt-model is pentanomial or trinomial');
  if (!words) return ok({ sprt: null, model: m });
  const p = parseSprtParams([...words]);
  return p.ok ? ok({ sprt: p.value, model: m }) : err('arguments', p.error.message);
}

export interface MatchConfig {
  engines: [EngineSpec, EngineSpec];
  /** Limits per engine (index as in `engines`). */
  tc: [TimeControl, TimeControl];
  games: number;
  concurrency: number;
  openings: Opening[];
  rules: RuleConfig;
  timeMarginMs: number;
  moveTimeoutMs: number;
  maxPlies: number;
  /** Occurrences of a position before a repetition verdict applies (see GameConfig.repetitions). */
  repetitions: number;
  adjudication: Adjudication;
  sprt: SprtParams | null;
  sprtModel: SprtModel;
  /** Progress and results (one line per call). */
  print: (line: string) => void;
  /** One line per finished game, when set. */
  gameLog: ((line: string) => void) | null;
  engineLog: EngineLogger | null;
  /** Print the Elo summary every this many games (0 = only at the end). */
  ratingInterval: number;
  startTimeoutMs: number;
}

export interface FinishedGame {
  game: ScheduledGame;
  record: GameRecord;
  /** Points of engine 0 (1, 0.5 or 0). */
  score: number;
}

export interface MatchStats {
  /** From the first engine's point of view. */
  wins: number;
  draws: number;
  losses: number;
  /** Pair counts by points of the first engine in the pair: 0, 0.5, 1, 1.5, 2. */
  pairs: number[];
  /** Forfeits (time, illegal move, crash) per engine. */
  forfeits: [number, number];
  /** Games by termination. */
  terminations: Record<string, number>;
  finished: FinishedGame[];
}

export interface MatchOutcome {
  names: [string, string];
  stats: MatchStats;
  elo: EloEstimate;
  /** Elo from the pentanomial distribution of complete pairs (null without any). */
  eloPairs: EloEstimate | null;
  sprt: SprtStatus | null;
  /** True when the SPRT decided or the match was interrupted before all games were played. */
  stoppedEarly: boolean;
  /** Set when the match could not go on (an engine that cannot be started). */
  error: string | null;
}

export function emptyStats(): MatchStats {
  return { wins: 0, draws: 0, losses: 0, pairs: [0, 0, 0, 0, 0], forfeits: [0, 0], terminations: {}, finished: [] };
}

/** Adds a finished game to the statistics; completes its pair when the partner game is in. */
export function addGame(stats: MatchStats, fg: FinishedGame): void {
  if (fg.score === 1) stats.wins++;
  else if (fg.score === 0) stats.losses++;
  else stats.draws++;
  const t = fg.record.termination;
  stats.terminations[t] = (stats.terminations[t] ?? 0) + 1;
  if (fg.record.forfeit !== null) {
    const engineIdx = fg.record.forfeit === 0 ? fg.game.redEngine : ((1 - fg.game.redEngine) as 0 | 1);
    stats.forfeits[engineIdx]++;
  }
  const partner = stats.finished.find((o) => o.game.pair === fg.game.pair);
  stats.finished.push(fg);
  if (partner) stats.pairs[Math.round((partner.score + fg.score) * 2)]++;
}

function statsDistribution(stats: MatchStats, model: SprtModel): ScoreDistribution {
  return model === 'pentanomial' ? pentanomial(stats.pairs) : trinomial(stats.wins, stats.draws, stats.losses);
}

/** Points of engine 0 in a finished game. */
function engineZeroScore(g: ScheduledGame, r: GameRecord): number {
  if (r.result === 'draw') return 0.5;
  const winnerEngine = r.result === 'red' ? g.redEngine : 1 - g.redEngine;
  return winnerEngine === 0 ? 1 : 0;
}

function openingText(o: Opening): string {
  const pos = o.fen ? `fen ${o.fen}${o.moves.length ? ' moves ' : ''}` : '';
  return pos + o.moves.join(' ');
}

/** The game-log line: fields separated by " | ". */
export function gameLogLine(fg: FinishedGame): string {
  const r = fg.record;
  const o = fg.game.opening;
  return [
    `game ${fg.game.index + 1}`,
    `${r.redName} vs ${r.blackName}`,
    resultString(r.result),
    r.reason,
    `opening ${openingText(o) || 'startpos'}${o.name && o.name !== openingText(o) ? ` (${o.name})` : ''}`,
    `moves ${r.moves.join(' ')}`,
    thinkingField(r.thinking),
    `end ${r.termination}`,
  ].join(' | ');
}

function pct(x: number): string {
  return (100 * x).toFixed(1) + '%';
}

export function summaryLines(
  names: [string, string],
  stats: MatchStats,
  sprt: SprtParams | null,
  model: SprtModel,
): string[] {
  const n = stats.wins + stats.draws + stats.losses;
  const out: string[] = [];
  const score = n ? (stats.wins + stats.draws / 2) / n : 0.5;
  out.push(
    `Score of ${names[0]} vs ${names[1]}: ${stats.wins} - ${stats.losses} - ${stats.draws}  [${score.toFixed(3)}] ${n}  (W - L - D)`,
  );
  const e = eloEstimate(trinomial(stats.wins, stats.draws, stats.losses));
  out.push(
    `Elo difference: ${formatElo(e)} (trinomial, 95%), LOS: ${pct(e.los)}, DrawRatio: ${n ? pct(stats.draws / n) : '-'}`,
  );
  const np = stats.pairs.reduce((a, b) => a + b, 0);
  if (np > 0) {
    const ep = eloEstimate(pentanomial(stats.pairs));
    out.push(
      `Pentanomial [0, 0.5, 1, 1.5, 2]: [${stats.pairs.join(', ')}], Elo ${formatElo(ep)} (95%), LOS: ${pct(ep.los)}`,
    );
  }
  const forfeits = stats.forfeits[0] + stats.forfeits[1];
  if (forfeits) out.push(`Forfeits: ${names[0]} ${stats.forfeits[0]}, ${names[1]} ${stats.forfeits[1]}`);
  if (sprt) out.push(formatSprt(sprt, sprtStatus(statsDistribution(stats, model), sprt)) + ` [${model}]`);
  return out;
}

/** The games by how they ended ("Endings: rules 70, time 2"), or null before any game. */
export function endingsLine(stats: MatchStats): string | null {
  const t = Object.entries(stats.terminations)
    .map(([k, v]) => `${k} ${v}`)
    .join(', ');
  return t ? `Endings: ${t}` : null;
}

interface Slot {
  engines: [UciEngine, UciEngine];
}

/**
 * What of a match goes to the engines as text, checked before any engine starts:
 * each engine's options and each opening (no control character: a line break
 * would smuggle in a command of its own). The error names the engine or opening
 * and the field.
 */
export function checkMatchText(
  engines: readonly EngineSpec[],
  openings: readonly Opening[],
): Result<null, 'command-text'> {
  for (const [i, e] of engines.entries()) {
    const r = checkEngineOptions(e.options);
    if (!r.ok) return err('command-text', `engine ${i + 1}: ${r.error.message}`);
  }
  for (const o of openings) {
    const r = checkOpeningText(o);
    if (!r.ok) return r;
  }
  return ok(null);
}

/** Runs the match. `interrupted` is polled between moves (e.g. set by SIGINT). */
export async function runMatch(cfg: MatchConfig, interrupted: () => boolean = () => false): Promise<MatchOutcome> {
  const schedule = scheduleGames(cfg.openings, cfg.games);
  const stats = emptyStats();
  let next = 0;
  let stop = false;
  let error: string | null = null;
  let sprt: SprtStatus | null = null;
  const shouldStop = (): boolean => stop || interrupted();
  const slots: Slot[] = [];
  const concurrency = Math.max(1, Math.min(cfg.concurrency, schedule.length || 1));

  const makeEngine = (i: 0 | 1, slot: number): UciEngine =>
    new UciEngine(cfg.engines[i], cfg.engineLog, `${i + 1}.${slot + 1}`);
  const names: [string, string] = [
    cfg.engines[0].name ?? cfg.engines[0].command,
    cfg.engines[1].name ?? cfg.engines[1].command,
  ];

  // Nothing starts when an option or an opening would not go to the engines as it is.
  const text = checkMatchText(cfg.engines, cfg.openings);
  if (!text.ok) error = text.error.message;
  // Start every engine first so that a bad command stops the match before any game.
  starting: for (let s = 0; s < (error === null ? concurrency : 0); s++) {
    const slot: Slot = { engines: [makeEngine(0, s), makeEngine(1, s)] };
    slots.push(slot);
    for (const e of slot.engines) {
      const started = await e.start(cfg.startTimeoutMs);
      if (!started.ok) {
        error = started.error.message;
        break starting;
      }
    }
  }
  if (error === null) {
    names[0] = slots[0].engines[0].name;
    names[1] = slots[0].engines[1].name;
    if (names[0] === names[1]) names[1] += ' (2)';
    for (const s of slots) {
      s.engines[0].name = names[0];
      s.engines[1].name = names[1];
    }
    for (let i = 0; i < 2; i++) {
      for (const [k] of cfg.engines[i].options) {
        if (!slots[0].engines[i].declaredOptions.has(k.toLowerCase()))
          cfg.print(`Warning: ${names[i]} has no option "${k}"; not set`);
      }
    }
  } else {
    await Promise.all(slots.flatMap((s) => s.engines.map((x) => x.quit())));
    return {
      names,
      stats,
      elo: eloEstimate(trinomial(0, 0, 0)),
      eloPairs: null,
      sprt: null,
      stoppedEarly: true,
      error,
    };
  }

  const restartFailures = [0, 0];
  const ensureAlive = async (eng: UciEngine, idx: 0 | 1): Promise<boolean> => {
    if (eng.alive) return true;
    cfg.print(`Restarting ${eng.name}${eng.deathMessage ? ` (${eng.deathMessage})` : ''}`);
    const name = eng.name;
    const started = await eng.start(cfg.startTimeoutMs);
    eng.name = name;
    if (started.ok) {
      restartFailures[idx] = 0;
      return true;
    } else {
      restartFailures[idx]++;
      cfg.print(`Could not restart ${eng.name}: ${started.error.message}`);
      if (restartFailures[idx] >= 3) {
        error = `${eng.name} could not be restarted 3 times in a row; match stopped`;
        stop = true;
      }
      return false;
    }
  };

  const onFinished = (fg: FinishedGame): void => {
    addGame(stats, fg);
    const n = stats.finished.length;
    const r = fg.record;
    const o = fg.game.opening;
    cfg.print(
      `Finished game ${fg.game.index + 1} (${r.redName} vs ${r.blackName}): ${resultString(r.result)} {${r.reason}} ` +
        `[opening ${o.line || fg.game.pair + 1}${o.name ? `: ${o.name}` : ''}]`,
    );
    cfg.print(
      `Score of ${names[0]} vs ${names[1]}: ${stats.wins} - ${stats.losses} - ${stats.draws}  [${((stats.wins + stats.draws / 2) / n).toFixed(3)}] ${n}`,
    );
    cfg.gameLog?.(gameLogLine(fg));
    if (cfg.sprt) {
      sprt = sprtStatus(statsDistribution(stats, cfg.sprtModel), cfg.sprt);
      cfg.print(
        `SPRT: llr ${sprt.llr.toFixed(2)} (${((100 * sprt.llr) / sprt.upper).toFixed(1)}%), lbound ${sprt.lower.toFixed(2)}, ubound ${sprt.upper.toFixed(2)}`,
      );
      if (sprt.decision) {
        cfg.print(`SPRT: ${sprt.decision === 'H1' ? 'H1 was accepted' : 'H0 was accepted'}`);
        stop = true;
      }
    }
    if (cfg.ratingInterval > 0 && n % cfg.ratingInterval === 0 && n < schedule.length && !stop) {
      for (const l of summaryLines(names, stats, null, cfg.sprtModel)) cfg.print(l);
    }
  };

  const worker = async (slot: Slot): Promise<void> => {
    while (!shouldStop()) {
      const g = schedule[next];
      if (!g) return;
      next++;
      const [e0, e1] = slot.engines;
      const ok0 = await ensureAlive(e0, 0);
      const ok1 = await ensureAlive(e1, 1);
      if (shouldStop()) return;
      let record: GameRecord;
      const red = g.redEngine === 0 ? e0 : e1;
      const black = g.redEngine === 0 ? e1 : e0;
      if (!ok0 || !ok1) {
        // An engine that cannot run loses the game (both down: draw).
        const redDown = g.redEngine === 0 ? !ok0 : !ok1;
        const blackDown = g.redEngine === 0 ? !ok1 : !ok0;
        const reason = `${redDown && blackDown ? 'both engines' : (redDown ? red : black).name} could not be started`;
        record = {
          result: redDown && blackDown ? 'draw' : redDown ? 'black' : 'red',
          reason,
          termination: 'crash',
          forfeit: redDown && blackDown ? null : redDown ? 0 : 1,
          moves: [],
          thinking: [],
          redName: red.name,
          blackName: black.name,
          durationMs: 0,
          finalFen: '',
        };
      } else {
        const played = await playGame({
          opening: g.opening,
          engines: [red, black],
          tc: [cfg.tc[g.redEngine], cfg.tc[1 - g.redEngine]],
          rules: cfg.rules,
          timeMarginMs: cfg.timeMarginMs,
          moveTimeoutMs: cfg.moveTimeoutMs,
          maxPlies: cfg.maxPlies,
          repetitions: cfg.repetitions,
          adjudication: cfg.adjudication,
          aborted: shouldStop,
        });
        // The openings were checked when their file was read (loadOpenings) and above (checkMatchText).
        if (!played.ok) {
          error ??= played.error.message;
          stop = true;
          return;
        }
        record = played.value;
      }
      if (record.result === 'aborted') return;
      onFinished({ game: g, record, score: engineZeroScore(g, record) });
    }
  };

  await Promise.all(slots.map((s) => worker(s)));
  await Promise.all(slots.flatMap((s) => s.engines.map((x) => x.quit())));

  const played = stats.finished.length;
  const np = stats.pairs.reduce((a, b) => a + b, 0);
  if (cfg.sprt && !sprt) sprt = sprtStatus(statsDistribution(stats, cfg.sprtModel), cfg.sprt);
  return {
    names,
    stats,
    elo: eloEstimate(trinomial(stats.wins, stats.draws, stats.losses)),
    eloPairs: np ? eloEstimate(pentanomial(stats.pairs)) : null,
    sprt,
    stoppedEarly: played < schedule.length,
    error,
  };
}
