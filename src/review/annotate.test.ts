// A reviewed game as an annotated PGN: scores, NAGs, the engine's line as a
// variation, the summary; read back by the PGN reader.

import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { moveToUci } from '../core/types.js';
import { Engine } from '../engine/engine.js';
import { mainLine, type Game } from '../notation/game.js';
import { parseGames, writePgn } from '../notation/pgn.js';
import { annotateGame, reviewSummary } from './annotate.js';
import { reviewGame } from './review.js';

const engine = new Engine();
after(() => engine.close());

// Red hangs a rook with 3. a1b1 (review.test.ts); the file marks it `!` and has comments.
const PGN = `[Game "Chinese Chess"]
[Red "Red player"]
[Black "Black player"]

{Before the game.} 1. b0c2 {Red opens.} h9g7 2. a0a1 b9c7 3. a1b1! b7b1 4. h2e2 i9h9 *
`;

function readOne(text: string): Game {
  const games = parseGames(text);
  assert.equal(games.length, 1);
  assert.ok(games[0].ok, games[0].ok ? '' : games[0].error.message);
  return games[0].value;
}

test('the annotated game: a score per move, ?? and the best line at the blunder, the summary first', async () => {
  const game = readOne(PGN);
  const moves = mainLine(game).map(moveToUci);
  const r = await reviewGame(engine, { startFen: game.fen, moves }, { nodes: 1000 });
  assert.ok(r.ok);
  const annotated = annotateGame(game, r.value, { notation: 'chinese', annotator: 'Kirin test' });
  assert.ok(annotated.ok);
  // The original is untouched.
  assert.equal(game.children[0].comment, 'Red opens.');
  const pgn = writePgn(annotated.value, { notation: 'chinese' });
  assert.ok(pgn.ok);
  const back = readOne(pgn.value);
  assert.deepEqual(mainLine(back).map(moveToUci), moves);
  assert.equal(back.headers.Annotator, 'Kirin test');
  assert.equal(back.headers.Red, 'Red player');
  assert.equal(back.comment, `Before the game. ${reviewSummary(r.value)}`);
  assert.match(back.comment, /Red accuracy \d+\.\d%, \d+ inaccuracies, \d+ mistakes, [1-9]\d* blunders/);
  // Every main-line move has its score; comments already there come first.
  const nodes = [];
  for (let t = back.children[0]; t !== undefined; t = t.children[0]) nodes.push(t);
  assert.match(nodes[0].comment, /^Red opens\. [+-]\d+\.\d\d/);
  for (const n of nodes) assert.match(n.comment, /(^|\s)([+-]?\d+\.\d\d|#-?\d+|1-0|0-1)/);
  // The blunder: ?? ($4) instead of the file's ! ($1), what it cost, the best move in Chinese, and its line.
  const blunder = nodes[4];
  const ply = r.value.plies[4];
  assert.equal(ply.classification, 'blunder');
  assert.deepEqual(blunder.nags, [4]);
  assert.match(blunder.comment, /blunder: Red's win chance \d+% -> \d+%; best \S+ \([+-]\d+\.\d\d\)/);
  assert.ok(!/[a-i]\d[a-i]\d/.test(blunder.comment), 'moves in the chosen notation, not UCI');
  const parent = nodes[3];
  assert.equal(parent.children.length, 2, 'the engine line as a variation');
  const variation = parent.children[1];
  assert.equal(moveToUci(variation.move), ply.best);
  let length = 0;
  for (let t: (typeof nodes)[number] | undefined = variation; t !== undefined; t = t.children[0]) length++;
  assert.equal(length, Math.min(8, ply.bestPv.length));
  // Black's capture is the engine's best move: a score, no NAG.
  assert.deepEqual(nodes[5].nags, []);
  assert.equal(nodes[5].children.length, 1);
  // No variations when asked for none.
  const bare = annotateGame(game, r.value, { notation: 'uci', variationPlies: 0 });
  assert.ok(bare.ok);
  assert.equal(bare.value.children[0].children[0].children[0].children[0].children.length, 1);
});

test('a review of another game is refused, naming where they part', async () => {
  const game = readOne(PGN);
  const r = await reviewGame(engine, { moves: ['b0c2', 'h9g7', 'a0a1', 'b9c7', 'h2e2'] }, { nodes: 200 });
  assert.ok(r.ok);
  const a = annotateGame(game, r.value);
  assert.ok(!a.ok && a.error.code === 'review-mismatch');
  assert.match(a.error.message, /ply 5: the review has h2e2, the game a1b1/);
  const other = readOne('[FEN "4k4/1R7/9/9/9/9/9/9/R8/3K5 w - - 0 1"]\n\n1. a1a9 *\n');
  const b = annotateGame(other, r.value);
  assert.ok(!b.ok && /starts from/.test(b.error.message));
});
