// `kirin match report LOG [LOG ...]`: the results of matches read back from
// their game logs (`kirin match --log`), each log and all of them together -
// W/L/D, Elo from the games and from the game pairs, LOS, forfeits, endings and
// optionally an SPRT over them all. A network's confirmation runs in several
// sessions; this adds the runs up the way the runner counts one.

import { err, ok, type Result } from '../../src/dev.js';
import { commandSpec, readCommandLine, reportCommandLine } from '../../toolkit/command-line.js';
import { readTextFile } from '../../toolkit/files.js';
import { emptyStats, endingsLine, sprtOptions, summaryLines, type MatchStats, type SprtModel } from './match.js';
import type { SprtParams } from './sprt.js';
import { parseThinkingField, thinkingLines, type GameThinking, type MoveThinking } from './thinking.js';

const REPORT_USAGE = `Usage: kirin match report LOG [LOG ...] [options]

Reads the game logs of finished (or stopped) matches, written by
\`kirin match --log FILE\`, and prints each one's results and, for several logs,
the results of all their games together: W - L - D, Elo from the games and from
the game pairs (pentanomial), LOS, forfeits and endings. The logs must be of
the same two engines (by name), in either order.

Options:
  --first NAME               the engine whose results are printed (default: the
                             first engine of the first log)
  --sprt elo0=0 elo1=10 alpha=0.05 beta=0.05   the SPRT's verdict over all games
  --sprt-model pentanomial|trinomial      (default pentanomial: game pairs)
`;

/** One line of a game log, as `gameLogLine` (match.ts) writes it. */
export interface LoggedGame {
  /** 1-based; games 2k - 1 and 2k are a pair (one opening, each engine red once). */
  game: number;
  red: string;
  black: string;
  result: 'red' | 'black' | 'draw';
  reason: string;
  termination: string;
  /** The game's start: the opening's FEN (null: the standard start position). */
  fen: string | null;
  /** Every move from `fen` (UCI): the opening's moves, then the game's. */
  moves: string[];
  /** Each game move's time, depth and clock (null: a log written before the runner kept them). */
  thinking: MoveThinking[] | null;
}

/**
 * The opening and moves fields of a log line ("opening startpos", "opening fen
 * F moves M ... (name)", "opening M ... (name)"; "moves M ..."), or null.
 */
function loggedMoves(opening: string, played: string): { fen: string | null; moves: string[] } | null {
  if (!opening.startsWith('opening ') || !(played === 'moves' || played.startsWith('moves '))) return null;
  let words = opening.slice('opening '.length).split(' ');
  const named = words.findIndex((w) => w.startsWith('('));
  if (named >= 0) words = words.slice(0, named);
  let fen: string | null = null;
  if (words[0] === 'fen') {
    if (words.length < 7) return null;
    fen = words.slice(1, 7).join(' ');
    words = words.slice(7);
    if (words[0] === 'moves') words = words.slice(1);
  } else if (words.length === 1 && words[0] === 'startpos') words = [];
  const moves = words.concat(played.split(' ').slice(1)).filter((w) => w !== '');
  return moves.every((m) => /^[a-i][0-9][a-i][0-9]$/.test(m)) ? { fen, moves } : null;
}

const RESULTS: Record<string, LoggedGame['result']> = { '1-0': 'red', '0-1': 'black', '1/2-1/2': 'draw' };
/** Terminations in which the losing engine forfeited the game. */
const FORFEITS = new Set(['time', 'illegal', 'crash']);

/** Parses one line of a game log; `where` ("file:line") goes into the message. */
export function parseLogLine(line: string, where: string): Result<LoggedGame, 'log'> {
  const f = line.trim().split(' | ');
  // Seven fields, or eight with the thinking field before the end (logs from before it have seven).
  const fields = f.length === 7 || (f.length === 8 && f[6].startsWith('thinking'));
  const game = /^game ([1-9][0-9]*)$/.exec(f[0]);
  const players = fields ? / vs /.exec(f[1]) : null;
  const result = fields ? RESULTS[f[2]] : undefined;
  const end = /^end ([a-z]+)$/.exec(f[f.length - 1]);
  const played = fields ? loggedMoves(f[4], f[5]) : null;
  if (!game || !players || !result || !end || !played)
    return err(
      'log',
      `${where}: not a game-log line (game N | red vs black | result | reason | opening ... | moves ... | [thinking ... |] end T)`,
    );
  let thinking: MoveThinking[] | null = null;
  if (f.length === 8) {
    const t = parseThinkingField(f[6]);
    if (!t.ok) return err('log', `${where}: thinking: ${t.error.message}`);
    thinking = t.value;
  }
  return ok({
    game: Number(game[1]),
    red: f[1].slice(0, players.index),
    black: f[1].slice(players.index + 4),
    result,
    reason: f[3],
    termination: end[1],
    fen: played.fen,
    moves: played.moves,
    thinking,
  });
}

/** The "Thinking:" lines of logged games (lines from before the runner kept thinking are left out). */
export function loggedThinkingLines(games: readonly LoggedGame[], names: readonly string[]): string[] {
  const known: GameThinking[] = [];
  for (const g of games)
    if (g.thinking) known.push({ ...g, openingMoves: g.moves.length - g.thinking.length, thinking: g.thinking });
  return thinkingLines(known, names);
}

/** Parses a game log's text; `name` (the file) goes into the messages. */
export function parseGameLog(text: string, name: string): Result<LoggedGame[], 'log'> {
  const games: LoggedGame[] = [];
  const seen = new Set<number>();
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    if (lines[i].trim() === '') continue;
    const where = `${name}:${i + 1}`;
    const g = parseLogLine(lines[i], where);
    if (!g.ok) return g;
    if (seen.has(g.value.game)) return err('log', `${where}: game ${g.value.game} is in the log twice`);
    seen.add(g.value.game);
    games.push(g.value);
  }
  if (games.length === 0) return err('log', `${name}: no games`);
  return ok(games);
}

/** The statistics of games from `first`'s point of view (pairs: games 2k - 1 and 2k of one log). */
export function logStats(logs: readonly (readonly LoggedGame[])[], first: string): MatchStats {
  const stats = emptyStats();
  for (const games of logs) {
    const byGame = new Map<number, number>();
    for (const g of games) {
      const redScore = g.result === 'red' ? 1 : g.result === 'black' ? 0 : 0.5;
      const score = g.red === first ? redScore : 1 - redScore;
      if (score === 1) stats.wins++;
      else if (score === 0) stats.losses++;
      else stats.draws++;
      stats.terminations[g.termination] = (stats.terminations[g.termination] ?? 0) + 1;
      if (FORFEITS.has(g.termination)) stats.forfeits[score === 0 ? 0 : 1]++;
      byGame.set(g.game, score);
    }
    for (const [n, score] of byGame) {
      const partner = n % 2 === 1 ? byGame.get(n + 1) : undefined;
      if (partner !== undefined) stats.pairs[Math.round((score + partner) * 2)]++;
    }
  }
  return stats;
}

export interface ReportArgs {
  files: string[];
  first: string | null;
  sprt: SprtParams | null;
  sprtModel: SprtModel;
}

const REPORT_SPEC = commandSpec({
  name: 'kirin match report',
  usage: REPORT_USAGE,
  options: {
    first: { type: 'string' },
    sprt: { type: 'string' },
    'sprt-model': { type: 'string' },
  },
  positionals: { min: 1 },
  groups: ['sprt'],
});

export function parseReportArgs(argv: readonly string[]): Result<ReportArgs, 'help' | 'arguments'> {
  const cl = readCommandLine(argv, REPORT_SPEC);
  if (!cl.ok) return cl;
  const s = sprtOptions(cl.value.groups.sprt, cl.value.values['sprt-model']);
  if (!s.ok) return s;
  return ok({
    files: [...cl.value.positionals],
    first: cl.value.values.first ?? null,
    sprt: s.value.sprt,
    sprtModel: s.value.model,
  });
}

/** The report's lines, or why the logs cannot be reported on. */
export function reportLines(
  logs: readonly { name: string; games: readonly LoggedGame[] }[],
  firstName: string | null,
  sprt: SprtParams | null,
  sprtModel: SprtModel,
): Result<string[], 'log'> {
  const g0 = logs[0].games[0];
  if (g0.red === g0.black)
    return err(
      'log',
      `${logs[0].name}: both engines are named ${g0.red}, so the log cannot tell them apart ` +
        '(give each one a name with kirin match --name N:NAME)',
    );
  // The runner's first engine is red in the odd games.
  const first = firstName ?? (g0.game % 2 === 1 ? g0.red : g0.black);
  const second = [g0.red, g0.black].find((x) => x !== first);
  if (second === undefined || (g0.red !== first && g0.black !== first))
    return err('log', `--first ${first}: not an engine of ${logs[0].name} (${g0.red}, ${g0.black})`);
  for (const log of logs)
    for (const g of log.games)
      if (!((g.red === first && g.black === second) || (g.red === second && g.black === first)))
        return err(
          'log',
          `${log.name}: game ${g.game} is ${g.red} vs ${g.black}, not a game of ${first} and ${second}`,
        );
  const names: [string, string] = [first, second];
  /** A block of the report: its title, the statistics, the endings and each engine's thinking over `games`. */
  const block = (title: string, games: readonly LoggedGame[], stats: MatchStats, withSprt: boolean): string[] => {
    const endings = endingsLine(stats);
    return [
      title,
      ...summaryLines(names, stats, withSprt ? sprt : null, sprtModel),
      ...(endings ? [endings] : []),
      ...loggedThinkingLines(games, names),
    ];
  };
  const out: string[] = [];
  for (const log of logs) {
    if (out.length) out.push('');
    out.push(
      ...block(`${log.name}: ${log.games.length} games`, log.games, logStats([log.games], first), logs.length === 1),
    );
  }
  if (logs.length > 1) {
    const all = logStats(
      logs.map((l) => l.games),
      first,
    );
    const n = all.wins + all.draws + all.losses;
    out.push(
      '',
      ...block(
        `All ${logs.length} logs: ${n} games`,
        logs.flatMap((l) => l.games),
        all,
        true,
      ),
    );
  }
  return ok(out);
}

/** `kirin match report ...`: the exit code (0 done, 1 a log that cannot be read or used, 2 bad arguments). */
export function runMatchReportCli(argv: readonly string[]): number {
  const parsed = parseReportArgs(argv);
  if (!parsed.ok) return reportCommandLine(REPORT_SPEC, parsed.error);
  const a = parsed.value;
  const logs: { name: string; games: LoggedGame[] }[] = [];
  for (const file of a.files) {
    const text = readTextFile(file);
    const games = text.ok ? parseGameLog(text.value, file) : text;
    if (!games.ok) {
      process.stderr.write(`kirin match report: ${games.error.message}\n`);
      return 1;
    }
    logs.push({ name: file, games: games.value });
  }
  const lines = reportLines(logs, a.first, a.sprt, a.sprtModel);
  if (!lines.ok) {
    process.stderr.write(`kirin match report: ${lines.error.message}\n`);
    return 1;
  }
  process.stdout.write(lines.value.join('\n') + '\n');
  return 0;
}
