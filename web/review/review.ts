// The review room (the 复盘 tab): reviews the game's main line with the
// library's reviewGame (docs/REVIEW.md, the review `kirin review` runs) in the
// page's search thread, at the nodes a position asked for, with a progress bar
// and Cancel. Then the chart (a click goes to that move), each side's accuracy
// and counts, the marks in the move list (?! 缓着, ? 失误, ?? 败着) and what the
// review says of the move shown.

import {
  formatReviewScore,
  moveToUci,
  reviewChartSvg,
  reviewGame,
  reviewMoveTexts,
  type Game,
  type MoveNode,
  type Review,
} from '../../src/browser/index.js';
import type { AnalysisRoom } from '../analysis/engine.js';
import { $, el } from '../dom.js';
import { mainLineNodes } from '../game/tree.js';
import { sideName } from '../game/words.js';
import type { MoveMark } from '../moves/list.js';
import type { Params } from '../i18n/i18n.js';
import type { PageContext } from '../page.js';
import { REVIEW_GLYPHS, reviewedIndex, type ReviewState } from './state.js';

/** A main-line move's mark from the review, where the review covers it. */
export function reviewMark(ctx: PageContext, state: ReviewState, node: MoveNode, ply: number): MoveMark | null {
  const done = state.done;
  if (!done || done.reviewed[ply - 1] !== node) return null;
  const p = done.result.plies[ply - 1];
  const glyph = REVIEW_GLYPHS[p.classification];
  if (!glyph) return null;
  return {
    kind: p.classification,
    glyph,
    title: ctx.t('review.mark-title', {
      verdict: ctx.t(`review.class.${p.classification}`),
      side: sideName(ctx.t, p.side),
      before: Math.round(100 * p.winBefore),
      after: Math.round(100 * p.winAfter),
    }),
  };
}

export interface ReviewRoom {
  /** Reviews the game's main line (what the 复盘 button does); nothing while one runs or a game against Kirin does. */
  start(): Promise<void>;
  /** Stops the review in progress, if any. */
  cancel(): void;
  /** Shows a review kept with the game shown (the library's), of its main line; null shows none. */
  show(review: Review | null): void;
  /** The game shown has a review (done or under way). */
  has(): boolean;
}

/** Mounts the 复盘 tab; `onReviewed` hears of every review finished and its game (the library keeps them together). */
export function mountReview(
  ctx: PageContext,
  state: ReviewState,
  analysis: AnalysisRoom,
  onReviewed: (review: Review, game: Game) => void,
): ReviewRoom {
  const t = ctx.t;
  let knownGame = ctx.game;
  /** A chart point's tooltip: the start's score, or the move, its score and the review's verdict. */
  const plyTitle = (ply: number, text: [string, string | null] | undefined): string => {
    const r = state.done!.result;
    const score = formatReviewScore(r.positions[ply].score);
    if (ply === 0 || !text) return t('review.chart-start', { score });
    const p = r.plies[ply - 1];
    const verdict =
      p.classification === 'best' || p.classification === 'good'
        ? t(`review.class.${p.classification}`)
        : text[1] !== null
          ? t('review.chart-best', { verdict: t(`review.class.${p.classification}`), best: text[1] })
          : t(`review.class.${p.classification}`);
    return t('review.chart-move', {
      number: `${p.moveNumber}${p.side === 'red' ? '.' : '...'}`,
      move: text[0],
      score,
      verdict,
    });
  };
  /** A count of a class in words ('1 blunder', '2 blunders', '败着 2'). */
  const count = (cls: string, n: number): string => t(`review.count.${cls}${n === 1 ? '.one' : ''}`, { n });

  /** The review's chart (the move shown marked), each side's accuracy, and what it says of the move shown. */
  const render = (): void => {
    const chart = $('review-chart');
    const said = $('review-move');
    const summary = $('review-summary');
    const done = state.done;
    if (!done) {
      chart.replaceChildren();
      summary.replaceChildren();
      said.textContent = '';
      return;
    }
    const r = done.result;
    const i = reviewedIndex(state, ctx.path);
    chart.innerHTML = reviewChartSvg(r, {
      width: 600,
      height: 120,
      currentPly: i >= 0 ? i : undefined,
      moves: ctx.moveStyle(),
    });
    // The chart's tooltips in the player's words (the library writes them in English).
    const texts = reviewMoveTexts(r, ctx.moveStyle());
    chart.querySelector('svg')?.setAttribute('aria-label', t('review.chart'));
    for (const hit of chart.querySelectorAll('[data-ply]')) {
      const ply = Number(hit.getAttribute('data-ply'));
      const title = hit.querySelector('title');
      if (title && ply >= 0 && ply < r.positions.length) title.textContent = plyTitle(ply, texts[ply - 1]);
    }
    summary.replaceChildren();
    for (const side of ['red', 'black'] as const) {
      const s = r[side];
      const row = el(
        'div',
        `side ${side}`,
        t('review.summary', {
          side: sideName(t, side),
          accuracy: s.accuracy === null ? '-' : `${s.accuracy.toFixed(1)}%`,
          inaccuracies: count('inaccuracy', s.inaccuracies),
          mistakes: count('mistake', s.mistakes),
          blunders: count('blunder', s.blunders),
        }),
      );
      row.dataset.side = side;
      summary.appendChild(row);
    }
    said.textContent = '';
    if (i > 0) {
      const p = r.plies[i - 1];
      const [played, best] = reviewMoveTexts(r, ctx.moveStyle())[i - 1];
      const glyph = REVIEW_GLYPHS[p.classification] ?? '';
      const verdict =
        p.classification === 'best' || p.classification === 'good'
          ? t(`review.class.${p.classification}`)
          : t(best !== null ? 'review.verdict-best' : 'review.verdict', {
              verdict: t(`review.class.${p.classification}`),
              side: sideName(t, p.side),
              before: Math.round(100 * p.winBefore),
              after: Math.round(100 * p.winAfter),
              best: best ?? '',
              score: formatReviewScore(p.scoreBefore),
            });
      said.textContent = t('review.move', {
        number: `${p.moveNumber}${p.side === 'red' ? '.' : '...'}`,
        move: `${played}${glyph}`,
        score: formatReviewScore(p.scoreAfter),
        verdict,
      });
    }
  };

  /** The status line's message, kept to be said again in another language. */
  let said: [string, Params] | null = null;
  const status = (key: string, params: Params = {}): void => {
    said = [key, params];
    $('review-status').textContent = t(key, params);
  };

  const start = async (): Promise<void> => {
    if (state.running || !ctx.canSearch || ctx.mode === 'play') return;
    const input = $<HTMLInputElement>('review-nodes');
    const nodes = Number(input.value);
    if (!Number.isSafeInteger(nodes) || nodes < 1) return status('review.bad-nodes', { value: input.value });
    const game = ctx.game;
    const reviewed = mainLineNodes(game);
    if (reviewed.length === 0) return status('review.no-moves');
    const controller = new AbortController();
    cancel = () => controller.abort();
    state.running = true;
    state.done = null;
    ctx.block('review', true);
    const progress = $<HTMLProgressElement>('review-progress');
    progress.hidden = false;
    progress.max = reviewed.length + 1;
    progress.value = 0;
    $('review-start').hidden = true;
    $('review-cancel').hidden = false;
    status('review.running');
    document.body.dataset.review = 'running';
    ctx.edited('game');
    await analysis.suspend();
    const engine = ctx.engine;
    // The review searches every position: no move may come from the book.
    engine.options.set('OwnBook', 'false');
    const r = await reviewGame(
      engine,
      { startFen: game.fen, moves: reviewed.map((n) => moveToUci(n.move)) },
      {
        nodes,
        signal: controller.signal,
        onProgress: (p) => {
          progress.value = p.done;
          status('review.progress', { done: p.done, total: p.total });
        },
      },
    );
    engine.options.set('OwnBook', 'true');
    state.running = false;
    ctx.block('review', false);
    progress.hidden = true;
    $('review-start').hidden = false;
    $('review-cancel').hidden = true;
    if (r.ok) {
      state.done = { result: r.value, reviewed };
      status('review.finished', {
        moves: reviewed.length,
        nodes,
        seconds: (r.value.timeMs / 1000).toFixed(1),
        evaluation: r.value.evaluation,
      });
      document.body.dataset.review = 'done';
      onReviewed(r.value, game);
    } else {
      if (r.error.code === 'cancelled') status('review.cancelled');
      else status('review.failed', { detail: r.error.message });
      document.body.dataset.review = r.error.code === 'cancelled' ? 'cancelled' : 'failed';
    }
    ctx.edited('game'); // the marks in the move list, the chart
    analysis.resume();
  };
  let cancel = (): void => {};

  ctx.onChange((c) => {
    if (c.kind === 'view' && said) $('review-status').textContent = t(said[0], said[1]);
    if (ctx.game !== knownGame) {
      // Another game: the review was of the one before.
      knownGame = ctx.game;
      state.done = null;
    }
    render();
  });
  $('review-start').addEventListener('click', () => void start());
  $('review-cancel').addEventListener('click', () => cancel());
  $('review-chart').addEventListener('click', (ev) => {
    const hit = (ev.target as Element).closest('[data-ply]');
    const done = state.done;
    if (!hit || !done) return;
    const ply = Number(hit.getAttribute('data-ply'));
    if (Number.isSafeInteger(ply) && ply >= 0 && ply <= done.reviewed.length) ctx.goTo(done.reviewed.slice(0, ply));
  });
  render();
  return {
    start,
    cancel: () => cancel(),
    has: () => state.running || state.done !== null,
    show(review) {
      state.done = review === null ? null : { result: review, reviewed: mainLineNodes(ctx.game) };
      said = null;
      $('review-status').textContent = '';
      document.body.dataset.review = review === null ? '' : 'done';
      ctx.edited('game'); // the marks in the move list, the chart, the evaluation bar
    },
  };
}
