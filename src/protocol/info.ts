// Formatting of search reports as UCI `info` lines.

import { moveToUci } from '../core/types.js';
import type { OptionInfo } from '../engine/options.js';
import type { SearchInfo } from '../search/types.js';
import { formatScore, wdl, type ScoreType, type WinRateModel } from '../eval/score.js';

export interface InfoFormat {
  scoreType: ScoreType;
  showWdl: boolean;
  /** The win-rate model of the evaluation that plays (Engine.winRateModel). */
  model: WinRateModel;
}

/** One `info` line, in Pikafish's order of fields. `material` is the root's material count (score model). */
export function formatInfo(i: SearchInfo, material: number, opts: InfoFormat): string {
  let s = `info depth ${i.depth} seldepth ${i.seldepth} multipv ${i.multipv} score ${formatScore(i.score, material, opts.scoreType, opts.model)}`;
  if (i.bound === 'lower') s += ' lowerbound';
  else if (i.bound === 'upper') s += ' upperbound';
  if (opts.showWdl) s += ` wdl ${wdl(i.score, material, opts.model).join(' ')}`;
  s += ` nodes ${i.nodes} nps ${i.nps} hashfull ${i.hashfull} tbhits 0 time ${i.timeMs}`;
  if (i.pv.length) s += ` pv ${i.pv.map(moveToUci).join(' ')}`;
  return s;
}

/** The `option name ... type ...` lines printed in answer to `uci`. */
export function uciOptionLines(options: readonly OptionInfo[]): string[] {
  return options.map((o) => {
    let s = `option name ${o.name} type ${o.type}`;
    if (o.type === 'button') return s;
    const def = o.default ?? '';
    const d = o.type === 'string' && def === '' ? '<empty>' : String(def);
    s += ` default ${d}`;
    if (o.type === 'spin') s += ` min ${o.min} max ${o.max}`;
    if (o.type === 'combo') for (const x of o.vars ?? []) s += ` var ${x}`;
    return s;
  });
}
