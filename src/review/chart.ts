// The evaluation chart of a review as one self-contained SVG document (a
// string: no styles, fonts or scripts from outside; the same in Node and in a
// page). Red's win chance after each move is the height of the red area (the
// black area is Black's share above it), the middle line is an even game; each
// inaccuracy, mistake and blunder has a marker on the curve at the move; each
// move has an invisible hit area (`<rect class="ply" data-ply="N">`, N = 1 for
// the first move, 0 for the start position) with a tooltip, so that a page can
// make the chart clickable by listening on `[data-ply]`.

import type { MoveStyle } from '../notation/move.js';
import type { Classification, Review } from './review.js';
import { formatReviewScore, reviewMoveTexts } from './text.js';

export interface ChartOptions {
  /** Size in pixels (the viewBox; default 600 x 160). */
  readonly width?: number;
  readonly height?: number;
  /** Marks this ply (0: the start position) with a vertical line: the move a page shows. */
  readonly currentPly?: number;
  /** Prefix of the hit areas' ids (`<prefix><ply>`; default 'ply-'): for several charts on one page. */
  readonly idPrefix?: string;
  /** Show the move-number axis labels (default true). */
  readonly labels?: boolean;
  /** How the tooltips write moves (default UCI: h2e2). */
  readonly moves?: MoveStyle;
}

const MARKED: readonly Classification[] = ['inaccuracy', 'mistake', 'blunder'];
const MARK_COLOUR: Readonly<Record<string, string>> = {
  inaccuracy: '#56b4e9',
  mistake: '#f5a300',
  blunder: '#b3001b',
};
const RED_AREA = '#e58e8e';
const BLACK_AREA = '#2b2b2b';

/** Escapes text for an XML attribute or element. */
function xml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** A number with at most two decimals, as SVG coordinates. */
function n(v: number): string {
  return String(Math.round(v * 100) / 100);
}

/** Room around the plot for the markers (their radius and outline), so that none is cut at an edge. */
const EDGE = 6;
const FONT = 'font-family="sans-serif" font-size="9" fill="#444"';

/** The step between move-number labels: the smallest of 1, 2, 5, 10, 20, 50 ... that leaves at most `room` labels. */
function labelStep(moves: number, room: number): number {
  for (let scale = 1; ; scale *= 10)
    for (const s of [1, 2, 5]) if (Math.ceil(moves / (s * scale)) <= Math.max(1, room)) return s * scale;
}

/** The chart of a review: an SVG document as text. */
export function reviewChartSvg(review: Review, opts: ChartOptions = {}): string {
  const width = opts.width ?? 600;
  const height = opts.height ?? 160;
  const labels = opts.labels ?? true;
  const prefix = opts.idPrefix ?? 'ply-';
  // The plot: a gutter on the left for the win-chance axis and a strip below for the moves (with labels).
  const left = labels ? 34 : EDGE;
  const right = width - EDGE;
  const top = EDGE;
  const axis = labels ? 14 : 0;
  const bottom = height - axis - EDGE;
  const plotW = right - left;
  const plotH = bottom - top;
  const positions = review.positions;
  const plies = Math.max(1, positions.length - 1);
  const texts = reviewMoveTexts(review, opts.moves);
  const title = (i: number): string => plyTitle(review, i, texts);
  const x = (i: number): number => left + (i * plotW) / plies;
  const y = (redWin: number): number => top + (1 - redWin) * plotH;
  const out: string[] = [];
  out.push(
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" ` +
      `role="img" aria-label="Evaluation over the game">`,
  );
  out.push(`<rect class="background" x="0" y="0" width="${width}" height="${height}" fill="#f4f1ea"/>`);
  out.push(
    `<rect class="black-area" x="${n(left)}" y="${n(top)}" width="${n(plotW)}" height="${n(plotH)}" ` +
      `fill="${BLACK_AREA}"/>`,
  );
  if (positions.length > 0) {
    const pts = positions.map((p, i) => `${n(x(i))},${n(y(p.score.redWin))}`);
    if (positions.length === 1) pts.push(`${n(right)},${n(y(positions[0].score.redWin))}`);
    const end = positions.length === 1 ? right : x(positions.length - 1);
    out.push(
      `<polygon class="red-area" points="${n(left)},${n(bottom)} ${pts.join(' ')} ${n(end)},${n(bottom)}" ` +
        `fill="${RED_AREA}"/>`,
    );
    out.push(`<polyline class="curve" points="${pts.join(' ')}" fill="none" stroke="#f2c14e" stroke-width="1.5"/>`);
  }
  out.push(
    `<line class="even" x1="${n(left)}" y1="${n(y(0.5))}" x2="${n(right)}" y2="${n(y(0.5))}" stroke="#9a9a9a" ` +
      `stroke-width="1" stroke-dasharray="4 3"/>`,
  );
  if (labels) {
    // The win-chance axis: Red's win chance in percent, its name turned along the axis.
    out.push(
      `<text class="axis-title" ${FONT} text-anchor="middle" transform="translate(9 ${n(top + plotH / 2)}) rotate(-90)">` +
        `Red win %</text>`,
    );
    for (const [v, baseline] of [
      [1, top + 7],
      [0.5, y(0.5) + 3],
      [0, bottom],
    ] as const)
      out.push(
        `<text class="axis-label" x="${n(left - 3)}" y="${n(baseline)}" ${FONT} text-anchor="end">${v * 100}</text>`,
      );
    // The move axis: its name, and move numbers at a step that leaves room for them.
    out.push(`<text class="axis-title" x="${n(left - 3)}" y="${n(height - 4)}" ${FONT} text-anchor="end">move</text>`);
    const moves = review.plies.length > 0 ? review.plies[review.plies.length - 1].moveNumber : 0;
    const step = labelStep(moves, Math.floor(plotW / 36));
    for (const p of review.plies) {
      if (p.moveNumber % step !== 0 || review.plies[p.ply - 2]?.moveNumber === p.moveNumber) continue;
      out.push(
        `<text class="axis-label" x="${n(x(p.ply))}" y="${n(height - 4)}" ${FONT} text-anchor="middle">` +
          `${p.moveNumber}</text>`,
      );
    }
  }
  if (opts.currentPly !== undefined && opts.currentPly >= 0 && opts.currentPly < positions.length) {
    const cx = n(x(opts.currentPly));
    out.push(
      `<line class="current" x1="${cx}" y1="${n(top)}" x2="${cx}" y2="${n(bottom)}" stroke="#ffffff" ` +
        `stroke-width="1.5"/>`,
    );
  }
  for (const p of review.plies) {
    if (!MARKED.includes(p.classification)) continue;
    out.push(
      `<circle class="marker ${p.classification}" data-ply="${p.ply}" cx="${n(x(p.ply))}" ` +
        `cy="${n(y(p.scoreAfter.redWin))}" r="4.5" fill="${MARK_COLOUR[p.classification]}" stroke="#ffffff" ` +
        `stroke-width="1"><title>${xml(title(p.ply))}</title></circle>`,
    );
  }
  // Hit areas last (on top): each ply owns the slot centred on its point, the first and last reaching the
  // edges. They are painted with an opacity of 0 (not the CSS colour 'transparent', which SVG 1.1 renderers
  // such as ImageMagick's paint black), so they catch clicks and show nothing.
  const slot = plotW / plies;
  for (let i = 0; i < positions.length; i++) {
    const from = i === 0 ? 0 : x(i) - slot / 2;
    const to = i === positions.length - 1 ? width : x(i) + slot / 2;
    out.push(
      `<rect class="ply" id="${xml(prefix)}${i}" data-ply="${i}" x="${n(from)}" y="0" width="${n(to - from)}" ` +
        `height="${height}" fill="#000000" fill-opacity="0"><title>${xml(title(i))}</title></rect>`,
    );
  }
  out.push('</svg>');
  return out.join('\n') + '\n';
}

/** The tooltip of ply i: "12. b7b1 +0.35 (blunder, best h2e2)", or the start position's score. */
function plyTitle(review: Review, i: number, texts: readonly [string, string | null][]): string {
  const score = formatReviewScore(review.positions[i].score);
  if (i === 0) return `start ${score}`;
  const p = review.plies[i - 1];
  const number = `${p.moveNumber}${p.side === 'red' ? '.' : '...'}`;
  const note =
    p.classification === 'best' || p.classification === 'good'
      ? ''
      : ` (${p.classification}${texts[i - 1][1] !== null ? `, best ${texts[i - 1][1]}` : ''})`;
  return `${number} ${texts[i - 1][0]} ${score}${note}`;
}
