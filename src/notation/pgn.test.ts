// PGN reading and writing: the movetext's parts (comments, variations, NAGs,
// results, move numbers, tags), the dialects Chinese programs write, encodings,
// errors that name the game and the move, and writing back what was read.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { START_FEN } from '../core/fen.js';
import { Position } from '../core/position.js';
import { moveToUci } from '../core/types.js';
import { encodeGbk } from '../../test/support/gbk.js';
import { uciMove, unwrap } from '../../test/support/fixtures.js';
import { addMove, mainLine, newGame, type Game, type MoveTree } from './game.js';
import { parseGames, writePgn } from './pgn.js';
import { decodeText } from './text.js';

function one(text: string | Uint8Array): Game {
  const games = parseGames(text);
  assert.equal(games.length, 1);
  return unwrap(games[0]);
}

function line(tree: MoveTree): string {
  return mainLine(tree).map(moveToUci).join(' ');
}

/** The tree as text: moves in UCI, variations in parentheses, comments in braces, NAGs as $n. */
function shape(tree: MoveTree): string {
  const parts: string[] = [];
  let t = tree;
  while (t.children.length > 0) {
    const [main, ...alts] = t.children;
    const node = (n: typeof main) =>
      `${n.commentBefore ? `{${n.commentBefore}} ` : ''}${moveToUci(n.move)}${n.nags.map((g) => ` $${g}`).join('')}${n.comment ? ` {${n.comment}}` : ''}`;
    parts.push(node(main));
    for (const a of alts) {
      const rest = shape(a);
      parts.push(`(${node(a)}${rest ? ' ' + rest : ''})`);
    }
    t = main;
  }
  return parts.join(' ');
}

test('tags, moves in any notation, comments, NAGs, variations and the result', () => {
  const g = one(`[Game "Chinese Chess"]
[Event "Test"]
[Red "甲"]
[Black "乙"]
[Result "1-0"]
[Format "WXF"]

{opening} 1. C2=5 H8+7 {screen horse} 2. H2+3 R9=8 $1 (2... P7+1 (2... 炮8平9) 3. R1=2) 3. R1=2!? h9h8 ; a line comment
4. R2+6 b7-b8 1-0`);
  assert.deepEqual(g.headers, {
    Game: 'Chinese Chess',
    Event: 'Test',
    Red: '甲',
    Black: '乙',
    Result: '1-0',
    Format: 'WXF',
  });
  assert.equal(g.fen, new Position().fen());
  assert.equal(g.result, '1-0');
  assert.equal(g.comment, 'opening');
  assert.equal(
    shape(g),
    'h2e2 h9g7 {screen horse} h0g2 i9h9 $1 (g6g5 i0h0) (h7i7) i0h0 $5 h9h8 {a line comment} h0h6 b7b8',
  );
});

test('Chinese movetext: numbers run into moves, moves run together, full-width digits, a black first move', () => {
  const g = one(`[FEN "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1"]
1. …………\u3000马８进７ 2.马二进三车９平８ 3. 兵七进一 卒７进１ *`);
  assert.equal(line(g), 'h9g7 h0g2 i9h9 c3c4 g6g5');
  assert.equal(g.result, '*');
});

test('the side to move: w, r or b in the FEN tag, or the first move when the tag leaves it out', () => {
  const red = one(`[FEN "${START_FEN.split(' ')[0]} r - - 0 1"]\n1. 炮二平五`);
  assert.equal(line(red), 'h2e2');
  const noSide = one(`[FEN "5a3/4ak2r/6R2/8p/9/9/9/B4N2B/4K4/3c5"]\n1. ... 炮4退9 2. 马四进三`);
  assert.equal(line(noSide), 'd0d9 f2g4');
  assert.match(noSide.fen, / b /);
});

test('results: the movetext ends the game; the Result tag (红胜 黑胜 和棋 too) when it has none', () => {
  assert.equal(one('1. h2e2 h9g7 0-1').result, '0-1');
  assert.equal(one('[Result "红胜"]\n1. h2e2').result, '1-0');
  assert.equal(one('[Result "和棋"]\n1. h2e2').result, '1/2-1/2');
  assert.equal(one('1. h2e2').result, '*');
  // After the result, text up to the next game's tags is not movetext (xqbase's files end so).
  const g = one('1. h2e2 h9g7 *\n======================\n欢迎访问象棋百科全书网\n');
  assert.equal(line(g), 'h2e2 h9g7');
});

test('several games: one Result each; a bad game names itself and its move and the others are still read', () => {
  const games = parseGames(`[Event "A"]
1. h2e2 h9g7 *

[Event "B"]
[Red "许银川"]
[Black "吕钦"]
1. 炮二平五 马8进7 2. 马二进三 炮8平5 3. 车一平二 *

[Event "C"]
1. C2=5 C8=5 *
`);
  assert.equal(games.length, 3);
  assert.equal(line(unwrap(games[0])), 'h2e2 h9g7');
  assert.ok(!games[1].ok);
  assert.equal(games[1].error.code, 'game-move');
  assert.match(games[1].error.message, /^game 2 \(许银川 vs 吕钦, B\): move 2 \(Black\): '炮8平5' names no legal move/);
  assert.equal(line(unwrap(games[2])), 'h2e2 h7e7');
});

test('syntax errors name the game: a bad FEN, a variation never closed, a stray )', () => {
  const [fen] = parseGames('[FEN "rnbakabnr/9 w"]\n1. h2e2');
  assert.ok(!fen.ok && fen.error.code === 'game-fen' && /^game 1: the FEN tag/.test(fen.error.message));
  const [open] = parseGames('1. h2e2 (1. b2e2 h9g7');
  assert.ok(!open.ok && open.error.code === 'game-syntax' && /never closed/.test(open.error.message));
  const [close] = parseGames('1. h2e2 ) h9g7');
  assert.ok(!close.ok && close.error.code === 'game-syntax');
  const [first] = parseGames('( 1. h2e2 )');
  assert.ok(!first.ok && first.error.code === 'game-syntax');
});

test('a variation with a move that cannot be read is dropped with a warning; the rest of the game stays', () => {
  const [g] = parseGames(`[Red "许银川"]
[Black "吕钦"]
[Event "全国赛"]

1. 炮二平五 马8进7 (1... 车9平8) (1... 炮8平5 2. 马二进三 (2. 车一进九 马2进3) 马8进7) 2. 马二进三 (2. 兵七进一 卒7进1 (2... 马9进8)) 车9平8 *`);
  const game = unwrap(g);
  assert.equal(line(game), 'h2e2 h9g7 h0g2 i9h9');
  // 1... 车9平8 is not legal (the knight is in the way): that variation goes; 1... 炮8平5 stays, without its
  // own inner variation 2. 车一进九 (a rook through its knight); 2. 兵七进一's inner 2... 马9进8 goes.
  const alternatives = game.children[0].children.map((n) => moveToUci(n.move));
  assert.deepEqual(alternatives, ['h9g7', 'h7e7']);
  assert.deepEqual(
    game.children[0].children[1].children.map((n) => moveToUci(n.move)),
    ['h0g2'],
    'the inner variation 2. 车一进九 is dropped, 2. 马二进三 kept',
  );
  assert.deepEqual(
    game.children[0].children[0].children.map((n) => moveToUci(n.move)),
    ['h0g2', 'c3c4'],
  );
  assert.deepEqual(
    game.children[0].children[0].children[1].children.map((n) => moveToUci(n.move)),
    ['g6g5'],
  );
  const who = 'game 1 (许银川 vs 吕钦, 全国赛): dropped the variation at';
  assert.deepEqual(game.warnings, [
    `${who} move 1 (Black) (车9平8 ...): move 1 (Black): '车9平8' names no legal move of Black in ` +
      'rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1',
    `${who} move 2 (Red) (车一进九 ...): move 2 (Red): '车一进九' names no legal move of Red in ` +
      'rnbakabnr/9/1c2c4/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR w - - 2 2',
    `${who} move 2 (Black) (马9进8 ...): move 2 (Black): '马9进8' names no legal move of Black in ` +
      'rnbakab1r/9/1c4nc1/p1p1p1p1p/9/2P6/P3P1P1P/1C2C4/9/RNBAKABNR b - - 3 2',
  ]);
  // A variation broken deep inside goes whole, from its first move.
  const [deep] = parseGames('1. h2e2 h9g7 (1... h7e7 2. h0g2 i9i1) 2. h0g2 *');
  const d = unwrap(deep);
  assert.equal(d.children[0].children.length, 1);
  assert.equal(d.warnings?.length, 1);
  assert.match(
    d.warnings![0],
    /^game 1: dropped the variation at move 1 \(Black\) \(h7e7 \.\.\.\): move 2 \(Black\): /,
  );
  // A game without a dropped variation has no warnings; a broken main line still refuses the game.
  assert.equal(unwrap(parseGames('1. h2e2 h9g7 *')[0]).warnings, undefined);
  const [broken] = parseGames('[Red "A"]\n1. h2e2 h9g7 2. i0i9 (2. h0g2) *');
  assert.ok(!broken.ok);
  assert.equal(broken.error.code, 'game-move');
  assert.match(broken.error.message, /^game 1 \(A vs \?\): move 2 \(Red\): 'i0i9'/);
});

test('tags on one line, escaped quotes, bare quotes inside a value, a tag line that is not a tag', () => {
  const g = one('[Game "Chinese Chess"][Format "WXF"][Event "say \\"hi\\""]\n[Site "第"五"届"]\n1. C2=5');
  assert.equal(g.headers.Event, 'say "hi"');
  assert.equal(g.headers.Site, '第"五"届');
  assert.equal(g.headers.Format, 'WXF');
  const [bad] = parseGames('[DhtmlXQ]\n1. h2e2');
  assert.ok(!bad.ok && bad.error.code === 'game-syntax');
});

test('encodings: UTF-8 with and without a byte-order mark, UTF-16, GBK', () => {
  const text = '[Event "中国象棋"]\n1. 炮二平五 马８进７ *\n';
  const utf8 = new TextEncoder().encode(text);
  for (const bytes of [
    utf8,
    new Uint8Array([0xef, 0xbb, 0xbf, ...utf8]),
    new Uint8Array([0xff, 0xfe, ...new Uint8Array(Uint16Array.from(text, (c) => c.charCodeAt(0)).buffer)]),
    encodeGbk(text),
  ]) {
    const g = one(bytes);
    assert.equal(g.headers.Event, '中国象棋');
    assert.equal(line(g), 'h2e2 h9g7');
  }
  assert.equal(decodeText(encodeGbk(text)).encoding, 'gb18030');
  assert.equal(decodeText(utf8).encoding, 'utf-8');
});

test('writePgn: tags in order with Game first and Result, FEN and Format from the game', () => {
  const g = newGame('rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1');
  g.headers = { Event: 'E', Red: 'R', Result: '*', Format: 'ICCS', FEN: 'old' };
  g.result = '0-1';
  const n1 = addMove(g, uciMove('h9g7'));
  n1.comment = 'a {braced} comment';
  n1.nags.push(1);
  addMove(n1, uciMove('h0g2'));
  addMove(g, uciMove('h7e7')).commentBefore = 'or';
  const pgn = unwrap(writePgn(g));
  assert.equal(
    pgn,
    `[Game "Chinese Chess"]
[Event "E"]
[Red "R"]
[Result "0-1"]
[Format "Chinese"]
[FEN "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1"]

1... 马8进7 $1 {a {braced) comment} ({or} 1... 炮8平5) 2. 马二进三 0-1
`,
  );
  const wxf = unwrap(writePgn(g, { notation: 'wxf' }));
  assert.match(wxf, /\[Format "WXF"\]/);
  assert.match(wxf, /1\.\.\. H8\+7 \$1/);
  assert.match(unwrap(writePgn(g, { notation: 'iccs' })), /1\.\.\. H9-G7/);
  assert.match(unwrap(writePgn(g, { notation: 'uci', traditional: true })), /\[Format "ICCS"\][^]*1\.\.\. h9g7/);
  assert.match(unwrap(writePgn(g, { traditional: true, fullWidth: true })), /1\.\.\. 馬８進７/);
});

test('writePgn then parseGames gives the same game, in every notation', () => {
  const g = one(`[Event "round trip"]
{start} 1. 炮二平五 {c} 马8进7 (1... 炮8平5 $2 2. 马二进三 (2. 马八进七) 马8进7) 2. 马二进三 车9平8
3. 车一平二 (3. 兵七进一 {x} 卒7进1 (3... 马2进3)) 3... 马2进3 1/2-1/2`);
  for (const notation of ['chinese', 'wxf', 'iccs', 'uci'] as const) {
    const text = unwrap(writePgn(g, { notation, lineWidth: 40 }));
    for (const l of text.split('\n')) if (!l.startsWith('[')) assert.ok(l.length <= 40 || !l.includes(' '), l);
    const back = one(text);
    assert.equal(shape(back), shape(g), notation);
    assert.equal(back.comment, 'start');
    assert.equal(back.result, '1/2-1/2');
    assert.equal(back.headers.Event, 'round trip');
  }
});

test('writePgn refuses a game with a move that is not legal, naming it', () => {
  const g = newGame();
  addMove(addMove(g, uciMove('h2e2')), uciMove('h2e2'));
  const r = writePgn(g);
  assert.ok(!r.ok && r.error.code === 'move-illegal' && /move 1 \(Black\)/.test(r.error.message));
});

test('a 100-move game is written and read in milliseconds', () => {
  const g = one(
    `1. h2e2 h9g7 2. h0g2 i9h9 3. i0h0 b9c7 4. c3c4 g6g5 5. b0c2 c9e7 6. a0a1 b7b3 7. e3e4 h7h3 ` +
      `8. a1f1 d9e8 9. g3g4 h3c3 10. h0h9 g7h9 11. g4g5 a9d9 12. c0a2 d9d3 13. f1f5 c3i3 14. f5b5 i3g3 ` +
      `15. f0e1 d3c3 16. b5b7 g3g0 17. g2f4 g0h0 18. e1f2 h0h4 19. b7c7 c3c2 20. e2e6 e9d9`,
  );
  const start = performance.now();
  for (let i = 0; i < 20; i++) {
    const text = unwrap(writePgn(g));
    one(text);
  }
  const perGame = (performance.now() - start) / 20;
  assert.ok(perGame < 50, `${perGame.toFixed(1)} ms for writing and reading a 40-move game`);
});
