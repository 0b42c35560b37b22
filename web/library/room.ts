// The library room on the page: the panel (panel.ts) in the 棋谱库 tab over
// the games kept in this browser (library.ts), and the page's game kept in
// it. Every game played against Kirin and every game imported under the board
// is saved (with its headers and comments); a game the player reviews is kept
// with its review (one that was not in the library yet as the analysis
// board's). The game open on the board is saved again when it is edited (its
// moves, variations, comments), and the session remembers it and the move
// shown: a reload brings them back, review and all, unless the address names
// another game (a shared link wins). A game opened from the list is shown
// with its review; the list marks the game open on the board.

import { START_FEN, writePgn, type Game, type Review } from '../../src/browser/index.js';
import { mainLineNodes, mainLinePlies, pathOfLine } from '../game/tree.js';
import { readLink } from '../io/link.js';
import type { PageContext } from '../page.js';
import type { GameLibrary } from './library.js';
import { mountLibraryPanel, type LibraryPanel } from './panel.js';

export interface LibraryRoom {
  readonly panel: LibraryPanel;
  /** A game played against Kirin has ended: kept as played; it is the game open on the board. */
  played(game: Game): void;
  /** Games read from a file or a text under the board: each kept (once). */
  imported(games: readonly Game[]): void;
  /** A review of `game` finished: kept with it. */
  reviewed(review: Review, game: Game): void;
  /**
   * At start-up: the game open when the page was left, at the move shown, with
   * its review, unless the address names a line the game does not hold (a
   * link to another game). True when it was shown.
   */
  restore(): Promise<boolean>;
}

/** What the library room needs of the review room: to show a review kept with a game. */
export interface ReviewShown {
  show(review: Review | null): void;
}

/** How long the page waits after a change before it saves (ms): a burst of changes is saved once. */
const SAVE_DELAY = 300;

export function mountLibrary(
  ctx: PageContext,
  root: HTMLElement,
  library: GameLibrary,
  review: ReviewShown,
): LibraryRoom {
  /** The record of each game kept (the page's Game objects: the one on the board, the ones imported). */
  const ids = new WeakMap<Game, string>();
  /** A save under way for a game (its record's id when it is done, or null). */
  const saving = new WeakMap<Game, Promise<string | null>>();
  /** Each kept game's PGN as last saved: a change that leaves it the same saves nothing. */
  const savedPgn = new WeakMap<Game, string>();

  const pgnOf = (game: Game): string => {
    const r = writePgn(game, { notation: 'iccs' });
    return r.ok ? r.value : '';
  };

  /** A game's record id: kept, or once its save is done; null when it is not in the library. */
  const idOf = async (game: Game): Promise<string | null> => ids.get(game) ?? (await saving.get(game)) ?? null;

  const kept = (game: Game, id: string): void => {
    ids.set(game, id);
    savedPgn.set(game, pgnOf(game));
    if (ctx.game === game) saveSession();
  };

  // ---- The session and the edits, saved a moment after they happen ----
  let sessionTimer: ReturnType<typeof setTimeout> | null = null;
  /** The session as last saved (JSON), so that stepping through a game not kept writes nothing. */
  let savedSession = '';
  const saveSession = (): void => {
    if (sessionTimer !== null) clearTimeout(sessionTimer);
    sessionTimer = setTimeout(() => {
      sessionTimer = null;
      const id = ids.get(ctx.game);
      const session = id === undefined || ctx.mode === 'play' ? null : { id, ply: mainLinePlies(ctx.game, ctx.path) };
      if (JSON.stringify(session) === savedSession) return;
      savedSession = JSON.stringify(session);
      void library.saveSession(session);
    }, SAVE_DELAY);
  };
  let editTimer: ReturnType<typeof setTimeout> | null = null;
  const saveEdits = (): void => {
    if (editTimer !== null) clearTimeout(editTimer);
    editTimer = setTimeout(() => {
      editTimer = null;
      const game = ctx.game;
      const id = ids.get(game);
      if (id === undefined || ctx.mode === 'play') return;
      const pgn = pgnOf(game);
      if (pgn === savedPgn.get(game)) return;
      savedPgn.set(game, pgn);
      // The review stays with the game while it still fits the main line.
      void library.update(id, game);
    }, SAVE_DELAY);
  };

  const panel = mountLibraryPanel(
    root,
    {
      t: (key, params) => ctx.t(key, params),
      notation: () => ctx.notation,
      open(opened) {
        ctx.setMode('analysis');
        kept(opened.game, opened.record.id);
        ctx.setGame(opened.game);
        review.show(opened.review);
        ctx.showTab(opened.review ? 'review' : 'moves');
      },
    },
    library,
  );

  // The game open on the board is marked in the list (also after the panel lists again).
  const markOpen = (): void => {
    const id = ids.get(ctx.game);
    for (const li of root.querySelectorAll<HTMLElement>('.library-item'))
      li.classList.toggle('open', li.dataset.id === id);
  };
  new MutationObserver(markOpen).observe(root, { childList: true, subtree: true });

  ctx.onChange((c) => {
    markOpen();
    if (c.kind === 'view') void panel.refresh();
    if (c.kind === 'view' || ctx.mode === 'play') {
      if (ctx.mode === 'play') saveSession();
      return;
    }
    saveSession();
    saveEdits();
  });

  return {
    panel,
    played(game) {
      const save = library.save(game, { source: 'played' }).then((r) => (r.ok ? r.value.id : null));
      saving.set(game, save);
      void save.then((id) => {
        if (id !== null) kept(game, id);
      });
    },
    imported(games) {
      const keep = library.keepAll(games);
      games.forEach((g, i) =>
        saving.set(
          g,
          keep.then((rs) => (rs[i].ok ? rs[i].value.id : null)),
        ),
      );
      void keep.then((rs) =>
        rs.forEach((r, i) => {
          if (r.ok) kept(games[i], r.value.id);
        }),
      );
    },
    reviewed(result, game) {
      void (async () => {
        const id = await idOf(game);
        if (id !== null) {
          savedPgn.set(game, pgnOf(game));
          await library.update(id, game, result);
          return;
        }
        // A game of the analysis board, reviewed: worth keeping.
        const save = library.save(game, { source: 'analysis', review: result }).then((r) => (r.ok ? r.value.id : null));
        saving.set(game, save);
        const saved = await save;
        if (saved !== null) kept(game, saved);
      })();
    },
    async restore() {
      const session = await library.restoreSession();
      if (session === null) return false;
      const link = readLink(location.hash);
      const { game } = session;
      let path = mainLineNodes(game).slice(0, session.ply);
      if (link !== null) {
        // The address names a line: this game's (a reload), or another game's (a shared link, which wins).
        const line = pathOfLine(game, link.fen ?? START_FEN, link.moves);
        if (line === null) return false;
        path = line.slice(0, link.ply ?? line.length);
        if (ctx.flipped !== link.flipped) ctx.setFlipped(link.flipped);
      }
      kept(game, session.record.id);
      ctx.setMode('analysis');
      ctx.setGame(game);
      if (path.length > 0) ctx.goTo(path);
      review.show(session.review);
      return true;
    },
  };
}
