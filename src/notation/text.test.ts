// The encodings of game files told apart by what reads: a real Big5 file of the
// Chinese Chess Practical Dataset and real GBK files of xqbase, the same games
// written here in Big5, GBK, UTF-8 and UTF-16 with and without a byte-order
// mark, and --encoding's names.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { moveToUci } from '../core/types.js';
import { encodeBig5, encodeGbk } from '../../test/support/gbk.js';
import { testDataPath, unwrap } from '../../test/support/fixtures.js';
import { readGameFile } from './files.js';
import { mainLine } from './game.js';
import { readPgn } from './pgn.js';
import { decodeText, oddCharacters, textCandidates, textEncoding } from './text.js';

const TRADITIONAL = `[Game "Chinese Chess"]
[Event "全國象棋個人賽"]
[Red "許銀川"]
[Black "呂欽"]
[Result "1-0"]

1. 炮二平五 馬８進７ 2. 馬二進三 車９平８ {中炮對屏風馬} 3. 車一平二 卒７進１ 1-0
`;
const LINE = 'h2e2 h9g7 h0g2 i9h9 i0h0 g6g5';

function utf16(text: string, bigEndian: boolean, bom: boolean): Uint8Array {
  const out: number[] = bom ? (bigEndian ? [0xfe, 0xff] : [0xff, 0xfe]) : [];
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (bigEndian) out.push(c >> 8, c & 0xff);
    else out.push(c & 0xff, c >> 8);
  }
  return new Uint8Array(out);
}

function firstGame(bytes: Uint8Array, encoding?: Parameters<typeof readPgn>[1]) {
  const read = readPgn(bytes, encoding);
  return { encoding: read.encoding, game: unwrap(read.games[0]) };
}

test('a real Big5 file of the Chinese Chess Practical Dataset is read as Big5, not as GBK', () => {
  const bytes = readFileSync(testDataPath('games/ccpd-big5.pgn'));
  assert.deepEqual(textCandidates(bytes), ['gb18030', 'big5']);
  const { encoding, game } = firstGame(bytes);
  assert.equal(encoding, 'big5');
  assert.equal(game.headers.Red, '張雄飛');
  assert.equal(game.headers.Black, '楊官璘');
  assert.equal(game.result, '0-1');
  const moves = mainLine(game);
  assert.equal(moves.length, 76);
  assert.equal(moves.slice(0, 2).map(moveToUci).join(' '), 'h2e2 h9g7');
  // Read as GBK (what Kirin did before), its moves are garbage: '\ue0d1\ue5edキき' (private-use characters and kana).
  const gbk = readPgn(bytes, { encoding: 'gb18030' });
  assert.equal(gbk.encoding, 'gb18030');
  assert.ok(!gbk.games[0].ok);
  assert.match(gbk.games[0].error.message, /move 1 \(Red\): '\ue0d1\ue5edキき' is not a move/);
});

test('real GBK files of xqbase are read as GBK; forced to Big5 they fail', () => {
  const bytes = readFileSync(testDataPath('openings/ccgc/game1.pgn'));
  const { encoding, game } = firstGame(bytes);
  assert.equal(encoding, 'gb18030');
  assert.ok(mainLine(game).length > 10);
  assert.equal(game.headers.Site, '北京中国科技馆');
  assert.equal(game.headers.Opening, '中炮过河车互进七兵对屏风马平炮兑车');
  const big5 = readPgn(bytes, { encoding: 'big5' });
  assert.ok(!big5.games[0].ok);
});

test('the same game in Big5, GBK, UTF-8 and UTF-16 (with and without a byte-order mark) reads the same', () => {
  const utf8 = new TextEncoder().encode(TRADITIONAL);
  const cases: [string, Uint8Array, string][] = [
    ['Big5', encodeBig5(TRADITIONAL), 'big5'],
    ['GBK', encodeGbk(TRADITIONAL), 'gb18030'],
    ['UTF-8', utf8, 'utf-8'],
    ['UTF-8 BOM', new Uint8Array([0xef, 0xbb, 0xbf, ...utf8]), 'utf-8'],
    ['UTF-16LE BOM', utf16(TRADITIONAL, false, true), 'utf-16le'],
    ['UTF-16BE BOM', utf16(TRADITIONAL, true, true), 'utf-16be'],
    ['UTF-16LE', utf16(TRADITIONAL, false, false), 'utf-16le'],
    ['UTF-16BE', utf16(TRADITIONAL, true, false), 'utf-16be'],
  ];
  for (const [what, bytes, expected] of cases) {
    const { encoding, game } = firstGame(bytes);
    assert.equal(encoding, expected, what);
    assert.equal(mainLine(game).map(moveToUci).join(' '), LINE, what);
    assert.equal(game.headers.Red, '許銀川', what);
    assert.equal(game.children[0].children[0].children[0].children[0].comment, '中炮對屏風馬', what);
  }
});

test('moves in coordinates with Big5 comments: the decoding with no odd characters wins the tie', () => {
  const text = '[Event "全國賽"]\n\n1. h2e2 {當頭炮} h9g7 {屏風馬} *\n';
  const { encoding, game } = firstGame(encodeBig5(text));
  assert.equal(encoding, 'big5');
  assert.equal(game.headers.Event, '全國賽');
  assert.equal(game.children[0].comment, '當頭炮');
  assert.ok(oddCharacters(decodeText(encodeBig5(text), 'gb18030').text) > 0);
  assert.equal(oddCharacters('[Event "全國賽"] 1. 炮二平五（注）'), 0);
});

test('--encoding names: aliases, any case, and an unknown name listed with the known ones', () => {
  for (const [name, e] of [
    ['GBK', 'gb18030'],
    ['gb2312', 'gb18030'],
    ['Big5', 'big5'],
    ['utf8', 'utf-8'],
    ['UTF-16', 'utf-16le'],
    ['utf-16be', 'utf-16be'],
  ] as const)
    assert.equal(unwrap(textEncoding(name)), e, name);
  const bad = textEncoding('latin1');
  assert.ok(!bad.ok);
  assert.equal(bad.error.code, 'encoding-unknown');
  assert.match(bad.error.message, /unknown encoding 'latin1' \(utf-8, utf-16le, utf-16be, gbk or gb18030, big5\)/);
});

test('an empty file and a binary file hold no game', () => {
  assert.equal(readGameFile(new Uint8Array(0)).games.length, 0);
  const binary = new Uint8Array(256).map((_, i) => (i * 7) & 0xff);
  const read = readGameFile(binary);
  assert.equal(read.kind, 'pgn');
  assert.ok(read.games.every((g) => !g.ok));
});
