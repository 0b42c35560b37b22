// `kirin judge` in-process: the words and the JSON for a perpetual chase, the
// rule and notation options, files and games that cannot be judged.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runJudgeCli } from './judge.js';

// Red's rook chases the unprotected black knight on every move (a perpetual chase).
const CHASE = `[Event "Perpetual chase"]
[Red "R"]
[Black "B"]
[FEN "4k4/9/6n2/9/9/9/9/7R1/9/3K5 w - - 0 1"]
[Result "0-1"]

1. h2g2 g7h9 2. g2h2 h9g7 3. h2g2 g7h9 0-1
`;

const FILES: Record<string, string> = {
  'chase.pgn': CHASE,
  'two.pgn': `${CHASE}\n[FEN "4k4/9/6n2/9/9/9/9/7R1/9/3K5 w - - 0 1"]\n\n1. h2g2 e9e8 *\n`,
  'bad.pgn': '[FEN "4k4/9/6n2/9/9/9/9/7R1/9/3K5 w - - 0 1"]\n\n1. h2g2 a0a1 *\n',
};

function run(argv: string[]): { code: number; out: string; err: string } {
  let out = '';
  let err = '';
  const code = runJudgeCli(
    argv,
    { stdout: { write: (s: string) => (out += s) }, stderr: { write: (s: string) => (err += s) } },
    (path) => {
      const text = FILES[path];
      if (text === undefined) throw new Error('no such file');
      return new TextEncoder().encode(text);
    },
  );
  return { code, out, err };
}

test('kirin judge: the cycle in words, who must change, where the rules end the game', () => {
  const r = run(['--rule', 'ChineseRule', 'chase.pgn']);
  assert.equal(r.code, 0, r.err);
  assert.equal(r.err, '');
  assert.equal(
    r.out,
    [
      'chase.pgn game 1 (R - B), judged under ChineseRule:',
      'Plies 1-4 (moves 1-2) repeat the position after ply 0, a cycle of 4 plies under ChineseRule:',
      '  Red 车二平三 chases the black knight on g7 with the rook on g2.',
      '  Black 马7退8 is idle.',
      '  Red 车三平二 chases the black knight on h9 with the rook on h2.',
      '  Black 马8进7 is idle.',
      '  Red chases on every move.',
      '  Black makes only idle moves.',
      '  Red must change: a perpetual chase loses; black wins if Red repeats.',
      'The rules end the game after ply 4: black wins (perpetual chase).',
      "The record's result: 0-1.",
      '',
      '',
    ].join('\n'),
  );
});

test('kirin judge: --json, --notation, the default rule, every game of a file', () => {
  const r = run(['--json', '--notation', 'wxf', 'two.pgn']);
  assert.equal(r.code, 0, r.err);
  const lines = r.out.trim().split('\n');
  assert.equal(lines.length, 2);
  const first = JSON.parse(lines[0]);
  assert.equal(first.file, 'two.pgn');
  assert.equal(first.game, 1);
  assert.equal(first.rule, 'AsianRule');
  assert.equal(first.cycles[0].moves[0].text, 'R2=3');
  assert.equal(first.cycles[0].code, 'perpetual-chase');
  assert.deepEqual([first.end.ply, first.end.result], [4, 'black']);
  const second = JSON.parse(lines[1]);
  assert.deepEqual([second.game, second.cycles.length, second.end], [2, 0, null]);
});

test('kirin judge: a game that cannot be replayed, a missing file, bad options', () => {
  const bad = run(['bad.pgn', 'chase.pgn']);
  assert.equal(bad.code, 1);
  assert.match(bad.err, /^kirin judge: bad\.pgn/);
  assert.match(bad.out, /^chase\.pgn game 1 /m, 'the other file is still judged');
  const missing = run(['nothing.pgn']);
  assert.equal(missing.code, 1);
  assert.match(missing.err, /^kirin judge: cannot read nothing\.pgn: no such file/);
  assert.equal(run(['--rule', 'Foo', 'chase.pgn']).code, 2);
  assert.match(run(['--rule', 'Foo', 'chase.pgn']).err, /--rule Foo: one of AsianRule, /);
  assert.equal(run(['--notation', 'morse', 'chase.pgn']).code, 2);
  assert.equal(run([]).code, 2);
  assert.match(run(['--help']).out, /^usage: kirin judge /);
});
