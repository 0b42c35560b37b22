// `kirin match`: command-line front end of the match runner.

import { appendFileSync, writeFileSync } from 'node:fs';
import { DEFAULT_RULES, ruleConfigFrom, type RuleConfig } from '../../src/dev.js';
import type { EngineLogger, EngineSpec } from './uci-engine.js';
import { NO_ADJUDICATION, formatTimeControl, parseTimeControl, type Adjudication, type TimeControl } from './game.js';
import { runMatch, summaryLines, type SprtModel } from './match.js';
import { loadOpenings, shuffled, type Opening } from './openings.js';
import { parseSprtParams, type SprtParams } from './sprt.js';

export const MATCH_USAGE = `Usage: kirin match --engine CMD --engine CMD [options]

Plays game pairs between two UCI engines (each opening once with each engine as
red), refereed by Kirin's rules core, and reports W/D/L, Elo and an optional SPRT.

Engines:
  --engine CMD               engine command line (give it twice; quote it)
  --name N:NAME              display name of engine N (1 or 2); default: its "id name"
  --option NAME=VALUE        UCI option for both engines (repeatable)
  --engine-option N:NAME=VALUE   UCI option for engine N only
Games:
  --tc TC                    time control for both: 10+0.1 (s + inc), 40/60+0.5, 1:30+1,
                             movetime=MS, nodes=N, depth=D (join with commas)
  --engine-tc N:TC           time control for engine N only
  --nodes N | --depth D | --movetime MS   shortcuts added to --tc
  --games N                  games to play (default: 2 per opening)
  --concurrency N            games at once (default 1)
  --openings FILE            openings: one per line, start-position moves or a FEN
                             (+ moves); default: the start position
  --openings-order sequential|random   (default sequential)
  --seed N                   seed for random opening order (default 1)
Judgement:
  --repetition-rule R        AsianRule (default), ComputerRule, ChineseRule, SkyRule,
                             YitianRule, AllowChase, NoJudgement
  --rule60 PLIES             60-move rule in plies (default 120, 0 = off)
  --draw-rule R              None (default), DrawAsBlackWin, DrawAsRedWin, ...
  --repetitions N            apply a repetition verdict (draw, perpetual check/chase)
                             when the position occurs the Nth time (default 3; 2 =
                             at the first repetition)
  --max-plies N              draw after N plies of the game (default 600, 0 = off)
  --time-margin MS           tolerance before a loss on time (default 100)
  --move-timeout MS          longest wait for a move without clock (default 60000)
  --resign movecount=N score=CP           both engines agree for N moves
  --draw movenumber=N movecount=N score=CP
SPRT:
  --sprt elo0=0 elo1=10 alpha=0.05 beta=0.05   stop as soon as the test decides
  --sprt-model pentanomial|trinomial      (default pentanomial: game pairs)
Output:
  --log FILE                 one line per game: game | players | result | reason | opening | moves | end <termination>
  --debug [FILE]             engine traffic to stderr (or FILE)
  --rating-interval N        print Elo every N games (default 10, 0 = end only)

Example:
  kirin match --engine "node bin/kirin.js" --engine "node dist/tools/match/fairy-stockfish-uci.js" \\
    --tc 10+0.1 --games 200 --concurrency 2 --openings data/openings/openings.txt \\
    --sprt elo0=0 elo1=10 alpha=0.05 beta=0.05 --option Hash=16
`;

export interface MatchArgs {
  engines: EngineSpec[];
  tc: [TimeControl, TimeControl];
  games: number | null;
  concurrency: number;
  openingsFile: string | null;
  order: 'sequential' | 'random';
  seed: number;
  rules: RuleConfig;
  maxPlies: number;
  repetitions: number;
  timeMarginMs: number;
  moveTimeoutMs: number;
  adjudication: Adjudication;
  sprt: SprtParams | null;
  sprtModel: SprtModel;
  logFile: string | null;
  debug: string | boolean;
  ratingInterval: number;
  help: boolean;
}

function parseIntArg(name: string, v: string | undefined, min: number): number {
  if (v === undefined || !/^-?\d+$/.test(v)) throw new Error(`${name} needs an integer`);
  const n = Number(v);
  if (n < min) throw new Error(`${name} must be >= ${min}`);
  return n;
}

function parseKeyValues(name: string, tokens: string[], keys: string[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const t of tokens) {
    const m = /^([a-z0-9]+)=(-?\d+(?:\.\d+)?)$/i.exec(t);
    if (!m || !keys.includes(m[1].toLowerCase()))
      throw new Error(`${name}: bad parameter "${t}" (expected ${keys.map((k) => k + '=').join(', ')})`);
    out[m[1].toLowerCase()] = Number(m[2]);
  }
  return out;
}

function engineIndex(name: string, v: string): [number, string] {
  const m = /^([12]):(.*)$/s.exec(v);
  if (!m) throw new Error(`${name} needs N:VALUE with N = 1 or 2`);
  return [Number(m[1]) - 1, m[2]];
}

function splitOption(name: string, v: string): [string, string] {
  const eq = v.indexOf('=');
  if (eq <= 0) throw new Error(`${name} needs NAME=VALUE`);
  return [v.slice(0, eq).trim(), v.slice(eq + 1).trim()];
}

/** Parses the arguments of `kirin match`; throws Error with a message on bad input. */
export function parseMatchArgs(argv: readonly string[]): MatchArgs {
  const commands: string[] = [];
  const names: (string | undefined)[] = [undefined, undefined];
  const common: Array<[string, string]> = [];
  const perEngine: Array<Array<[string, string]>> = [[], []];
  let tcText: string | null = null;
  const perTc: (string | null)[] = [null, null];
  const extra: string[] = [];
  let repetitionRule = DEFAULT_RULES.repetitionRule as string;
  let drawRule = DEFAULT_RULES.drawRule as string;
  let rule60 = DEFAULT_RULES.rule60MaxPly;
  const a: Omit<MatchArgs, 'engines' | 'tc' | 'rules'> = {
    games: null,
    concurrency: 1,
    openingsFile: null,
    order: 'sequential',
    seed: 1,
    maxPlies: 600,
    repetitions: 3,
    timeMarginMs: 100,
    moveTimeoutMs: 60000,
    adjudication: { ...NO_ADJUDICATION },
    sprt: null,
    sprtModel: 'pentanomial',
    logFile: null,
    debug: false,
    ratingInterval: 10,
    help: false,
  };
  let i = 0;
  const value = (flag: string): string => {
    const v = argv[++i];
    if (v === undefined) throw new Error(`${flag} needs a value`);
    return v;
  };
  // Tokens after a flag up to the next --flag (for --sprt, --resign, --draw).
  const group = (): string[] => {
    const out: string[] = [];
    while (i + 1 < argv.length && !argv[i + 1].startsWith('--')) out.push(argv[++i]);
    return out;
  };
  for (; i < argv.length; i++) {
    const flag = argv[i];
    switch (flag) {
      case '-h':
      case '--help':
        a.help = true;
        break;
      case '--engine':
        commands.push(value(flag));
        break;
      case '--name': {
        const [n, v] = engineIndex(flag, value(flag));
        names[n] = v;
        break;
      }
      case '--option':
        common.push(splitOption(flag, value(flag)));
        break;
      case '--engine-option': {
        const [n, v] = engineIndex(flag, value(flag));
        perEngine[n].push(splitOption(flag, v));
        break;
      }
      case '--tc':
        tcText = value(flag);
        break;
      case '--engine-tc': {
        const [n, v] = engineIndex(flag, value(flag));
        perTc[n] = v;
        break;
      }
      case '--nodes':
        extra.push(`nodes=${parseIntArg(flag, value(flag), 1)}`);
        break;
      case '--depth':
        extra.push(`depth=${parseIntArg(flag, value(flag), 1)}`);
        break;
      case '--movetime':
        extra.push(`movetime=${parseIntArg(flag, value(flag), 1)}`);
        break;
      case '--games':
        a.games = parseIntArg(flag, value(flag), 1);
        break;
      case '--concurrency':
        a.concurrency = parseIntArg(flag, value(flag), 1);
        break;
      case '--openings':
        a.openingsFile = value(flag);
        break;
      case '--openings-order': {
        const v = value(flag);
        if (v !== 'sequential' && v !== 'random') throw new Error(`${flag} is sequential or random`);
        a.order = v;
        break;
      }
      case '--seed':
        a.seed = parseIntArg(flag, value(flag), 0);
        break;
      case '--repetition-rule':
        repetitionRule = value(flag);
        break;
      case '--draw-rule':
        drawRule = value(flag);
        break;
      case '--rule60':
        rule60 = parseIntArg(flag, value(flag), 0);
        break;
      case '--max-plies':
        a.maxPlies = parseIntArg(flag, value(flag), 0);
        break;
      case '--repetitions':
        a.repetitions = parseIntArg(flag, value(flag), 2);
        break;
      case '--time-margin':
        a.timeMarginMs = parseIntArg(flag, value(flag), 0);
        break;
      case '--move-timeout':
        a.moveTimeoutMs = parseIntArg(flag, value(flag), 1);
        break;
      case '--resign': {
        const kv = parseKeyValues(flag, group(), ['movecount', 'score']);
        if (!(kv.movecount > 0 && kv.score > 0)) throw new Error(`${flag} needs movecount=N score=CP (both > 0)`);
        a.adjudication.resignMoves = kv.movecount;
        a.adjudication.resignScore = kv.score;
        break;
      }
      case '--draw': {
        const kv = parseKeyValues(flag, group(), ['movenumber', 'movecount', 'score']);
        if (!(kv.movecount > 0 && kv.score >= 0)) throw new Error(`${flag} needs movecount=N (> 0) and score=CP`);
        a.adjudication.drawMoveNumber = kv.movenumber ?? 0;
        a.adjudication.drawMoves = kv.movecount;
        a.adjudication.drawScore = kv.score;
        break;
      }
      case '--sprt': {
        const p = parseSprtParams(group());
        if (!p.ok) throw new Error(p.error.message);
        a.sprt = p.value;
        break;
      }
      case '--sprt-model': {
        const v = value(flag);
        if (v !== 'pentanomial' && v !== 'trinomial') throw new Error(`${flag} is pentanomial or trinomial`);
        a.sprtModel = v;
        break;
      }
      case '--log':
        a.logFile = value(flag);
        break;
      case '--debug':
        a.debug = i + 1 < argv.length && !argv[i + 1].startsWith('--') ? argv[++i] : true;
        break;
      case '--rating-interval':
        a.ratingInterval = parseIntArg(flag, value(flag), 0);
        break;
      default:
        throw new Error(`unknown argument "${flag}"`);
    }
  }
  if (a.help) {
    return { ...a, engines: [], tc: [parseTc('1+0'), parseTc('1+0')], rules: DEFAULT_RULES };
  }
  if (commands.length !== 2) throw new Error(`give exactly two --engine commands (got ${commands.length})`);
  const engines: EngineSpec[] = commands.map((command, n) => ({
    command,
    name: names[n],
    options: [
      ...common.filter(([k]) => !perEngine[n].some(([k2]) => k2.toLowerCase() === k.toLowerCase())),
      ...perEngine[n],
    ],
  }));
  const withExtra = (t: string | null): string => [t, ...extra].filter((x) => x).join(',');
  const tc0 = withExtra(perTc[0] ?? tcText),
    tc1 = withExtra(perTc[1] ?? tcText);
  if (!tc0 || !tc1) throw new Error('give a time control (--tc 10+0.1, --nodes N, --depth D or --movetime MS)');
  const rules = ruleConfigFrom({
    repetitionRule,
    drawRule,
    rule60MaxPly: rule60,
    mateThreatDepth: DEFAULT_RULES.mateThreatDepth,
  });
  if (rules.repetitionRule.toLowerCase() !== repetitionRule.toLowerCase())
    throw new Error(`unknown repetition rule "${repetitionRule}"`);
  if (rules.drawRule.toLowerCase() !== drawRule.toLowerCase()) throw new Error(`unknown draw rule "${drawRule}"`);
  return { ...a, engines, tc: [parseTc(tc0), parseTc(tc1)], rules };
}

function parseTc(text: string): TimeControl {
  const tc = parseTimeControl(text);
  if (!tc.ok) throw new Error(tc.error.message);
  return tc.value;
}

/** `kirin match ...`: returns the process exit code (0 done, 1 match error, 2 bad arguments). */
export async function runMatchCli(argv: string[]): Promise<number> {
  let args: MatchArgs;
  try {
    args = parseMatchArgs(argv);
  } catch (e) {
    process.stderr.write(`kirin match: ${(e as Error).message}\n\n${MATCH_USAGE}`);
    return 2;
  }
  if (args.help) {
    process.stdout.write(MATCH_USAGE);
    return 0;
  }
  const print = (line: string): void => {
    process.stdout.write(line + '\n');
  };
  let openings: Opening[] = [];
  if (args.openingsFile) {
    const loaded = loadOpenings(args.openingsFile, args.rules);
    if (!loaded.ok) {
      process.stderr.write(`kirin match: ${loaded.error.message}\n`);
      return 2;
    }
    openings = loaded.value;
    if (openings.length === 0) {
      process.stderr.write(`kirin match: no openings in ${args.openingsFile}\n`);
      return 2;
    }
    if (args.order === 'random') openings = shuffled(openings, args.seed);
  }
  const games = args.games ?? 2 * Math.max(1, openings.length);

  let gameLog: ((line: string) => void) | null = null;
  if (args.logFile) {
    const file = args.logFile;
    try {
      writeFileSync(file, '');
    } catch (e) {
      process.stderr.write(`kirin match: cannot write ${file}: ${(e as Error).message}\n`);
      return 2;
    }
    gameLog = (line) => appendFileSync(file, line + '\n');
  }
  let engineLog: EngineLogger | null = null;
  if (args.debug) {
    const t0 = Date.now();
    const target = args.debug;
    if (typeof target === 'string') writeFileSync(target, '');
    engineLog = (engine, dir, line) => {
      const text = `${String(Date.now() - t0).padStart(7)} ${engine} ${dir} ${line}\n`;
      if (typeof target === 'string') appendFileSync(target, text);
      else process.stderr.write(text);
    };
  }

  let interrupted = false;
  const onSigint = (): void => {
    if (interrupted) process.exit(130);
    interrupted = true;
    print('Interrupted: finishing (press Ctrl-C again to quit at once)');
  };
  process.on('SIGINT', onSigint);
  try {
    const tcText = args.tc.map(formatTimeControl);
    print(
      `Match: ${games} games, tc ${tcText[0] === tcText[1] ? tcText[0] : `${tcText[0]} / ${tcText[1]}`}, concurrency ${args.concurrency}, ` +
        `${openings.length ? `${openings.length} openings from ${args.openingsFile}` : 'start position'}, ` +
        `rules ${args.rules.repetitionRule}/rule60=${args.rules.rule60MaxPly}/${args.repetitions}-fold`,
    );
    const out = await runMatch(
      {
        engines: [args.engines[0], args.engines[1]],
        tc: args.tc,
        games,
        concurrency: args.concurrency,
        openings,
        rules: args.rules,
        timeMarginMs: args.timeMarginMs,
        moveTimeoutMs: args.moveTimeoutMs,
        maxPlies: args.maxPlies,
        repetitions: args.repetitions,
        adjudication: args.adjudication,
        sprt: args.sprt,
        sprtModel: args.sprtModel,
        print,
        gameLog,
        engineLog,
        ratingInterval: args.ratingInterval,
        // Generous: a fresh engine on a loaded machine takes seconds to answer; one that never does still fails.
        startTimeoutMs: 60000,
      },
      () => interrupted,
    );
    if (out.error && out.stats.finished.length === 0) {
      process.stderr.write(`kirin match: ${out.error}\n`);
      return 1;
    }
    print('');
    print(`Results${out.stoppedEarly ? ` (stopped after ${out.stats.finished.length} of ${games} games)` : ''}:`);
    for (const l of summaryLines(out.names, out.stats, args.sprt, args.sprtModel)) print(l);
    const t = Object.entries(out.stats.terminations)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ');
    if (t) print(`Endings: ${t}`);
    if (out.error) {
      process.stderr.write(`kirin match: ${out.error}\n`);
      return 1;
    }
    return 0;
  } finally {
    process.off('SIGINT', onSigint);
  }
}
