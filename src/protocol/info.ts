// Formatting of search reports as UCI `info` lines.

import { moveToUci } from '../core/types.js';
import type { SearchInfo } from '../search/types.js';
import { formatScore, wdl, type ScoreType } from './score.js';

export interface InfoFormat {
  scoreType: ScoreType;
  showWdl: boolean;
}

/** One `info` line, in Pikafish's order of fields. `material` is the root's material count (score model). */
export function formatInfo(i: SearchInfo, material: number, opts: InfoFormat): string {
  let s = `info depth ${i.depth} seldepth ${i.seldepth} multipv ${i.multipv} score ${formatScore(i.score, material, opts.scoreType)}`;
  if (i.bound === 'lower') s += ' lowerbound';
  else if (i.bound === 'upper') s += ' upperbound';
  if (opts.showWdl) s += ` wdl ${wdl(i.score, material).join(' ')}`;
  s += ` nodes ${i.nodes} nps ${i.nps} hashfull ${i.hashfull} tbhits 0 time ${i.timeMs}`;
  if (i.pv.length) s += ` pv ${i.pv.map(moveToUci).join(' ')}`;
  return s;
}
