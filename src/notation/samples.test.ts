// Real game files (test/data/games/README.md has where each comes from): the
// same games in WXF, Chinese and UCI from WXF's collection, a PGN with a
// numbered-pawn ending, one game with variations in Chinese and ICCS, a GBK
// file of xqbase's format, and a game whose final position its source states.
// Reading them must agree across notations, and writing their moves must give
// back the files' own text, which other programs wrote.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { Position } from '../core/position.js';
import { moveToUci } from '../core/types.js';
import { encodeGbk } from '../../test/support/gbk.js';
import { testDataPath, unwrap } from '../../test/support/fixtures.js';
import { mainLine, type Game, type MoveTree } from './game.js';
import { formatLine, type MoveStyle } from './move.js';
import { parseGames, writePgn } from './pgn.js';
import { halfWidth } from './wxf.js';

function sample(name: string): string {
  return readFileSync(testDataPath(`games/${name}`), 'utf8');
}

function games(name: string): Game[] {
  return parseGames(sample(name)).map((g) => unwrap(g));
}

function uci(g: MoveTree): string[] {
  return mainLine(g).map(moveToUci);
}

/** The main line written in `style`, run together. */
function written(g: Game, style: MoveStyle): string {
  return unwrap(formatLine(unwrap(Position.fromFen(g.fen)), mainLine(g), style)).join('');
}

/** A file's movetext without tags, move numbers, comments, results and spaces. */
function bareMoves(text: string): string[] {
  return text.split(/\n\s*\n(?=\[)/).map((block) =>
    block
      .replace(/\[[^\]\n]*\]/g, '')
      .replace(/\{[^}]*\}/g, '')
      .replace(/\d+\.\s/g, '')
      .replace(/(1-0|0-1|1\/2-1\/2|\*)\s*$/, '')
      .replace(/\s+/g, ''),
  );
}

test("WXF's collection: the WXF, Chinese and UCI files hold the same games", () => {
  const wxf = games('xqdb-wxf.pgn');
  const chinese = games('xqdb-chinese.pgn');
  const coords = games('xqdb-uci.pgn');
  assert.equal(wxf.length, 4);
  assert.equal(chinese.length, 4);
  assert.equal(coords.length, 3);
  for (let i = 0; i < 4; i++) {
    assert.deepEqual(uci(wxf[i]), uci(chinese[i]), wxf[i].headers.Event);
    assert.equal(wxf[i].headers.Red, chinese[i].headers.Red);
  }
  // The UCI copy (converted by the collection's republisher) differs at one ply:
  // Red's 36th move of game 2, where the WXF and Chinese copies both move the rear
  // of the pawns on e5 and e3 (-P+1, 后兵进一: e3e4) and the UCI copy the front one.
  const differ = (a: string[], b: string[]) => a.flatMap((m, k) => (m === b[k] ? [] : [k]));
  assert.deepEqual(
    coords.map((g, i) => differ(uci(wxf[i]), uci(g))),
    [[], [70], []],
  );
  assert.deepEqual(uci(coords[1])[70], 'e5e6');
  assert.deepEqual(uci(wxf[1])[70], 'e3e4');
  assert.deepEqual(
    wxf.map((g) => mainLine(g).length),
    [127, 76, 104, 107],
  );
});

test("WXF's collection: Kirin writes its games' moves exactly as the collection does, in WXF and in Chinese", () => {
  const wxfText = bareMoves(sample('xqdb-wxf.pgn'));
  wxfText.forEach((t, i) => assert.equal(written(games('xqdb-wxf.pgn')[i], { notation: 'wxf' }), halfWidth(t)));
  const chineseText = bareMoves(sample('xqdb-chinese.pgn'));
  chineseText.forEach((t, i) => assert.equal(written(games('xqdb-chinese.pgn')[i], { fullWidth: true }), t));
});

test('許銀川 vs 聶衛平 (pawns only): numbered pawns on doubled files read and write as the file has them', () => {
  const [g] = games('hbsxcjp-bing.pgn');
  assert.equal(g.result, '1-0');
  assert.equal(mainLine(g).length, 129);
  assert.equal(written(g, { fullWidth: true }), bareMoves(sample('hbsxcjp-bing.pgn'))[0]);
  // The 21st moves, 四兵进一 后卒平３: Red's pawns stand on f6 f5 (file 四) and e7 e3
  // (file 五), numbered 一 二 三 四 file by file from Red's right, so 四兵 is e3; Black's
  // doubled pawns are d3 (front, towards Red) and d4 (后卒), which goes to file 3 (c).
  assert.deepEqual(uci(g).slice(40, 42), ['e3e4', 'd4c4']);
});

test('one game with variations and comments, in Chinese and in ICCS: the same tree', () => {
  const [zh] = games('hbsxcjp-01-chinese.pgn');
  const [iccs] = games('hbsxcjp-01-iccs.pgn');
  assert.equal(zh.result, '1-0', 'Result "红胜"');
  assert.equal(zh.fen, '5a3/4ak2r/6R2/8p/9/9/9/B4N2B/4K4/3c5 w - - 0 1', 'a FEN tag without the side to move');
  const tree = (t: MoveTree): unknown => t.children.map((c) => [moveToUci(c.move), c.comment, tree(c)]);
  assert.deepEqual(tree(zh), tree(iccs));
  const lines = (t: MoveTree): number => (t.children.length === 0 ? 1 : t.children.reduce((a, c) => a + lines(c), 0));
  assert.equal(lines(zh), 7);
  assert.equal(zh.children[0].comment, '从相肩进马是取胜的正确途径。其它着法，均不能取胜。');
  assert.deepEqual(uci(zh), ['f2g4', 'd0d9', 'g4e5', 'd9e9', 'g7f7', 'e8f7', 'e5g6']);
  // Written and read back in each notation, the tree stays the same.
  for (const notation of ['chinese', 'wxf', 'iccs', 'uci'] as const)
    assert.deepEqual(tree(unwrap(parseGames(unwrap(writePgn(zh, { notation })))[0])), tree(zh), notation);
});

test('a GBK file (xqbase format, moves one per line) reads as its UTF-8 copy does', () => {
  const text = sample('cchess-test2.pgn');
  const [fromGbk] = parseGames(encodeGbk(text)).map((g) => unwrap(g));
  const [fromUtf8] = games('cchess-test2.pgn');
  assert.deepEqual(uci(fromGbk), uci(fromUtf8));
  assert.equal(fromGbk.headers.Site, '华山');
  assert.equal(fromGbk.result, '1/2-1/2');
  assert.equal(mainLine(fromGbk).length, 102);
  assert.equal(written(fromGbk, { fullWidth: true }), bareMoves(text)[0]);
});

test("柳大华 vs 杨官璘 (1982): the moves reach the final position xiangqi.js's documentation gives", () => {
  const [g] = games('xiangqijs-1982.pgn');
  const pos = unwrap(Position.fromFen(g.fen));
  for (const m of mainLine(g)) pos.doMove(m);
  assert.equal(pos.fen().split(' ').slice(0, 2).join(' '), '3akc3/9/4ba3/r7p/P1bC5/9/8P/3AB1N2/4K1nR1/2B6 b');
  assert.equal(g.result, '1/2-1/2');
});
