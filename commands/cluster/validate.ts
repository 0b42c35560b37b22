// The run specs a worker accepts: read from Redis, where anyone who can write
// to Redis can put anything, so a worker takes nothing on trust. Every spec is
// checked against its kind's shape (no unknown or missing field, each number an
// integer or a finite number in its range, each list bounded), every string in
// it is text fit for an engine command (no control character: the product's
// guard, checkCommandText), the openings and analysis lines are played on the
// rules core, and the worker's policy (policy.ts) is applied: the engines it
// runs, the options a job may set, the hash and threads it allows. The result
// is a fresh copy built from the known fields only; the error names the field
// by its path in the spec (`engines[0].options[1][1]`).
//
// The coordinator checks the specs it makes with the same function (no
// policy), and against the policies the live workers publish (sprt.ts).

import { DRAW_RULES, REPETITION_RULES, err, ok, type Result, type RuleConfig } from '../../src/dev.js';
import { checkCommandText } from '../../src/core/command-text.js';
import { openingPosition, type Opening } from '../match/openings.js';
import type { Adjudication, TimeControl } from '../match/game.js';
import type { EngineSpec } from '../match/uci-engine.js';
import type { SprtParams } from '../match/sprt.js';
import type { AnalyseSpec, AnalysisLine, AnalysisPosition, DatagenSpec, SprtSpec } from './specs.js';
import { engineAllowed, optionAllowed, optionWithinLimits, type WorkerPolicy } from './policy.js';

type Checked<T> = Result<T, 'spec'>;
type Check<T> = (v: unknown, path: string) => Checked<T>;

const fail = (path: string, what: string): Checked<never> => err('spec', `${path || 'spec'}: ${what}`);

const describe = (v: unknown): string =>
  v === null ? 'null' : Array.isArray(v) ? 'a list' : typeof v === 'string' ? 'text' : typeof v;

/** Text of at most `max` characters (at least `min`), without control characters. */
const text =
  (max: number, min = 0): Check<string> =>
  (v, path) => {
    if (typeof v !== 'string') return fail(path, `expected text, got ${describe(v)}`);
    if (v.length < min) return fail(path, min === 1 ? 'empty' : `shorter than ${min} characters`);
    if (v.length > max) return fail(path, `longer than ${max} characters`);
    const t = checkCommandText(path, v);
    return t.ok ? t : err('spec', t.error.message);
  };

const int =
  (min: number, max: number): Check<number> =>
  (v, path) => {
    if (typeof v !== 'number' || !Number.isSafeInteger(v)) return fail(path, `expected an integer, got ${describe(v)}`);
    if (v < min || v > max) return fail(path, `${v} is outside ${min}..${max}`);
    return ok(v);
  };

const num =
  (min: number, max: number): Check<number> =>
  (v, path) => {
    if (typeof v !== 'number' || !Number.isFinite(v)) return fail(path, `expected a number, got ${describe(v)}`);
    if (v < min || v > max) return fail(path, `${v} is outside ${min}..${max}`);
    return ok(v);
  };

const oneOf =
  <T extends string>(values: readonly T[]): Check<T> =>
  (v, path) =>
    typeof v === 'string' && (values as readonly string[]).includes(v)
      ? ok(v as T)
      : fail(path, `expected one of ${values.join(', ')}`);

const nullable =
  <T>(check: Check<T>): Check<T | null> =>
  (v, path) =>
    v === null ? ok(null) : check(v, path);

const list =
  <T>(item: Check<T>, max: number): Check<T[]> =>
  (v, path) => {
    if (!Array.isArray(v)) return fail(path, `expected a list, got ${describe(v)}`);
    if (v.length > max) return fail(path, `more than ${max} entries`);
    const out: T[] = [];
    for (let i = 0; i < v.length; i++) {
      const r = item(v[i], `${path}[${i}]`);
      if (!r.ok) return r;
      out.push(r.value);
    }
    return ok(out);
  };

const pair =
  <A, B>(a: Check<A>, b: Check<B>): Check<[A, B]> =>
  (v, path) => {
    if (!Array.isArray(v) || v.length !== 2) return fail(path, 'expected a pair');
    const x = a(v[0], `${path}[0]`);
    if (!x.ok) return x;
    const y = b(v[1], `${path}[1]`);
    return y.ok ? ok([x.value, y.value]) : y;
  };

type Shape<T> = { [K in keyof T]-?: Check<T[K]> };

/** An object with exactly these fields (those in `optional` may be absent); unknown fields are refused. */
function object<T>(shape: Shape<T>, optional: readonly (keyof T & string)[] = []): Check<T> {
  return (v, path) => {
    if (typeof v !== 'object' || v === null || Array.isArray(v))
      return fail(path, `expected an object, got ${describe(v)}`);
    const rec = v as Record<string, unknown>;
    for (const k of Object.keys(rec)) {
      if (!Object.hasOwn(shape, k)) return fail(path, `unknown field ${JSON.stringify(k.slice(0, 40))}`);
    }
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(shape) as (keyof T & string)[]) {
      const at = path ? `${path}.${k}` : k;
      if (!Object.hasOwn(rec, k) || rec[k] === undefined) {
        if (optional.includes(k)) continue;
        return fail(at, 'missing');
      }
      const r = (shape[k] as Check<unknown>)(rec[k], at);
      if (!r.ok) return r;
      out[k] = r.value;
    }
    return ok(out as T);
  };
}

// ---- the pieces of the specs -----------------------------------------------------------

/** A month in milliseconds: the longest clock or wait a spec may name. */
const MONTH_MS = 31 * 86_400_000;
const MAX_OPENINGS = 1_000_000;
const MAX_MOVES = 2_000;

const moveText = text(5, 4);

const opening: Check<Opening> = (v, path) => {
  const r = object<Opening>({
    fen: nullable(text(200, 1)),
    moves: list(moveText, MAX_MOVES),
    name: text(1000),
    line: int(0, Number.MAX_SAFE_INTEGER),
  })(v, path);
  if (!r.ok) return r;
  const played = openingPosition(r.value);
  return played.ok ? ok(r.value) : fail(path, played.error.message);
};

const timeControl = object<TimeControl>({
  baseMs: int(0, MONTH_MS),
  incMs: int(0, MONTH_MS),
  movesPerPeriod: int(0, 10_000),
  movetimeMs: int(0, MONTH_MS),
  nodes: int(0, 1e12),
  depth: int(0, 245),
});

const rules = object<RuleConfig>({
  repetitionRule: oneOf(REPETITION_RULES),
  drawRule: oneOf(DRAW_RULES),
  rule60MaxPly: int(0, 10_000),
  mateThreatDepth: int(0, 10),
});

const adjudication = object<Adjudication>({
  resignMoves: int(0, 10_000),
  resignScore: int(0, 1_000_000),
  drawMoveNumber: int(0, 10_000),
  drawMoves: int(0, 10_000),
  drawScore: int(0, 1_000_000),
});

const sprtParams = object<SprtParams>({
  elo0: num(-10_000, 10_000),
  elo1: num(-10_000, 10_000),
  alpha: num(Number.MIN_VALUE, 0.5),
  beta: num(Number.MIN_VALUE, 0.5),
});

const engineOption = pair(text(200, 1), text(4096));

const engineSpec = object<EngineSpec>(
  {
    command: text(4096, 1),
    name: text(200),
    options: list(engineOption, 256),
    // The folder an engine starts in is the worker's: a spec may not name one.
    cwd: (_v, path) => fail(path, "not allowed in a cluster spec (engines start in the worker's folder)"),
  },
  ['name', 'cwd'],
);

const sprtShape = object<SprtSpec>({
  engines: pair(engineSpec, engineSpec),
  names: pair(text(200), text(200)),
  tc: pair(timeControl, timeControl),
  games: int(1, 10_000_000),
  pairs: int(1, 100_000),
  openings: list(opening, MAX_OPENINGS),
  openingsLabel: text(4096),
  rules,
  maxPlies: int(0, 100_000),
  repetitions: int(2, 100),
  timeMarginMs: int(0, MONTH_MS),
  moveTimeoutMs: int(1, MONTH_MS),
  adjudication,
  sprt: nullable(sprtParams),
  sprtModel: oneOf(['pentanomial', 'trinomial'] as const),
  ratingInterval: int(0, 10_000_000),
  logFile: nullable(text(4096)),
});

const datagenShape = object<DatagenSpec>({
  out: text(4096, 1),
  positions: int(1, 16_000_000),
  shard: int(1, 1_000_000),
  firstShard: int(0, 1e9),
  seed: int(0, 2 ** 32 - 1),
  nodes: int(0, 1e9),
  depth: int(0, 245),
  randomPlies: int(0, 1000),
  maxPly: int(10, 100_000),
  hash: int(1, 1 << 20),
  openings: list(opening, MAX_OPENINGS),
  openingsPath: text(4096),
});

const analyseShape = object<AnalyseSpec>({
  lines: list(object<AnalysisLine>({ fen: nullable(text(200, 1)), moves: list(moveText, MAX_MOVES) }), MAX_OPENINGS),
  positions: list(
    object<AnalysisPosition>({
      line: int(0, MAX_OPENINGS),
      ply: int(0, MAX_MOVES),
      at: text(200, 1),
      game: nullable(int(0, MAX_OPENINGS)),
      played: nullable(moveText),
    }),
    MAX_OPENINGS,
  ),
  depth: int(0, 245),
  nodes: int(0, 1e12),
  hash: int(1, 1 << 20),
  options: list(engineOption, 256),
});

// ---- the specs ---------------------------------------------------------------------

function checkOptions(
  options: ReadonlyArray<readonly [string, string]>,
  path: string,
  policy: WorkerPolicy,
): Checked<null> {
  for (const [i, [name, value]] of options.entries()) {
    if (!optionAllowed(name, policy))
      return fail(
        `${path}[${i}]`,
        `option ${JSON.stringify(name)} is not allowed on this worker (its --allow-option list)`,
      );
    const limit = optionWithinLimits(name, value, policy);
    if (!limit.ok) return fail(`${path}[${i}]`, limit.error.message);
  }
  return ok(null);
}

function checkSprt(spec: SprtSpec, policy: WorkerPolicy | null): Checked<SprtSpec> {
  if (spec.pairs > spec.games) return fail('pairs', `${spec.pairs} pairs per job in a match of ${spec.games} games`);
  if (policy) {
    for (const [i, e] of spec.engines.entries()) {
      if (!engineAllowed(e.command, policy))
        return fail(
          `engines[${i}].command`,
          `this worker does not run engine ${JSON.stringify(e.command)} (not in its --allow-engine list)`,
        );
      const o = checkOptions(e.options, `engines[${i}].options`, policy);
      if (!o.ok) return o;
    }
  } else {
    for (const [i, e] of spec.engines.entries()) {
      for (const [j, [name]] of e.options.entries())
        if (name.trim().toLowerCase() === 'debug log file')
          return fail(
            `engines[${i}].options[${j}]`,
            'option "Debug Log File" is not allowed on the cluster (it writes files on the workers)',
          );
    }
  }
  return ok(spec);
}

function checkDatagen(spec: DatagenSpec, policy: WorkerPolicy | null): Checked<DatagenSpec> {
  if (policy && spec.hash > policy.maxHash)
    return fail('hash', `${spec.hash} MB: this worker allows at most ${policy.maxHash} (--max-hash)`);
  return ok(spec);
}

function checkAnalyse(spec: AnalyseSpec, policy: WorkerPolicy | null): Checked<AnalyseSpec> {
  if (spec.depth <= 0 && spec.nodes <= 0) return fail('depth', 'no limit: give depth or nodes');
  for (const [i, p] of spec.positions.entries()) {
    const line = spec.lines[p.line];
    if (!line) return fail(`positions[${i}].line`, `no line ${p.line}`);
    if (p.ply > line.moves.length)
      return fail(`positions[${i}].ply`, `beyond the ${line.moves.length} moves of its line`);
  }
  for (const [i, l] of spec.lines.entries()) {
    const played = openingPosition({ fen: l.fen, moves: l.moves, name: `line ${i}`, line: 0 });
    if (!played.ok) return fail(`lines[${i}]`, played.error.message);
  }
  for (const [i, [name]] of spec.options.entries()) {
    const n = name.trim().toLowerCase();
    if (n === 'threads' || n === 'debug log file')
      return fail(
        `options[${i}]`,
        `option ${JSON.stringify(name)} is not allowed: analysis searches run on one thread and write no files`,
      );
  }
  if (policy) {
    if (spec.hash > policy.maxHash)
      return fail('hash', `${spec.hash} MB: this worker allows at most ${policy.maxHash} (--max-hash)`);
    const o = checkOptions(spec.options, 'options', policy);
    if (!o.ok) return o;
  }
  return ok(spec);
}

/** What a validated run holds. */
export type ValidRun =
  | { kind: 'sprt'; spec: SprtSpec }
  | { kind: 'datagen'; spec: DatagenSpec }
  | { kind: 'analyse'; spec: AnalyseSpec }
  | { kind: 'ping'; spec: Record<string, never> };

/**
 * A run's spec as a worker may run it: `kind` and `spec` as read from Redis
 * (any JSON value), checked against the kind's shape and, when given, a worker's
 * policy. The error names the field.
 */
export function validateRun(kind: unknown, spec: unknown, policy: WorkerPolicy | null): Checked<ValidRun> {
  switch (kind) {
    case 'sprt': {
      const r = sprtShape(spec, '');
      return r.ok ? mapKind('sprt', checkSprt(r.value, policy)) : r;
    }
    case 'datagen': {
      const r = datagenShape(spec, '');
      return r.ok ? mapKind('datagen', checkDatagen(r.value, policy)) : r;
    }
    case 'analyse': {
      const r = analyseShape(spec, '');
      return r.ok ? mapKind('analyse', checkAnalyse(r.value, policy)) : r;
    }
    case 'ping': {
      const r = object<Record<string, never>>({})(spec, '');
      return r.ok ? ok({ kind: 'ping', spec: r.value }) : r;
    }
    default:
      return err('spec', `unknown run kind ${JSON.stringify(String(kind).slice(0, 40))}`);
  }
}

function mapKind<K extends ValidRun['kind']>(
  kind: K,
  r: Checked<Extract<ValidRun, { kind: K }>['spec']>,
): Checked<ValidRun> {
  return r.ok ? ok({ kind, spec: r.value } as ValidRun) : r;
}
