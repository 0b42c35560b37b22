// `kirin match`: the command line's front end - a match, a report of logs
// (report.ts) or a gauntlet (gauntlet.ts).

import { reportCommandLine } from '../../toolkit/command-line.js';
import { MATCH_SPEC, parseMatchArgs } from './args.js';
import { runGauntletCli } from './gauntlet.js';
import { playMatch } from './play.js';
import { runMatchReportCli } from './report.js';

/** `kirin match ...`: returns the process exit code (0 done, 1 match error, 2 bad arguments). */
export async function runMatchCli(argv: string[]): Promise<number> {
  if (argv[0] === 'report') return runMatchReportCli(argv.slice(1));
  if (argv[0] === 'gauntlet') return runGauntletCli(argv.slice(1));
  const parsed = parseMatchArgs(argv);
  if (!parsed.ok) return reportCommandLine(MATCH_SPEC, parsed.error);
  let interrupted = false;
  const onSigint = (): void => {
    if (interrupted) process.exit(130);
    interrupted = true;
    printLine('Interrupted: finishing (press Ctrl-C again to quit at once)');
  };
  process.on('SIGINT', onSigint);
  try {
    return (await playMatch(parsed.value, printLine, () => interrupted)).code;
  } finally {
    process.off('SIGINT', onSigint);
  }
}

function printLine(line: string): void {
  process.stdout.write(line + '\n');
}
