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
//   Command lines: every tool (and the product's commands, `kirin review` and
//   `kirin convert`) reads its command line with Node's util.parseArgs in strict
//   mode through these, so --help, unknown options, missing values and stray
//   arguments behave the same in all of them. The reader itself lives in the
//   product (src/cli/command-line.ts, through src/dev.ts); this file re-exports it.
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

import {
  err,
  integerOption,
  numberOption,
  ok,
  readCommandLine,
  reportCommandLine,
  type Bounds,
  type CommandLine,
  type CommandSpec,
  type OptionsSpec,
  type Result,
} from '../src/dev.js';

// The command-line reader lives in the product (src/cli/command-line.ts: `kirin review` uses it too).
export { commandSpec, integerOption, numberOption, readCommandLine, reportCommandLine } from '../src/dev.js';
export type {
  Bounds,
  CommandLine,
  CommandLineCode,
  CommandSpec,
  OptionSpec,
  OptionValues,
  OptionsSpec,
} from '../src/dev.js';

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

/** readCommandLine for a script: help and errors end the process (code 0 and 2). */
export function commandLineOrExit<O extends OptionsSpec>(
  argv: readonly string[],
  spec: CommandSpec<O>,
): CommandLine<O> {
  const r = readCommandLine(argv, spec);
  if (r.ok) return r.value;
  process.exit(reportCommandLine(spec, r.error));
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
