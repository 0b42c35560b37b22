// `kirin review`: the command end to end once (bin/kirin.js in a child
// process, a few hundred nodes a position).

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

test('kirin review: --threads 1 and --threads 2 give the same scores and verdicts', async () => {
  const scores: unknown[] = [];
  for (const threads of ['1', '2']) {
    const json = join(dir, `review-${threads}.json`);
    await promisify(execFile)(
      process.execPath,
      [KIRIN_BIN, 'review', file, '--nodes', '3000', '--threads', threads, '--quiet', '--json', json],
      { timeout: 120_000 },
    );
    const review = JSON.parse(readFileSync(json, 'utf8')) as {
      positions: { score: { value: number }; lines: { pv: string[] }[]; nodes: number }[];
      plies: { classification: string }[];
    };
    scores.push([
      review.positions.map((p) => [p.score.value, p.lines[0]?.pv.join(' ') ?? '', p.nodes]),
      review.plies.map((p) => p.classification),
    ]);
  }
  assert.deepEqual(scores[1], scores[0]);
});
