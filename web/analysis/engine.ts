// The analysis room: Kirin at work on the position shown. With Analysis on it
// searches that position until it changes, with 1 to 3 lines (MultiPV): the
// lines with their scores, a click on a move plays the line up to it, the first
// move of each line an arrow on the board, the evaluation bar, the book's moves.
// With Analysis off the search thread only evaluates the position shown (the
// settings' static evaluation). While a game against Kirin runs (ctx.mode
// 'play') the engine is the play room's (web/play/) and this room leaves it
// alone. The status line under the board says whose move it is, or how the
// game ended. A review (web/review/) suspends the searches while it runs.

import {
  RED,
  classifyOpening,
  formatLine,
  formatMove,
  formatReviewScore,
  materialCount,
  moveFrom,
  moveTo,
  moveToUci,
  parseLegalMove,
  toCp,
  type Position,
  type SearchInfo,
} from '../../src/browser/index.js';
import type { Arrow } from '../board/drawing.js';
import type { BoardView } from '../board/view.js';
import { $, el } from '../dom.js';
import { judgementText, sideName } from '../game/words.js';
import { plyLabel } from '../moves/list.js';
import type { PageContext } from '../page.js';
import { reviewedIndex, type ReviewState } from '../review/state.js';
import { redShare, scoreText } from './score.js';

/** What the status line says of a game against Kirin (web/play/): its turn, or how it ended; null: nothing of its own. */
export type GameStatus = () => string | null;

export interface AnalysisRoom {
  /** Stops the search in progress and keeps the engine idle until resume() (a review). */
  suspend(): Promise<void>;
  resume(): void;
  /** After a change of evaluation (a network loaded, Classical): the analysis restarts, the static evaluation is shown again. */
  evaluationChanged(): void;
}

export function mountAnalysis(
  ctx: PageContext,
  board: BoardView,
  review: ReviewState,
  gameStatus: GameStatus,
): AnalysisRoom {
  const engine = ctx.engine;
  const t = ctx.t;
  /** Bumped whenever the position shown or the game changes: an older search's output is ignored. */
  let generation = 0;
  let suspended = false;
  /** Bumped with every static-evaluation request: only the latest answer is shown. */
  let evalRequest = 0;
  /** The lines of the last search (index: multipv - 1): the analysis of the position shown, or Kirin's last move's. */
  let lines: SearchInfo[] = [];
  /** The position `lines` are about and its ply in the game. */
  let linesAt: { pos: Position; ply: number } = { pos: ctx.pos, ply: 0 };
  const analysing = (): boolean => ctx.mode === 'analysis' && ctx.analysing;

  const clearLines = (): void => {
    lines = [];
    linesAt = { pos: ctx.pos, ply: ctx.path.length };
  };

  // ---- Drawing ----

  const renderArrows = (): void => {
    const arrows: Arrow[] = [];
    const pos = ctx.pos;
    if (analysing() && linesAt.pos === pos)
      lines.forEach((info, i) => {
        const m = info?.pv[0];
        if (m) arrows.push({ from: moveFrom(m), to: moveTo(m), line: i + 1, uci: moveToUci(m) });
      });
    else if (review.done && !review.running) {
      // The review's best move in the position shown.
      const i = reviewedIndex(review, ctx.path);
      const best = i >= 0 ? review.done.result.positions[i].lines[0]?.pv[0] : undefined;
      const m = best ? parseLegalMove(pos, best) : null;
      if (m?.ok) arrows.push({ from: moveFrom(m.value), to: moveTo(m.value), line: 1, uci: best! });
    }
    board.setArrows(arrows);
  };

  /** The evaluation bar: Red's share (its expected score) of the position shown, as far as a search has told. */
  const renderEvalBar = (): void => {
    const pos = ctx.pos;
    const model = engine.winRateModel();
    let score: { red: number; material: number; depth: number } | null = null;
    if (analysing() && lines[0] && linesAt.pos === pos) {
      const stm = lines[0].score;
      score = { red: pos.side === RED ? stm : -stm, material: materialCount(pos), depth: lines[0].depth };
    }
    const bar = $('evalbar');
    const i = score ? -1 : reviewedIndex(review, ctx.path);
    if (i >= 0 && review.done) {
      const s = review.done.result.positions[i].score;
      const text = formatReviewScore(s);
      bar.style.setProperty('--red', `${(s.redWin * 100).toFixed(1)}%`);
      bar.dataset.redShare = s.redWin.toFixed(3);
      bar.setAttribute('aria-label', t('analysis.evalbar.review-label', { score: text }));
      bar.title = t('analysis.evalbar.review-title', { score: text, share: Math.round(s.redWin * 100) });
      return;
    }
    const share = score ? redShare(score.red, score.material, model) : 0.5;
    bar.style.setProperty('--red', `${(share * 100).toFixed(1)}%`);
    bar.dataset.redShare = score ? share.toFixed(3) : '';
    const text = score ? scoreText(score.red, score.material, model) : '';
    bar.setAttribute('aria-label', score ? t('analysis.evalbar.label', { score: text }) : t('analysis.evalbar.none'));
    bar.title = score
      ? t('analysis.evalbar.title', { score: text, depth: score.depth, share: Math.round(share * 100) })
      : '';
  };

  /** With Analysis on: the opening book's moves for the position shown, with their share and games. */
  const renderBookMoves = (): void => {
    const box = $('book-moves');
    const pos = ctx.pos;
    const moves = analysing() && ctx.canSearch ? engine.bookMoves() : [];
    // The engine's position is the position shown once next() has set it.
    const shown = engine.fen() === pos.fen() ? moves : [];
    box.hidden = shown.length === 0;
    box.textContent = shown.length === 0 ? '' : t('analysis.book-moves');
    shown.slice(0, 6).forEach((b, i) => {
      const text = formatMove(pos, b.move, ctx.moveStyle());
      const m = el('span', 'book-move', `${text.ok ? text.value : b.uci} ${Math.round(100 * b.share)}%`);
      m.dataset.uci = b.uci;
      m.title = t('analysis.book-title', { games: b.games, wins: b.wins, draws: b.draws, losses: b.losses });
      m.addEventListener('click', () => ctx.playLine([b.move]));
      if (i > 0) box.append(t('analysis.list-separator'));
      box.appendChild(m);
    });
  };

  /**
   * The search's lines (MultiPV): each line's score from Red and its moves in the
   * player's notation. The analysis's lines are of the position shown, and a
   * click on a move plays the line up to it; after Kirin's move its line is shown.
   */
  const renderLines = (): void => {
    const box = $('lines');
    box.replaceChildren();
    renderBookMoves();
    const model = engine.winRateModel();
    const at = linesAt.pos;
    const live = at === ctx.pos;
    const first = lines[0];
    const red = (info: SearchInfo): number => (at.side === RED ? info.score : -info.score);
    $('info').hidden = !first;
    $('score').textContent = first ? scoreText(red(first), materialCount(at), model) : '-';
    $('depth').textContent = first ? String(first.depth) : '-';
    $('nodes').textContent = first ? String(first.nodes) : '-';
    $('nps').textContent = first ? String(first.nps) : '-';
    lines.forEach((info, i) => {
      if (!info) return;
      const row = el('div', 'line');
      row.dataset.line = String(i + 1);
      row.appendChild(el('span', 'score', scoreText(red(info), materialCount(at), model)));
      const pv = el('span', 'pv');
      const names = formatLine(at, info.pv, ctx.moveStyle());
      if (names.ok) {
        names.value.forEach((text, k) => {
          const label = plyLabel(ctx.game.fen, linesAt.ply + k);
          if (k === 0 || !label.black) pv.append(`${label.number}.${label.black && k === 0 ? '..' : ''} `);
          const m = el('span', live ? 'pv-move live' : 'pv-move', text);
          m.dataset.index = String(k);
          m.dataset.uci = moveToUci(info.pv[k]);
          if (live) m.addEventListener('click', () => ctx.playLine(info.pv.slice(0, k + 1)));
          pv.appendChild(m);
          pv.append(' ');
        });
      } else pv.textContent = info.pv.map(moveToUci).join(' ');
      row.appendChild(pv);
      box.appendChild(row);
    });
  };

  let linesQueued = false;
  /** Redraws what a search's output changes, once per frame at most. */
  const queueSearchOutput = (): void => {
    if (linesQueued) return;
    linesQueued = true;
    requestAnimationFrame(() => {
      linesQueued = false;
      renderLines();
      renderArrows();
      renderEvalBar();
    });
  };

  const renderStatus = (): void => {
    const pos = ctx.pos;
    const over = judgementText(t, ctx.judgement());
    const side = sideName(t, pos.side);
    const status = $('status');
    const game = gameStatus();
    status.dataset.over = over || (game !== null && ctx.mode === 'analysis') ? 'yes' : 'no';
    if (game !== null) status.textContent = game;
    else if (over) status.textContent = t('analysis.status.over', { result: over });
    else if (analysing()) status.textContent = t('analysis.status.analysis', { side });
    else if (ctx.here().children.length > 0)
      status.textContent = t('analysis.status.in-game', { ply: ctx.path.length, side });
    else status.textContent = t('analysis.status.board', { side });
    $('eval-status').textContent = t('analysis.evaluation', { name: engine.evaluationName() });
    // The ECCO opening of the moves to the position shown.
    const opening = classifyOpening(
      ctx.path.map((n) => moveToUci(n.move)),
      ctx.game.fen,
    );
    $('opening').textContent = opening.ok
      ? [opening.value.code, opening.value.name, opening.value.variation].filter((x) => x !== '').join(' ')
      : '';
    const toggle = $<HTMLInputElement>('analysis');
    toggle.checked = ctx.analysing;
    toggle.disabled = ctx.mode !== 'analysis';
  };

  const render = (): void => {
    renderLines();
    renderArrows();
    renderEvalBar();
    renderStatus();
  };

  /**
   * Shows the static evaluation of the position shown as the search thread
   * computes it (the evaluation Kirin plays with): #eval-static, its exact value
   * in data-value (internal units, side to move) and the position in data-fen.
   * Asked before a search starts, so it is answered at once.
   */
  const showStaticEval = async (): Promise<void> => {
    const token = ++evalRequest;
    const shown = ctx.pos;
    try {
      const r = await engine.searchThreadEvaluation();
      if (token === evalRequest) staticShown = { pos: shown, value: r.value, evaluation: r.evaluation, failed: '' };
    } catch (e) {
      if (token === evalRequest)
        staticShown = { pos: shown, value: null, evaluation: '', failed: (e as Error).message };
    }
    if (token === evalRequest) renderStatic();
  };
  /** The last static evaluation, kept to be said again in another language. */
  let staticShown: { pos: Position; value: number | null; evaluation: string; failed: string } | null = null;
  const renderStatic = (): void => {
    const box = $('eval-static');
    const s = staticShown;
    if (!s) return;
    if (s.failed) {
      box.textContent = t('analysis.static.failed', { detail: s.failed });
      return;
    }
    box.dataset.fen = s.pos.fen();
    box.dataset.value = s.value === null ? '' : String(s.value);
    box.dataset.evaluation = s.evaluation;
    const side = sideName(t, s.pos.side);
    box.textContent =
      s.value === null
        ? t('analysis.static.in-check', { side, evaluation: s.evaluation })
        : t('analysis.static.value', {
            value: (toCp(s.value, materialCount(s.pos), 'PawnValueNormalized', engine.winRateModel()) / 100).toFixed(2),
            side,
            units: s.value,
            evaluation: s.evaluation,
          });
  };

  // ---- The engine ----

  /** Stops the search in progress (only a search: Engine.stop would also cut the warm-up short). */
  const stopSearch = (): void => {
    if (engine.searching()) engine.stop();
  };

  /** The analysis's MultiPV. */
  const applyMultiPv = (): void => {
    const n = $<HTMLSelectElement>('multipv').value;
    const r = engine.options.set('MultiPV', n);
    if (!r.ok) $('option-error').textContent = r.error.message;
  };

  const searchFailed = (e: unknown): void => {
    $('status').textContent = t('analysis.search-failed', { detail: (e as Error).message });
  };

  const analyse = async (gen: number): Promise<void> => {
    applyMultiPv();
    try {
      await engine.ready();
      if (gen !== generation) return;
      await engine.go(
        { infinite: true, startTime: Date.now() },
        {
          info: (i) => {
            if (gen !== generation) return;
            lines[i.multipv - 1] = i;
            queueSearchOutput();
          },
        },
      );
    } catch (e) {
      searchFailed(e);
    }
  };

  /** After every change of the position shown or the game: a new analysis, or the static evaluation. */
  const next = async (): Promise<void> => {
    const gen = generation;
    render();
    // A game against Kirin: the engine is the play room's.
    if (ctx.mode === 'play') return;
    stopSearch();
    if (!ctx.canSearch || suspended) return;
    await engine.waitIdle();
    if (gen !== generation) return;
    const r = engine.setPosition(
      ctx.game.fen,
      ctx.path.map((n) => moveToUci(n.move)),
    );
    if (!r.ok) {
      $('status').textContent = r.error.message;
      return;
    }
    void showStaticEval();
    renderBookMoves();
    if (ctx.judgement().result !== 'none') return;
    if (analysing()) return analyse(gen);
  };

  const restart = (): void => {
    generation++;
    clearLines();
    void next();
  };

  ctx.onChange((c) => {
    if (c.kind === 'position') restart();
    else render();
    if (c.kind === 'view') renderStatic();
  });
  $<HTMLInputElement>('analysis').addEventListener('change', (ev) =>
    ctx.setAnalysing((ev.target as HTMLInputElement).checked),
  );
  $('multipv').addEventListener('change', restart);

  return {
    async suspend() {
      suspended = true;
      generation++;
      stopSearch();
      clearLines();
      await engine.waitIdle();
    },
    resume() {
      suspended = false;
      restart();
    },
    evaluationChanged() {
      renderStatus();
      if (analysing()) restart();
      else if (ctx.mode === 'analysis') void showStaticEval();
    },
  };
}
