// A per-move trace of checks and chases of a line given in book notation (WXF / AXF
// English notation, or Chinese with --cn; both read by notation.ts), with its UCI
// moves, for writing rule-book cases:
//   node dist/tools/rules/wxf-notation.js "<fen>" "R2=9 c1=2 R9=8 c2=1 ..."
//   node dist/tools/rules/wxf-notation.js --cn "<fen>" "马二退一 车9平8 ..."   (Chinese notation)
// Run from dist/ after `npm run build`.
import { assignIds, chasedMask, idBoard, moveId, moveToUci, Position, squareName, type Move } from '../../src/dev.js';
import { chineseToMove, wxfToMove } from './notation.js';
import { isMain } from '../lib.js';

const NAMES = ['', 'rook', 'advisor', 'cannon', 'pawn', 'knight', 'bishop', 'king'];

function pieceAt(pos: Position, s: number): string {
  const p = pos.board[s];
  return `${p >> 3 === 0 ? 'red' : 'black'} ${NAMES[p & 7]} ${squareName(s)}`;
}

function idsToSquares(pos: Position, color: number, mask: number): string[] {
  const out: string[] = [];
  for (let s = 0; s < 90; s++) {
    const p = pos.board[s];
    if (p && p >> 3 === color && mask & (1 << idBoard[s])) out.push(pieceAt(pos, s));
  }
  return out;
}

/** Plays the moves; returns the UCI list and a trace line per move. */
export function trace(
  fen: string,
  texts: readonly string[],
  convert: (pos: Position, text: string) => Move = wxfToMove,
) {
  const pos = new Position(fen);
  assignIds(pos);
  const uci = [],
    lines = [];
  for (const text of texts) {
    const mv = convert(pos, text);
    const mover = pos.side,
      from = mv >> 7,
      to = mv & 127;
    const before = chasedMask(pos, mover);
    pos.doMove(mv);
    moveId(from, to);
    const after = chasedMask(pos, mover);
    const check = pos.checked[pos.sp];
    const fresh = idsToSquares(pos, mover ^ 1, after & ~before);
    const still = idsToSquares(pos, mover ^ 1, after & before);
    uci.push(moveToUci(mv));
    lines.push(
      `${text.padEnd(6)} ${moveToUci(mv)}${check ? ' CHECK' : ''}` +
        `${fresh.length ? ` newly chases: ${fresh.join(', ')}` : ''}${still.length ? `; still chases: ${still.join(', ')}` : ''}`,
    );
  }
  return { uci, lines, fen: pos.fen() };
}

if (isMain(import.meta.url)) {
  const args = process.argv.slice(2);
  const cn = args[0] === '--cn';
  const [fen, moves] = cn ? args.slice(1) : args;
  const texts = cn
    ? moves
        .replace(/[（(][^）)]*[）)]/g, ' ')
        .replace(/(\S)\s+(?=[0-9０-９一二三四五六七八九])/g, '$1')
        .trim()
        .split(/\s+/)
    : moves.trim().split(/\s+/);
  const { uci, lines, fen: end } = trace(fen, texts, cn ? chineseToMove : wxfToMove);
  console.log(lines.join('\n'));
  console.log(`UCI: ${uci.join(' ')}`);
  console.log(`end: ${end}`);
}
