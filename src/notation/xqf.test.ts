// XQF reading, on files written here from the format's description (the header
// of xqf.ts: XQStudio's layout and key arithmetic as the open-source readers
// document it), in the plain version 10, the encrypted version 11 and the
// encrypted, rotated version 18. (XQStudio's own files were checked against the
// reader when it was written — docs/NOTATION.md — but are not kept here.)

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseFen } from '../core/fen.js';
import { moveToUci, parseSquare } from '../core/types.js';
import { encodeBig5, encodeGbk } from '../../test/support/gbk.js';
import { unwrap } from '../../test/support/fixtures.js';
import { readGames } from './files.js';
import type { MoveTree } from './game.js';
import { writePgn } from './pgn.js';
import { isXqf, parseXqf } from './xqf.js';

interface Node {
  uci: string;
  comment?: string;
  children?: Node[];
}

interface Spec {
  version: number;
  /** KeyMask, KeyOrA..KeyOrD, KeysSum, KeyXY, KeyXYf, KeyXYt (ignored by version 10). */
  keys: [number, number, number, number, number, number, number, number, number];
  fen: string;
  whoPlays?: number;
  result?: number;
  texts?: Record<number, string>;
  comment?: string;
  moves: Node[];
  /** How the strings are written (GBK by default). */
  encode?: (text: string) => Uint8Array;
}

const ORDER = 'RNBAKABNRCCPPPPPrnbakabnrccppppp';

function k(b: number, c: number): number {
  return (((((b * b * 3 + 9) * 3 + 8) * 2 + 1) * 3 + 8) * c) & 0xff;
}

/** An XQF file as XQStudio would write it. */
function xqf(spec: Spec): Uint8Array {
  const enc = spec.version > 10;
  const [mask, orA, orB, orC, orD, sum, hxy, hxyf, hxyt] = spec.keys;
  const keyXY = enc ? k(hxy, hxy) : 0;
  const keyXYf = enc ? k(hxyf, keyXY) : 0;
  const keyXYt = enc ? k(hxyt, keyXYf) : 0;
  const remark = enc ? ((sum * 256 + hxy) % 32000) + 767 : 0;
  const or = [orA, orB, orC, orD];
  const keyBytes = [sum, hxy, hxyf, hxyt].map((b, i) => (b & mask) | or[i]);
  const f32 = [...'[(C) Copyright Mr. Dong Shiwei.]'].map((c, i) => (enc ? c.charCodeAt(0) & keyBytes[i % 4] : 0));

  const out: number[] = new Array<number>(1024).fill(0);
  out[0] = 0x58;
  out[1] = 0x51;
  out[2] = spec.version;
  out[3] = mask;
  [orA, orB, orC, orD, sum, hxy, hxyf, hxyt].forEach((b, i) => (out[8 + i] = b));
  // The piece list: each piece's square as file * 10 + rank, 0xff when it is missing.
  const board = unwrap(parseFen(spec.fen)).board;
  const list = new Array<number>(32).fill(0xff);
  const used = new Set<number>();
  for (let sq = 0; sq < 90; sq++) {
    const pc = board[sq];
    if (!pc) continue;
    const letter = ' RACPNBK racpnbk'[pc];
    const slot = [...ORDER].findIndex((c, i) => c === letter && !used.has(i));
    used.add(slot);
    list[slot] = (sq % 9) * 10 + Math.floor(sq / 9);
  }
  for (let i = 0; i < 32; i++) {
    const logical = spec.version >= 12 ? list[(keyXY + i + 1) & 31] : list[i];
    out[16 + i] = (logical + keyXY) & 0xff;
  }
  out[50] = spec.whoPlays ?? 0;
  out[51] = spec.result ?? 0;
  for (const [at, text] of Object.entries(spec.texts ?? {})) {
    const bytes = (spec.encode ?? encodeGbk)(text);
    out[Number(at)] = bytes.length;
    bytes.forEach((b, i) => (out[Number(at) + 1 + i] = b));
  }

  const body: number[] = [];
  const record = (from: number, to: number, next: boolean, variation: boolean, comment: string) => {
    const c = (spec.encode ?? encodeGbk)(comment);
    const flags = enc
      ? (next ? 0x80 : 0) | (variation ? 0x40 : 0) | (c.length > 0 ? 0x20 : 0)
      : (next ? 0xf0 : 0) | (variation ? 0x0f : 0);
    body.push((from + 0x18 + keyXYf) & 0xff, (to + 0x20 + keyXYt) & 0xff, flags, 0);
    if (!enc || c.length > 0) {
      const len = c.length + remark;
      body.push(len & 0xff, (len >> 8) & 0xff, (len >> 16) & 0xff, (len >> 24) & 0xff, ...c);
    }
  };
  const xy = (s: string) => {
    const sq = parseSquare(s);
    return (sq % 9) * 10 + Math.floor(sq / 9);
  };
  const line = (nodes: Node[]) =>
    nodes.forEach((n, i) => {
      record(
        xy(n.uci.slice(0, 2)),
        xy(n.uci.slice(2)),
        (n.children ?? []).length > 0,
        i < nodes.length - 1,
        n.comment ?? '',
      );
      line(n.children ?? []);
    });
  record(0, 0, spec.moves.length > 0, false, spec.comment ?? '');
  line(spec.moves);
  body.forEach((b, i) => out.push((b + f32[(1024 + i) % 32]) & 0xff));
  return new Uint8Array(out);
}

/** The tree as nested [uci, comment, children]. */
function tree(t: MoveTree): unknown {
  return t.children.map((c) => [moveToUci(c.move), c.comment, tree(c)]);
}

const START = 'rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR';
const GAME: Node[] = [
  {
    uci: 'h2e2',
    comment: '中炮',
    children: [
      { uci: 'h9g7', children: [{ uci: 'h0g2', comment: '屏风马', children: [{ uci: 'i9h9' }] }] },
      { uci: 'h7e7', comment: '顺炮', children: [{ uci: 'h0g2' }] },
      { uci: 'b9c7' },
    ],
  },
  { uci: 'c3c4', comment: '仙人指路' },
];
const EXPECTED = [
  [
    'h2e2',
    '中炮',
    [
      ['h9g7', '', [['h0g2', '屏风马', [['i9h9', '', []]]]]],
      ['h7e7', '顺炮', [['h0g2', '', []]]],
      ['b9c7', '', []],
    ],
  ],
  ['c3c4', '仙人指路', []],
];
const KEYS: Spec['keys'] = [0xef, 0x12, 0x34, 0x56, 0x78, 0xe8, 0x3d, 0x9a, 0x41];
const TEXTS = {
  80: '第一局',
  208: '全国赛',
  272: '1982.12.11',
  288: '北京',
  304: '柳大华',
  320: '杨官璘',
  464: '评注者',
};

test('XQF versions 10 (plain), 11 (encrypted) and 18 (encrypted, rotated): moves, variations, comments, tags', () => {
  assert.equal((KEYS[5] + KEYS[6] + KEYS[7] + KEYS[8]) % 256, 0, 'the key bytes sum to 0 as XQStudio checks');
  for (const version of [10, 11, 18]) {
    const bytes = xqf({ version, keys: KEYS, fen: START, result: 1, texts: TEXTS, comment: '开局', moves: GAME });
    assert.ok(isXqf(bytes));
    const g = unwrap(parseXqf(bytes, `v${version}.xqf`));
    assert.equal(g.fen, `${START} w - - 0 1`, `version ${version}`);
    assert.deepEqual(tree(g), EXPECTED, `version ${version}`);
    assert.equal(g.comment, '开局');
    assert.equal(g.result, '1-0');
    assert.deepEqual(g.headers, {
      Title: '第一局',
      Event: '全国赛',
      Date: '1982.12.11',
      Site: '北京',
      Red: '柳大华',
      Black: '杨官璘',
      Annotator: '评注者',
      Result: '1-0',
    });
  }
});

test('XQF: a set-up position with Black to move, the results, a game without moves', () => {
  const fen = '3k5/9/4b4/9/2p6/9/9/4B4/4A4/3AK4';
  const g = unwrap(parseXqf(xqf({ version: 18, keys: KEYS, fen, result: 2, moves: [{ uci: 'c5c4' }] })));
  assert.equal(g.fen, `${fen} b - - 0 1`);
  assert.equal(g.result, '0-1');
  const empty = unwrap(parseXqf(xqf({ version: 18, keys: KEYS, fen, whoPlays: 1, result: 3, moves: [] })));
  assert.deepEqual(empty.children, []);
  assert.match(empty.fen, / b /, 'with no moves the header says who moves');
  assert.equal(empty.result, '1/2-1/2');
  assert.match(
    unwrap(writePgn(g)),
    /\[FEN "3k5\/9\/4b4\/9\/2p6\/9\/9\/4B4\/4A4\/3AK4 b - - 0 1"\][^]*1\.\.\. 卒3进1 0-1/,
  );
});

test('XQF errors: not XQF, a version above 18, a file cut short, an illegal move (named)', () => {
  const good = xqf({ version: 18, keys: KEYS, fen: START, moves: GAME });
  const notXqf = parseXqf(new TextEncoder().encode('[Event "x"]'));
  assert.ok(!notXqf.ok && notXqf.error.code === 'xqf-format');
  const v19 = good.slice();
  v19[2] = 19;
  const r19 = parseXqf(v19);
  assert.ok(!r19.ok && r19.error.code === 'xqf-version');
  const cut = parseXqf(good.subarray(0, good.length - 6), 'cut.xqf');
  assert.ok(!cut.ok && cut.error.code === 'xqf-truncated' && /^cut\.xqf/.test(cut.error.message));
  const bad = parseXqf(
    xqf({ version: 18, keys: KEYS, fen: START, moves: [{ uci: 'h2e2', children: [{ uci: 'h9h5' }] }] }),
    'bad.xqf',
  );
  assert.ok(!bad.ok && bad.error.code === 'game-move');
  assert.match(bad.error.message, /^bad\.xqf: move 1 \(Black\): the move h9h5 is not legal/);
});

test('readGames reads XQF by its signature and PGN otherwise', () => {
  const x = readGames(xqf({ version: 11, keys: KEYS, fen: START, moves: GAME }));
  assert.equal(x.length, 1);
  assert.deepEqual(tree(unwrap(x[0])), EXPECTED);
  const p = readGames(new TextEncoder().encode('[Event "a"]\n1. h2e2 *\n\n[Event "b"]\n1. c3c4 *'));
  assert.deepEqual(
    p.map((g) => tree(unwrap(g))),
    [[['h2e2', '', []]], [['c3c4', '', []]]],
  );
});

test('XQF: a variation with an illegal move is dropped with a warning naming it, the rest is kept', () => {
  // 1. h2e2 with the alternatives 1... h9g7 (its line broken at move 3 by h0h5) and 1... h7e7, then 1. c3c4.
  const moves: Node[] = [
    {
      uci: 'h2e2',
      children: [
        { uci: 'h7e7', children: [{ uci: 'h0g2' }] },
        {
          uci: 'h9g7',
          comment: '屏风马',
          children: [{ uci: 'h0g2', children: [{ uci: 'i9h9', children: [{ uci: 'h0h5' }] }] }],
        },
        { uci: 'b9c7', children: [{ uci: 'b0c2' }, { uci: 'i0i9' }, { uci: 'h0g2' }] },
      ],
    },
    { uci: 'c3c4' },
  ];
  for (const version of [10, 18]) {
    const g = unwrap(parseXqf(xqf({ version, keys: KEYS, fen: START, moves }), 'study.xqf'));
    assert.deepEqual(
      tree(g),
      [
        [
          'h2e2',
          '',
          [
            ['h7e7', '', [['h0g2', '', []]]],
            [
              'b9c7',
              '',
              [
                ['b0c2', '', []],
                ['h0g2', '', []],
              ],
            ],
          ],
        ],
        ['c3c4', '', []],
      ],
      `version ${version}`,
    );
    assert.deepEqual(g.warnings, [
      'study.xqf: dropped the variation at move 1 (Black) (h9g7 ...): move 3 (Red): the move h0h5 is not legal in ' +
        'rnbakabr1/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C1N2/9/RNBAKAB1R w - - 4 3',
      'study.xqf: dropped the variation at move 2 (Red) (i0i9 ...): move 2 (Red): the move i0i9 is not legal in ' +
        'r1bakabnr/9/1cn4c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR w - - 2 2',
    ]);
  }
  // On the main line the same move refuses the file, as before.
  const broken = parseXqf(
    xqf({
      version: 18,
      keys: KEYS,
      fen: START,
      moves: [{ uci: 'h2e2', children: [{ uci: 'h9g7', children: [{ uci: 'h0h5' }] }] }],
    }),
    'broken.xqf',
  );
  assert.ok(!broken.ok);
  assert.match(broken.error.message, /^broken\.xqf: move 2 \(Red\): the move h0h5 is not legal/);
});

test('XQF: Big5 strings are told from GBK ones (or named with the encoding option)', () => {
  const texts = { 208: '全國象棋個人賽', 304: '許銀川', 320: '呂欽' };
  const moves: Node[] = [{ uci: 'h2e2', comment: '當頭炮', children: [{ uci: 'h9g7' }] }];
  const big5 = xqf({ version: 18, keys: KEYS, fen: START, texts, comment: '中炮對屏風馬', moves, encode: encodeBig5 });
  const g = unwrap(parseXqf(big5));
  assert.equal(g.headers.Event, '全國象棋個人賽');
  assert.equal(g.headers.Red, '許銀川');
  assert.equal(g.comment, '中炮對屏風馬');
  assert.equal(g.children[0].comment, '當頭炮');
  const gbk = unwrap(parseXqf(xqf({ version: 18, keys: KEYS, fen: START, texts, moves: GAME })));
  assert.equal(gbk.headers.Red, '許銀川');
  const forced = unwrap(parseXqf(big5, 'x.xqf', { encoding: 'gb18030' }));
  assert.notEqual(forced.headers.Red, '許銀川');
});
