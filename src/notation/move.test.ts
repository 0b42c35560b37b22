// The move notations against their rule books. Each position is built for one
// rule and each expected text is written from the rule's own words and examples
// (not from Kirin's output); the move must format to it and read back from it,
// and the other spellings the sources use must read to the same move.
//
// Sources (docs/NOTATION.md has them in full):
//   [CXA]   象棋竞赛规则 (China Xiangqi Association, 2020 edition), 第1条 1.1 (files:
//           Red 一..九, Black 1..9, each from its own right) and 第7条 7.5 (前/中/后,
//           examples 前马退四, 后车平六).
//   [XQB]   象棋百科全书网, 中国象棋电脑应用规范(二)：着法表示 (xqbase.com, 2006): the ICCS
//           example game (H2-E2 炮二平五 ... E6-E4 前炮退二); 仕/相 never take 前/后; three
//           pawns 前/中/后; more than three 一..五 from the front; two files each with
//           more than one pawn numbered 一..五 right to left, front to back (example:
//           F8-E8 一兵平五, F6-E6 二兵平五, D8-E8 三兵平五, D6-E6 四兵平五); the numbers
//           are Chinese for Black too (一卒平５).
//   [WXF]   WXF, Official Xiangqi Piece Names and Notation (wxf.org): R+.3 (車前平三),
//           C--1 (炮後退一); three pawns P+.4 P3.4 P-.4; five ++.4 P+.4 P3.4 P-.4 --.4;
//           four ++.4 P+.4 P-.4 --.4; three on file 3 and two on file 7: 3+.4 33.4
//           3-.4 7+.6 7-.6; advisors: A6+5, not A-+5.
//   [WXFDB] WXF's game collection (wxf.ca, test/data/games/xqdb-wxf.pgn): the sign
//           before the letter for tandem pieces (+P+1, -P+1, +H+3, +R=8) and = for
//           sideways, the form Kirin writes.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { legalMoves as legalMovesOf } from '../core/movegen.js';
import { Position } from '../core/position.js';
import { moveToUci } from '../core/types.js';
import { setup, uciMove, unwrap } from '../../test/support/fixtures.js';
import { detectNotation, formatLine, formatMove, parseMove, type MoveStyle, type Notation } from './move.js';

interface Case {
  uci: string;
  chinese: string;
  wxf: string;
  /** Other spellings of the same move that must read to it. */
  also?: string[];
}

/** Every case formats to its texts and reads back from them and from its other spellings. */
function check(pos: Position, cases: Case[], style: MoveStyle = {}): void {
  for (const c of cases) {
    const m = uciMove(c.uci);
    assert.equal(unwrap(formatMove(pos, m, { ...style, notation: 'chinese' })), c.chinese, `${c.uci} in Chinese`);
    assert.equal(unwrap(formatMove(pos, m, { notation: 'wxf' })), c.wxf, `${c.uci} in WXF`);
    for (const t of [c.chinese, c.wxf, ...(c.also ?? [])])
      assert.equal(moveToUci(unwrap(parseMove(pos, t))), c.uci, `'${t}' reads as ${c.uci}`);
  }
}

test('[XQB] the ICCS example game: coordinates and Chinese side by side, to 前炮退二', () => {
  const pos = new Position();
  const game: [string, string, string][] = [
    ['H2-E2', '炮二平五', 'C2=5'],
    ['H7-E7', '炮8平5', 'C8=5'],
    ['E2-E6', '炮五进四', 'C5+4'],
    ['D9-E8', '士4进5', 'A4+5'],
    ['H0-G2', '马二进三', 'H2+3'],
    ['H9-G7', '马8进7', 'H8+7'],
    ['B2-E2', '炮八平五', 'C8=5'],
    ['B9-C7', '马2进3', 'H2+3'],
    ['E6-E4', '前炮退二', '+C-2'],
    ['I9-H9', '车9平8', 'R9=8'],
  ];
  for (const [iccs, chinese, wxf] of game) {
    const m = unwrap(parseMove(pos, iccs));
    assert.equal(unwrap(formatMove(pos, m, { notation: 'iccs' })), iccs);
    assert.equal(unwrap(formatMove(pos, m, { notation: 'uci' })), iccs.replace('-', '').toLowerCase());
    assert.equal(unwrap(formatMove(pos, m)), chinese, iccs);
    assert.equal(unwrap(formatMove(pos, m, { notation: 'wxf' })), wxf, iccs);
    assert.equal(unwrap(parseMove(pos, chinese)), m);
    assert.equal(unwrap(parseMove(pos, wxf)), m);
    assert.equal(unwrap(parseMove(pos, iccs.replace('-', '').toLowerCase())), m);
    pos.doMove(m);
  }
});

test('[CXA] two pieces of a kind on a file: 前/后 in place of the file (前马退四, 后车平六)', () => {
  const pos = setup('K d0 k f9 N e5 N e3 R b6 R b2');
  check(pos, [
    { uci: 'e5f3', chinese: '前马退四', wxf: '+H-4', also: ['H+-4', '马前退四'] },
    { uci: 'e3d5', chinese: '后马进六', wxf: '-H+6', also: ['H-+6', '後馬進六'] },
    { uci: 'b6d6', chinese: '前车平六', wxf: '+R=6', also: ['R+.6', '+R.6'] },
    { uci: 'b2d2', chinese: '后车平六', wxf: '-R=6', also: ['R-=6', '车后平六'] },
  ]);
});

test('[WXF] 車前平三 is R+.3 and 炮後退一 is C--1', () => {
  const pos = setup('K e0 k d9 R c7 R c3 C h5 C h2');
  check(pos, [
    { uci: 'c7g7', chinese: '前车平三', wxf: '+R=3', also: ['車前平三', 'R+.3', 'R+=3'] },
    { uci: 'h2h1', chinese: '后炮退一', wxf: '-C-1', also: ['炮後退一', 'C--1'] },
  ]);
  assert.equal(unwrap(formatMove(pos, uciMove('h2h1'), { traditional: true })), '後炮退一');
  assert.equal(unwrap(formatMove(pos, uciMove('c7g7'), { traditional: true })), '前車平三');
});

test('[WXF][CXA] three pawns on a file: + / - and the file for the middle one; 前/中/后', () => {
  const pos = setup('K e0 k d9 P g5 P g6 P g7 P a3');
  check(pos, [
    { uci: 'g7f7', chinese: '前兵平四', wxf: '+P=4', also: ['P+.4'] },
    { uci: 'g6f6', chinese: '中兵平四', wxf: 'P3=4', also: ['P3.4'] },
    { uci: 'g5f5', chinese: '后兵平四', wxf: '-P=4', also: ['P-.4'] },
    { uci: 'g7g8', chinese: '前兵进一', wxf: '+P+1' },
    { uci: 'a3a4', chinese: '兵九进一', wxf: 'P9+1' },
  ]);
});

test('[WXF][XQB] five pawns on a file: ++ P+ P3 P- --; 一 .. 五 from the front', () => {
  const pos = setup('K e0 k d9 P g5 P g6 P g7 P g8 P g9');
  check(pos, [
    { uci: 'g9f9', chinese: '一兵平四', wxf: '++=4', also: ['++.4'] },
    { uci: 'g8f8', chinese: '二兵平四', wxf: 'P+=4', also: ['P+.4'] },
    { uci: 'g7f7', chinese: '三兵平四', wxf: 'P3=4', also: ['P3.4'] },
    { uci: 'g6f6', chinese: '四兵平四', wxf: 'P-=4', also: ['P-.4'] },
    { uci: 'g5f5', chinese: '五兵平四', wxf: '--=4', also: ['--.4'] },
  ]);
});

test('[WXF][XQB] four pawns on a file: ++ P+ P- --; 一 .. 四 from the front', () => {
  const pos = setup('K e0 k d9 P g6 P g7 P g8 P g9');
  check(pos, [
    { uci: 'g9f9', chinese: '一兵平四', wxf: '++=4' },
    { uci: 'g8f8', chinese: '二兵平四', wxf: 'P+=4' },
    { uci: 'g7f7', chinese: '三兵平四', wxf: 'P-=4' },
    { uci: 'g6f6', chinese: '四兵平四', wxf: '--=4' },
  ]);
});

test('[WXF][XQB] three pawns on file 3 and two on file 7: the file for the letter; 一 .. 五 right to left', () => {
  const pos = setup('K e0 k d9 P g5 P g6 P g7 P c5 P c6');
  check(pos, [
    { uci: 'g7f7', chinese: '一兵平四', wxf: '3+=4', also: ['3+.4', '前兵三平四', '前三平四', '前兵平四'] },
    { uci: 'g6f6', chinese: '二兵平四', wxf: '33=4', also: ['33.4', '中兵三平四'] },
    { uci: 'g5f5', chinese: '三兵平四', wxf: '3-=4', also: ['3-.4', '后兵三平四'] },
    { uci: 'c6d6', chinese: '四兵平六', wxf: '7+=6', also: ['7+.6', '前兵七平六'] },
    { uci: 'c5d5', chinese: '五兵平六', wxf: '7-=6', also: ['7-.6', '后兵七平六'] },
  ]);
  // 前兵 alone names a front pawn on either file: only where the move tells them apart.
  const both = parseMove(pos, '前兵进一');
  assert.ok(!both.ok && both.error.code === 'notation-ambiguous', '前兵进一 fits g7g8 and c6c7');
});

test("[XQB] four pawns on Red's files 四 and 六: 一兵 .. 四兵 as in the standard's example", () => {
  const pos = setup('K d0 k e9 P f8 P f6 P d8 P d6');
  check(pos, [
    { uci: 'f8e8', chinese: '一兵平五', wxf: '4+=5', also: ['Pa.5'] },
    { uci: 'f6e6', chinese: '二兵平五', wxf: '4-=5', also: ['Pb.5'] },
    { uci: 'd8e8', chinese: '三兵平五', wxf: '6+=5', also: ['Pc.5'] },
    { uci: 'd6e6', chinese: '四兵平五', wxf: '6-=5', also: ['Pd.5'] },
  ]);
});

test('[XQB] Black numbers its pawns in Chinese numerals too (一卒平５); its other numbers are digits', () => {
  const pos = setup('K e0 k d9 p d1 p d3 p f1 p f3', 'b');
  check(pos, [
    { uci: 'd1e1', chinese: '一卒平5', wxf: '4+=5', also: ['一卒平５', '1卒平5'] },
    { uci: 'd3e3', chinese: '二卒平5', wxf: '4-=5' },
    { uci: 'f1e1', chinese: '三卒平5', wxf: '6+=5' },
    { uci: 'f3e3', chinese: '四卒平5', wxf: '6-=5' },
  ]);
  assert.equal(unwrap(formatMove(pos, uciMove('d1e1'), { fullWidth: true })), '一卒平５');
});

test('[XQB][WXF] advisors and elephants keep their file even two on one file (A6+5, not A-+5)', () => {
  const pos = setup('K f1 k e9 A d0 A d2 B c0 B c4');
  check(pos, [
    { uci: 'd0e1', chinese: '仕六进五', wxf: 'A6+5' },
    { uci: 'd2e1', chinese: '仕六退五', wxf: 'A6-5' },
    { uci: 'c0e2', chinese: '相七进五', wxf: 'E7+5', also: ['B7+5', 'M7+5'] },
    { uci: 'c4e2', chinese: '相七退五', wxf: 'E7-5' },
  ]);
});

test("[CXA] Black's files run from its own right, its numbers are digits, 前 is towards Red", () => {
  const pos = setup('K e0 k f9 r b7 r b3 n h7', 'b');
  check(pos, [
    { uci: 'b3b1', chinese: '前车进2', wxf: '+R+2', also: ['前车进２', '前車進2', 'r++2'] },
    { uci: 'b7d7', chinese: '后车平4', wxf: '-R=4' },
    { uci: 'h7g5', chinese: '马8进7', wxf: 'H8+7', also: ['馬８進７', 'n8+7', 'N8+7', 'Ｈ８＋７'] },
  ]);
  assert.equal(unwrap(formatMove(pos, uciMove('b3b1'), { fullWidth: true, traditional: true })), '前車進２');
});

test('[WXFDB] two pawns on a file: +P / -P, 前兵 / 后兵', () => {
  const pos = setup('K e0 k d9 P e5 P e6');
  check(pos, [
    { uci: 'e6e7', chinese: '前兵进一', wxf: '+P+1', also: ['P++1'] },
    { uci: 'e5d5', chinese: '后兵平六', wxf: '-P=6', also: ['P-=6', '后兵五平六', '后五平六'] },
  ]);
});

test('the king, both sides, and traditional names (帥 將 進)', () => {
  const red = setup('K e0 k d9');
  check(red, [{ uci: 'e0e1', chinese: '帅五进一', wxf: 'K5+1', also: ['帥五進一', '将五进一'] }]);
  assert.equal(unwrap(formatMove(red, uciMove('e0e1'), { traditional: true })), '帥五進一');
  const black = setup('K e0 k d9', 'b');
  check(black, [{ uci: 'd9d8', chinese: '将4进1', wxf: 'K4+1', also: ['將4進1', '帅4进1'] }]);
  assert.equal(unwrap(formatMove(black, uciMove('d9d8'), { traditional: true })), '將4進1');
});

test('a text that names two moves, none, or is no move says so by its code', () => {
  const pos = setup('K e0 k d9 P g5 P g6');
  const two = parseMove(pos, '兵三平四');
  assert.ok(!two.ok && two.error.code === 'notation-ambiguous' && /g6f6/.test(two.error.message));
  const none = parseMove(pos, '车二进一');
  assert.ok(!none.ok && none.error.code === 'notation-no-move');
  for (const bad of ['炮二平', 'X2=5', 'h2h2', '', 'C2=', '兵三走一', 'R+7'])
    assert.equal(parseMove(pos, bad).ok, false, `'${bad}' is refused`);
  const illegal = parseMove(new Position(), 'h2h3');
  assert.ok(illegal.ok, 'a cannon may step one point');
  const blocked = parseMove(new Position(), 'H2-H8');
  assert.ok(!blocked.ok && blocked.error.code === 'notation-no-move');
  assert.equal(formatMove(new Position(), uciMove('h2h8')).ok, false, 'an illegal move is not written');
  assert.equal(parseMove(new Position(), 'C2=5', { notation: 'chinese' }).ok, false, 'a fixed notation reads only it');
  assert.equal(moveToUci(unwrap(parseMove(new Position(), 'C2=5!?'))), 'h2e2', 'annotation marks are ignored');
});

test('detectNotation tells the notations apart', () => {
  const cases: [string, Notation | null][] = [
    ['炮二平五', 'chinese'],
    ['馬8進7', 'chinese'],
    ['H2-E2', 'iccs'],
    ['h2-e2', 'iccs'],
    ['h2e2', 'uci'],
    ['C2=5', 'wxf'],
    ['+R=4', 'wxf'],
    ['33.4', 'wxf'],
    ['Ｃ２＝５', 'wxf'],
    ['hello', null],
    ['', null],
  ];
  for (const [t, n] of cases) assert.equal(detectNotation(t), n, t);
});

test('formatLine writes a line from a position without changing it', () => {
  const pos = new Position();
  const before = pos.fen();
  const line = ['h2e2', 'h9g7', 'h0g2', 'i9h9'].map(uciMove);
  assert.deepEqual(unwrap(formatLine(pos, line)), ['炮二平五', '马8进7', '马二进三', '车9平8']);
  assert.deepEqual(unwrap(formatLine(pos, line, { notation: 'wxf' })), ['C2=5', 'H8+7', 'H2+3', 'R9=8']);
  assert.equal(pos.fen(), before);
  const bad = formatLine(pos, [uciMove('h2e2'), uciMove('h2e2')]);
  assert.ok(!bad.ok && /move 2/.test(bad.error.message));
  const unknown = formatMove(pos, uciMove('h2e2'), { notation: 'san' as Notation });
  assert.ok(!unknown.ok && unknown.error.code === 'notation-unknown');
});

test('every legal move of many positions writes to a text that reads back to it, in every notation', () => {
  // Random games (fixed seed) reach doubled pawns, tandem pieces and both sides.
  let seed = 12345;
  const rnd = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x80000000;
  let checked = 0;
  for (let g = 0; g < 10; g++) {
    const pos = new Position();
    for (let ply = 0; ply < 150; ply++) {
      const moves = legalMovesOf(pos);
      if (moves.length === 0) break;
      for (const m of moves)
        for (const notation of ['chinese', 'wxf', 'iccs', 'uci'] as const) {
          const text = unwrap(formatMove(pos, m, { notation }));
          const back = parseMove(pos, text);
          assert.ok(back.ok && back.value === m, `${pos.fen()} ${moveToUci(m)} -> '${text}'`);
          checked++;
        }
      pos.doMove(moves[Math.floor(rnd() * moves.length)]);
    }
  }
  assert.ok(checked > 20000, `${checked} round trips`);
});
