// `kirin review`: the command end to end once (bin/kirin.js in a child
// process, a few hundred nodes a position), and its refusals in process.

import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { promisify } from 'node:util';
import { KIRIN_BIN } from '../../test/support/engine-process.js';
import { parseXml } from '../../test/support/xml.js';
import { moveToUci } from '../core/types.js';
import { mainLine } from '../notation/game.js';
import { parseGames } from '../notation/pgn.js';
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

test('kirin review: the annotated PGN, the chart, the JSON and the summary', async () => {
  const out = join(dir, 'out.pgn'),
    chart = join(dir, 'chart.svg'),
    json = join(dir, 'review.json');
  const { stdout, stderr } = await promisify(execFile)(
    process.execPath,
    [KIRIN_BIN, 'review', file, '--nodes', '400', '--threads', '1', '--hash', '16'].concat([
      '--out',
      out,
      '--chart',
      chart,
      '--json',
      json,
    ]),
    { timeout: 120_000 },
  );
  // The summary on stdout (the PGN went to a file), the progress bar on stderr (a pipe: its last line).
  assert.match(stdout, /^Red \(R\) +accuracy +\d+\.\d% {2}inaccuracies \d+ {2}mistakes \d+ {2}blunders [1-9]/m);
  assert.match(stdout, /^Black \(B\) +accuracy +\d+\.\d%/m);
  assert.match(
    stdout,
    /^ {2}3\. R9=8\?\? +[+-]\d+\.\d\d -> -\d+\.\d\d +blunder, best \S+$/m,
    'moves in WXF, as the file',
  );
  assert.match(stderr, /\[#{30}\] 9\/9 positions/);
  const games = parseGames(readFileSync(out));
  assert.equal(games.length, 1);
  assert.ok(games[0].ok);
  const g = games[0].value;
  assert.deepEqual(mainLine(g).map(moveToUci), ['b0c2', 'h9g7', 'a0a1', 'b9c7', 'a1b1', 'b7b1', 'h2e2', 'i9h9']);
  assert.equal(g.headers.Format, 'WXF');
  assert.match(g.headers.Annotator, /^Kirin /);
  assert.match(g.comment, /^Kirin review \(.*; 400 nodes a position\): Red accuracy/);
  const review = JSON.parse(readFileSync(json, 'utf8')) as { plies: { classification: string }[] };
  assert.equal(review.plies[4].classification, 'blunder');
  const marked = review.plies.filter((p) => ['inaccuracy', 'mistake', 'blunder'].includes(p.classification)).length;
  const svg = parseXml(readFileSync(chart, 'utf8'));
  assert.equal(svg.filter((e) => e.name === 'circle').length, marked);
  assert.ok(svg.some((e) => e.name === 'title' && /^3\. R9=8 .*blunder/.test(e.text)));
});

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
