// The 开局库 tab (#tab-explorer): the explorer panel (panel.ts) on the page. It
// shows the masters' moves for the position on the board; the explorer of
// master games (1.3 MB) is fetched the first time the tab is opened, not with
// the page. A move clicked is offered to the board as the player's move (in a
// game against Kirin or a puzzle its gate decides); a notable game clicked
// opens on the board for analysis and is kept in the library as imported.

import { Position, parseLegalMove, type Game } from '../../src/browser/index.js';
import type { PageContext } from '../page.js';
import { mountExplorer } from './panel.js';

export interface ExplorerDeps {
  /** A notable game opened: the library keeps it (imported). */
  opened(game: Game): void;
}

/** Mounts the explorer in `root` (the tab's panel); it draws only while the tab is shown. */
export function mountExplorerRoom(ctx: PageContext, root: HTMLElement, deps: ExplorerDeps): void {
  const panel = mountExplorer(root, {
    position: () => ctx.pos,
    moveStyle: () => ctx.moveStyle(),
    language: () => ctx.language,
    play(uci) {
      const m = parseLegalMove(ctx.pos, uci);
      if (m.ok) ctx.offerMove(m.value);
    },
    openGame(game) {
      ctx.setMode('analysis');
      if (!ctx.analysing) ctx.setAnalysing(true);
      const at = ctx.pos.fen();
      ctx.setGame(game, plyOf(game, at));
      deps.opened(game);
    },
  });
  const shown = (): boolean => !root.hidden;
  // The first opening of the tab fetches the explorer; a change while it is hidden waits for the next opening.
  new MutationObserver(() => {
    if (shown()) panel.update();
  }).observe(root, { attributes: true, attributeFilter: ['hidden'] });
  ctx.onChange((c) => {
    if (shown() && c.kind !== 'game') panel.update();
  });
}

/** The first ply of the game's main line at the position `fen` (the one the explorer showed), else 0. */
function plyOf(game: Game, fen: string): number {
  const start = Position.fromFen(game.fen);
  if (!start.ok) return 0;
  const pos = start.value;
  const same = (f: string): boolean => f.split(' ').slice(0, 2).join(' ') === fen.split(' ').slice(0, 2).join(' ');
  let ply = 0;
  for (let n = game.children[0]; n !== undefined; n = n.children[0]) {
    if (same(pos.fen())) return ply;
    pos.doMove(n.move);
    ply++;
  }
  return same(pos.fen()) ? ply : 0;
}
