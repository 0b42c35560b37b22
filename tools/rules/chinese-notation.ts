// Turns tiantian.txt (moves in Chinese notation, read by notation.ts) into
// corpus entries:
//   node dist/tools/rules/chinese-notation.js test/rules/tiantian.txt
// (run from dist/ after `npm run build`).
import { readFileSync } from 'node:fs';
import { moveToUci, Position } from '../../src/dev.js';
import { chineseToMove } from './notation.js';
import { isMain } from '../lib.js';

if (isMain(import.meta.url) && process.argv[2]) {
  const lines = readFileSync(process.argv[2], 'utf8').split('\n');
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i];
    if (!l.startsWith('case ')) continue;
    const [head, note] = l.split(' | ');
    const fen = lines[i + 1].trim();
    const moves = lines[i + 2].trim().split(/\s+/);
    const pos = new Position(fen);
    const uci = [];
    for (const mv of moves) {
      const m = chineseToMove(pos, mv);
      uci.push(moveToUci(m));
      pos.doMove(m);
    }
    console.log(`${head.replace('case ', 'tiantian-')}\t${fen}\t${uci.join(' ')}\t${note}`);
  }
}
