// Scores as players read them: from Red, in pawns (+1.25) or as a mate in
// moves (#5, #-3), and Red's expected score (win 1, draw 1/2) by the engine's
// WDL model, for the evaluation bar.

import { formatScore, wdl, type WinRateModel } from '../../src/browser/index.js';

/** A score from Red (internal units) as players read it. */
export function scoreText(red: number, material: number, model: WinRateModel): string {
  const f = formatScore(red, material, 'PawnValueNormalized', model);
  const [kind, n] = f.split(' ');
  if (kind === 'mate') return `#${n}`;
  const cp = Number(n);
  return (cp > 0 ? '+' : cp < 0 ? '-' : '') + (Math.abs(cp) / 100).toFixed(2);
}

/** Red's expected score (win 1, draw 1/2) for a score from Red. */
export function redShare(red: number, material: number, model: WinRateModel): number {
  const [w, d] = wdl(red, material, model);
  return (w + d / 2) / 1000;
}
