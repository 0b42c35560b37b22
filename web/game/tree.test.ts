// The game tree's edits on real games: delete, promote, raise, comments, and
// the PGN the library writes afterwards.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  addMove,
  mainLine,
  moveToUci,
  newGame,
  parseGames,
  parseUciMove,
  writePgn,
  type Game,
  type MoveNode,
  type MoveTree,
} from '../../src/browser/index.js';
import {
  commentAt,
  deleteMove,
  lineThrough,
  mainLineNodes,
  mainLinePlies,
  onMainLine,
  parentsOf,
  pathOfLine,
  pathTo,
  positionAfter,
  promoteVariation,
  raiseVariation,
  setComment,
} from './tree.js';

/** Adds UCI moves after `tree` from the position there; returns the nodes. */
function play(game: Game, from: MoveNode[], ucis: string[]): MoveNode[] {
  const pos = positionAfter(game.fen, from);
  const nodes = [...from];
  let tree: MoveTree = from.length > 0 ? from[from.length - 1] : game;
  for (const u of ucis) {
    const m = parseUciMove(u);
    assert.ok(m.ok && pos.pseudoLegal(m.value) && pos.legal(m.value), u);
    tree = addMove(tree, m.value);
    nodes.push(tree as MoveNode);
    pos.doMove(m.value);
  }
  return nodes;
}

const ucis = (moves: readonly number[]): string[] => moves.map(moveToUci);

/** 1. h2e2 h9g7 2. h0g2 (2. b0c2 b9c7) i9h9, and after 1. h2e2 the alternative 1... b9c7. */
function sample(): { game: Game; main: MoveNode[]; variation: MoveNode[]; alt: MoveNode[] } {
  const game = newGame();
  const main = play(game, [], ['h2e2', 'h9g7', 'h0g2', 'i9h9']);
  const variation = play(game, main.slice(0, 2), ['b0c2', 'b9c7']);
  const alt = play(game, main.slice(0, 1), ['b9c7']);
  return { game, main, variation, alt };
}

test('lines: the main line, the line through a variation, on the main line or not', () => {
  const { game, main, variation } = sample();
  assert.deepEqual(mainLineNodes(game), main);
  assert.deepEqual(lineThrough(game, variation.slice(0, 3)), variation);
  assert.equal(onMainLine(game, main.slice(0, 3)), true);
  assert.equal(onMainLine(game, variation), false);
  assert.equal(onMainLine(game, []), true);
  const parents = parentsOf(game);
  assert.deepEqual(pathTo(variation[3], parents), variation);
  assert.deepEqual(pathTo(null, parents), []);
  assert.equal(positionAfter(game.fen, main).fen(), positionAfter(game.fen, [...main]).fen());
});

test('promote: the variation becomes the main line, the old main line its first variation', () => {
  const { game, main, variation } = sample();
  const r = promoteVariation(game, variation);
  assert.ok(r.ok);
  assert.deepEqual(r.path, variation);
  assert.deepEqual(ucis(mainLine(game)), ['h2e2', 'h9g7', 'b0c2', 'b9c7']);
  assert.equal(main[1].children[1], main[2], 'the old main line stays as a variation');
  assert.deepEqual(promoteVariation(game, variation), { ok: false, error: 'no-move' });
  // Promoting from deep inside a variation of a variation lifts every branch on the way.
  const sub = play(game, variation.slice(0, 3), ['i9h9']);
  const back = play(game, main.slice(0, 3), ['c9e7']);
  assert.ok(promoteVariation(game, back).ok);
  assert.deepEqual(ucis(mainLine(game)), ['h2e2', 'h9g7', 'h0g2', 'c9e7']);
  assert.equal(onMainLine(game, sub), false);
});

test('raise: a variation moves one place up among its siblings', () => {
  const { game, main, alt } = sample();
  const third = play(game, main.slice(0, 1), ['i9i8']);
  assert.deepEqual(main[0].children, [main[1], alt[1], third[1]]);
  assert.ok(raiseVariation(game, third).ok);
  assert.deepEqual(main[0].children, [main[1], third[1], alt[1]]);
  assert.ok(raiseVariation(game, third).ok);
  assert.deepEqual(main[0].children, [third[1], main[1], alt[1]]);
  assert.deepEqual(raiseVariation(game, third), { ok: false, error: 'no-move' });
  assert.deepEqual(raiseVariation(game, []), { ok: false, error: 'no-move' });
});

test('delete: a move and everything after it; the path goes back one move', () => {
  const { game, main, variation, alt } = sample();
  const r = deleteMove(game, main.slice(0, 3));
  assert.ok(r.ok);
  assert.deepEqual(r.path, main.slice(0, 2));
  // The variation 2. b0c2 is what is left after 1... h9g7: it becomes the main line.
  assert.deepEqual(ucis(mainLine(game)), ['h2e2', 'h9g7', 'b0c2', 'b9c7']);
  assert.ok(deleteMove(game, alt).ok);
  assert.equal(main[0].children.length, 1);
  assert.ok(deleteMove(game, main.slice(0, 1)).ok);
  assert.deepEqual(game.children, []);
  assert.deepEqual(deleteMove(game, []), { ok: false, error: 'no-move' });
  assert.deepEqual(deleteMove(game, variation), { ok: false, error: 'not-in-game' }, 'a path no longer in the game');
});

test('comments: written on a move and on the start, cleaned, and in the PGN the library writes', () => {
  const { game, main, variation } = sample();
  assert.ok(setComment(game, main.slice(0, 1), '  中炮\nopening }x{ ').ok);
  assert.equal(commentAt(game, main.slice(0, 1)), '中炮 opening )x{');
  assert.ok(setComment(game, variation, 'a quiet line').ok);
  assert.ok(setComment(game, [], 'A study').ok);
  assert.ok(promoteVariation(game, variation).ok);
  const pgn = writePgn(game, { notation: 'iccs' });
  assert.ok(pgn.ok);
  assert.match(pgn.value, /\{A study\}/);
  assert.match(pgn.value, /\{中炮 opening \)x\{\}/);
  assert.match(pgn.value, /\{a quiet line\}/);
  // Read back: the promoted line is the main line, the comments where they were written.
  const [back] = parseGames(pgn.value);
  assert.ok(back.ok, back.ok ? '' : back.error.message);
  assert.deepEqual(ucis(mainLine(back.value)), ['h2e2', 'h9g7', 'b0c2', 'b9c7']);
  const nodes = mainLineNodes(back.value);
  assert.equal(nodes[0].comment, '中炮 opening )x{');
  assert.equal(nodes[3].comment, 'a quiet line');
  assert.equal(back.value.comment, 'A study');
  assert.deepEqual(ucis(mainLine(nodes[1])), ['b0c2', 'b9c7']);
  assert.deepEqual(ucis(nodes[1].children[1] ? [nodes[1].children[1].move] : []), ['h0g2'], 'the old main line');
});

test('a line found in a game: on any line, from the same start; the main line part of a path', () => {
  const game = newGame();
  const main = play(game, [], ['h2e2', 'h9g7', 'h0g2']);
  const side = play(game, main.slice(0, 1), ['b9c7']);
  const START = 'rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1';
  assert.deepEqual(pathOfLine(game, START, ['h2e2', 'h9g7']), main.slice(0, 2));
  assert.deepEqual(pathOfLine(game, START, ['h2e2', 'b9c7']), side);
  assert.deepEqual(pathOfLine(game, 'rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w', []), []);
  assert.equal(pathOfLine(game, START, ['h2e2', 'b9a7']), null, 'a move the game lacks');
  assert.equal(pathOfLine(game, '4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1', []), null, 'another start');
  assert.equal(mainLinePlies(game, main), 3);
  assert.equal(mainLinePlies(game, side), 1);
  assert.equal(mainLinePlies(game, []), 0);
});
