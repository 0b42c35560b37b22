// The page's core without a page: the position shown follows goTo, setGame and
// playMove; a move against Kirin that leaves the game's line becomes the main
// line, in analysis a variation; a line stops at its first illegal move; every
// change is told with its kind and the path before it; the board may move only
// when no room holds it, for the side to move.

import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { BLACK, Engine, RED, mainLine, moveToUci, newGame, parseUciMove, type Move } from '../src/browser/index.js';
import { createPage, isNotation, type Change } from './page.js';

const engine = new Engine();
after(() => engine.close());

const move = (uci: string): Move => {
  const m = parseUciMove(uci);
  assert.ok(m.ok);
  return m.value;
};

function page() {
  const changes: Change[] = [];
  const ctx = createPage({
    engine,
    canSearch: false,
    notation: 'chinese',
    language: 'zh-Hans',
    t: (key) => key,
    showTab: () => {},
  });
  ctx.onChange((c) => changes.push(c));
  return { ctx, changes };
}

test('moves played, against Kirin and in analysis; lines; the changes told', () => {
  const { ctx, changes } = page();
  ctx.setGame(newGame());
  ctx.playMove(move('h2e2'));
  ctx.playMove(move('h9g7'));
  assert.equal(ctx.pos.fen(), 'rnbakab1r/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR w - - 2 2');
  assert.deepEqual(
    changes.at(-1)!.before.map((n) => moveToUci(n.move)),
    ['h2e2'],
  );
  // Against Kirin (the default mode), a different move at ply 1 is the new main line.
  ctx.goTo(ctx.path.slice(0, 1));
  ctx.playMove(move('b9c7'));
  assert.deepEqual(mainLine(ctx.game).map(moveToUci), ['h2e2', 'b9c7']);
  // In analysis it is a variation.
  ctx.setMode('analysis');
  ctx.goTo(ctx.path.slice(0, 1));
  ctx.playMove(move('i9i8'));
  assert.deepEqual(mainLine(ctx.game).map(moveToUci), ['h2e2', 'b9c7']);
  assert.equal(ctx.here().children.length, 0);
  assert.deepEqual(
    ctx.currentLine().map((n) => moveToUci(n.move)),
    ['h2e2', 'i9i8'],
  );
  // A line stops at its first illegal move.
  ctx.goTo([]);
  ctx.playLine([move('b2e2'), move('b9c7'), move('e2e9'), move('a0a1')]);
  assert.deepEqual(
    ctx.path.map((n) => moveToUci(n.move)),
    ['b2e2', 'b9c7'],
  );
  assert.ok(changes.every((c) => c.kind === 'position'));
  ctx.setFlipped(true);
  ctx.setNotation('wxf');
  assert.deepEqual(
    changes.slice(-2).map((c) => c.kind),
    ['view', 'view'],
  );
  assert.deepEqual(ctx.moveStyle(), { notation: 'wxf', traditional: false });
  assert.equal(isNotation('wxf'), true);
  assert.equal(isNotation('san'), false);
});

test('the board moves only for the side to move (against Kirin), when no room holds it, before the end', () => {
  const { ctx } = page();
  ctx.setGame(newGame());
  assert.equal(ctx.canMove(), true);
  ctx.block('review', true);
  assert.equal(ctx.canMove(), false);
  ctx.block('review', false);
  ctx.setHumanSide(BLACK);
  assert.equal(ctx.canMove(), false, "Red's move, the player is Black");
  ctx.setMode('analysis');
  assert.equal(ctx.canMove(), true, 'analysis: both sides');
  ctx.setHumanSide(RED);
  // A mate: the game is over, nothing moves.
  ctx.setGame(newGame('R3k4/R8/9/9/9/9/9/9/9/3K5 b - - 0 1'));
  assert.equal(ctx.judgement().result, 'red');
  assert.equal(ctx.canMove(), false);
});
