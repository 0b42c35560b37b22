// The tools library: what every development tool under tools/ shares. A tool
// imports the product through src/dev.ts (or the public library, src/index.ts),
// this file for its plumbing, and never the test support (test/): tools build
// and run without the tests (tsconfig.tools.json references src only).
//
// API
//
//   repoRoot(): string
//     The repository root: the nearest folder above this module with a
//     package.json (from dist/tools/lib.js, the checkout).
//   repoPath(...parts): string
//     A path inside the repository: repoPath('data', 'openings', 'openings.txt').
//
//   isMain(importMetaUrl): boolean
//     Whether the module whose `import.meta.url` is given is the script Node was
//     started with (`node dist/tools/x.js`), symbolic links resolved; false when
//     it was imported. Every tool that is also imported uses this one check.
//   readTextFile(path): Result<string, 'file'>
//     A file's text, or why it cannot be read (the message names the path).
//   median(values): number
//     The median of a non-empty list of numbers (the mean of the middle two
//     for an even count): how the measuring tools summarise repeated runs.
//   exitWithError(name, message, code = 1): never
//     Prints `<name>: <message>` to stderr and ends the process: how a script that
//     runs at the top level reports an error Result.
//
//   runMain(importMetaUrl, main): void
//     If isMain(importMetaUrl): runs `main(process.argv.slice(2))` (a number or a
//     promise of one) and sets process.exitCode to what it returns; an exception
//     is printed as `<script>: <message>` and exits with code 1.
//
//   Command lines: every tool reads its command line with Node's util.parseArgs in
//   strict mode through these, so --help, unknown options, missing values and
//   stray arguments behave the same in all of them.
//     const SPEC = commandSpec({
//       name: 'soak',                                 // the tool's name in messages
//       usage: 'usage: node dist/tools/protocol/soak.js [--games N] [--json]',
//       options: { games: { type: 'string' }, json: { type: 'boolean' } },
//       positionals: { min: 0, max: 0 },              // optional; none allowed when absent
//     });
//     A spec may name `groups`: options whose value goes on over the following
//     words up to the next option (`--sprt elo0=0 elo1=10`; a boolean one takes
//     an optional word: `--debug [FILE]`); CommandLine.groups holds their words.
//     readCommandLine(argv, SPEC): Result<CommandLine, 'help' | 'arguments'>
//       Pure: `{ values, positionals, groups }` (values typed from the options), or the
//       error 'help' (--help or -h anywhere) or 'arguments' (an unknown option, an
//       option without its value, a value that looks like an option - a negative
//       number is a value: `--seed -5` reads as `--seed=-5`, and the tool's check
//       of the number refuses it in its own words -, a flag given a value, too
//       many or too few positionals), with the message.
//     reportCommandLine(spec, error, out?, err?): number
//       Prints the usage for 'help' to stdout (returns 0), or `<name>: <message>`
//       and the usage to stderr (returns 2): the exit code the tool ends with.
//     commandLineOrExit(argv, spec): CommandLine
//       readCommandLine, and for help or an error reportCommandLine and
//       process.exit with its code: for scripts that read their arguments at the
//       top level.
//     scriptCommandLine(argv, spec): ScriptCommandLine
//       commandLineOrExit plus readers that end the process (code 2, the message
//       and the usage) on a bad value: .string(name, def), .flag(name),
//       .integer(name, def, bounds?), .number(name, def, bounds?), and
//       .numberAt(index, what, def, bounds?) for a positional argument.
//   Values arrive as strings; a tool checks each with these, which name the option
//   in the error (code 'arguments'):
//     integerOption(values, name, default, { min?, max? }): Result<number, 'arguments'>
//     numberOption(values, name, default, { min?, max? }): Result<number, 'arguments'>
//     nameValueOptions(values, name): Result<Array<[name, value]>, 'arguments'>
//       a repeatable NAME=VALUE option (--option Hash=64), both sides trimmed;
//       nameValueOption(name, text) reads one.
//
// The product's Result (ok/err, src/core/result.ts, through src/dev.ts) is the
// tools' way to fail too: functions that can reject input return one with a code.

import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

import { err, ok, type Result } from '../src/dev.js';

/** The repository root: the nearest folder above this module with a package.json. */
export function repoRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json'))) {
    const up = dirname(dir);
    if (up === dir) throw new Error(`no package.json above ${fileURLToPath(import.meta.url)}`);
    dir = up;
  }
  return dir;
}

/** A path inside the repository. */
export function repoPath(...parts: string[]): string {
  return join(repoRoot(), ...parts);
}

/** A file's text, or why it cannot be read. */
export function readTextFile(path: string): Result<string, 'file'> {
  try {
    return ok(readFileSync(path, 'utf8'));
  } catch (e) {
    return err('file', `cannot read ${path}: ${(e as Error).message}`);
  }
}

/** The median of a non-empty list (the mean of the middle two for an even count). */
export function median(values: readonly number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/** Prints `<name>: <message>` to stderr and ends the process with `code`. */
export function exitWithError(name: string, message: string, code = 1): never {
  process.stderr.write(`${name}: ${message}\n`);
  process.exit(code);
}

function realPath(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return resolve(path);
  }
}

/** Whether the module with this `import.meta.url` is the script Node was started with. */
export function isMain(importMetaUrl: string): boolean {
  const script = process.argv[1];
  if (!script || !importMetaUrl.startsWith('file:')) return false;
  return realPath(fileURLToPath(importMetaUrl)) === realPath(script);
}

/** Runs `main` with the command line when the module is the script Node was started with. */
export function runMain(importMetaUrl: string, main: (argv: string[]) => number | Promise<number>): void {
  if (!isMain(importMetaUrl)) return;
  const name = basename(fileURLToPath(importMetaUrl)).replace(/\.js$/, '');
  const fail = (e: unknown): void => {
    process.stderr.write(`${name}: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    process.exitCode = 1;
  };
  try {
    Promise.resolve(main(process.argv.slice(2))).then((code) => {
      process.exitCode = code;
    }, fail);
  } catch (e) {
    fail(e);
  }
}

// ---- command lines -------------------------------------------------------------------

/** One option of a command line, as util.parseArgs takes it (strings are checked by the tool). */
export interface OptionSpec {
  readonly type: 'string' | 'boolean';
  readonly multiple?: boolean;
  readonly short?: string;
}

export type OptionsSpec = Readonly<Record<string, OptionSpec>>;

/** What a tool accepts on its command line. */
export interface CommandSpec<O extends OptionsSpec> {
  /** The tool's name in messages ("kirin match", "soak"). */
  readonly name: string;
  /** The usage text printed for --help and after an error. */
  readonly usage: string;
  /** The options (without --help / -h, which every tool has). */
  readonly options: O;
  /** How many arguments that are not options the tool takes (none when absent). */
  readonly positionals?: { readonly min?: number; readonly max?: number };
  /**
   * Options whose value goes on over the following words, up to the next option
   * (`--sprt elo0=0 elo1=10`, `--debug [FILE]` as a boolean): CommandLine.groups
   * holds each one's words (its last occurrence).
   */
  readonly groups?: readonly (keyof O & string)[];
}

/** The values of the options, typed from their spec: a string, a boolean, or an array of them when `multiple`. */
export type OptionValues<O extends OptionsSpec> = {
  -readonly [K in keyof O]?: O[K]['multiple'] extends true
    ? O[K]['type'] extends 'boolean'
      ? boolean[]
      : string[]
    : O[K]['type'] extends 'boolean'
      ? boolean
      : string;
};

/** A command line as read: its option values and positional arguments. */
export interface CommandLine<O extends OptionsSpec> {
  readonly values: OptionValues<O>;
  readonly positionals: readonly string[];
  /** The words of each group option given (CommandSpec.groups). */
  readonly groups: Readonly<Record<string, readonly string[]>>;
}

export type CommandLineCode = 'help' | 'arguments';

/** A command spec, its option names kept as literal types (a checked identity). */
export function commandSpec<const O extends OptionsSpec>(spec: CommandSpec<O>): CommandSpec<O> {
  return spec;
}

/** The short form of util.parseArgs' messages, which say how to work around them. */
function shortMessage(message: string): string {
  return message.replace(/\. To specify .*$/s, '').replace(/\. This command does not take positional arguments$/, '');
}

/** A word of the command line as util.parseArgs reads it (its `tokens`). */
type ArgToken =
  | { kind: 'option'; name: string; value?: string }
  | { kind: 'positional'; value: string }
  | { kind: 'option-terminator' };

/**
 * The words with each negative number that follows an option taking a value
 * joined to it (`--positions -5` -> `--positions=-5`): util.parseArgs calls such
 * a value ambiguous, and the tool's own check of the number says what is wrong.
 */
function joinNegativeValues(argv: readonly string[], options: OptionsSpec): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--') {
      out.push(...argv.slice(i));
      break;
    }
    const long = /^--([^=]+)$/.exec(a)?.[1];
    const short = /^-([^-])$/.exec(a)?.[1];
    const name = long ?? Object.keys(options).find((k) => short !== undefined && options[k].short === short);
    const next = argv[i + 1];
    if (name !== undefined && options[name]?.type === 'string' && next !== undefined && /^-\.?\d/.test(next)) {
      out.push(`--${name}=${next}`);
      i++;
    } else out.push(a);
  }
  return out;
}

/** Reads a command line (util.parseArgs, strict): its values, or 'help' or 'arguments' with the message. */
export function readCommandLine<O extends OptionsSpec>(
  argv: readonly string[],
  spec: CommandSpec<O>,
): Result<CommandLine<O>, CommandLineCode> {
  const end = argv.indexOf('--');
  const before = end < 0 ? argv : argv.slice(0, end);
  if (before.includes('--help') || before.includes('-h')) return err('help', spec.usage);
  const groupNames = new Set<string>(spec.groups ?? []);
  let parsed: { values: Record<string, unknown>; tokens: ArgToken[] };
  try {
    parsed = parseArgs({
      args: joinNegativeValues(argv, spec.options),
      options: spec.options as Record<string, OptionSpec>,
      strict: true,
      allowPositionals: spec.positionals !== undefined || groupNames.size > 0,
      tokens: true,
    }) as unknown as { values: Record<string, unknown>; tokens: ArgToken[] };
  } catch (e) {
    return err('arguments', shortMessage((e as Error).message));
  }
  // The words after a group option, up to the next option, belong to it.
  const groups: Record<string, string[]> = {};
  const positionals: string[] = [];
  let open: string | null = null;
  for (const t of parsed.tokens) {
    if (t.kind === 'option') {
      open = groupNames.has(t.name) ? t.name : null;
      if (open !== null) groups[open] = t.value === undefined ? [] : [t.value];
    } else if (t.kind === 'option-terminator') open = null;
    else if (open !== null) groups[open].push(t.value);
    else positionals.push(t.value);
  }
  if (spec.positionals === undefined && positionals.length > 0)
    return err('arguments', `unexpected argument '${positionals[0]}'`);
  const n = positionals.length;
  const min = spec.positionals?.min ?? 0;
  const max = spec.positionals?.max ?? Infinity;
  if (n < min) return err('arguments', `${min - n} argument${min - n === 1 ? '' : 's'} missing`);
  if (n > max) return err('arguments', `unexpected argument '${positionals[max]}'`);
  return ok({ values: parsed.values as OptionValues<O>, positionals, groups });
}

interface Out {
  write(text: string): unknown;
}

/** Prints what a failed read means (usage for help; the message and the usage otherwise); the exit code. */
export function reportCommandLine(
  spec: { readonly name: string; readonly usage: string },
  error: { readonly code: CommandLineCode; readonly message: string },
  out: Out = process.stdout,
  errOut: Out = process.stderr,
): number {
  const usage = spec.usage.endsWith('\n') ? spec.usage : spec.usage + '\n';
  if (error.code === 'help') {
    out.write(usage);
    return 0;
  }
  errOut.write(`${spec.name}: ${error.message}\n${usage}`);
  return 2;
}

/** readCommandLine for a script: help and errors end the process (code 0 and 2). */
export function commandLineOrExit<O extends OptionsSpec>(
  argv: readonly string[],
  spec: CommandSpec<O>,
): CommandLine<O> {
  const r = readCommandLine(argv, spec);
  if (r.ok) return r.value;
  process.exit(reportCommandLine(spec, r.error));
}

/** Bounds of a numeric option (inclusive). */
export interface Bounds {
  readonly min?: number;
  readonly max?: number;
}

function checkBounds(name: string, text: string, n: number, b: Bounds): Result<number, 'arguments'> {
  if (b.min !== undefined && n < b.min) return err('arguments', `--${name} ${text}: below ${b.min}`);
  if (b.max !== undefined && n > b.max) return err('arguments', `--${name} ${text}: above ${b.max}`);
  return ok(n);
}

function optionText(values: Readonly<Record<string, unknown>>, name: string): string | undefined {
  const v = values[name];
  if (Array.isArray(v)) return v.length > 0 ? String(v[v.length - 1]) : undefined;
  return typeof v === 'string' ? v : undefined;
}

/** A decimal integer option (`def` when absent), within the bounds. */
export function integerOption(
  values: Readonly<Record<string, unknown>>,
  name: string,
  def: number,
  bounds: Bounds = {},
): Result<number, 'arguments'> {
  const text = optionText(values, name);
  if (text === undefined) return ok(def);
  if (!/^[+-]?\d+$/.test(text.trim()) || !Number.isSafeInteger(Number(text)))
    return err('arguments', `--${name} ${text}: not an integer`);
  return checkBounds(name, text, Number(text), bounds);
}

/** A finite decimal number option (`def` when absent), within the bounds. */
export function numberOption(
  values: Readonly<Record<string, unknown>>,
  name: string,
  def: number,
  bounds: Bounds = {},
): Result<number, 'arguments'> {
  const text = optionText(values, name);
  if (text === undefined) return ok(def);
  const n = text.trim() === '' ? NaN : Number(text);
  if (!Number.isFinite(n)) return err('arguments', `--${name} ${text}: not a number`);
  return checkBounds(name, text, n, bounds);
}

/** One NAME=VALUE text of option `--name` (e.g. an engine option, `--option Hash=64`), both sides trimmed. */
export function nameValueOption(name: string, text: string): Result<[string, string], 'arguments'> {
  const eq = text.indexOf('=');
  if (eq < 0 || text.slice(0, eq).trim() === '') return err('arguments', `--${name} needs NAME=VALUE, got '${text}'`);
  return ok([text.slice(0, eq).trim(), text.slice(eq + 1).trim()]);
}

/** Every NAME=VALUE of a repeatable option (nameValueOption), in order; none when absent. */
export function nameValueOptions(
  values: Readonly<Record<string, unknown>>,
  name: string,
): Result<Array<[string, string]>, 'arguments'> {
  const v = values[name];
  const texts = Array.isArray(v) ? v.map(String) : typeof v === 'string' ? [v] : [];
  const pairs: Array<[string, string]> = [];
  for (const text of texts) {
    const r = nameValueOption(name, text);
    if (!r.ok) return r;
    pairs.push(r.value);
  }
  return ok(pairs);
}

/** A script's command line with readers that end the process on a bad value (scriptCommandLine). */
export interface ScriptCommandLine<O extends OptionsSpec> extends CommandLine<O> {
  /** A string option's value, or `def`. */
  string(name: keyof O & string, def: string): string;
  /** Whether a boolean option was given. */
  flag(name: keyof O & string): boolean;
  /** An integer option (integerOption), or `def`; a bad value ends the process with code 2. */
  integer(name: keyof O & string, def: number, bounds?: Bounds): number;
  /** A number option (numberOption), or `def`; a bad value ends the process with code 2. */
  number(name: keyof O & string, def: number, bounds?: Bounds): number;
  /** A repeatable NAME=VALUE option's pairs (nameValueOptions); a bad one ends the process with code 2. */
  nameValues(name: keyof O & string): Array<[string, string]>;
  /** The positional argument at `index` as a number (`what` names it in the error), or `def` when absent. */
  numberAt(index: number, what: string, def: number, bounds?: Bounds): number;
}

/** commandLineOrExit, with readers for the values that end the process on a bad one. */
export function scriptCommandLine<O extends OptionsSpec>(
  argv: readonly string[],
  spec: CommandSpec<O>,
): ScriptCommandLine<O> {
  const cl = commandLineOrExit(argv, spec);
  const values = cl.values as Readonly<Record<string, unknown>>;
  const orExit = <T>(r: Result<T, 'arguments'>): T => {
    if (r.ok) return r.value;
    process.exit(reportCommandLine(spec, r.error));
  };
  return {
    ...cl,
    string: (name, def) => {
      const v = values[name];
      return typeof v === 'string' ? v : def;
    },
    flag: (name) => values[name] === true,
    integer: (name, def, bounds = {}) => orExit(integerOption(values, name, def, bounds)),
    number: (name, def, bounds = {}) => orExit(numberOption(values, name, def, bounds)),
    nameValues: (name) => orExit(nameValueOptions(values, name)),
    numberAt: (index, what, def, bounds = {}) => {
      const r = numberOption({ [what]: cl.positionals[index] }, what, def, bounds);
      return orExit(r.ok ? r : err('arguments', r.error.message.replace(`--${what} `, `${what} `)));
    },
  };
}
