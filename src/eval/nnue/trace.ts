// The `eval` output with a network, as Pikafish's Eval::trace and NNUE::trace:
// the PSQT and positional terms of all 16 layer stacks (the one in use marked),
// then the network's sum and the final evaluation - and three lines in internal
// units that compare directly with Pikafish's numbers.

import type { Position } from '../../core/position.js';
import { RED } from '../../core/types.js';
import { materialCount, toCp } from '../score.js';
import type { NnueEvaluator } from './network.js';

export function traceNnue(pos: Position, ev: NnueEvaluator): string {
  if (pos.inCheck()) return 'Final evaluation: none (in check)';
  const material = materialCount(pos);
  const pawns = (v: number): string => (0.01 * toCp(v, material, 'PawnValueNormalized')).toFixed(2);
  const aligned = (v: number): string => (v < 0 ? '-' : v > 0 ? '+' : ' ') + pawns(Math.abs(v)).padStart(6);
  const signed = (v: number): string => (v >= 0 ? '+' : '') + pawns(v);
  const t = ev.traceBuckets(pos);
  const lines: string[] = [''];
  lines.push(`NNUE network contributions (Normalized, ${pos.side === RED ? 'Red' : 'Black'} to move)`);
  lines.push('+------------+------------+------------+------------+');
  lines.push('|   Bucket   |  Material  | Positional |   Total    |');
  lines.push('|            |   (PSQT)   |  (Layers)  |            |');
  lines.push('+------------+------------+------------+------------+');
  for (let b = 0; b < t.psqt.length; b++) {
    const row = `|  ${String(b).padEnd(9)} |  ${aligned(t.psqt[b])}   |  ${aligned(t.positional[b])}   |  ${aligned(t.psqt[b] + t.positional[b])}   |`;
    lines.push(b === t.used ? `${row} <-- this bucket is used` : row);
  }
  lines.push('+------------+------------+------------+------------+');
  lines.push('');
  ev.computeFull(pos);
  const psqt = ev.psqt,
    positional = ev.positional,
    nnue = psqt + positional;
  const final = ev.evaluate(pos, 0);
  const red = (v: number): number => (pos.side === RED ? v : -v);
  lines.push(`NNUE evaluation ${nnue} (side to move, internal units)`);
  lines.push(`NNUE parts psqt ${psqt} positional ${positional}`);
  lines.push(`Final evaluation ${final} (side to move, internal units)`);
  lines.push('');
  lines.push(`NNUE evaluation        ${signed(red(nnue))} (red side)`);
  lines.push(`Final evaluation       ${signed(red(final))} (red side) [with scaled NNUE, optimism 0, rule-60 damping]`);
  return lines.join('\n');
}
