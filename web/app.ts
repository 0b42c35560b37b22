// The page: an analysis board, a board to play Kirin on the clock, and the
// player's library of games, on the library's browser build (web/dist/kirin.js;
// the search runs in web/dist/worker.js). Everything about the game - legal
// moves, FEN, notation, game files, the judgement of the selected Repetition
// Rule - comes from the library. This file wires the rooms; each room draws
// and listens in its own folder:
//
//   page.ts      the core the rooms share (PageContext: the game, the position
//                shown, the engine, the language; how to mount a room)
//   board/       the board on chessgroundx, Kirin's pieces, themes, sounds
//   game/        the game tree's edits and the game in words (results, errors)
//   moves/       the move list, its edits and comments (the 着法 tab)
//   analysis/    Kirin's lines, the evaluation bar, the status line
//   review/      the review of a game (the 复盘 tab)
//   play/        a game against Kirin on the clock (the 对弈 tab, the clocks)
//   library/     the games kept in this browser (the 棋谱库 tab, the session)
//   editor/      the board editor (摆棋, a dialog)
//   explorer/    the masters' moves for the position shown (the 开局库 tab)
//   practice/    puzzles from master games, Kirin defending (the 练习 tab)
//   referee/     the rules' ruling on a repetition, in words (谁应变着？)
//   io/          import, export, FEN, the address
//   settings/    the 设置 tab and the choices kept in the browser
//   shell/       the tabs and the navigation
//   i18n/        the languages (each room's messages.ts, joined in rooms.ts)
//   pwa/         the boot script and the service worker (any static host, offline)

import {
  Engine,
  REFEREE_MATE_THREAT_DEPTH,
  browserSupport,
  newGame,
  type MoveNode,
  type Notation,
} from '../src/browser/index.js';
import { mountAnalysis } from './analysis/engine.js';
import { createSounds } from './board/sound.js';
import { mountBoard } from './board/view.js';
import { $ } from './dom.js';
import { mountEditorDialog } from './editor/index.js';
import { mountExplorerRoom } from './explorer/room.js';
import { joinCatalogs, translateLabels, translator, type Translate } from './i18n/i18n.js';
import { chooseLanguage } from './i18n/language.js';
import { ROOM_MESSAGES } from './i18n/rooms.js';
import { mountIo } from './io/io.js';
import { mountLibrary, openLibrary, type LibraryRoom } from './library/index.js';
import { mountMoves } from './moves/moves.js';
import { createPage, isNotation } from './page.js';
import { mountPlay, type PlayRoom } from './play/index.js';
import { mountPracticeRoom } from './practice/room.js';
import { mountReferee } from './referee/room.js';
import { reviewMark, mountReview } from './review/review.js';
import { createReviewState } from './review/state.js';
import { storedPrefs } from './settings/prefs.js';
import { mountSettings } from './settings/settings.js';
import { mountNav } from './shell/nav.js';
import { mountTabs } from './shell/tabs.js';

/**
 * What this browser lacks, said on the page: #fatal when Kirin cannot search
 * (not cross-origin isolated, no SharedArrayBuffer), #notice when it plays
 * slower (no WebAssembly SIMD). Returns whether Kirin can search.
 */
function showSupport(t: Translate): boolean {
  const support = browserSupport();
  const say = (id: string, blocking: boolean): void => {
    const text = support.problems.filter((p) => p.blocking === blocking).map((p) => p.message);
    const box = $(id);
    box.hidden = text.length === 0;
    box.textContent = text.length === 0 ? '' : t(blocking ? 'shell.fatal' : 'shell.notice', { detail: text.join(' ') });
  };
  say('fatal', true);
  say('notice', false);
  return support.canSearch;
}

async function main(): Promise<void> {
  // The search thread starts first, with the page, and first runs the warm-up search (as
  // the command line's does): JavaScript runs slowly until compiled, and a cold
  // thread's first searches would reach a fraction of the depth.
  const engine = new Engine({ warmup: true });
  // The library's database opens meanwhile (the rooms are mounted before it is wanted).
  const opening = openLibrary();
  // The page's games open from Kirin's default book, by weight among the masters' moves: varied openings.
  engine.options.set('OwnBook', 'true');
  // One Mate Threat Depth for the page: the engine's option, set to the referee's
  // depth, judges ChineseRule's mate threats (杀) alike in the search, in the end of a
  // game and in the referee's words (web/referee/); at the option's default, 0,
  // ChineseRule would judge no mate threat at all.
  engine.options.set('Mate Threat Depth', String(REFEREE_MATE_THREAT_DEPTH));
  const prefs = storedPrefs(() => localStorage);
  const catalogs = joinCatalogs(ROOM_MESSAGES);
  const language = chooseLanguage(prefs.get('language'), navigator.languages ?? [navigator.language]);
  let t = translator(catalogs, language);
  const showLanguage = (): void => {
    document.documentElement.lang = ctx.language;
    document.title = t('shell.title');
    translateLabels(document, t);
  };

  const saidNotation = prefs.get('notation');
  const ctx = createPage({
    engine,
    canSearch: showSupport(t),
    notation: isNotation(saidNotation) ? saidNotation : ('chinese' as Notation),
    language,
    t,
    showTab: mountTabs($('panel')),
  });
  showLanguage();

  const sounds = createSounds(() => prefs.get('sound') !== 'off');
  const board = mountBoard(ctx, $('board'), sounds);
  const reviewState = createReviewState();
  let play: PlayRoom | null = null;
  let library: LibraryRoom | null = null;
  const analysis = mountAnalysis(ctx, board, reviewState, () => play?.status() ?? null);
  const bookMoves = new Set<MoveNode>();
  mountMoves(ctx, { reviewMark: (node, ply) => reviewMark(ctx, reviewState, node, ply), book: bookMoves });
  const review = mountReview(ctx, reviewState, analysis, (r, game) => library?.reviewed(r, game));
  const io = mountIo(ctx, reviewState, { imported: (games) => library?.imported(games) });
  play = mountPlay(
    ctx,
    $('tab-play'),
    { top: $('clock-top'), bottom: $('clock-bottom') },
    { sounds, bookMoves, review, keep: (game) => library?.played(game) },
  );
  mountExplorerRoom(ctx, $('tab-explorer'), { opened: (game) => library?.imported([game]) });
  mountPracticeRoom(ctx, $('tab-practice'), board);
  mountReferee(ctx, { box: $('referee'), ask: $<HTMLButtonElement>('referee-ask') });
  const look = mountSettings(ctx, {
    prefs,
    board,
    analysis,
    setLanguage(lang) {
      t = translator(catalogs, lang);
      ctx.setLanguage(lang, t);
      showLanguage();
      showSupport(t);
    },
  });
  mountEditorDialog(
    ctx,
    { dialog: $<HTMLDialogElement>('editor-dialog'), root: $('editor'), close: $('editor-close'), open: $('setup') },
    look,
  );
  mountNav(ctx);
  engine.onMessage = (line) => ($('settings-error').textContent = line);

  // The library (IndexedDB), then the game: the one open when the page was left (with its
  // review), else the one the address names, else a new one. The search thread starts
  // meanwhile and shows the evaluation it plays with.
  library = mountLibrary(ctx, $('tab-library'), await opening, review);
  if (!(await library.restore()) && !io.openLink()) ctx.setGame(newGame());
  document.body.dataset.ready = 'yes';
}

/**
 * Starts the page, unless the boot script (web/pwa/boot.ts) is about to reload
 * it through the service worker (<html data-isolation="pending">): a search
 * thread started now would be thrown away. If the reload does not come (the
 * boot script says why instead), the page starts then, without searches.
 */
function start(): void {
  const html = document.documentElement;
  if (html.dataset.isolation !== 'pending') return void main();
  const watch = new MutationObserver(() => {
    if (html.dataset.isolation === 'pending') return;
    watch.disconnect();
    void main();
  });
  watch.observe(html, { attributes: true, attributeFilter: ['data-isolation'] });
}

start();
