// Practice mode's panel (a room of the page, docs/PUZZLES.md): the puzzle's
// task and theme, what the last move did, Hint / Retry / Next, and the player's
// rating. The board stays the page's: the page shows what host.show() gives and
// passes the player's moves to move(); Kirin's defence comes back through
// show(). Kirin's puzzles are fetched when start() is first called; the progress
// (rating, solved, missed) is kept through the host (localStorage on the page).
//
//   const practice = mountPractice(document.getElementById('practice')!, {
//     language: () => lang, moveStyle: () => ({ notation }),
//     show: (pos, last) => showOnBoard(pos, last), highlight: (sq) => markSquare(sq),
//     loadProgress: () => localStorage.getItem('kirin.practice'),
//     saveProgress: (t) => localStorage.setItem('kirin.practice', t),
//   });
//   await practice.start();          // then, for each move the player makes: practice.move(uci)

import {
  fetchPuzzles,
  formatMove,
  parseLegalMove,
  type MoveStyle,
  type Position,
  type PuzzleSet,
  type Result,
} from '../../src/browser/index.js';
import type { Language } from '../i18n/catalog.js';
import { fill } from '../explorer/model.js';
import { PRACTICE_MESSAGES } from './messages.js';
import { PracticeSession, readProgress } from './model.js';

/** What the panel needs from the page. */
export interface PracticeHost {
  language(): Language;
  moveStyle(): MoveStyle;
  /** Shows a position on the board, with the move that led to it (null at the puzzle's start). */
  show(position: Position, lastMove: string | null): void;
  /** Marks a square (the hint: the piece to move). */
  highlight(square: string): void;
  loadProgress(): string | null;
  saveProgress(text: string): void;
  /** Where the puzzles come from; by default Kirin's beside kirin.js. */
  loadPuzzles?(): Promise<Result<PuzzleSet, string>>;
}

export interface PracticePanel {
  /** Loads the puzzles (the first time) and shows the next puzzle. */
  start(): Promise<void>;
  /** The player's move on the board (UCI). */
  move(uci: string): void;
  /** Shows the puzzle where the player left it again (after another game was on the board). */
  show(): void;
  destroy(): void;
}

function button(text: string, onClick: () => void): HTMLButtonElement {
  const b = document.createElement('button');
  b.type = 'button';
  b.textContent = text;
  b.addEventListener('click', onClick);
  return b;
}

/** Mounts Practice mode's panel in `root` (its children are replaced). */
export function mountPractice(root: HTMLElement, host: PracticeHost): PracticePanel {
  let session: PracticeSession | null = null;
  let failure: string | null = null;
  let note = '';
  const t = (key: string, values?: Record<string, string | number>): string =>
    fill(PRACTICE_MESSAGES[host.language()][`practice.${key}`] ?? key, values);

  const save = (): void => {
    if (session) host.saveProgress(JSON.stringify(session.progress));
  };

  /** A move of the line in the player's notation, from the position before it. */
  const written = (before: Position | null, uci: string): string => {
    if (before === null) return uci;
    const m = parseLegalMove(before, uci);
    const text = m.ok ? formatMove(before, m.value, host.moveStyle()) : null;
    return text?.ok ? text.value : uci;
  };

  function draw(): void {
    root.replaceChildren();
    root.classList.add('practice');
    const add = (tag: string, className: string, text: string): void => {
      const e = document.createElement(tag);
      e.className = className;
      e.textContent = text;
      root.append(e);
    };
    add('h3', 'practice-title', t('title'));
    if (failure !== null) return add('p', 'practice-status', t('failed', { why: failure }));
    if (session === null) return add('p', 'practice-status', t('loading'));
    const p = session.puzzle;
    if (p === null) return add('p', 'practice-status', t('done'));
    // The solver is the side to move in the puzzle's position ('w' in its FEN: Red).
    add('p', 'practice-task', t(p.fen.split(' ')[1] === 'b' ? 'toMove.black' : 'toMove.red'));
    const themes = p.themes.map((th) => (th === 'mate' ? t('mate', { n: p.mateIn ?? '?' }) : t(th))).join(' · ');
    add('p', 'practice-themes', themes);
    if (note !== '') add('p', `practice-status ${session.status}`, note);
    const buttons = document.createElement('div');
    buttons.className = 'practice-buttons';
    if (session.status === 'solving') buttons.append(button(t('hint'), hint));
    if (session.status !== 'solving') buttons.append(button(t('retry'), retry));
    buttons.append(button(t('next'), next));
    root.append(buttons);
    add('p', 'practice-rating', t('rating', { rating: session.progress.rating, puzzle: p.rating }));
    add('p', 'practice-source', sourceText(p.source, t));
  }

  function showBoard(last: string | null): void {
    const pos = session?.position();
    if (pos) host.show(pos, last);
  }

  function next(): void {
    if (!session) return;
    session.next();
    note = '';
    showBoard(null);
    draw();
  }

  function retry(): void {
    if (!session) return;
    session.retry();
    note = '';
    showBoard(null);
    draw();
  }

  function hint(): void {
    const square = session?.hint();
    if (square) host.highlight(square);
    save();
    draw();
  }

  return {
    async start(): Promise<void> {
      if (session === null && failure === null) {
        draw();
        const r = await (host.loadPuzzles ? host.loadPuzzles() : fetchPuzzles());
        if (!r.ok) {
          failure = r.error.message;
          return draw();
        }
        session = new PracticeSession(r.value.puzzles, readProgress(host.loadProgress()));
      }
      next();
    },
    move(uci: string): void {
      if (!session || session.puzzle === null) return;
      const before = session.position();
      const expected = session.puzzle.moves[session.played.length];
      const answer = session.play(uci);
      if (answer.verdict === 'wrong') note = t('wrong', { move: written(before, expected ?? uci) });
      else if (answer.verdict === 'solved') note = t('solved');
      else note = t('correct');
      save();
      showBoard(answer.defence ?? (answer.verdict === 'wrong' ? null : uci));
      draw();
    },
    show: () => showBoard(null),
    destroy: () => root.replaceChildren(),
  };
}

/**
 * Where a puzzle comes from, in the player's language: the library writes
 * "Kirin self-play, kn20.kc game 564, move 63" or "<players, event>, move 31".
 */
function sourceText(source: string, t: (key: string, values?: Record<string, string | number>) => string): string {
  const self = /^Kirin self-play, (.+) game (\d+), move (\d+)$/.exec(source);
  if (self) return t('source-selfplay', { file: self[1], game: self[2], move: self[3] });
  const game = /^(.*), move (\d+)$/.exec(source);
  return game ? t('source-move', { source: game[1], move: game[2] }) : t('source', { source });
}
