// UCCI end to end: the real `kirin` binary driven as a UCCI GUI drives it
// (ElephantEye's protocol, see docs/UCCI.md), and the go translation unit-tested.

import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { Position } from '../core/position.js';
import { legalMoves } from '../core/movegen.js';
import { moveToUci } from '../core/types.js';
import { playUciMoves } from '../core/ucimove.js';
import { EngineProcess, killEngineProcesses } from '../../test/support/engine-process.js';
import { ucciGoToUci, ucciName } from './ucci.js';

after(killEngineProcesses);

const FINAL = /^(bestmove|nobestmove)/;

function legalIn(fen: string, moves: string[], move: string): boolean {
  const p = new Position(null);
  assert.ok(p.setFen(fen).ok);
  assert.ok(playUciMoves(p, moves).ok);
  return legalMoves(p).map(moveToUci).includes(move);
}

const START = 'rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1';

test('a UCCI session as a GUI runs it: handshake, options, position, go time, banmoves, stop, quit -> bye', async () => {
  const g = new EngineProcess();
  const ok = await g.ask(/^ucciok$/, 'ucci');
  assert.ok(ok);
  assert.match(g.lines[0], /^id name Kirin /);
  const options = g.lines.filter((l) => l.startsWith('option '));
  // UCCI syntax: `option <one lower-case word> type ...`, no `name`.
  for (const o of options) assert.match(o, /^option [a-z0-9_]+ type (check|spin|combo|button|string)( |$)/);
  for (const name of ['usemillisec', 'hashsize', 'ponder', 'batch', 'debug', 'newgame', 'randomness', 'multipv'])
    assert.ok(
      options.some((o) => o.startsWith(`option ${name} `)),
      `option ${name} listed`,
    );
  assert.ok(options.includes('option hashsize type spin min 0 max 65536 default 16'));
  assert.equal(g.lines.filter((l) => l.startsWith('option name')).length, 0);

  g.send('setoption usemillisec true', 'setoption hashsize 32', 'setoption skilllevel 20', 'setoption newgame');
  assert.equal(await g.ask(/^readyok$/, 'isready'), 'readyok');
  assert.equal(g.lines.filter((l) => /ERROR/.test(l)).length, 0, g.lines.join('\n'));

  // A timed move (ms), position given as UCCI GUIs do: FEN of the last capture + moves.
  const moves = ['h2e2', 'h9g7'];
  let from = g.lines.length;
  const best = await g.ask(
    FINAL,
    `position fen ${START} moves ${moves.join(' ')}`,
    'go time 3000 increment 0 opptime 3000',
  );
  const m = /^bestmove ([a-i]\d[a-i]\d)( ponder [a-i]\d[a-i]\d)?$/.exec(best);
  assert.ok(m, best);
  assert.ok(legalIn(START, moves, m[1]));
  // UCCI info lines: `info depth d score s pv ...` (no cp) and `info time t nodes n`.
  const infos = g.lines.slice(from).filter((l) => l.startsWith('info depth'));
  assert.ok(infos.length > 0);
  for (const l of infos) assert.match(l, /^info depth \d+ score -?\d+ pv( [a-i]\d[a-i]\d)+$/);

  // banmoves: all legal moves but one banned leaves that one.
  const p = new Position(null);
  p.setFen(START);
  const legal = legalMoves(p).map(moveToUci);
  const keep = 'i0i1';
  assert.ok(legal.includes(keep));
  g.send('position startpos', `banmoves ${legal.filter((x) => x !== keep).join(' ')}`);
  assert.match(await g.ask(FINAL, 'go depth 6'), new RegExp(`^bestmove ${keep}( |$)`));
  // All banned: nothing to search.
  g.send(`banmoves ${legal.join(' ')}`);
  assert.equal(await g.ask(FINAL, 'go depth 4'), 'nobestmove');
  // A new position forgets the banned moves.
  assert.match(await g.ask(FINAL, 'position startpos', 'go depth 3'), /^bestmove /);

  // A bad banmoves is refused with an error and the old list stays (here: none).
  assert.match(await g.ask(/ERROR/, 'banmoves e0e5'), /^info string ERROR: banmoves: /);

  // stop ends an infinite search with a move; stop while idle answers nobestmove.
  from = g.lines.length;
  g.send('go infinite');
  await g.waitFor(/^info depth 3 /, { from });
  assert.match(await g.ask(FINAL, 'stop'), /^bestmove [a-i]\d[a-i]\d/);
  assert.equal(await g.ask(FINAL, 'stop'), 'nobestmove');
  // go depth 0: a static answer, no move.
  assert.equal(await g.ask(FINAL, 'go depth 0'), 'nobestmove');
  // probe: facts about another position, the engine's own unchanged.
  assert.equal(await g.ask(/^pophash/, 'probe startpos moves h2e2'), 'pophash');
  assert.ok(
    g.lines.some((l) =>
      l.startsWith('info string probe: fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b'),
    ),
  );
  assert.match(await g.ask(/ERROR/, 'frobnicate'), /unknown UCCI command/);
  assert.equal(await g.ask(/^bye$/, 'quit'), 'bye');
  assert.equal(await g.exited, 0);
});

test('go draw: accepted when the engine is not better, declined when winning; resign when lost; nobestmove when mated', async () => {
  const g = new EngineProcess();
  await g.ask(/^ucciok$/, 'ucci');
  // King and two advisors against a bare king: a dead draw.
  assert.match(await g.ask(FINAL, 'position fen 4k4/9/9/9/9/9/9/9/4A4/3AK4 b - - 0 1', 'go draw depth 8'), / draw$/);
  // The same offer while pondering, made with `ponderhit draw`.
  const ponderFrom = g.lines.length;
  g.send('position fen 4k4/9/9/9/9/9/9/9/4A4/3AK4 b - - 0 1', 'go ponder depth 6');
  // The ponderhit comes while the ponder search runs (its first line is out), however slow the machine.
  await g.waitFor(/^info depth /, { from: ponderFrom });
  assert.match(await g.ask(FINAL, 'ponderhit draw'), / draw$/);
  // Two rooks up: no draw, even when offered.
  const win = await g.ask(FINAL, 'position fen 3k5/9/9/9/9/9/9/9/R8/R3K4 w - - 0 1', 'go draw depth 8');
  assert.match(win, /^bestmove [a-i]\d[a-i]\d( ponder [a-i]\d[a-i]\d)?$/);
  // The other side of it: hopeless, resign.
  assert.match(await g.ask(FINAL, 'position fen 3k5/9/9/9/9/9/9/9/R8/R3K4 b - - 0 1', 'go depth 10'), / resign$/);
  // No legal move (checkmated): nobestmove.
  assert.equal(await g.ask(FINAL, 'position fen 3k5/4R4/9/9/9/9/9/9/9/4K4 b - - 0 1', 'go depth 5'), 'nobestmove');
  assert.equal(await g.ask(/^bye$/, 'quit'), 'bye');
  assert.equal(await g.exited, 0);
});

test('a session that does not start with ucci is UCI', async () => {
  const g = new EngineProcess();
  assert.equal(await g.ask(/^uciok$/, '', 'uci'), 'uciok');
  assert.ok(g.lines.some((l) => l.startsWith('option name Hash type spin')));
  g.send('quit');
  assert.equal(await g.exited, 0);
});

test('UCCI go arguments become UCI ones: seconds by default, the clocks by side to move, banned moves out', () => {
  const red = new Position(null);
  red.setFen(START);
  const black = red.clone();
  assert.ok(playUciMoves(black, ['h2e2']).ok);
  const go = (args: string, pos: Position, ms: boolean, banned: string[] = []): unknown => {
    const r = ucciGoToUci(args.split(' ').filter(Boolean), pos, ms, banned);
    return r.ok ? r.value : r.error.code;
  };
  assert.deepEqual(go('time 300 increment 2 opptime 250', red, false), [
    'wtime',
    '300000',
    'winc',
    '2000',
    'btime',
    '250000',
  ]);
  assert.deepEqual(go('time 300 increment 2 opptime 250 oppincrement 3', black, true), [
    'btime',
    '300',
    'binc',
    '2',
    'wtime',
    '250',
    'winc',
    '3',
  ]);
  assert.deepEqual(go('ponder time 60000 opptime 60000 movestogo 40', red, true), [
    'ponder',
    'wtime',
    '60000',
    'btime',
    '60000',
    'movestogo',
    '40',
  ]);
  assert.deepEqual(go('draw depth 7', red, false), ['depth', '7']);
  assert.deepEqual(go('nodes 5000', red, false), ['nodes', '5000']);
  assert.deepEqual(go('depth 0', red, false), 'none');
  assert.equal(go('time x', red, false), 'not-an-integer');
  assert.equal(go('wtime 5', red, false), 'unknown-token');
  const banned = go('depth 3', red, false, ['h2e2', 'b2e2']) as string[];
  assert.equal(banned[2], 'searchmoves');
  assert.equal(banned.length, 3 + 42);
  assert.ok(!banned.includes('h2e2') && !banned.includes('b2e2'));
  assert.equal(ucciName('Hash'), 'hashsize');
  assert.equal(ucciName('Skill Level'), 'skilllevel');
  assert.equal(ucciName('Move Overhead'), 'moveoverhead');
});

test('UCCI setoption with a control character inside is refused with the field named', async () => {
  const g = new EngineProcess();
  await g.ask(/^ucciok$/, 'ucci');
  const value = await g.ask(/ERROR/, 'setoption hashsize 16\u000bsetoption');
  assert.match(value, /^info string ERROR: setoption value: U\+000B at offset 2 /);
  const name = await g.ask(/ERROR/, 'setoption hash\u0000size 16');
  assert.match(name, /^info string ERROR: setoption name: NUL at offset 4 /);
  await g.ask(/^bye$/, 'quit');
});
