// A per-move trace of checks and chases of a line given in book notation (WXF / AXF
// English notation, or Chinese with --cn; both read by the library's parseMove,
// src/notation), with its UCI moves, for writing rule-book cases:
//   node dist/lab/rules/wxf-notation.js "<fen>" "R2=9 c1=2 R9=8 c2=1 ..."
//   node dist/lab/rules/wxf-notation.js --cn "<fen>" "马二退一 车9平8 ..."   (Chinese notation)
// Run from dist/ after `npm run build`.
import {
  moveToUci,
  ok,
  parseMove,
  Position,
  squareName,
  type FenErrorCode,
  type NotationErrorCode,
  type Result,
} from '../../src/dev.js';
import { assignIds, chasedMask, idBoard, moveId } from '../../src/core/chase.js';
import { commandSpec, readCommandLine, reportCommandLine } from '../../toolkit/command-line.js';
import { runMain } from '../../toolkit/script.js';

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

/**
 * Plays the moves, written in `notation` (WXF or Chinese): the UCI list and a
 * trace line per move, or the first FEN or move that cannot be read.
 */
export function trace(
  fen: string,
  texts: readonly string[],
  notation: 'wxf' | 'chinese' = 'wxf',
): Result<{ uci: string[]; lines: string[]; fen: string }, FenErrorCode | NotationErrorCode> {
  const start = Position.fromFen(fen);
  if (!start.ok) return start;
  const pos = start.value;
  assignIds(pos);
  const uci: string[] = [],
    lines: string[] = [];
  for (const text of texts) {
    const read = parseMove(pos, text, { notation });
    if (!read.ok) return read;
    const mv = read.value;
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
  return ok({ uci, lines, fen: pos.fen() });
}

const SPEC = commandSpec({
  name: 'wxf-notation',
  usage: 'usage: node dist/lab/rules/wxf-notation.js [--cn] "<fen>" "<moves in WXF notation, or Chinese with --cn>"',
  options: { cn: { type: 'boolean' } },
  positionals: { min: 2, max: 2 },
});

function main(argv: string[]): number {
  const cl = readCommandLine(argv, SPEC);
  if (!cl.ok) return reportCommandLine(SPEC, cl.error);
  const cn = cl.value.values.cn === true;
  const [fen, moves] = cl.value.positionals;
  const texts = cn
    ? moves
        .replace(/[（(][^）)]*[）)]/g, ' ')
        .replace(/(\S)\s+(?=[0-9０-９一二三四五六七八九])/g, '$1')
        .trim()
        .split(/\s+/)
    : moves.trim().split(/\s+/);
  const r = trace(fen, texts, cn ? 'chinese' : 'wxf');
  if (!r.ok) {
    process.stderr.write(`wxf-notation: ${r.error.message}\n`);
    return 1;
  }
  console.log(r.value.lines.join('\n'));
  console.log(`UCI: ${r.value.uci.join(' ')}`);
  console.log(`end: ${r.value.fen}`);
  return 0;
}

runMain(import.meta.url, main);
