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

/** The chart of a review: an SVG document as text. */
export function reviewChartSvg(review: Review, opts: ChartOptions = {}): string {
  const width = opts.width ?? 600;
  const height = opts.height ?? 160;
  const labels = opts.labels ?? true;
  const prefix = opts.idPrefix ?? 'ply-';
  const axis = labels ? 14 : 0;
  const plotH = height - axis;
  const positions = review.positions;
  const plies = Math.max(1, positions.length - 1);
  const texts = reviewMoveTexts(review, opts.moves);
  const title = (i: number): string => plyTitle(review, i, texts);
  const x = (i: number): number => (i * width) / plies;
  const y = (redWin: number): number => (1 - redWin) * plotH;
  const out: string[] = [];
  out.push(
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" ` +
      `role="img" aria-label="Evaluation over the game">`,
  );
  out.push(`<rect class="black-area" x="0" y="0" width="${width}" height="${n(plotH)}" fill="${BLACK_AREA}"/>`);
  if (positions.length > 0) {
    const pts = positions.map((p, i) => `${n(x(i))},${n(y(p.score.redWin))}`);
    if (positions.length === 1) pts.push(`${n(width)},${n(y(positions[0].score.redWin))}`);
    const right = positions.length === 1 ? width : x(positions.length - 1);
    out.push(
      `<polygon class="red-area" points="0,${n(plotH)} ${pts.join(' ')} ${n(right)},${n(plotH)}" fill="${RED_AREA}"/>`,
    );
    out.push(`<polyline class="curve" points="${pts.join(' ')}" fill="none" stroke="#f2c14e" stroke-width="1.5"/>`);
  }
  out.push(
    `<line class="even" x1="0" y1="${n(plotH / 2)}" x2="${width}" y2="${n(plotH / 2)}" stroke="#9a9a9a" ` +
      `stroke-width="1" stroke-dasharray="4 3"/>`,
  );
  if (labels) {
    out.push(`<rect class="axis" x="0" y="${n(plotH)}" width="${width}" height="${axis}" fill="#f4f1ea"/>`);
    // A label every 10 moves (more for long games) at the first ply of that move number.
    const step = 10 * Math.max(1, Math.ceil(plies / 200));
    for (const p of review.plies) {
      if (p.moveNumber % step !== 0 || review.plies[p.ply - 2]?.moveNumber === p.moveNumber) continue;
      const px = x(p.ply);
      const m = p.moveNumber;
      out.push(
        `<text x="${n(px)}" y="${n(height - 3)}" font-family="sans-serif" font-size="10" fill="#444" ` +
          `text-anchor="middle">${m}</text>`,
      );
    }
  }
  if (opts.currentPly !== undefined && opts.currentPly >= 0 && opts.currentPly < positions.length) {
    const cx = n(x(opts.currentPly));
    out.push(
      `<line class="current" x1="${cx}" y1="0" x2="${cx}" y2="${n(plotH)}" stroke="#ffffff" stroke-width="1.5"/>`,
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
  // Hit areas last (on top): each ply owns the slot centred on its point.
  const slot = width / plies;
  for (let i = 0; i < positions.length; i++) {
    const left = Math.max(0, x(i) - slot / 2);
    const right = Math.min(width, x(i) + slot / 2);
    out.push(
      `<rect class="ply" id="${xml(prefix)}${i}" data-ply="${i}" x="${n(left)}" y="0" width="${n(right - left)}" ` +
        `height="${height}" fill="transparent"><title>${xml(title(i))}</title></rect>`,
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
