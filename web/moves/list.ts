// The move list: the game's main line in rows (number, Red's move, Black's
// move), its variations and comments between the rows, every move in the
// player's notation and a button-like span to click. Built with the DOM (no
// HTML strings: comments come from files and players).

import {
  Position,
  formatMove,
  moveToUci,
  type Game,
  type Move,
  type MoveNode,
  type MoveStyle,
  type MoveTree,
} from '../../src/browser/index.js';
import { el } from '../dom.js';

/** A mark after a move: the review's class or the game file's annotation. */
export interface MoveMark {
  /** CSS class (inaccuracy, mistake, blunder, good, ...). */
  kind: string;
  /** The glyph shown: ?! ? ?? ! !! !? */
  glyph: string;
  /** What the mark says, for the tooltip. */
  title: string;
}

export interface MoveListView {
  style: MoveStyle;
  /** The move shown on the board (null: the start position). */
  current: MoveNode | null;
  /** The mark of a main-line move (ply 1 = the first move), if any. */
  mark(node: MoveNode, ply: number): MoveMark | null;
  /** Moves Kirin played from its opening book. */
  book: ReadonlySet<MoveNode>;
  /** The words of the list: a book move's tag and its tooltip, a file's annotation's tooltip, the game's result. */
  words: { book: string; bookTitle: string; annotated: string; result: (r: '1-0' | '0-1' | '1/2-1/2') => string };
}

/** What the list shows, to find a clicked move: `nodes[i]` is the move of `data-node="i"`. */
export interface RenderedList {
  nodes: MoveNode[];
  /** The tree each node hangs from. */
  parents: Map<MoveNode, MoveTree>;
}

/** PGN's annotation glyphs $1 .. $6. */
const NAG_GLYPHS: Record<number, string> = { 1: '!', 2: '?', 3: '!!', 4: '??', 5: '!?', 6: '?!' };
const NAG_KIND: Record<number, string> = {
  1: 'good',
  2: 'mistake',
  3: 'brilliant',
  4: 'blunder',
  5: 'interesting',
  6: 'inaccuracy',
};

/** The mark a game file gave a move ($1 .. $6), if any; `title` is its tooltip. */
export function nagMark(node: MoveNode, title: string): MoveMark | null {
  const nag = node.nags.find((n) => NAG_GLYPHS[n] !== undefined);
  return nag === undefined ? null : { kind: NAG_KIND[nag], glyph: NAG_GLYPHS[nag], title };
}

/** The start position's side to move and full-move number, for numbering the moves. */
function moveNumbering(fen: string): { blackFirst: boolean; first: number } {
  const f = fen.trim().split(/\s+/);
  const n = Number(f[5]);
  return { blackFirst: f[1] === 'b', first: Number.isSafeInteger(n) && n > 0 ? n : 1 };
}

/** Move number and side of ply i (0: the first move of the game). */
export function plyLabel(fen: string, i: number): { number: number; black: boolean } {
  const { blackFirst, first } = moveNumbering(fen);
  const k = i + (blackFirst ? 1 : 0);
  return { number: first + (k >> 1), black: (k & 1) === 1 };
}

/** Renders `game` into `container` (emptied first). */
export function renderMoveList(container: HTMLElement, game: Game, view: MoveListView): RenderedList {
  const out: RenderedList = { nodes: [], parents: new Map() };
  container.replaceChildren();
  const start = Position.fromFen(game.fen);
  if (!start.ok) return out;
  const pos = start.value;

  const moveSpan = (node: MoveNode, text: string, ply: number | null): HTMLElement => {
    const s = el('span', 'move', text);
    s.dataset.node = String(out.nodes.length);
    s.dataset.uci = moveToUci(node.move);
    if (ply !== null) s.dataset.ply = String(ply);
    s.setAttribute('role', 'button');
    out.nodes.push(node);
    if (node === view.current) {
      s.classList.add('current');
      s.setAttribute('aria-current', 'true');
    }
    const mark = ply !== null ? view.mark(node, ply) : nagMark(node, view.words.annotated);
    if (mark) {
      s.classList.add(`mark-${mark.kind}`);
      const g = el('span', 'glyph', mark.glyph);
      g.title = mark.title;
      s.appendChild(g);
    }
    if (view.book.has(node)) {
      s.classList.add('book');
      s.title = view.words.bookTitle;
      s.appendChild(el('span', 'book-tag', view.words.book));
    }
    return s;
  };
  const name = (m: Move): string => {
    const t = formatMove(pos, m, view.style);
    return t.ok ? t.value : moveToUci(m);
  };
  const doMove = (m: Move): void => {
    pos.reserve(1);
    pos.doMove(m);
  };

  /** A variation inline: from `parent`'s child `first`, the line of first children, its own variations in parentheses. */
  const inline = (box: HTMLElement, parent: MoveTree, first: number, ply: number): void => {
    const played: Move[] = [];
    let tree = parent;
    let k = first;
    let numbered = false;
    for (;;) {
      const node = tree.children[k];
      out.parents.set(node, tree);
      if (node.commentBefore) box.appendChild(el('span', 'comment', node.commentBefore));
      const label = plyLabel(game.fen, ply);
      if (!label.black) box.appendChild(el('span', 'num', `${label.number}.`));
      else if (!numbered) box.appendChild(el('span', 'num', `${label.number}...`));
      numbered = true;
      box.appendChild(moveSpan(node, name(node.move), null));
      if (node.comment) box.appendChild(el('span', 'comment', node.comment));
      // The alternatives to this move (not for the variation's own first move: its caller shows them).
      if (tree !== parent)
        for (let j = 1; j < tree.children.length; j++) {
          const sub = el('span', 'subvariation');
          inline(sub, tree, j, ply);
          box.appendChild(sub);
          numbered = false;
        }
      if (node.children.length === 0) break;
      doMove(node.move);
      played.push(node.move);
      tree = node;
      k = 0;
      ply++;
    }
    for (let i = played.length - 1; i >= 0; i--) pos.undoMove(played[i]);
  };

  if (game.comment) container.appendChild(el('div', 'comment', game.comment));
  let tree: MoveTree = game;
  let ply = 0;
  /** The row has its Red move and waits for Black's. */
  let open = false;
  while (tree.children.length > 0) {
    const node = tree.children[0];
    out.parents.set(node, tree);
    const label = plyLabel(game.fen, ply);
    if (node.commentBefore) container.appendChild(el('div', 'comment', node.commentBefore));
    if (!label.black) {
      container.appendChild(el('span', 'num', `${label.number}.`));
      open = true;
    } else if (!open) {
      container.appendChild(el('span', 'num', `${label.number}.`));
      container.appendChild(el('span', 'move empty', '…'));
    }
    container.appendChild(moveSpan(node, name(node.move), ply + 1));
    if (label.black) open = false;
    const alternatives = tree.children.length > 1;
    if (alternatives || node.comment) {
      if (open) container.appendChild(el('span', 'move empty', '…'));
      open = false;
      if (node.comment) container.appendChild(el('div', 'comment', node.comment));
      for (let j = 1; j < tree.children.length; j++) {
        const box = el('div', 'variation');
        inline(box, tree, j, ply);
        container.appendChild(box);
      }
    }
    doMove(node.move);
    tree = node;
    ply++;
  }
  if (game.result !== '*' && game.children.length > 0) {
    const r = el('div', 'result', `${game.result} ${view.words.result(game.result)}`);
    r.dataset.result = game.result;
    container.appendChild(r);
  }
  return out;
}
