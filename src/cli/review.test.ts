// `kirin review`: its refusals in process (end to end, as a child process:
// review.integration.test.ts).

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { fileNotation, runReviewCli } from './review.js';

const dir = mkdtempSync(join(tmpdir(), 'kirin-review-'));
after(() => rmSync(dir, { recursive: true, force: true }));

// Red hangs a rook with 3. a1b1 (src/review/review.test.ts), in WXF.
const GAME = `[Game "Chinese Chess"]
[Red "R"]
[Black "B"]
[Result "0-1"]

1. H8+7 H8+7 2. R9+1 H2+3 3. R9=8 C2+6 4. C2=5 R9=8 0-1
`;
const file = join(dir, 'game.pgn');
writeFileSync(file, `${GAME}\n${GAME.replace('R9=8 C2+6', 'C2=5 C2=5')}`);

function io() {
  const out: string[] = [],
    errs: string[] = [];
  return {
    io: { stdout: { write: (t: string) => out.push(t) }, stderr: { write: (t: string) => errs.push(t) } },
    out: () => out.join(''),
    err: () => errs.join(''),
  };
}

test('kirin review: bad command lines, files and games are refused with a message and code 2', async () => {
  const cases: [string[], RegExp][] = [
    [[], /1 argument missing/],
    [[file, '--nodes', '0'], /--nodes 0: below 1/],
    [
      [file, '--nodes', '10', '--movetime', '10'],
      /give one of --nodes, --movetime, --depth, not --nodes and --movetime/,
    ],
    [[file, '--order', 'sideways'], /--order sideways/],
    [[file, '--notation', 'fen'], /--notation fen: one of chinese, wxf, iccs, uci/],
    [[file, '--game', '3'], /--game 3, but the file has 2/],
    [[join(dir, 'missing.pgn')], /cannot read .*missing\.pgn/],
    [[file, '--bogus'], /Unknown option '--bogus'/],
  ];
  const bad = join(dir, 'bad.pgn');
  writeFileSync(bad, '1. h2e2 h9g7 2. h2e2 *\n');
  cases.push([[bad], /bad\.pgn: game 1: move 2 \(Red\): 'h2e2'/]);
  for (const [argv, message] of cases) {
    const t = io();
    assert.equal(await runReviewCli(argv, t.io), 2, argv.join(' '));
    assert.match(t.err(), message);
    assert.equal(t.out(), '');
  }
  const help = io();
  assert.equal(await runReviewCli(['--help'], help.io), 0);
  assert.match(help.out(), /^usage: kirin review FILE/);
});

test('fileNotation: the notation of the first move of the movetext', () => {
  const enc = (s: string) => new TextEncoder().encode(s);
  assert.equal(fileNotation(enc(GAME)), 'wxf');
  assert.equal(fileNotation(enc('[Event "1. h2e2"]\n{C2=5 is a move} 1. h2e2 h9g7 *')), 'uci');
  assert.equal(fileNotation(enc('1. H2-E2 H9-G7 *')), 'iccs');
  assert.equal(fileNotation(enc('1. 炮二平五 马8进7 *')), 'chinese');
  assert.equal(fileNotation(enc('[Event "x"]\n*')), 'chinese');
});
