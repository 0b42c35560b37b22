// Command lines: every command of the product (`kirin review`, `kirin convert`)
// and every development tool (through toolkit/command-line.ts) reads its command
// line with Node's util.parseArgs in strict mode through these, so --help,
// unknown options, missing values and stray arguments behave the same in all of
// them. The API is described at the top of toolkit/command-line.ts. Node only
// (main.ts and the tools; not the library).

import { parseArgs } from 'node:util';

import { err, ok, type Result } from '../core/result.js';

/** One option of a command line, as util.parseArgs takes it (strings are checked by the tool). */
interface OptionSpec {
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
type OptionValues<O extends OptionsSpec> = {
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

/** Where a command writes: the process's streams, or a test's own. */
export interface CommandIo {
  readonly stdout: { write(text: string): unknown };
  readonly stderr: { write(text: string): unknown; readonly isTTY?: boolean };
}

/** The process's standard output and error. */
export const PROCESS_IO: CommandIo = { stdout: process.stdout, stderr: process.stderr };
