// The exit codes of the commands that read game files, the same for the same
// fault in each (game-files.ts; docs/NOTATION.md, "Exit codes"): 0 every game
// read, 1 some games refused, 2 nothing readable (a missing, empty or binary
// file, every game refused) or a bad command line. Never silent: a file with no
// game says "no game in FILE". `kirin book build` gives the same codes
// (commands/book/build.integration.test.ts), and output to a closed pipe ends
// quietly with 0 (src/cli/pipe.integration.test.ts).

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { encodeBig5 } from '../../test/support/gbk.js';
import { runConvertCli } from './convert.js';
import { runOpeningCli } from './opening.js';
import { runReviewCli } from './review.js';

const enc = (s: string): Uint8Array => new TextEncoder().encode(s);
const FILES: Record<string, Uint8Array> = {
  'good.pgn': enc('[Red "A"]\n1. h2e2 h9g7 *\n\n[Red "B"]\n1. c3c4 *\n'),
  'some.pgn': enc('[Red "A"]\n1. h2e2 h9g7 *\n\n[Red "B"]\n1. h2e2 h2e2 *\n'),
  'none.pgn': enc('[Red "A"]\n1. h2e2 h2e2 *\n'),
  'empty.pgn': new Uint8Array(0),
  'binary.pgn': new Uint8Array(512).map((_, i) => (i * 37) & 0xff),
  'variation.pgn': enc('[Red "V"]\n1. h2e2 h9g7 (1... i9i1) *\n'),
  'big5.pgn': encodeBig5('[Red "許銀川"]\n1. 炮二平五 馬８進７ *\n'),
};

function readFile(path: string): Uint8Array {
  const f = FILES[path];
  if (f === undefined) throw new Error(`ENOENT: no such file or directory, open '${path}'`);
  return f;
}

type Run = (argv: string[]) => Promise<{ code: number; out: string; err: string }>;

function runner(run: (argv: string[], io: never) => number | Promise<number>): Run {
  return async (argv) => {
    let out = '';
    let err = '';
    const io = { stdout: { write: (s: string) => (out += s) }, stderr: { write: (s: string) => (err += s) } };
    const code = await run(argv, io as never);
    return { code, out, err };
  };
}

const COMMANDS: [string, Run][] = [
  ['convert', runner((argv, io) => runConvertCli(argv, io, readFile))],
  ['opening', runner((argv, io) => runOpeningCli(argv, io, readFile))],
];

test('convert and opening: the same code and message for the same fault', async () => {
  const cases: [string[], number, RegExp | null][] = [
    [['good.pgn'], 0, null],
    [
      ['variation.pgn'],
      0,
      /warning: variation\.pgn: game 1 \(V vs \?\): dropped the variation at move 1 \(Black\) \(i9i1 \.\.\.\)/,
    ],
    [['big5.pgn'], 0, null],
    [['some.pgn'], 1, /some\.pgn: game 2 \(B vs \?\): move 1 \(Black\): 'h2e2' is not a legal move/],
    [['none.pgn'], 2, /none\.pgn: game 1 \(A vs \?\): move 1 \(Black\)/],
    [['missing.pgn'], 2, /cannot read missing\.pgn: ENOENT/],
    [['empty.pgn'], 2, /: no game in empty\.pgn\n/],
    [['binary.pgn'], 2, /: no game in binary\.pgn\n/],
    [['good.pgn', 'some.pgn'], 1, /some\.pgn: game 2/],
    [['good.pgn', 'empty.pgn', 'some.pgn'], 2, /no game in empty\.pgn/],
    [['--encoding', 'latin1', 'good.pgn'], 2, /--encoding unknown encoding 'latin1'/],
    [['--frobnicate', 'good.pgn'], 2, /Unknown option '--frobnicate'/],
    [[], 2, /1 argument missing/],
  ];
  for (const [name, run] of COMMANDS)
    for (const [argv, code, message] of cases) {
      const r = await run(argv);
      const what = `kirin ${name} ${argv.join(' ')}`;
      assert.equal(r.code, code, `${what}: ${r.err}`);
      if (message === null) assert.equal(r.err, '', what);
      else assert.match(r.err, message, what);
      assert.notEqual(r.out + r.err, '', `${what}: never silent`);
      if (code < 2) assert.notEqual(r.out, '', what);
    }
});

test("the prefix names the game once (kirin opening said 'game 2: game 2 (G2): ...')", async () => {
  const [, opening] = COMMANDS[1];
  const r = await opening(['some.pgn']);
  assert.equal(r.out, 'B05\t中炮对进左马\t\n-\t\t\n');
  assert.equal(
    r.err.split('\n')[0].replace(/ in \S+ . - - \d+ \d+$/, ''),
    "kirin opening: some.pgn: game 2 (B vs ?): move 1 (Black): 'h2e2' is not a legal move of Black",
  );
});

test('a GBK/Big5 file with refused games says which encoding it was read in', async () => {
  FILES['big5-bad.pgn'] = encodeBig5('[Red "許銀川"]\n1. 炮二平五 馬８進７ *\n\n[Red "呂欽"]\n1. 炮二進九 *\n');
  const [, convert] = COMMANDS[0];
  const r = await convert(['big5-bad.pgn']);
  assert.equal(r.code, 1);
  assert.match(r.err, /game 2 \(呂欽 vs \?\): move 1 \(Red\)/);
  assert.match(r.err, /kirin convert: big5-bad\.pgn was read as big5 \(--encoding names another\)\n$/);
  const forced = await convert(['--encoding', 'gbk', 'big5-bad.pgn']);
  assert.equal(forced.code, 2);
  assert.doesNotMatch(forced.err, /was read as/);
});

test('kirin review: a missing, empty or binary file and a refused game are code 2, before any search', async () => {
  const review = runner((argv, io) => runReviewCli(argv, io));
  const { mkdtempSync, rmSync, writeFileSync } = await import('node:fs');
  const { join } = await import('node:path');
  const { tmpdir } = await import('node:os');
  const dir = mkdtempSync(join(tmpdir(), 'kirin-exit-'));
  try {
    for (const name of ['empty.pgn', 'binary.pgn', 'none.pgn']) writeFileSync(join(dir, name), FILES[name]);
    for (const [file, message] of [
      ['missing.pgn', /^kirin review: cannot read .*missing\.pgn: ENOENT/],
      ['empty.pgn', /^kirin review: no game in .*empty\.pgn\n$/],
      ['binary.pgn', /^kirin review: no game in .*binary\.pgn\n$/],
      ['none.pgn', /^kirin review: .*none\.pgn: game 1 \(A vs \?\): move 1 \(Black\)/],
    ] as const) {
      const r = await review([join(dir, file)]);
      assert.equal(r.code, 2, file);
      assert.match(r.err, message);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
