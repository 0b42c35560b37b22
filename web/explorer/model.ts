// What the explorer panel shows, as plain data (no DOM, so that Node tests
// it): each move of the position with its games, its share of them and the
// red / draw / black percentages the bars are drawn from, and each notable
// game in one line. The panel (panel.ts) draws it.

import {
  formatMove,
  type ExplorerCounts,
  type ExplorerPosition,
  type MoveStyle,
  type NotableGame,
  type Position,
} from '../../src/browser/index.js';

/** Red wins, draws and black wins in whole percent, summing to 100 (largest remainders rounded up). */
export function wdlPercents(c: ExplorerCounts): [number, number, number] {
  if (c.games === 0) return [0, 0, 0];
  const exact = [c.redWins, c.draws, c.blackWins].map((n) => (100 * n) / c.games);
  const out = exact.map(Math.floor);
  const order = [0, 1, 2].sort((a, b) => exact[b] - out[b] - (exact[a] - out[a]) || a - b);
  for (let k = 0, left = 100 - out.reduce((a, b) => a + b, 0); k < left; k++) out[order[k]]++;
  return [out[0], out[1], out[2]];
}

/** One move of the position as the panel shows it. */
export interface ExplorerRow {
  readonly uci: string;
  /** The move in the player's notation. */
  readonly text: string;
  readonly games: number;
  /** Its share of the position's games, whole percent. */
  readonly share: number;
  /** Red wins, draws, black wins in whole percent (the bar's three parts). */
  readonly wdl: [number, number, number];
}

/** The rows of a position's moves (most played first), written in `style`. */
export function explorerRows(pos: Position, here: ExplorerPosition, style: MoveStyle): ExplorerRow[] {
  return here.moves.map((m) => {
    const text = formatMove(pos, m.move, style);
    return {
      uci: m.uci,
      text: text.ok ? text.value : m.uci,
      games: m.games,
      share: here.games > 0 ? Math.round((100 * m.games) / here.games) : 0,
      wdl: wdlPercents(m),
    };
  });
}

/** A notable game in one line: "胡荣华 – 柳大华 · 全国赛 · 1980 · 1-0". */
export function notableLine(g: NotableGame): string {
  const players = `${g.red || '?'} – ${g.black || '?'}`;
  return [players, g.event, g.year === null ? '' : String(g.year), g.result].filter((x) => x !== '').join(' · ');
}

/** A message with its `{name}` placeholders filled. */
export function fill(text: string, values: Readonly<Record<string, string | number>> = {}): string {
  return text.replace(/\{(\w+)\}/g, (whole, name: string) => (name in values ? String(values[name]) : whole));
}
