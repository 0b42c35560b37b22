// The moves room (the 着法 tab): the game's move list, a click on a move shows
// it, and the edits of the move shown: promote its variation to the main line,
// delete it and what follows, and its comment, written in the box under the
// list (kept in the game and exported with the PGN). A right click on a move
// offers the same edits. While a game against Kirin runs the moves are the
// game's: no edit.

import type { MoveNode } from '../../src/browser/index.js';
import { $ } from '../dom.js';
import {
  commentAt,
  deleteMove,
  onMainLine,
  pathTo,
  promoteVariation,
  raiseVariation,
  setComment,
  type EditResult,
} from '../game/tree.js';
import type { PageContext } from '../page.js';
import { nagMark, renderMoveList, type MoveMark, type RenderedList } from './list.js';

export interface MovesOptions {
  /** A main-line move's mark from the review (null: none, or not reviewed). */
  reviewMark(node: MoveNode, ply: number): MoveMark | null;
  /** Moves Kirin played from its opening book. */
  book: ReadonlySet<MoveNode>;
}

export function mountMoves(ctx: PageContext, opts: MovesOptions): void {
  const t = ctx.t;
  const list = $('moves');
  const comment = $<HTMLTextAreaElement>('comment');
  const menu = $('move-menu');
  let listed: RenderedList = { nodes: [], parents: new Map() };

  const render = (): void => {
    const path = ctx.path;
    listed = renderMoveList(list, ctx.game, {
      style: ctx.moveStyle(),
      current: path.length > 0 ? path[path.length - 1] : null,
      mark: (node, ply) => opts.reviewMark(node, ply) ?? nagMark(node, t('moves.annotated')),
      book: opts.book,
      words: {
        book: t('moves.book'),
        bookTitle: t('moves.book-title'),
        annotated: t('moves.annotated'),
        result: (r) => t(r === '1-0' ? 'game.result.red' : r === '0-1' ? 'game.result.black' : 'game.result.draw'),
      },
    });
    const cur = list.querySelector<HTMLElement>('.move.current');
    if (cur) {
      // Keep the move shown in view, inside the list only (the page does not jump).
      const top = cur.offsetTop - list.offsetTop;
      if (top < list.scrollTop || top + cur.offsetHeight > list.scrollTop + list.clientHeight)
        list.scrollTop = Math.max(0, top - list.clientHeight / 2);
    } else if (path.length === 0) list.scrollTop = 0;
    const h = ctx.game.headers;
    const players = h.Red || h.Black ? `${h.Red ?? '?'} – ${h.Black ?? '?'}` : '';
    $('game-info').textContent = [players, h.Event, h.Date, ctx.game.result !== '*' ? ctx.game.result : '']
      .filter((x) => x)
      .join(', ');
    const playing = ctx.mode === 'play';
    $<HTMLButtonElement>('move-promote').disabled = playing || onMainLine(ctx.game, path);
    $<HTMLButtonElement>('move-delete').disabled = playing || path.length === 0;
    comment.placeholder = path.length > 0 ? t('moves.comment-placeholder') : t('moves.comment-start-placeholder');
  };

  /** Applies an edit of the game: the position shown follows it. */
  const apply = (r: EditResult): void => {
    if (!r.ok) return;
    const samePath = r.path.length === ctx.path.length && r.path.every((n, i) => n === ctx.path[i]);
    if (samePath) ctx.edited('game');
    else ctx.goTo(r.path);
  };
  const promote = (path: readonly MoveNode[]): void => {
    if (ctx.mode !== 'play') apply(promoteVariation(ctx.game, path));
  };
  const remove = (path: readonly MoveNode[]): void => {
    if (ctx.mode !== 'play') apply(deleteMove(ctx.game, path));
  };

  ctx.onChange((c) => {
    // The comment box shows the comment of the move shown (not rewritten while the player types in it).
    if (c.kind === 'position') comment.value = commentAt(ctx.game, ctx.path);
    render();
  });

  list.addEventListener('click', (ev) => {
    const span = (ev.target as HTMLElement).closest<HTMLElement>('.move[data-node]');
    if (!span) return;
    const node = listed.nodes[Number(span.dataset.node)];
    if (node) ctx.goTo(pathTo(node, listed.parents));
  });
  $('move-promote').addEventListener('click', () => promote(ctx.path));
  $('move-delete').addEventListener('click', () => remove(ctx.path));
  comment.addEventListener('input', () => {
    const path = ctx.path;
    const target = path.length > 0 ? path[path.length - 1] : ctx.game;
    // The text as typed while typing; tree.ts's setComment cleans it when saved for good (change).
    target.comment = comment.value;
    ctx.edited('game');
  });
  comment.addEventListener('change', () => {
    if (setComment(ctx.game, ctx.path, comment.value).ok) ctx.edited('game');
  });

  // The right-click menu of a move: show it, promote, raise, delete.
  const closeMenu = (): void => {
    menu.hidden = true;
  };
  list.addEventListener('contextmenu', (ev) => {
    const span = (ev.target as HTMLElement).closest<HTMLElement>('.move[data-node]');
    const node = span ? listed.nodes[Number(span.dataset.node)] : undefined;
    if (!node) return;
    ev.preventDefault();
    const path = pathTo(node, listed.parents);
    const main = onMainLine(ctx.game, path);
    const edits = ctx.mode !== 'play';
    const items: [string, boolean, () => void][] = [
      ['moves.menu.show', true, () => ctx.goTo(path)],
      ['moves.promote', edits && !main, () => promote(path)],
      [
        'moves.raise',
        edits && !main && listed.parents.get(node)?.children[0] !== node,
        () => apply(raiseVariation(ctx.game, path)),
      ],
      ['moves.delete', edits, () => remove(path)],
    ];
    menu.replaceChildren();
    for (const [key, enabled, action] of items) {
      const b = document.createElement('button');
      b.type = 'button';
      b.dataset.action = key.split('.').pop();
      b.textContent = t(key);
      b.disabled = !enabled;
      b.addEventListener('click', () => {
        closeMenu();
        action();
      });
      menu.appendChild(b);
    }
    menu.hidden = false;
    menu.style.left = `${ev.clientX}px`;
    menu.style.top = `${ev.clientY}px`;
  });
  document.addEventListener('click', (ev) => {
    if (!menu.hidden && !menu.contains(ev.target as Node)) closeMenu();
  });
  document.addEventListener('keydown', (ev) => {
    if (ev.key === 'Escape') closeMenu();
  });
  render();
}
