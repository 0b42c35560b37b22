// Turns tiantian.txt (moves in Chinese notation, read by the library's
// parseMove, src/notation) into corpus entries:
//   node dist/lab/rules/chinese-notation.js test/rules/tiantian.txt
// (run from dist/ after `npm run build`).
import { moveToUci, parseMove, Position } from '../../src/dev.js';
import { commandSpec, readCommandLine, reportCommandLine } from '../../toolkit/command-line.js';
import { readTextFile } from '../../toolkit/files.js';
import { runMain } from '../../toolkit/script.js';

const SPEC = commandSpec({
  name: 'chinese-notation',
  usage: 'usage: node dist/lab/rules/chinese-notation.js <cases file, e.g. test/rules/tiantian.txt>',
  options: {},
  positionals: { min: 1, max: 1 },
});

function main(argv: string[]): number {
  const cl = readCommandLine(argv, SPEC);
  if (!cl.ok) return reportCommandLine(SPEC, cl.error);
  const text = readTextFile(cl.value.positionals[0]);
  if (!text.ok) {
    process.stderr.write(`chinese-notation: ${text.error.message}\n`);
    return 1;
  }
  const lines = text.value.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i];
    if (!l.startsWith('case ')) continue;
    const [head, note] = l.split(' | ');
    const fen = (lines[i + 1] ?? '').trim();
    const moves = (lines[i + 2] ?? '').trim().split(/\s+/);
    const start = Position.fromFen(fen);
    if (!start.ok) {
      process.stderr.write(`chinese-notation: ${head}: ${start.error.message}\n`);
      return 1;
    }
    const pos = start.value;
    const uci = [];
    for (const mv of moves) {
      const m = parseMove(pos, mv, { notation: 'chinese' });
      if (!m.ok) {
        process.stderr.write(`chinese-notation: ${head}: ${m.error.message}\n`);
        return 1;
      }
      uci.push(moveToUci(m.value));
      pos.doMove(m.value);
    }
    console.log(`${head.replace('case ', 'tiantian-')}\t${fen}\t${uci.join(' ')}\t${note}`);
  }
  return 0;
}

runMain(import.meta.url, main);
