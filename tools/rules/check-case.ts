// Judges rule cases under every rule set, to help write corpus entries:
//   node dist/tools/rules/check-case.js [--pikafish ./rulejudge] [file]
// Input lines (file or stdin): "<id> TAB <fen> TAB <uci moves>" (more tab fields are
// ignored, so corpus.txt itself can be fed in; so can test/rules/axf/part-*.txt,
// whose UCI moves are in the fourth field). For each case it prints the first
// judgement that ends the game under each rule set (result@ply and the reason), and
// with --pikafish the first final verdict of native Pikafish's rule_judge at the
// root (the harness of docs/RULES.md, "Reproducing the oracle"), which ComputerRule
// must equal. Run from dist/ after `npm run build`.
import { readFileSync } from 'node:fs';
import { judgeGame, REPETITION_RULES, ruleConfigFrom } from '../../src/dev.js';
import { nativeFirstVerdict } from './pikafish-oracle.js';

const args = process.argv.slice(2);
let pikafish = null;
const pi = args.indexOf('--pikafish');
if (pi >= 0) {
  pikafish = args[pi + 1];
  args.splice(pi, 2);
}
const text = readFileSync(args[0] ?? 0, 'utf8');

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
      try {
        const { judgement, ply } = judgeGame(fen, moves, cfg);
        parts.push(
          `${rule}${d ? '/' + d : ''}=${judgement.result}@${ply}${judgement.reason ? ` (${judgement.reason})` : ''}`,
        );
      } catch (e) {
        parts.push(`${rule}: ${(e as Error).message}`);
      }
    }
  }
  console.log(`${id}\n  ${parts.join('\n  ')}`);
  if (pikafish) {
    const v = nativeFirstVerdict(pikafish, fen, moves);
    console.log(
      `  Pikafish=${v.result === 'none' ? 'none' : `${v.result}@${v.ply}${v.noLegalMove ? ' (no legal move)' : ''}`}`,
    );
  }
}
