// The board's drawings: every character of every piece set has its outline,
// each piece is a standalone SVG with its character's path in its side's
// colour, the board carries the river's words of its set, and the stylesheet
// gives each of chessgroundx's fourteen pieces its image.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { BOARD_THEMES, PIECE_SETS, boardCss, boardSvg, pieceSvg, svgUrl } from './drawing.js';
import { GLYPH_PATHS, GLYPH_TEXT } from './glyphs.js';
import { keySquare, squareKey } from './squares.js';

test('every piece of every set is drawn with its own character, in its side colour', () => {
  const theme = BOARD_THEMES.wood;
  for (const [name, set] of Object.entries(PIECE_SETS))
    for (const colour of [0, 1] as const)
      for (let type = 1; type <= 7; type++) {
        const c = set[colour][type]!;
        assert.ok(GLYPH_TEXT.includes(c), `${name}: ${c} has an outline`);
        const svg = pieceSvg(name as keyof typeof PIECE_SETS, colour, type, theme);
        assert.ok(svg.includes(GLYPH_PATHS[c]), `${name} ${colour} ${type}`);
        assert.ok(svg.includes(`fill="${colour === 0 ? theme.red : theme.black}"`));
      }
  assert.equal(PIECE_SETS.simplified[0][7], '帅');
  assert.equal(PIECE_SETS.simplified[1][1], '车');
  assert.equal(PIECE_SETS.traditional[0][5], '傌');
  assert.throws(() => pieceSvg('traditional', 0, 0, theme), /no piece of type 0/);
});

test("the board's river is written in its set's characters, the stylesheet draws fourteen pieces", () => {
  assert.ok(boardSvg('traditional', BOARD_THEMES.green).includes(GLYPH_PATHS['漢']));
  assert.ok(boardSvg('simplified', BOARD_THEMES.green).includes(GLYPH_PATHS['汉']));
  assert.ok(!boardSvg('simplified', BOARD_THEMES.green).includes(GLYPH_PATHS['漢']));
  const css = boardCss('simplified', 'green');
  assert.equal(css.match(/piece\.[a-z]-piece\.(white|black)/g)?.length, 14);
  assert.ok(css.includes(svgUrl(pieceSvg('simplified', 1, 7, BOARD_THEMES.green))));
  assert.match(svgUrl('<svg a="1"/>'), /^url\("data:image\/svg\+xml,%3Csvg%20a%3D%221%22%2F%3E"\)$/);
});

test("squares and chessgroundx's keys: a0 is a1, i9 is i:, and back", () => {
  assert.equal(squareKey(0), 'a1');
  assert.equal(squareKey(89), 'i:');
  assert.equal(squareKey(7 + 9 * 2), 'h3');
  for (let sq = 0; sq < 90; sq++) assert.equal(keySquare(squareKey(sq)), sq);
  assert.equal(keySquare('j1'), -1);
  assert.equal(keySquare('a;'), -1);
  assert.equal(keySquare('a'), -1);
});
