// The tools' command lines. Every tool (and the product's commands, `kirin
// review` and `kirin convert`) reads its command line with Node's
// util.parseArgs in strict mode through these, so --help, unknown options,
// missing values and stray arguments behave the same in all of them. The reader
// itself lives in the product (src/cli/command-line.ts); this file re-exports it
// and adds the readers of a script, which end the process on a bad value.
//
//   const SPEC = commandSpec({
//     name: 'soak',                                 // the tool's name in messages
//     usage: 'usage: node dist/lab/protocol/soak.js [--games N] [--json]',
//     options: { games: { type: 'string' }, json: { type: 'boolean' } },
//     positionals: { min: 0, max: 0 },              // optional; none allowed when absent
//   });
//   A spec may name `groups`: options whose value goes on over the following
//   words up to the next option (`--sprt elo0=0 elo1=10`; a boolean one takes
//   an optional word: `--debug [FILE]`); CommandLine.groups holds their words.
//   readCommandLine(argv, SPEC): Result<CommandLine, 'help' | 'arguments'>
//     Pure: `{ values, positionals, groups }` (values typed from the options), or the
//     error 'help' (--help or -h anywhere) or 'arguments' (an unknown option, an
//     option without its value, a value that looks like an option - a negative
//     number is a value: `--seed -5` reads as `--seed=-5`, and the tool's check
//     of the number refuses it in its own words -, a flag given a value, too
//     many or too few positionals), with the message.
//   reportCommandLine(spec, error, out?, err?): number
//     Prints the usage for 'help' to stdout (returns 0), or `<name>: <message>`
//     and the usage to stderr (returns 2): the exit code the tool ends with.
//   commandLineOrExit(argv, spec): CommandLine
//     readCommandLine, and for help or an error reportCommandLine and
//     process.exit with its code: for scripts that read their arguments at the
//     top level.
//   scriptCommandLine(argv, spec): ScriptCommandLine
//     commandLineOrExit plus readers that end the process (code 2, the message
//     and the usage) on a bad value: .string(name, def), .flag(name),
//     .integer(name, def, bounds?), .number(name, def, bounds?), and
//     .numberAt(index, what, def, bounds?) for a positional argument.
// Values arrive as strings; a tool checks each with these, which name the option
// in the error (code 'arguments'):
//   integerOption(values, name, default, { min?, max? }): Result<number, 'arguments'>
//   numberOption(values, name, default, { min?, max? }): Result<number, 'arguments'>
//   nameValueOptions(values, name): Result<Array<[name, value]>, 'arguments'>
//     a repeatable NAME=VALUE option (--option Hash=64), both sides trimmed;
//     nameValueOption(name, text) reads one.
// The product's Result (ok/err, src/core/result.ts, through src/dev.ts) is the
// tools' way to fail too: functions that can reject input return one with a code.

import {
  integerOption,
  numberOption,
  readCommandLine,
  reportCommandLine,
  type Bounds,
  type CommandLine,
  type CommandSpec,
  type OptionsSpec,
} from '../src/cli/command-line.js';
import { err, ok, type Result } from '../src/dev.js';

export {
  commandSpec,
  integerOption,
  numberOption,
  readCommandLine,
  reportCommandLine,
} from '../src/cli/command-line.js';
export type { CommandLine, CommandLineCode, CommandSpec, OptionsSpec } from '../src/cli/command-line.js';

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
