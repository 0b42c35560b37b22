// Playing Kirin (the 对弈 tab): the side the player takes, a new game, taking a
// move back, Kirin's level (Skill Level or UCI_Elo) and its time per move.
// The analysis room (engine.ts) asks for the level and the time before each of
// Kirin's moves.

import { BLACK, RED, newGame, Position } from '../../src/browser/index.js';
import { $ } from '../dom.js';
import type { PageContext } from '../page.js';

export interface PlaySettings {
  /** Sets Kirin's level options from the controls (an error is shown beside them). */
  applyLevel(): void;
  /** Kirin's time for a move, in milliseconds. */
  moveTimeMs(): number;
}

export function mountPlay(ctx: PageContext): PlaySettings {
  const engine = ctx.engine;
  const applyLevel = (): void => {
    const mode = $<HTMLSelectElement>('level-mode').value;
    const value = $<HTMLInputElement>('level').value;
    const o = engine.options;
    const r =
      mode === 'elo'
        ? (o.set('UCI_LimitStrength', 'true'), o.set('UCI_Elo', value))
        : (o.set('UCI_LimitStrength', 'false'), o.set('Skill Level', value));
    $('option-error').textContent = r.ok ? '' : r.error.message;
  };

  /** A new game from the start; against Kirin (Analysis off). */
  const startGame = (): void => {
    engine.newGame();
    ctx.setGame(newGame());
  };

  /** Takes back the last move (a game against Kirin: back to your move), removing it from the game. */
  const takeBack = (): void => {
    const path = ctx.path;
    if (path.length === 0) return;
    const line = path.slice(0, -1);
    if (ctx.mode === 'play') {
      const start = Position.fromFen(ctx.game.fen);
      const startSide = start.ok ? start.value.side : RED;
      while (line.length > 0 && (startSide ^ (line.length & 1)) !== ctx.humanSide) line.pop();
    }
    const parent = line.length > 0 ? line[line.length - 1] : ctx.game;
    const removed = path[line.length];
    parent.children = parent.children.filter((c) => c !== removed);
    ctx.goTo(line);
  };

  $('side').addEventListener('change', () => {
    const side = $<HTMLSelectElement>('side').value === 'black' ? BLACK : RED;
    ctx.setHumanSide(side);
    ctx.setFlipped(side === BLACK);
    startGame();
  });
  $('newgame').addEventListener('click', () => {
    if (ctx.mode !== 'play') ctx.setMode('play');
    startGame();
  });
  $('takeback').addEventListener('click', takeBack);
  $('level-mode').addEventListener('change', () => {
    $<HTMLInputElement>('level').value = $<HTMLSelectElement>('level-mode').value === 'elo' ? '1500' : '20';
    applyLevel();
  });
  $('level').addEventListener('change', applyLevel);

  return {
    applyLevel,
    moveTimeMs() {
      const seconds = Number($<HTMLInputElement>('movetime').value);
      return Number.isFinite(seconds) && seconds > 0 ? Math.round(seconds * 1000) : 1000;
    },
  };
}
