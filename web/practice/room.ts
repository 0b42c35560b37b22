// The 练习 tab (#tab-practice): Practice mode's panel (panel.ts) on the page's
// board. Opening the tab starts practice (the puzzles, 250 KB, are fetched the
// first time): the page's mode becomes 'practice', the puzzle is the game on
// the board, and the player's moves on the board go to the panel through the
// page's gate (not to the game): a right move is played with Kirin's defence
// after it, a wrong one is put back and said. The progress (rating, solved,
// missed) is kept in localStorage. Another game opened (a file, the library,
// 新局, a game against Kirin) ends practice; opening the tab again resumes it.

import { newGame, parseLegalMove, moveToUci, type Game, type Move, type Position } from '../../src/browser/index.js';
import type { BoardView } from '../board/view.js';
import type { MoveGate, PageContext } from '../page.js';
import { mountPractice } from './panel.js';

const PROGRESS_KEY = 'kirin.practice';

/** Mounts Practice mode in `root` (the tab's panel). */
export function mountPracticeRoom(ctx: PageContext, root: HTMLElement, board: BoardView): void {
  /** The puzzle's game on the board while practice is the page's mode; null otherwise. */
  let game: Game | null = null;
  /** The player's move the panel is judging now. */
  let pending: Move | null = null;
  let started = false;

  const gate: MoveGate = {
    canMove: () => game !== null && ctx.game === game,
    accept(move) {
      if (ctx.mode !== 'practice') return true;
      pending = move;
      try {
        panel.move(moveToUci(move));
      } finally {
        pending = null;
      }
      // The panel played what is right on the board itself (show below); the gate never lets the page add the move.
      return false;
    },
  };

  /** Set while this room changes the page (its own changes do not end practice). */
  let switching = false;
  let practising = false;
  /** Practice becomes the page's mode (its gate first), with `then` done meanwhile. */
  const enter = (then?: () => void): void => {
    switching = true;
    try {
      ctx.setGate(gate);
      if (ctx.mode !== 'practice') ctx.setMode('practice');
      then?.();
    } finally {
      switching = false;
      practising = true;
    }
  };

  const panel = mountPractice(root, {
    language: () => ctx.language,
    moveStyle: () => ctx.moveStyle(),
    show(pos: Position, last: string | null) {
      if (pending !== null && last !== null && game !== null && ctx.game === game) {
        // The player's move was right: it, then Kirin's defence (when the puzzle goes on).
        const defence = last === moveToUci(pending) ? null : parseLegalMove(positionAfter(pending), last);
        ctx.playLine(defence === null ? [pending] : defence.ok ? [pending, defence.value] : [pending]);
        return;
      }
      if (pending !== null && last === null) {
        // A wrong move: the piece goes back (the page redraws the position shown).
        ctx.edited('view');
        return;
      }
      // A new puzzle, or the same one again.
      const g = newGame(pos.fen());
      g.headers.Event = ctx.t('shell.tab.practice');
      game = g;
      enter(() => {
        ctx.setFlipped(pos.side === 1);
        ctx.setGame(g);
      });
    },
    highlight(square) {
      const file = square.charCodeAt(0) - 97;
      const rank = Number(square.slice(1));
      if (file >= 0 && file < 9 && rank >= 0 && rank <= 9) board.mark(file + 9 * rank);
    },
    loadProgress: () => {
      try {
        return localStorage.getItem(PROGRESS_KEY);
      } catch {
        return null;
      }
    },
    saveProgress(text) {
      try {
        localStorage.setItem(PROGRESS_KEY, text);
      } catch {
        // A browser that keeps nothing: the progress lasts the visit.
      }
    },
  });

  /** The position after the player's pending move (the defence is read from it). */
  const positionAfter = (move: Move): Position => {
    const p = ctx.pos.clone();
    p.doMove(move);
    return p;
  };

  // Opening the tab starts practice (the first time: the puzzles are fetched) or takes it up again.
  new MutationObserver(() => {
    if (root.hidden) return;
    if (!started) {
      started = true;
      void panel.start();
    } else if (game !== null && ctx.game === game && ctx.mode !== 'practice') enter();
    else if (game !== null && ctx.game !== game) panel.show();
  }).observe(root, { attributes: true, attributeFilter: ['hidden'] });

  // Another game on the board or another mode ends practice; its gate goes with it (a game against
  // Kirin has set its own before it took over).
  ctx.onChange(() => {
    if (switching) return;
    if (ctx.mode === 'practice' && ctx.game !== game) {
      queueMicrotask(() => {
        if (ctx.mode === 'practice' && ctx.game !== game) ctx.setMode('analysis');
      });
      return;
    }
    if (practising && ctx.mode !== 'practice') {
      if (ctx.mode !== 'play') ctx.setGate(null);
      practising = false;
    }
  });
}
