// The explorer panel (a room of the page, docs/EXPLORER.md): for the position
// on the board, the masters' moves with their games and a red / draw / black
// bar each (click a move to play it), and the position's notable games (click
// to open one). The explorer of master games is fetched the first time the panel
// shows a position. The page mounts it beside the analysis and calls update()
// whenever the position shown changes:
//
//   const explorer = mountExplorer(document.getElementById('explorer')!, {
//     position: () => shownPosition, moveStyle: () => ({ notation }), language: () => lang,
//     play: (uci) => playMove(uci), openGame: (g) => setGame(g),
//   });
//   explorer.update();

import {
  fetchMastersExplorer,
  notableGameRecord,
  type Explorer,
  type Game,
  type MoveStyle,
  type Position,
  type Result,
} from '../../src/browser/index.js';
import type { Language } from '../i18n/catalog.js';
import { EXPLORER_MESSAGES } from './messages.js';
import { explorerRows, fill, notableLine } from './model.js';

/** What the panel needs from the page. */
export interface ExplorerHost {
  /** The position on the board. */
  position(): Position;
  /** How moves are written (the player's notation). */
  moveStyle(): MoveStyle;
  /** The player's language. */
  language(): Language;
  /** Plays a move (UCI) on the board. */
  play(uci: string): void;
  /** Opens a game (a notable game) on the board. */
  openGame(game: Game): void;
  /** Where the explorer comes from; by default Kirin's master games beside kirin.js. */
  load?(): Promise<Result<Explorer, string>>;
}

export interface ExplorerPanel {
  /** Shows the explorer's moves for the host's position now. */
  update(): void;
  /** Empties the root. */
  destroy(): void;
}

const BAR_COLOURS = ['#c8372d', '#a8a8a8', '#2b2b2b'];

function el<K extends keyof HTMLElementTagNameMap>(tag: K, className: string, text?: string): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  e.className = className;
  if (text !== undefined) e.textContent = text;
  return e;
}

/** Mounts the explorer panel in `root` (its children are replaced). */
export function mountExplorer(root: HTMLElement, host: ExplorerHost): ExplorerPanel {
  let explorer: Explorer | null = null;
  let failure: string | null = null;
  let loading: Promise<void> | null = null;
  const t = (key: string, values?: Record<string, string | number>): string =>
    fill(EXPLORER_MESSAGES[host.language()][`explorer.${key}`] ?? key, values);

  const load = (): Promise<void> =>
    (loading ??= (host.load ? host.load() : fetchMastersExplorer()).then((r) => {
      if (r.ok) explorer = r.value;
      else failure = r.error.message;
      draw();
    }));

  function draw(): void {
    root.replaceChildren();
    root.classList.add('explorer');
    root.append(el('h3', 'explorer-title', t('title')));
    if (failure !== null) {
      root.append(el('p', 'explorer-status', t('failed', { why: failure })));
      return;
    }
    if (explorer === null) {
      root.append(el('p', 'explorer-status', t('loading')));
      void load();
      return;
    }
    const pos = host.position();
    const here = explorer.probe(pos);
    if (here === null) {
      const d = explorer.description;
      root.append(
        el('p', 'explorer-status', t('none', { min: String(d.minGames ?? ''), depth: String(d.depth ?? '') })),
      );
    } else {
      root.append(el('p', 'explorer-games', t('games', { games: here.games })));
      const table = el('table', 'explorer-moves');
      const head = el('tr', 'explorer-head');
      for (const k of ['move', 'games', 'red', 'draw', 'black']) head.append(el('th', '', k === 'games' ? '#' : t(k)));
      table.append(head);
      for (const row of explorerRows(pos, here, host.moveStyle())) {
        const tr = el('tr', 'explorer-row');
        tr.dataset.uci = row.uci;
        tr.title = t('play', { move: row.text });
        tr.style.cursor = 'pointer';
        tr.addEventListener('click', () => host.play(row.uci));
        tr.append(el('td', 'explorer-move', row.text), el('td', 'explorer-count', `${row.games} (${row.share}%)`));
        const bar = el('td', 'explorer-bar');
        bar.colSpan = 3;
        const track = el('div', 'explorer-track');
        track.style.display = 'flex';
        track.style.minWidth = '8em';
        row.wdl.forEach((p, i) => {
          const part = el('span', ['red', 'draw', 'black'][i], p >= 12 ? `${p}%` : '');
          part.style.width = `${p}%`;
          part.style.background = BAR_COLOURS[i];
          part.style.color = i === 1 ? '#111' : '#fff';
          part.style.textAlign = 'center';
          track.append(part);
        });
        bar.append(track);
        tr.append(bar);
        table.append(tr);
      }
      root.append(table);
      if (here.notable.length > 0) {
        root.append(el('h4', 'explorer-notable-title', t('notable')));
        const list = el('ul', 'explorer-notable');
        for (const g of here.notable) {
          const li = el('li', 'explorer-game', notableLine(g));
          li.title = t('open');
          li.style.cursor = 'pointer';
          li.addEventListener('click', () => host.openGame(notableGameRecord(g)));
          list.append(li);
        }
        root.append(list);
      }
    }
    root.append(el('p', 'explorer-source', t('source')));
  }

  return {
    update: draw,
    destroy: () => root.replaceChildren(),
  };
}
