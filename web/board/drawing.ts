// The board and the pieces as SVG, drawn by the page itself: the characters
// are shapes (the outlines in glyphs.ts), not text, so the page looks the same
// on every machine, with or without CJK fonts. The board's lines and river and
// each piece are standalone SVG documents that the stylesheet uses as
// backgrounds (data: URIs, web/board/view.ts); the engine's arrows are an SVG
// laid over the board.

import { GLYPH_PATHS, type GlyphChar } from './glyphs.js';

/** The piece sets: the characters by colour (red, black) and type (ROOK=1 ADVISOR=2 CANNON=3 PAWN=4 KNIGHT=5 BISHOP=6 KING=7). */
export const PIECE_SETS = {
  traditional: [
    [null, '俥', '仕', '炮', '兵', '傌', '相', '帥'],
    [null, '車', '士', '砲', '卒', '馬', '象', '將'],
  ],
  simplified: [
    [null, '车', '仕', '炮', '兵', '马', '相', '帅'],
    [null, '车', '士', '炮', '卒', '马', '象', '将'],
  ],
} as const satisfies Record<string, readonly (readonly (GlyphChar | null)[])[]>;
export type PieceSet = keyof typeof PIECE_SETS;

/** The river's words in each set. */
const RIVER: Record<PieceSet, readonly GlyphChar[]> = {
  traditional: ['楚', '河', '漢', '界'],
  simplified: ['楚', '河', '汉', '界'],
};

/** The colours of a board theme. */
export interface BoardColours {
  board: string;
  line: string;
  disk: string;
  diskEdge: string;
  red: string;
  black: string;
}

export const BOARD_THEMES = {
  wood: { board: '#e8c98c', line: '#6b4423', disk: '#fdf3dc', diskEdge: '#e2c991', red: '#b1121b', black: '#161616' },
  green: { board: '#b9d3b0', line: '#2f4f3a', disk: '#fbf7ec', diskEdge: '#d9d1b8', red: '#b3141d', black: '#1b1b1b' },
} as const satisfies Record<string, BoardColours>;
export type BoardTheme = keyof typeof BOARD_THEMES;

/** Piece type letters of the FEN (and chessgroundx's roles: 'r-piece' ...), by type. */
const PIECE_LETTERS = ['', 'r', 'a', 'c', 'p', 'n', 'b', 'k'] as const;

/** A glyph placed in a box (x, y, size) of an SVG's coordinates, as a path. */
function glyph(c: GlyphChar, x: number, y: number, size: number, fill: string): string {
  const k = size / 1000;
  return `<path transform="translate(${x} ${y}) scale(${k})" fill="${fill}" d="${GLYPH_PATHS[c]}"/>`;
}

/** A piece (colour 0 red / 1 black, type 1..7) as a standalone SVG of 100 x 100: a disk with its character. */
export function pieceSvg(set: PieceSet, colour: 0 | 1, type: number, theme: BoardColours): string {
  const c = PIECE_SETS[set][colour][type];
  if (!c) throw new Error(`no piece of type ${type}`);
  const ink = colour === 0 ? theme.red : theme.black;
  return (
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100">' +
    `<circle cx="50" cy="52" r="46" fill="rgba(0,0,0,0.28)"/>` +
    `<circle cx="50" cy="50" r="46" fill="${theme.disk}" stroke="${theme.diskEdge}" stroke-width="3"/>` +
    `<circle cx="50" cy="50" r="39" fill="none" stroke="${ink}" stroke-width="2.2"/>` +
    glyph(c, 19, 19, 62, ink) +
    '</svg>'
  );
}

/**
 * The board's lines, palaces, point marks and river words, as a standalone SVG
 * of 900 x 1000 (a cell is 100 x 100; files 0..8 left to right, rows 0..9 top
 * to bottom, the points at the cells' centres).
 */
export function boardSvg(set: PieceSet, theme: BoardColours): string {
  const x = (f: number): number => f * 100 + 50;
  const y = (r: number): number => r * 100 + 50;
  let d = '';
  const line = (x1: number, y1: number, x2: number, y2: number): void => {
    d += `M${x1} ${y1}L${x2} ${y2}`;
  };
  for (let r = 0; r < 10; r++) line(x(0), y(r), x(8), y(r));
  for (let f = 0; f < 9; f++) {
    if (f === 0 || f === 8) line(x(f), y(0), x(f), y(9));
    else {
      line(x(f), y(0), x(f), y(4));
      line(x(f), y(5), x(f), y(9));
    }
  }
  line(x(3), y(0), x(5), y(2));
  line(x(5), y(0), x(3), y(2));
  line(x(3), y(7), x(5), y(9));
  line(x(5), y(7), x(3), y(9));
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
        marks += `M${cx + dx * arm} ${cy}H${cx}V${cy + dy * arm}`;
      }
    }
  const [a, b, c2, e] = RIVER[set];
  return (
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 900 1000" preserveAspectRatio="none">' +
    `<rect width="900" height="1000" fill="${theme.board}"/>` +
    `<path d="${d}" stroke="${theme.line}" stroke-width="2.5" fill="none"/>` +
    `<rect x="${x(0) - 8}" y="${y(0) - 8}" width="${x(8) - x(0) + 16}" height="${y(9) - y(0) + 16}" stroke="${theme.line}" stroke-width="4" fill="none"/>` +
    `<path d="${marks}" stroke="${theme.line}" stroke-width="2" fill="none"/>` +
    glyph(a, 175, 465, 70, theme.line) +
    glyph(b, 285, 465, 70, theme.line) +
    glyph(c2, 545, 465, 70, theme.line) +
    glyph(e, 655, 465, 70, theme.line) +
    '</svg>'
  );
}

/** An SVG document as a CSS url() value. */
export function svgUrl(svg: string): string {
  return `url("data:image/svg+xml,${encodeURIComponent(svg)}")`;
}

/** The stylesheet that draws a piece set in a theme on chessgroundx's pieces (`piece.r-piece.white` ...) and the board. */
export function boardCss(set: PieceSet, themeName: BoardTheme): string {
  const theme = BOARD_THEMES[themeName];
  let css = `#board cg-board { background-image: ${svgUrl(boardSvg(set, theme))}; }\n`;
  for (const colour of [0, 1] as const)
    for (let type = 1; type <= 7; type++)
      css +=
        `.cg-wrap piece.${PIECE_LETTERS[type]}-piece.${colour === 0 ? 'white' : 'black'} ` +
        `{ background-image: ${svgUrl(pieceSvg(set, colour, type, theme))}; }\n`;
  return css;
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
