// The one `--name value` option reader of the development tools' command lines
// (tools/protocol/uci-stress, fuzz-protocol, first-move-bench, soak,
// tools/strength/elo-scale, tools/threads/scaling). Each tool checks the values
// it reads and prints its own usage or error for a bad one.

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
