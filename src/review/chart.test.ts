// The review chart: a well-formed, self-contained SVG with a marker per
// inaccuracy, mistake and blunder and a hit area per position.

import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { parseXml } from '../../test/support/xml.js';
import { Engine } from '../engine/engine.js';
import { reviewChartSvg } from './chart.js';
import { reviewGame, type Review } from './review.js';

const engine = new Engine();
after(() => engine.close());

let reviewed: Review | null = null;
async function review(): Promise<Review> {
  if (reviewed) return reviewed;
  // Red hangs a rook on move 3 (review.test.ts), and the game goes on a little.
  const moves = ['b0c2', 'h9g7', 'a0a1', 'b9c7', 'a1b1', 'b7b1', 'h2e2', 'i9h9', 'h0g2', 'a9a8'];
  const r = await reviewGame(engine, { moves }, { nodes: 800 });
  assert.ok(r.ok, r.ok ? '' : r.error.message);
  reviewed = r.value;
  return reviewed;
}

test('the chart is well-formed SVG with one marker per marked move and one hit area per position', async () => {
  const r = await review();
  const svg = reviewChartSvg(r, { currentPly: 5 });
  const elements = parseXml(svg);
  assert.equal(elements[0].name, 'svg');
  assert.equal(elements[0].attributes.xmlns, 'http://www.w3.org/2000/svg');
  // Self-contained: nothing is fetched (no href, url(), style sheets or scripts).
  assert.ok(!/href|url\(|<style|<script|<image/i.test(svg));
  const marked = r.plies.filter((p) => ['inaccuracy', 'mistake', 'blunder'].includes(p.classification));
  assert.ok(marked.some((p) => p.ply === 5 && p.classification === 'blunder'));
  const markers = elements.filter((e) => e.name === 'circle' && (e.attributes.class ?? '').startsWith('marker '));
  assert.deepEqual(
    markers.map((m) => [Number(m.attributes['data-ply']), m.attributes.class]),
    marked.map((p) => [p.ply, `marker ${p.classification}`]),
  );
  const hits = elements.filter((e) => e.name === 'rect' && e.attributes.class === 'ply');
  assert.deepEqual(
    hits.map((h) => h.attributes['data-ply']),
    r.positions.map((_, i) => String(i)),
  );
  assert.equal(new Set(hits.map((h) => h.attributes.id)).size, hits.length);
  assert.equal(hits[0].attributes.id, 'ply-0');
  // Every hit area covers the chart's height and they tile its width.
  let right = 0;
  for (const h of hits) {
    assert.ok(Math.abs(Number(h.attributes.x) - right) < 0.02, `${h.attributes.id} starts at ${h.attributes.x}`);
    right = Number(h.attributes.x) + Number(h.attributes.width);
  }
  assert.ok(Math.abs(right - 600) < 0.02);
  // The tooltip of the blunder names it and the better move.
  const title = elements.find((e) => e.name === 'title' && e.parent === hits[5])!;
  assert.match(title.text, new RegExp(`^3\\. a1b1 -\\d+\\.\\d\\d \\(blunder, best ${r.plies[4].best}\\)$`));
  assert.equal(elements.filter((e) => e.attributes.class === 'current').length, 1);
  // Valid for every renderer: no CSS colour 'transparent' (SVG 1.1 renderers paint it black).
  assert.doesNotMatch(svg, /transparent/);
  assert.ok(hits.every((h) => h.attributes['fill-opacity'] === '0' && /^#[0-9a-f]{6}$/.test(h.attributes.fill)));
  // Labelled axes: Red's win chance and the move numbers (every move in a 5-move game).
  const texts = (cls: string): string[] =>
    elements.filter((e) => e.name === 'text' && e.attributes.class === cls).map((e) => e.text);
  assert.deepEqual(texts('axis-title'), ['Red win %', 'move']);
  assert.deepEqual(texts('axis-label'), ['100', '50', '0', '1', '2', '3', '4', '5']);
  // Nothing is cut: every marker lies inside the picture, the last move's too.
  for (const m of markers) {
    const [cx, cy, radius] = ['cx', 'cy', 'r'].map((k) => Number(m.attributes[k]));
    assert.ok(cx - radius >= 0 && cx + radius <= 600 && cy - radius >= 0 && cy + radius <= 160, m.attributes.cx);
  }
  const last = {
    ...r,
    plies: r.plies.map((p, i) => (i === r.plies.length - 1 ? { ...p, classification: 'blunder' as const } : p)),
  };
  const lastMarker = parseXml(reviewChartSvg(last))
    .filter((e) => e.name === 'circle')
    .pop()!;
  assert.equal(lastMarker.attributes['data-ply'], String(r.plies.length));
  assert.ok(Number(lastMarker.attributes.cx) + Number(lastMarker.attributes.r) <= 600);
});

test('chart options: size, id prefix, no labels; the curve follows the win chance', async () => {
  const r = await review();
  const svg = reviewChartSvg(r, { width: 300, height: 100, idPrefix: 'g2-', labels: false });
  const elements = parseXml(svg);
  assert.equal(elements[0].attributes.viewBox, '0 0 300 100');
  assert.ok(elements.filter((e) => e.attributes.class === 'ply').every((e) => e.attributes.id.startsWith('g2-')));
  assert.equal(elements.filter((e) => e.attributes.class === 'axis' || e.attributes.class === 'current').length, 0);
  const curve = elements.find((e) => e.attributes.class === 'curve')!;
  const points = curve.attributes.points.split(' ').map((p) => p.split(',').map(Number));
  assert.equal(points.length, r.positions.length);
  // The plot keeps 6 pixels at every edge for the markers.
  points.forEach(([x, y], i) => {
    assert.ok(Math.abs(x - (6 + (288 * i) / (r.positions.length - 1))) < 0.01);
    assert.ok(Math.abs(y - (6 + 88 * (1 - r.positions[i].score.redWin))) < 0.01);
  });
  assert.equal(elements.filter((e) => e.name === 'text').length, 0, 'no labels');
  // A long game gets move-number labels.
  const long: Review = {
    ...r,
    positions: Array(81).fill(r.positions[0]),
    plies: Array.from({ length: 80 }, (_, i) => ({ ...r.plies[0], ply: i + 1, moveNumber: 1 + (i >> 1) })),
  };
  const labels = parseXml(reviewChartSvg(long))
    .filter((e) => e.attributes.class === 'axis-label')
    .slice(3);
  assert.deepEqual(
    labels.map((t) => t.text),
    ['5', '10', '15', '20', '25', '30', '35', '40'],
  );
  // A narrow chart has fewer.
  const narrow = parseXml(reviewChartSvg(long, { width: 200 })).filter((e) => e.attributes.class === 'axis-label');
  assert.deepEqual(
    narrow.slice(3).map((t) => t.text),
    ['10', '20', '30', '40'],
  );
});
