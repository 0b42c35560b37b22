// The page: an analysis board and a board to play Kirin on, on the library's
// browser build (web/dist/kirin.js; the search runs in web/dist/worker.js).
// Everything about the game - legal moves, FEN, notation, game files, the
// judgement of the selected Repetition Rule - comes from the library. This file
// wires the rooms; each room draws and listens in its own folder:
//
//   page.ts      the core the rooms share (PageContext: the game, the position
//                shown, the engine, the language; how to mount a room)
//   board/       the board on chessgroundx, Kirin's pieces, themes, sounds
//   game/        the game tree's edits and the game in words (results, errors)
//   moves/       the move list, its edits and comments (the 着法 tab)
//   analysis/    Kirin's lines, the evaluation bar, Kirin's moves, the status
//   review/      the review of a game (the 复盘 tab)
//   io/          import, export, FEN, the address
//   settings/    the 设置 tab and the choices kept in the browser
//   shell/       the tabs and the navigation
//   i18n/        the languages (each room's messages.ts, joined in rooms.ts)

import { Engine, browserSupport, newGame, type Notation } from '../src/browser/index.js';
import { mountAnalysis } from './analysis/engine.js';
import { mountPlay } from './analysis/play.js';
import { createSounds } from './board/sound.js';
import { mountBoard } from './board/view.js';
import { $ } from './dom.js';
import type { Language } from './i18n/catalog.js';
import { isLanguage, joinCatalogs, pickLanguage, translateLabels, translator, type Translate } from './i18n/i18n.js';
import { ROOM_MESSAGES } from './i18n/rooms.js';
import { mountIo } from './io/io.js';
import { mountMoves } from './moves/moves.js';
import { createPage, isNotation } from './page.js';
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

function main(): void {
  // The search thread starts first, with the page, and first runs the warm-up search (as
  // the command line's does): JavaScript runs slowly until compiled, and a cold
  // thread's first searches would reach a fraction of the depth.
  const engine = new Engine({ warmup: true });
  // The page opens from Kirin's default book, by weight among the masters' moves: varied openings.
  engine.options.set('OwnBook', 'true');
  const prefs = storedPrefs(() => localStorage);
  const catalogs = joinCatalogs(ROOM_MESSAGES);
  const saved = prefs.get('language');
  const language: Language = isLanguage(saved) ? saved : pickLanguage(navigator.languages ?? [navigator.language]);
  let t = translator(catalogs, language);
  const showLanguage = (lang: Language): void => {
    document.documentElement.lang = lang;
    document.title = t('shell.title');
    translateLabels(document, t);
  };
  showLanguage(language);

  const saidNotation = prefs.get('notation');
  const ctx = createPage({
    engine,
    canSearch: showSupport(t),
    notation: isNotation(saidNotation) ? saidNotation : ('chinese' as Notation),
    language,
    t,
    showTab: mountTabs($('panel')),
  });

  const board = mountBoard(
    ctx,
    $('board'),
    createSounds(() => prefs.get('sound') !== 'off'),
  );
  const review = createReviewState();
  const play = mountPlay(ctx);
  const analysis = mountAnalysis(ctx, board, review, play);
  mountMoves(ctx, { reviewMark: (node, ply) => reviewMark(ctx, review, node, ply), book: analysis.bookMoves });
  mountReview(ctx, review, analysis);
  const io = mountIo(ctx, review);
  mountSettings(ctx, {
    prefs,
    board,
    analysis,
    setLanguage(lang) {
      t = translator(catalogs, lang);
      showLanguage(lang);
      showSupport(t);
      ctx.setLanguage(lang, t);
    },
  });
  mountNav(ctx);
  engine.onMessage = (line) => ($('option-error').textContent = line);
  // The game the address names, else a new one; the search thread starts and shows the evaluation it plays with.
  if (!io.openLink()) ctx.setGame(newGame());
  document.body.dataset.ready = 'yes';
}

main();
