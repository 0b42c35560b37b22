// The `eval` output with a Kirin network: the output of every output bucket
// (the one in use marked), what each piece is worth to the network (the change
// of the evaluation when it is taken off the board, as Stockfish's NNUE trace
// shows), the network's output and the final evaluation. Values in pawns
// (internal units / PawnValue) and, where they compare with other tools, in
// internal units.

import type { Position } from '../../core/position.js';
import { PIECE_CHARS, RED } from '../../core/types.js';
import { outputBucket } from './arch.js';
import type { KirinEvaluator } from './network.js';

const pawns = (v: number): string => (v / 144).toFixed(2);
const signed = (v: number): string => (v >= 0 ? '+' : '') + pawns(v);

export function traceKirinNet(pos: Position, ev: KirinEvaluator): string {
  if (pos.inCheck()) return 'Final evaluation: none (in check)';
  const net = ev.net;
  const buckets = net.shape.outputBuckets;
  const pieces = pos.listCount[0] + pos.listCount[1];
  const used = outputBucket(pieces, buckets);
  const red = (v: number): number => (pos.side === RED ? v : -v);
  const lines: string[] = ['', `Kirin network ${net.label()}, ${ev.kernels.name} kernels`];
  lines.push(`Output buckets (${pos.side === RED ? 'Red' : 'Black'} to move, pawns):`);
  for (let b = 0; b < buckets; b++) {
    const row = `  bucket ${String(b).padStart(2)}  ${signed(ev.outputOf(pos, b)).padStart(8)}`;
    lines.push(b === used ? `${row}  <-- used (${pieces} pieces)` : row);
  }
  const base = ev.outputOf(pos, used);
  lines.push('', 'Piece values (Red side, pawns: the evaluation minus the evaluation without the piece):');
  const border = '+' + '-------+'.repeat(9);
  lines.push(border);
  for (let rank = 9; rank >= 0; rank--) {
    let names = '|',
      values = '|';
    for (let file = 0; file < 9; file++) {
      const s = rank * 9 + file;
      const pc = pos.board[s];
      names += `   ${pc ? PIECE_CHARS[pc] : ' '}   |`;
      // The king cannot leave the board: its value is not shown.
      values += pc && (pc & 7) !== 7 ? `${signed(red(base - ev.outputOf(pos, used, s))).padStart(6)} |` : '       |';
    }
    lines.push(names, values, border);
  }
  ev.computeFull(pos);
  const raw = ev.raw;
  const final = ev.evaluate(pos, 0);
  lines.push('');
  lines.push(`Network evaluation ${raw} (side to move, internal units), bucket ${ev.bucket}`);
  lines.push(`Final evaluation ${final} (side to move, internal units)`);
  lines.push('');
  lines.push(`Network evaluation     ${signed(red(raw))} (red side)`);
  lines.push(`Final evaluation       ${signed(red(final))} (red side) [optimism 0, material blend, rule-60 damping]`);
  return lines.join('\n');
}
