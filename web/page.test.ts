// The page's core without a page: the position shown follows goTo, setGame and
// playMove; a move against Kirin that leaves the game's line becomes the main
// line, in analysis a variation; a line stops at its first illegal move; every
// change is told with its kind and the path before it; the board may move only
// when no room holds it; in a game against Kirin only the player's side, at the
// game's last move, when the game's gate lets it, and a move the gate refuses
// is not played.

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
  // Against Kirin, a different move at ply 1 is the new main line.
  ctx.setMode('play');
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
  assert.equal(ctx.analysing, false);
  ctx.setAnalysing(true);
  assert.equal(ctx.analysing, true);
  assert.equal(changes.at(-1)!.kind, 'position', 'analysis on: the searches restart');
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

test('the board moves for both sides in analysis; in a game only the player, as its gate says', () => {
  const { ctx } = page();
  ctx.setGame(newGame());
  assert.equal(ctx.mode, 'analysis');
  assert.equal(ctx.canMove(), true);
  ctx.block('review', true);
  assert.equal(ctx.canMove(), false);
  ctx.block('review', false);
  // A game against Kirin: the player is Black; the gate takes Black's moves while it is open.
  let open = true;
  const accepted: string[] = [];
  ctx.setMode('play');
  ctx.setHumanSide(BLACK);
  ctx.setGate({
    canMove: () => open,
    accept: (m) => {
      accepted.push(moveToUci(m));
      return open;
    },
  });
  assert.equal(ctx.canMove(), false, "Red's move, the player is Black");
  assert.equal(ctx.offerMove(move('h2e2')), false, 'not the player to move: refused before the gate');
  assert.deepEqual(accepted, []);
  ctx.playMove(move('h2e2')); // Kirin's move, as the play room shows it
  assert.equal(ctx.canMove(), true);
  assert.equal(ctx.offerMove(move('h9g7')), true);
  assert.deepEqual(accepted, ['h9g7']);
  assert.equal(ctx.path.length, 2);
  // Looking back at an earlier move: the board stays still.
  ctx.playMove(move('h0g2'));
  ctx.goTo(ctx.path.slice(0, 1));
  assert.equal(ctx.canMove(), false, 'not at the game’s last move');
  ctx.goTo(ctx.currentLine());
  assert.equal(ctx.canMove(), true);
  // The gate closes (the flag fell): nothing moves, and a move offered is not played.
  open = false;
  assert.equal(ctx.canMove(), false);
  assert.equal(ctx.offerMove(move('i9h9')), false);
  assert.equal(ctx.path.length, 3);
  ctx.setGate(null);
  ctx.setMode('analysis');
  assert.equal(ctx.canMove(), true, 'analysis: both sides');
  ctx.setHumanSide(RED);
  // A mate: the game is over, nothing moves.
  ctx.setGame(newGame('R3k4/R8/9/9/9/9/9/9/9/3K5 b - - 0 1'));
  assert.equal(ctx.judgement().result, 'red');
  assert.equal(ctx.canMove(), false);
});
