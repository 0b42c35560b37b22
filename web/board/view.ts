// The board room: the position shown on chessgroundx (the board pychess.org
// uses for xiangqi: drag and click, animation, the last move, the check,
// arrows and circles drawn with the right button, coordinates, flip), with
// Kirin's own piece and board drawings (drawing.ts), the engine's arrows over
// it, and the sounds of moves. Legal moves come from the library: the board
// only offers them (movable.dests) and hands the one played to the page.

import { Chessground } from 'chessgroundx';
import type { Api } from 'chessgroundx/api.js';
import { Notation as CgNotation, type Key } from 'chessgroundx/types.js';
import { legalMoves, moveFrom, moveTo, type Position } from '../../src/browser/index.js';
import { positionAfter } from '../game/tree.js';
import type { PageContext } from '../page.js';
import { BOARD_THEMES, arrowsSvg, boardCss, pieceSvg, type Arrow, type BoardTheme, type PieceSet } from './drawing.js';
import { keySquare, squareKey } from './squares.js';
import type { Sounds } from './sound.js';

export interface BoardView {
  /** The engine's arrows on the board (replacing the ones shown). */
  setArrows(arrows: readonly Arrow[]): void;
  /** The piece set and the board's colours. */
  setLook(set: PieceSet, theme: BoardTheme): void;
  /** Circles a square (0..89; a puzzle's hint) until the position changes. */
  mark(square: number): void;
}

/** chessgroundx's colour of a side (RED 0, BLACK 1). */
const cgColour = (side: number): 'white' | 'black' => (side === 0 ? 'white' : 'black');

/** The legal moves of `pos` as chessgroundx's destinations. */
function destinations(pos: Position): Map<Key, Key[]> {
  const dests = new Map<Key, Key[]>();
  for (const m of legalMoves(pos)) {
    const from = squareKey(moveFrom(m));
    const list = dests.get(from);
    if (list) list.push(squareKey(moveTo(m)));
    else dests.set(from, [squareKey(moveTo(m))]);
  }
  return dests;
}

/** The king in check in `pos`, if any. */
function checkedKing(pos: Position): Key | undefined {
  if (!pos.inCheck()) return undefined;
  const king = 7 | (pos.side << 3);
  for (let sq = 0; sq < 90; sq++) if (pos.board[sq] === king) return squareKey(sq);
  return undefined;
}

/** Mounts the board in `el` (emptied); `sounds` plays the moves. */
export function mountBoard(ctx: PageContext, el: HTMLElement, sounds: Sounds): BoardView {
  el.replaceChildren();
  const style = document.createElement('style');
  style.id = 'board-style';
  document.head.appendChild(style);
  const coordinates = (): CgNotation =>
    ctx.notation === 'chinese' && ctx.language !== 'en' ? CgNotation.XIANGQI_HANNUM : CgNotation.XIANGQI_ARBNUM;
  let shownNotation = coordinates();

  const ground: Api = Chessground(el, {
    dimensions: { width: 9, height: 10 },
    notation: shownNotation,
    kingRoles: ['k-piece'],
    coordinates: true,
    addDimensionsCssVarsTo: el,
    highlight: { lastMove: true, check: true },
    animation: { enabled: true, duration: 180 },
    movable: {
      free: false,
      showDests: true,
      events: {
        after: (orig, dest) => {
          const from = keySquare(orig);
          const to = keySquare(dest);
          const m = legalMoves(ctx.pos).find((mv) => moveFrom(mv) === from && moveTo(mv) === to);
          // A move refused (a game's clock ran out meanwhile) puts the piece back.
          if (m === undefined || !ctx.offerMove(m)) render();
        },
      },
    },
    draggable: { enabled: true, showGhost: true },
    premovable: { enabled: false },
    drawable: { enabled: true, visible: true, eraseOnClick: true },
  });

  // chessgroundx keeps the board's place on the screen until a scroll or a resize of the board; the
  // page moves it without either (the clocks of a game appear above it, a banner at the top): any
  // change of the page's size makes it look again, so that a tap lands on the square under the finger.
  new ResizeObserver(() => ground.state.dom.bounds.clear()).observe(document.body);

  // The engine's arrows: Kirin's own SVG over the board, under nothing that takes the pointer.
  const arrows = document.createElement('div');
  arrows.id = 'arrows';
  el.querySelector('cg-container')?.appendChild(arrows);
  let shownArrows: readonly Arrow[] = [];

  const render = (): void => {
    const pos = ctx.pos;
    const last = ctx.path.length > 0 ? ctx.path[ctx.path.length - 1].move : 0;
    const movable = ctx.canMove();
    if (coordinates() !== shownNotation) {
      shownNotation = coordinates();
      ground.set({ notation: shownNotation });
      ground.redrawAll();
      el.querySelector('cg-container')?.appendChild(arrows);
    }
    ground.set({
      fen: pos.fen().split(' ')[0],
      orientation: ctx.flipped ? 'black' : 'white',
      turnColor: cgColour(pos.side),
      lastMove: last ? [squareKey(moveFrom(last)), squareKey(moveTo(last))] : undefined,
      check: checkedKing(pos) ? [checkedKing(pos)!] : false,
      movable: { color: movable ? cgColour(pos.side) : undefined, dests: movable ? destinations(pos) : new Map() },
    });
    el.dataset.flipped = ctx.flipped ? 'yes' : 'no';
    el.dataset.movable = movable ? 'yes' : 'no';
    el.dataset.fen = pos.fen();
    arrows.innerHTML = shownArrows.length > 0 ? arrowsSvg(shownArrows, ctx.flipped) : '';
  };

  ctx.onChange((c) => {
    if (c.kind === 'position') {
      ground.setShapes([]); // the player's own arrows belong to the position they were drawn on
      // A move forward (played or stepped through): its sound.
      const p = ctx.path;
      if (p.length === c.before.length + 1 && c.before.every((n, i) => n === p[i])) {
        const m = p[p.length - 1].move;
        const captured = positionAfter(ctx.game.fen, c.before).board[moveTo(m)] !== 0;
        sounds.play(
          ctx.judgement().result !== 'none' ? 'end' : ctx.pos.inCheck() ? 'check' : captured ? 'capture' : 'move',
        );
      }
    }
    render();
  });
  render();

  return {
    setArrows(a) {
      shownArrows = a;
      arrows.innerHTML = a.length > 0 ? arrowsSvg(a, ctx.flipped) : '';
    },
    mark(square) {
      ground.setShapes([{ orig: squareKey(square), brush: 'green' }]);
    },
    setLook(set, theme) {
      style.textContent = boardCss(set, theme);
      // The page's emblem in the header: the red king of the set.
      const logo = document.getElementById('logo');
      if (logo) logo.innerHTML = pieceSvg(set, 0, 7, BOARD_THEMES[theme]);
      el.dataset.pieces = set;
      el.dataset.theme = theme;
    },
  };
}
