// `kirin match`'s command line: its usage text, its options and what they
// mean as a match (MatchArgs). `kirin cluster sprt` and `kirin match gauntlet`
// read the same options.

import { DEFAULT_RULES, err, ok, ruleConfigFrom, type Result, type RuleConfig } from '../../src/dev.js';
import {
  commandSpec,
  integerOption,
  nameValueOption,
  nameValueOptions,
  readCommandLine,
  type CommandLine,
  type CommandLineCode,
  type OptionsSpec,
} from '../../toolkit/command-line.js';
import type { EngineSpec } from './uci-engine.js';
import { NO_ADJUDICATION, parseTimeControl, type Adjudication, type TimeControl } from './game.js';
import { checkMatchText, sprtOptions, type SprtModel } from './match.js';
import type { SprtParams } from './sprt.js';

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
  --mate-threat-depth D      ChineseRule: mate threats (杀) within D moves are
                             judged (default 4, the rule book's referee; 0 = off)
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
  --log FILE                 one line per game: game | players | result | reason | opening | moves |
                             thinking (each move's ms/depth/clock left) | end <termination>
  --debug [FILE]             engine traffic to stderr (or FILE)
  --rating-interval N        print Elo every N games (default 10, 0 = end only)

Reports:
  kirin match report LOG [LOG ...]   the results of matches from their --log files,
                             each and all together (kirin match report --help)
Gauntlets:
  kirin match gauntlet ...   one or two candidates against a list of opponents,
                             the same openings for each (kirin match gauntlet --help)

Example:
  kirin match --engine "node bin/kirin.js" --engine "node dist/commands/match/fairy-stockfish-uci.js" \\
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
}

/** kirin match's options (kirin cluster sprt takes them too). */
export const MATCH_OPTIONS = {
  engine: { type: 'string', multiple: true },
  name: { type: 'string', multiple: true },
  option: { type: 'string', multiple: true },
  'engine-option': { type: 'string', multiple: true },
  tc: { type: 'string' },
  'engine-tc': { type: 'string', multiple: true },
  nodes: { type: 'string' },
  depth: { type: 'string' },
  movetime: { type: 'string' },
  games: { type: 'string' },
  concurrency: { type: 'string' },
  openings: { type: 'string' },
  'openings-order': { type: 'string' },
  seed: { type: 'string' },
  'repetition-rule': { type: 'string' },
  'mate-threat-depth': { type: 'string' },
  rule60: { type: 'string' },
  'draw-rule': { type: 'string' },
  repetitions: { type: 'string' },
  'max-plies': { type: 'string' },
  'time-margin': { type: 'string' },
  'move-timeout': { type: 'string' },
  resign: { type: 'string' },
  draw: { type: 'string' },
  sprt: { type: 'string' },
  'sprt-model': { type: 'string' },
  log: { type: 'string' },
  debug: { type: 'boolean' },
  'rating-interval': { type: 'string' },
} as const satisfies OptionsSpec;

/** The options of kirin match whose value goes on over the following words. */
export const MATCH_GROUPS = ['resign', 'draw', 'sprt', 'debug'] as const;

export const MATCH_SPEC = commandSpec({
  name: 'kirin match',
  usage: MATCH_USAGE,
  options: MATCH_OPTIONS,
  groups: [...MATCH_GROUPS],
});

type ArgResult<T> = Result<T, 'arguments'>;

function parseKeyValues(name: string, tokens: readonly string[], keys: string[]): ArgResult<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const t of tokens) {
    const m = /^([a-z0-9]+)=(-?\d+(?:\.\d+)?)$/i.exec(t);
    if (!m || !keys.includes(m[1].toLowerCase()))
      return err('arguments', `--${name}: bad parameter "${t}" (expected ${keys.map((k) => k + '=').join(', ')})`);
    out[m[1].toLowerCase()] = Number(m[2]);
  }
  return ok(out);
}

function engineIndex(name: string, v: string): ArgResult<[number, string]> {
  const m = /^([12]):(.*)$/s.exec(v);
  if (!m) return err('arguments', `--${name} needs N:VALUE with N = 1 or 2`);
  return ok([Number(m[1]) - 1, m[2]]);
}

/** Parses the arguments of `kirin match`: the match, or 'help', or what is wrong with them ('arguments'). */
export function parseMatchArgs(argv: readonly string[]): Result<MatchArgs, CommandLineCode> {
  const cl = readCommandLine(argv, MATCH_SPEC);
  return cl.ok ? matchArgsFrom(cl.value) : cl;
}

/** The match of a command line read with kirin match's options (MATCH_OPTIONS), or what is wrong with it. */
export function matchArgsFrom(cl: CommandLine<typeof MATCH_OPTIONS>): Result<MatchArgs, 'arguments'> {
  const v = cl.values;
  const g = cl.groups;
  const int = (name: keyof typeof v & string, def: number, min: number): ArgResult<number> =>
    integerOption(v, name, def, { min });
  const names: (string | undefined)[] = [undefined, undefined];
  for (const text of v.name ?? []) {
    const r = engineIndex('name', text);
    if (!r.ok) return r;
    names[r.value[0]] = r.value[1];
  }
  const common = nameValueOptions(v, 'option');
  if (!common.ok) return common;
  const perEngine: Array<Array<[string, string]>> = [[], []];
  for (const text of v['engine-option'] ?? []) {
    const r = engineIndex('engine-option', text);
    if (!r.ok) return r;
    const kv = nameValueOption('engine-option', r.value[1]);
    if (!kv.ok) return kv;
    perEngine[r.value[0]].push(kv.value);
  }
  const perTc: (string | null)[] = [null, null];
  for (const text of v['engine-tc'] ?? []) {
    const r = engineIndex('engine-tc', text);
    if (!r.ok) return r;
    perTc[r.value[0]] = r.value[1];
  }
  const extra: string[] = [];
  for (const limit of ['nodes', 'depth', 'movetime'] as const) {
    if (v[limit] === undefined) continue;
    const n = int(limit, 0, 1);
    if (!n.ok) return n;
    extra.push(`${limit}=${n.value}`);
  }
  const numbers = {
    games: int('games', 0, 1),
    concurrency: int('concurrency', 1, 1),
    seed: int('seed', 1, 0),
    rule60: int('rule60', DEFAULT_RULES.rule60MaxPly, 0),
    mateThreatDepth: integerOption(v, 'mate-threat-depth', 4, { min: 0, max: 10 }),
    maxPlies: int('max-plies', 600, 0),
    repetitions: int('repetitions', 3, 2),
    timeMarginMs: int('time-margin', 100, 0),
    moveTimeoutMs: int('move-timeout', 60000, 1),
    ratingInterval: int('rating-interval', 10, 0),
  };
  for (const r of Object.values(numbers)) if (!r.ok) return r;
  const num = (k: keyof typeof numbers): number => (numbers[k] as { value: number }).value;
  const order = v['openings-order'] ?? 'sequential';
  if (order !== 'sequential' && order !== 'random') return err('arguments', '--openings-order is sequential or random');
  const sprtOpts = sprtOptions(g.sprt, v['sprt-model']);
  if (!sprtOpts.ok) return sprtOpts;
  const adjudication: Adjudication = { ...NO_ADJUDICATION };
  if (g.resign) {
    const kv = parseKeyValues('resign', g.resign, ['movecount', 'score']);
    if (!kv.ok) return kv;
    if (!(kv.value.movecount > 0 && kv.value.score > 0))
      return err('arguments', '--resign needs movecount=N score=CP (both > 0)');
    adjudication.resignMoves = kv.value.movecount;
    adjudication.resignScore = kv.value.score;
  }
  if (g.draw) {
    const kv = parseKeyValues('draw', g.draw, ['movenumber', 'movecount', 'score']);
    if (!kv.ok) return kv;
    if (!(kv.value.movecount > 0 && kv.value.score >= 0))
      return err('arguments', '--draw needs movecount=N (> 0) and score=CP');
    adjudication.drawMoveNumber = kv.value.movenumber ?? 0;
    adjudication.drawMoves = kv.value.movecount;
    adjudication.drawScore = kv.value.score;
  }
  if (g.debug && g.debug.length > 1) return err('arguments', `unexpected argument '${g.debug[1]}'`);
  const debug: string | boolean = g.debug ? (g.debug[0] ?? true) : false;
  const commands = v.engine ?? [];
  if (commands.length !== 2) return err('arguments', `give exactly two --engine commands (got ${commands.length})`);
  const engines: EngineSpec[] = commands.map((command, n) => ({
    command,
    name: names[n],
    options: [
      ...common.value.filter(([k]) => !perEngine[n].some(([k2]) => k2.toLowerCase() === k.toLowerCase())),
      ...perEngine[n],
    ],
  }));
  // A line break in an option would send a command of its own to the engine: refused here, before anything runs.
  const text = checkMatchText(engines, []);
  if (!text.ok) return err('arguments', text.error.message);
  const withExtra = (t: string | null | undefined): string => [t, ...extra].filter((x) => x).join(',');
  const tcTexts = [withExtra(perTc[0] ?? v.tc), withExtra(perTc[1] ?? v.tc)];
  if (!tcTexts[0] || !tcTexts[1])
    return err('arguments', 'give a time control (--tc 10+0.1, --nodes N, --depth D or --movetime MS)');
  const tcs: TimeControl[] = [];
  for (const text of tcTexts) {
    const tc = parseTimeControl(text);
    if (!tc.ok) return err('arguments', tc.error.message);
    tcs.push(tc.value);
  }
  const repetitionRule = v['repetition-rule'] ?? DEFAULT_RULES.repetitionRule;
  const drawRule = v['draw-rule'] ?? DEFAULT_RULES.drawRule;
  const rules = ruleConfigFrom({
    repetitionRule,
    drawRule,
    rule60MaxPly: num('rule60'),
    mateThreatDepth: num('mateThreatDepth'),
  });
  if (rules.repetitionRule.toLowerCase() !== repetitionRule.toLowerCase())
    return err('arguments', `unknown repetition rule "${repetitionRule}"`);
  if (rules.drawRule.toLowerCase() !== drawRule.toLowerCase())
    return err('arguments', `unknown draw rule "${drawRule}"`);
  return ok({
    engines,
    tc: [tcs[0], tcs[1]],
    games: v.games === undefined ? null : num('games'),
    concurrency: num('concurrency'),
    openingsFile: v.openings ?? null,
    order,
    seed: num('seed'),
    rules,
    maxPlies: num('maxPlies'),
    repetitions: num('repetitions'),
    timeMarginMs: num('timeMarginMs'),
    moveTimeoutMs: num('moveTimeoutMs'),
    adjudication,
    sprt: sprtOpts.value.sprt,
    sprtModel: sprtOpts.value.model,
    logFile: v.log ?? null,
    debug,
    ratingInterval: num('ratingInterval'),
  });
}
