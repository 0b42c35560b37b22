// Judges rule cases under every rule set, to help write corpus entries:
//   node dist/lab/rules/check-case.js [--pikafish ./rulejudge] [file]
// Input lines (file or stdin): "<id> TAB <fen> TAB <uci moves>" (more tab fields are
// ignored, so corpus.txt itself can be fed in; so can test/rules/axf/part-*.txt,
// whose UCI moves are in the fourth field). For each case it prints the first
// judgement that ends the game under each rule set (result@ply and the reason), and
// with --pikafish the first final verdict of native Pikafish's rule_judge at the
// root (the harness of docs/RULES.md, "Reproducing the oracle"), which ComputerRule
// must equal. Run from dist/ after `npm run build`.
import { readFileSync } from 'node:fs';
import { judgeMoves, REPETITION_RULES, ruleConfigFrom } from '../../src/dev.js';
import { commandLineOrExit, commandSpec } from '../../toolkit/command-line.js';
import { readTextFile } from '../../toolkit/files.js';
import { exitWithError } from '../../toolkit/script.js';
import { nativeFirstVerdict } from './pikafish-oracle.js';

const SPEC = commandSpec({
  name: 'check-case',
  usage: 'usage: node dist/lab/rules/check-case.js [--pikafish ./rulejudge] [file]   (stdin without a file)',
  options: { pikafish: { type: 'string' } },
  positionals: { max: 1 },
});
const { values, positionals } = commandLineOrExit(process.argv.slice(2), SPEC);
const pikafish = values.pikafish ?? null;
const read =
  positionals[0] === undefined ? { ok: true as const, value: readFileSync(0, 'utf8') } : readTextFile(positionals[0]);
if (!read.ok) exitWithError(SPEC.name, read.error.message);
const text = read.value;

for (const line of text.split('\n')) {
  if (!line.trim() || line.startsWith('#')) continue;
  const fields = line.split('\t');
  const [id, fen] = fields;
  // Rule-book case files (test/rules/axf/) carry WXF moves in field 3 and UCI in field 4.
  const moveText = fields.length >= 5 && /^[a-i]\d[a-i]\d( |$)/.test(fields[3]) ? fields[3] : fields[2];
  const moves = moveText.trim().split(/\s+/);
  const parts = [];
  for (const rule of REPETITION_RULES) {
    const depths = rule === 'ChineseRule' ? [0, 3] : [0];
    for (const d of depths) {
      const cfg = ruleConfigFrom({ repetitionRule: rule, drawRule: 'None', rule60MaxPly: 120, mateThreatDepth: d });
      const game = judgeMoves(fen, moves, cfg);
      if (!game.ok) {
        parts.push(`${rule}: ${game.error.message}`);
        continue;
      }
      const { judgement, ply } = game.value;
      parts.push(
        `${rule}${d ? '/' + d : ''}=${judgement.result}@${ply}${judgement.reason ? ` (${judgement.reason})` : ''}`,
      );
    }
  }
  console.log(`${id}\n  ${parts.join('\n  ')}`);
  if (pikafish) {
    const verdict = nativeFirstVerdict(pikafish, fen, moves);
    if (!verdict.ok) exitWithError(SPEC.name, `${id}: ${verdict.error.message}`);
    const v = verdict.value;
    console.log(
      `  Pikafish=${v.result === 'none' ? 'none' : `${v.result}@${v.ply}${v.noLegalMove ? ' (no legal move)' : ''}`}`,
    );
  }
}
