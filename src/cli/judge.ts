// `kirin judge [--rule NAME] [--notation N] [--json] FILE...`: every game of the
// files (PGN in any notation, XQF) refereed under a rule set: each stretch of
// repeated positions as a cycle, move by move in the players' words (which side
// checks, threatens mate, chases what with what, idles), which side must change
// and the result the rules give, then where the rules end the game and what the
// record says. With --json one JSON object per game (the library's GameVerdict,
// src/referee/judge.ts, with the file and game number). docs/RULES.md.
//
// Exit codes: 0 every game judged; 1 a file or game that could not be read or
// replayed (the others are still judged); 2 a bad command line.

import { readFileSync } from 'node:fs';
import { REPETITION_RULES, type RepetitionRule } from '../core/rules.js';
import { readGames } from '../notation/files.js';
import { NOTATIONS, type Notation } from '../notation/move.js';
import { judgeGame } from '../referee/judge.js';
import { commandSpec, readCommandLine, reportCommandLine, PROCESS_IO, type CommandIo } from './command-line.js';

const SPEC = commandSpec({
  name: 'kirin judge',
  usage: `usage: kirin judge [--rule NAME] [--notation chinese|wxf|iccs|uci] [--json] FILE...
  Referees every game of the files (PGN in any notation, or XQF): each repetition
  cycle move by move (check, mate threat, chase of which piece by which, idle),
  who must change and the result the rules give, then where they end the game.
  --rule NAME   the rule set (default AsianRule): ${REPETITION_RULES.join(', ')};
                ChineseRule judges chases and mate threats as the Chinese rule book
  --notation N  the moves' notation in the words (default chinese)
  --json        one JSON object per game instead of the words`,
  options: { rule: { type: 'string' }, notation: { type: 'string' }, json: { type: 'boolean' } },
  positionals: { min: 1 },
});

export function runJudgeCli(
  argv: readonly string[],
  io: CommandIo = PROCESS_IO,
  readFile: (path: string) => Uint8Array = (path) => readFileSync(path),
): number {
  const cl = readCommandLine(argv, SPEC);
  if (!cl.ok) return reportCommandLine(SPEC, cl.error, io.stdout, io.stderr);
  const bad = (message: string): number =>
    reportCommandLine(SPEC, { code: 'arguments', message }, io.stdout, io.stderr);
  const ruleText = cl.value.values.rule ?? 'AsianRule';
  const rule = REPETITION_RULES.find((r) => r.toLowerCase() === ruleText.toLowerCase());
  if (!rule) return bad(`--rule ${ruleText}: one of ${REPETITION_RULES.join(', ')}`);
  const notation = (cl.value.values.notation ?? 'chinese') as Notation;
  if (!NOTATIONS.includes(notation)) return bad(`--notation ${notation}: one of ${NOTATIONS.join(', ')}`);
  const json = cl.value.values.json === true;
  let status = 0;
  for (const file of cl.value.positionals) {
    let bytes: Uint8Array;
    try {
      bytes = readFile(file);
    } catch (e) {
      io.stderr.write(`kirin judge: cannot read ${file}: ${(e as Error).message}\n`);
      status = 1;
      continue;
    }
    const games = readGames(bytes, file);
    if (games.length === 0) {
      io.stderr.write(`kirin judge: ${file}: no game in it\n`);
      status = 1;
    }
    games.forEach((g, i) => {
      const name = `${file} game ${i + 1}`;
      const v = g.ok ? judgeGame(g.value, { rule: rule as RepetitionRule, notation }) : g;
      if (!v.ok) {
        io.stderr.write(`kirin judge: ${name}: ${v.error.message}\n`);
        status = 1;
        return;
      }
      if (json) {
        io.stdout.write(JSON.stringify({ file, game: i + 1, ...v.value }) + '\n');
        return;
      }
      const h = g.ok ? g.value.headers : {};
      const players = h.Red || h.Black ? ` (${h.Red ?? '?'} - ${h.Black ?? '?'})` : '';
      const recorded = g.ok ? g.value.result : '*';
      io.stdout.write(`${name}${players}, judged under ${rule}:\n${v.value.text}\n`);
      io.stdout.write(`The record's result: ${recorded}.\n\n`);
    });
  }
  return status;
}
