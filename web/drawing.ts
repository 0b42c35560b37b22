// The board and the pieces as SVG, drawn by the page itself: the characters
// are shapes (the outlines in glyphs.ts), not text, so the page looks the same
// on every machine, with or without CJK fonts. Each glyph is a <symbol> of one
// hidden sprite; the pieces and the river <use> it.

import { GLYPH_PATHS, GLYPH_TEXT, type GlyphChar } from './glyphs.js';

/** Piece characters by colour (red, black) and type (ROOK=1 ADVISOR=2 CANNON=3 PAWN=4 KNIGHT=5 BISHOP=6 KING=7). */
const PIECE_CHARS: readonly (readonly (GlyphChar | null)[])[] = [
  [null, '俥', '仕', '炮', '兵', '傌', '相', '帥'],
  [null, '車', '士', '砲', '卒', '馬', '象', '將'],
];
/** Piece names by type, for labels. */
export const PIECE_NAMES = ['', 'rook', 'advisor', 'cannon', 'pawn', 'knight', 'bishop', 'king'] as const;

function glyphId(c: GlyphChar): string {
  return `glyph-${c.codePointAt(0)!.toString(16)}`;
}

/** The hidden SVG of all glyphs, each a <symbol> (its view box is the 1000 x 1000 em box). */
export function glyphSprite(): string {
  let s = '<svg class="sprite" xmlns="http://www.w3.org/2000/svg" width="0" height="0" aria-hidden="true"><defs>';
  for (const c of GLYPH_TEXT as Iterable<GlyphChar>)
    s += `<symbol id="${glyphId(c)}" viewBox="0 0 1000 1000"><path d="${GLYPH_PATHS[c]}"/></symbol>`;
  return s + '</defs></svg>';
}

/** A piece (colour << 3 | type) as an SVG disk with its character; it fills its box. */
export function pieceSvg(piece: number): string {
  const side = piece >> 3;
  const c = PIECE_CHARS[side]?.[piece & 7];
  if (!c) throw new Error(`no piece ${piece}`);
  return (
    `<svg class="piece ${side ? 'black' : 'red'}" viewBox="0 0 100 100" aria-hidden="true">` +
    '<circle class="disk" cx="50" cy="50" r="46"/><circle class="ring" cx="50" cy="50" r="39"/>' +
    `<use href="#${glyphId(c)}" x="19" y="19" width="62" height="62"/></svg>`
  );
}

/**
 * The board's lines, palaces, point marks and river words, in a 900 x 1000
 * view box (a cell is 100 x 100; files 0..8 left to right, rows 0..9 top to bottom).
 */
export function boardSvg(): string {
  const x = (f: number): number => f * 100 + 50;
  const y = (r: number): number => r * 100 + 50;
  const line = (x1: number, y1: number, x2: number, y2: number): string =>
    `<line x1="${x1}" y1="${y1}" x2="${x2}" y2="${y2}"/>`;
  let s =
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 900 1000" width="100%" height="100%" aria-hidden="true">' +
    '<g class="lines">';
  for (let r = 0; r < 10; r++) s += line(x(0), y(r), x(8), y(r));
  for (let f = 0; f < 9; f++) {
    if (f === 0 || f === 8) s += line(x(f), y(0), x(f), y(9));
    else s += line(x(f), y(0), x(f), y(4)) + line(x(f), y(5), x(f), y(9));
  }
  s += line(x(3), y(0), x(5), y(2)) + line(x(5), y(0), x(3), y(2));
  s += line(x(3), y(7), x(5), y(9)) + line(x(5), y(7), x(3), y(9));
  // The marks of the cannons' and pawns' starting points: a corner in each quadrant inside the board.
  const points: [number, number][] = [];
  for (const r of [2, 7]) points.push([1, r], [7, r]);
  for (const r of [3, 6]) for (let f = 0; f <= 8; f += 2) points.push([f, r]);
  const gap = 7;
  const arm = 16;
  let marks = '';
  for (const [f, r] of points)
    for (const dx of [-1, 1]) {
      if ((f === 0 && dx < 0) || (f === 8 && dx > 0)) continue;
      for (const dy of [-1, 1]) {
        const cx = x(f) + dx * gap;
        const cy = y(r) + dy * gap;
        marks += `M${cx + dx * arm},${cy}H${cx}V${cy + dy * arm}`;
      }
    }
  s += `<path d="${marks}" fill="none"/></g>`;
  // The river: 楚河 and 漢界, each character 70 x 70 around its centre.
  const word = (c: GlyphChar, cx: number): string =>
    `<use class="river" href="#${glyphId(c)}" x="${cx - 35}" y="465" width="70" height="70"/>`;
  s += word('楚', 210) + word('河', 320) + word('漢', 580) + word('界', 690);
  return s + '</svg>';
}

/** The centre of a square (0..89, file + 9 * rank from Red's side) in the board's 900 x 1000 view box. */
function squareCentre(sq: number, flipped: boolean): { x: number; y: number } {
  const file = sq % 9;
  const rank = (sq / 9) | 0;
  const col = flipped ? 8 - file : file;
  const row = flipped ? rank : 9 - rank;
  return { x: col * 100 + 50, y: row * 100 + 50 };
}

export interface Arrow {
  from: number;
  to: number;
  /** 1 for the best line, 2 and 3 for the next ones: drawn thinner and fainter. */
  line: number;
  /** The move in UCI (data-uci, for tests and tools). */
  uci: string;
}

/** Shaft half-widths and head sizes of the lines' arrows, in view-box units (a cell is 100). */
const ARROW_SIZE = [
  { shaft: 9, head: 26, length: 34 },
  { shaft: 6, head: 19, length: 27 },
  { shaft: 5, head: 16, length: 23 },
];

/**
 * Arrows from square to square (the engine's best moves), as one SVG in the
 * board's view box: a polygon each, shaft and head, ending short of the target
 * square's centre so that the piece there stays readable.
 */
export function arrowsSvg(arrows: readonly Arrow[], flipped: boolean): string {
  let s = '<svg class="arrows" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 900 1000" aria-hidden="true">';
  // The fainter ones first, so that the best line is drawn on top.
  for (const a of [...arrows].sort((p, q) => q.line - p.line)) {
    const p = squareCentre(a.from, flipped);
    const q = squareCentre(a.to, flipped);
    const dx = q.x - p.x;
    const dy = q.y - p.y;
    const len = Math.hypot(dx, dy);
    if (len === 0) continue;
    const size = ARROW_SIZE[Math.min(a.line, ARROW_SIZE.length) - 1];
    const ux = dx / len;
    const uy = dy / len;
    // The perpendicular.
    const nx = -uy;
    const ny = ux;
    const start = 18;
    const end = len - 14;
    const neck = end - size.length;
    const pt = (along: number, across: number): string =>
      `${Math.round(p.x + ux * along + nx * across)},${Math.round(p.y + uy * along + ny * across)}`;
    const points = [
      pt(start, size.shaft),
      pt(neck, size.shaft),
      pt(neck, size.head),
      pt(end, 0),
      pt(neck, -size.head),
      pt(neck, -size.shaft),
      pt(start, -size.shaft),
    ].join(' ');
    s += `<polygon class="arrow line-${a.line}" data-line="${a.line}" data-uci="${a.uci}" points="${points}"/>`;
  }
  return s + '</svg>';
}
