// The one `--name value` option reader of the development tools' command lines
// (tools/protocol/uci-stress, fuzz-protocol, first-move-bench, soak,
// tools/strength/elo-scale, tools/threads/scaling, kirin datagen). Each tool declares its
// options (toolOptions): `--help` / `-h` prints its usage, an unknown option or
// one without its value is refused with the usage, before anything runs. Each
// tool checks the values it reads and prints its own error for a bad one.

/**
 * The value after the first `--name` in `argv`, or `def` when `--name` is absent
 * or is the last argument (no value follows it).
 */
export function optionValue(argv: readonly string[], name: string, def: string): string {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 && i + 1 < argv.length ? argv[i + 1] : def;
}

/** optionValue bound to one command line: `const opt = optionReader(argv); opt('runs', '10')`. */
export function optionReader(argv: readonly string[]): (name: string, def: string) => string {
  return (name, def) => optionValue(argv, name, def);
}

/** What a tool accepts on its command line. */
export interface ToolArgsSpec {
  /** The tool's name in messages ("elo-scale"). */
  name: string;
  /** The usage text printed for --help and after an error. */
  usage: string;
  /** Options that take a value, without the leading "--". */
  values: readonly string[];
  /** Options without a value ("json"). */
  flags?: readonly string[];
}

export type ToolArgsCheck = { kind: 'ok' } | { kind: 'help' } | { kind: 'error'; message: string };

/** Checks a command line against the tool's options: help wanted, an error, or fine. */
export function checkToolArgs(argv: readonly string[], spec: ToolArgsSpec): ToolArgsCheck {
  if (argv.includes('--help') || argv.includes('-h')) return { kind: 'help' };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (!a.startsWith('--')) return { kind: 'error', message: `unexpected argument "${a}"` };
    const name = a.slice(2);
    if (spec.flags?.includes(name)) continue;
    if (!spec.values.includes(name)) return { kind: 'error', message: `unknown option ${a}` };
    if (i + 1 >= argv.length || argv[i + 1].startsWith('--')) {
      return { kind: 'error', message: `option ${a} needs a value` };
    }
    i++;
  }
  return { kind: 'ok' };
}

/**
 * The option reader of a tool's command line, after checkToolArgs: prints the
 * usage and ends the process for --help (code 0) or a bad command line (code 2).
 */
export function toolOptions(argv: readonly string[], spec: ToolArgsSpec): (name: string, def: string) => string {
  const c = checkToolArgs(argv, spec);
  if (c.kind === 'help') {
    process.stdout.write(spec.usage.endsWith('\n') ? spec.usage : spec.usage + '\n');
    process.exit(0);
  }
  if (c.kind === 'error') {
    process.stderr.write(`${spec.name}: ${c.message}\n${spec.usage}${spec.usage.endsWith('\n') ? '' : '\n'}`);
    process.exit(2);
  }
  return optionReader(argv);
}
