// WXF / AXF English move notation (R2=9, c1=2, H5+6, r++2, A5+6 ...) to UCI, and a
// per-move trace of checks and chases, for writing rule-book cases:
//   node test/rules/wxf-notation.mjs "<fen>" "R2=9 c1=2 R9=8 c2=1 ..."
//   node test/rules/wxf-notation.mjs --cn "<fen>" "马二退一 车9平8 ..."   (Chinese notation)
// Pieces: R rook, H/N knight, E/B/M elephant, A/G advisor ("guard"), K king,
// C cannon, P/S pawn; the case of the letter is ignored (the side to move decides).
// Red files 1..9 run from Red's right (file i) to its left (file a), Black files
// from Black's right (file a) to its left (file i). "+" forward, "-" backward, "="
// (or "." or nothing, as in "c89") sideways; straight movers count points forward
// and backward, knights, elephants and advisors name the file they land on. A "+"
// or "-" in place of the file picks the front or rear one of two such pieces on a
// file. Needs the compiled dist/.
import { Position } from '../../dist/core/position.js';
import { legalMoves } from '../../dist/core/movegen.js';
import { FILE_OF, RANK_OF, moveToUci } from '../../dist/core/types.js';
import { assignIds, chasedMask, idBoard } from '../../dist/core/chase.js';
import { chineseToMove } from './chinese-notation.mjs';

const LETTERS = { R: [1], H: [5], N: [5], E: [6], B: [6], M: [6], A: [2], G: [2, 7], K: [7], C: [3], P: [4], S: [4] };
const NAMES = ['', 'rook', 'advisor', 'cannon', 'pawn', 'knight', 'bishop', 'king'];
const squareName = (s) => 'abcdefghi'[FILE_OF[s]] + RANK_OF[s];

export function wxfToMove(pos, text) {
  const side = pos.side;
  const t = text.trim().replace(/[.]$/, '');
  const m = /^([A-Za-z])([1-9+-])([+=.-]?)([1-9])$/.exec(t);
  if (!m) throw new Error(`cannot read move "${text}"`);
  const types = LETTERS[m[1].toUpperCase()];
  if (!types) throw new Error(`unknown piece letter in "${text}"`);
  const fileOf = (n) => (side === 0 ? 9 - n : n - 1);
  const fwd = side === 0 ? 1 : -1;
  const act = m[3] === '' || m[3] === '.' ? '=' : m[3];
  const n = Number(m[4]);
  const all = legalMoves(pos);
  const cands = [];
  for (const type of types) {
    let froms = [];
    for (let s = 0; s < 90; s++) {
      const p = pos.board[s];
      if (p && (p >> 3) === side && (p & 7) === type) froms.push(s);
    }
    if (m[2] === '+' || m[2] === '-') {
      const byFile = new Map();
      for (const s of froms) byFile.set(FILE_OF[s], [...(byFile.get(FILE_OF[s]) ?? []), s]);
      const pairs = [...byFile.values()].filter((l) => l.length >= 2);
      if (pairs.length !== 1) continue;
      const sorted = pairs[0].sort((a, b) => (RANK_OF[b] - RANK_OF[a]) * fwd);
      froms = [m[2] === '+' ? sorted[0] : sorted[sorted.length - 1]];
    } else {
      froms = froms.filter((s) => FILE_OF[s] === fileOf(Number(m[2])));
    }
    for (const mv of all) {
      const from = mv >> 7, to = mv & 127;
      if (!froms.includes(from)) continue;
      const dr = (RANK_OF[to] - RANK_OF[from]) * fwd;
      const straight = type === 1 || type === 3 || type === 4 || type === 7;
      let ok;
      if (act === '=') ok = dr === 0 && FILE_OF[to] === fileOf(n);
      else if (straight) ok = FILE_OF[to] === FILE_OF[from] && dr === (act === '+' ? n : -n);
      else ok = FILE_OF[to] === fileOf(n) && (act === '+' ? dr > 0 : dr < 0);
      if (ok) cands.push(mv);
    }
  }
  if (cands.length !== 1) throw new Error(`"${text}" matches ${cands.length} legal moves in ${pos.fen()}`);
  return cands[0];
}

function pieceAt(pos, s) {
  const p = pos.board[s];
  return `${(p >> 3) === 0 ? 'red' : 'black'} ${NAMES[p & 7]} ${squareName(s)}`;
}

function idsToSquares(pos, color, mask) {
  const out = [];
  for (let s = 0; s < 90; s++) {
    const p = pos.board[s];
    if (p && (p >> 3) === color && mask & (1 << idBoard[s])) out.push(pieceAt(pos, s));
  }
  return out;
}

/** Plays the moves; returns the UCI list and a trace line per move. */
export function trace(fen, texts, convert = wxfToMove) {
  const pos = new Position(fen);
  assignIds(pos);
  const uci = [], lines = [];
  for (const text of texts) {
    const mv = convert(pos, text);
    const mover = pos.side, from = mv >> 7, to = mv & 127;
    const before = chasedMask(pos, mover);
    pos.doMove(mv);
    idBoard[to] = idBoard[from];
    const after = chasedMask(pos, mover);
    const check = pos.checked[pos.sp];
    const fresh = idsToSquares(pos, mover ^ 1, after & ~before);
    const still = idsToSquares(pos, mover ^ 1, after & before);
    uci.push(moveToUci(mv));
    lines.push(`${text.padEnd(6)} ${moveToUci(mv)}${check ? ' CHECK' : ''}` +
      `${fresh.length ? ` newly chases: ${fresh.join(', ')}` : ''}${still.length ? `; still chases: ${still.join(', ')}` : ''}`);
  }
  return { uci, lines, fen: pos.fen() };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const args = process.argv.slice(2);
  const cn = args[0] === '--cn';
  const [fen, moves] = cn ? args.slice(1) : args;
  const texts = cn ? moves.replace(/[（(][^）)]*[）)]/g, ' ').replace(/(\S)\s+(?=[0-9０-９一二三四五六七八九])/g, '$1').trim().split(/\s+/) : moves.trim().split(/\s+/);
  const { uci, lines, fen: end } = trace(fen, texts, cn ? chineseToMove : wxfToMove);
  console.log(lines.join('\n'));
  console.log(`UCI: ${uci.join(' ')}`);
  console.log(`end: ${end}`);
}
