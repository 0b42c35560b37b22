// Turns tiantian.txt (moves in Chinese notation, read by notation.mjs) into
// corpus entries:
//   node test/rules/chinese-notation.mjs test/rules/tiantian.txt
// (needs the compiled dist/).
import { readFileSync } from 'node:fs';
import { Position } from '../../dist/core/position.js';
import { moveToUci } from '../../dist/core/types.js';
import { chineseToMove } from './notation.mjs';


if (import.meta.url === `file://${process.argv[1]}` && process.argv[2]) {
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
