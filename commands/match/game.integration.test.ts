import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { Position } from '../../src/core/position.js';
import { DEFAULT_RULES, isBoardReason, judge } from '../../src/core/rules.js';
import { parseLegalMove } from '../../src/core/ucimove.js';
import { UciEngine, parseInfoScore, splitCommand } from './uci-engine.js';
import { NO_ADJUDICATION, goCommand, parseTimeControl, playGame, type GameConfig, type TimeControl } from './game.js';
import { START_OPENING, type Opening } from './openings.js';
import { unwrap } from '../../test/support/fixtures.js';
import { fakeEngineCommand } from '../../test/support/fake-config.js';

const started: UciEngine[] = [];
after(async () => {
  await Promise.all(started.map((e) => e.quit()));
});

async function engine(args: string): Promise<UciEngine> {
  const e = new UciEngine({ command: fakeEngineCommand(args), options: [] });
  started.push(e);
  unwrap(await e.start(10000));
  return e;
}

function tc(text: string): TimeControl {
  const t = parseTimeControl(text);
  if (!t.ok) throw new Error(t.error.message);
  return t.value;
}

function config(
  red: UciEngine,
  black: UciEngine,
  limits: string,
  opening: Opening = START_OPENING,
  extra: Partial<GameConfig> = {},
): GameConfig {
  return {
    opening,
    engines: [red, black],
    tc: [tc(limits), tc(limits)],
    rules: DEFAULT_RULES,
    timeMarginMs: 50,
    moveTimeoutMs: 5000,
    maxPlies: 400,
    adjudication: NO_ADJUDICATION,
    ...extra,
  };
}

const fenOpening = (fen: string): Opening => ({ fen, moves: [], name: 'test', line: 0 });

test('parseTimeControl', () => {
  assert.deepEqual(tc('10+0.1'), { baseMs: 10000, incMs: 100, movesPerPeriod: 0, movetimeMs: 0, nodes: 0, depth: 0 });
  assert.deepEqual(tc('40/60+0.5'), {
    baseMs: 60000,
    incMs: 500,
    movesPerPeriod: 40,
    movetimeMs: 0,
    nodes: 0,
    depth: 0,
  });
  assert.equal(tc('1:30+1').baseMs, 90000);
  assert.equal(tc('movetime=200').movetimeMs, 200);
  assert.equal(tc('st=0.5').movetimeMs, 500);
  assert.deepEqual([tc('nodes=5000,depth=3').nodes, tc('nodes=5000,depth=3').depth], [5000, 3]);
  const code = (text: string): string | undefined => {
    const r = parseTimeControl(text);
    return r.ok ? undefined : r.error.code;
  };
  assert.equal(code('fast'), 'tc-syntax');
  assert.equal(code('0+0'), 'tc-no-time');
  assert.equal(code(''), 'tc-empty');
  assert.equal(code('nodes=0'), 'tc-value');
});

test('go commands: both clocks, each side its own increment, movestogo, fixed limits', () => {
  assert.equal(
    goCommand([tc('10+0.1'), tc('5+0.05')], [9000.4, 4800], [0, 0], 0),
    'go wtime 9000 btime 4800 winc 100 binc 50',
  );
  assert.equal(
    goCommand([tc('40/60'), tc('40/60')], [1000, 2000], [12, 13], 1),
    'go wtime 1000 btime 2000 winc 0 binc 0 movestogo 13',
  );
  assert.equal(goCommand([tc('nodes=500,depth=4'), tc('movetime=50')], [0, 0], [0, 0], 0), 'go nodes 500 depth 4');
  assert.equal(goCommand([tc('nodes=500'), tc('movetime=50')], [0, 0], [0, 0], 1), 'go movetime 50');
});

test('splitCommand and parseInfoScore', () => {
  assert.deepEqual(unwrap(splitCommand(`node "my dir/e.js" --x 'a b' c\\ d`)), [
    'node',
    'my dir/e.js',
    '--x',
    'a b',
    'c d',
  ]);
  const open = splitCommand('node "oops');
  assert.ok(!open.ok && open.error.code === 'engine-command' && /unterminated quote/.test(open.error.message));
  const empty = splitCommand('  ');
  assert.ok(!empty.ok && /empty engine command/.test(empty.error.message));
  assert.deepEqual(parseInfoScore('info depth 7 seldepth 9 score cp -35 nodes 10 pv h2e2'), {
    value: -35,
    mate: null,
    depth: 7,
  });
  assert.equal(parseInfoScore('info depth 7 score mate 3 pv h2e2')?.value, 100000 - 6);
  assert.equal(parseInfoScore('info depth 7 score mate -2')?.value, -100000 + 4);
  assert.equal(parseInfoScore('info depth 7 score cp 20 lowerbound'), null);
  assert.equal(parseInfoScore('info string hello'), null);
});

test('engine handshake: id name and declared options', async () => {
  const e = await engine('--name Alpha');
  assert.equal(e.name, 'Alpha');
  assert.ok(e.declaredOptions.has('hash'));
  assert.ok(e.setOption('Hash', '32').ok);
  const missing = e.setOption('NoSuchOption', '1');
  assert.ok(
    !missing.ok && missing.error.code === 'option-unknown' && /no option "NoSuchOption"/.test(missing.error.message),
  );
  assert.equal(await e.isReady(2000), true);
});

test('a bad engine command fails to start with a clear message', async () => {
  const e = new UciEngine({ command: '/nonexistent/engine-binary', options: [] });
  const started = await e.start(3000);
  assert.ok(!started.ok && /could not run|exited|did not answer/.test(started.error.message));
});

/** Replays a game record independently and checks every move and the final verdict. */
function replay(moves: string[], repetitions: number): { pos: Position; counts: Map<string, number> } {
  const pos = new Position();
  const counts = new Map<string, number>([[pos.keyHex(), 1]]);
  for (let i = 0; i < moves.length; i++) {
    const j = judge(pos, DEFAULT_RULES);
    if (j.result !== 'none') {
      // Only a repetition verdict may be passed over, and only before the Nth occurrence.
      assert.ok(!isBoardReason(j.code), `game should have ended before ply ${i + 1}`);
      assert.ok(counts.get(pos.keyHex())! < repetitions, `repetition verdict ignored at ply ${i + 1}`);
    }
    const m = parseLegalMove(pos, moves[i]);
    assert.ok(m.ok, `illegal move ${moves[i]} at ply ${i + 1}`);
    pos.doMove(m.value);
    counts.set(pos.keyHex(), (counts.get(pos.keyHex()) ?? 0) + 1);
  }
  return { pos, counts };
}

test('a full game between two scripted engines ends with the judgement of the rules core', async () => {
  const red = await engine('--name R --mode first');
  const black = await engine('--name B --mode random --seed 7');
  const rec = unwrap(await playGame(config(red, black, 'movetime=1000', START_OPENING, { maxPlies: 300 })));
  assert.notEqual(rec.result, 'aborted');
  const { pos, counts } = replay(rec.moves, 3);
  const j = judge(pos, DEFAULT_RULES);
  if (rec.termination === 'maxplies') {
    // No verdict was missed on the way (checked by replay) and the cap was the end.
    assert.equal(rec.moves.length, 300);
    assert.equal(rec.result, 'draw');
    assert.ok(j.result === 'none' || counts.get(pos.keyHex())! < 3);
  } else {
    assert.equal(rec.termination, 'rules');
    assert.equal(rec.result, j.result);
    assert.equal(rec.reason, j.reason);
    if (!isBoardReason(j.code)) assert.equal(counts.get(pos.keyHex()), 3);
  }
  assert.equal(rec.finalFen, pos.fen());
  assert.equal(rec.redName, 'R');
});

test('repetition verdicts apply at the 2nd or the 3rd occurrence as configured', async () => {
  const red = await engine('--mode first');
  const black = await engine('--mode first');
  const twice = unwrap(await playGame(config(red, black, 'depth=1', START_OPENING, { repetitions: 2 })));
  const thrice = unwrap(await playGame(config(red, black, 'depth=1', START_OPENING, { repetitions: 3 })));
  assert.equal(twice.reason, 'repetition');
  assert.equal(thrice.reason, 'repetition');
  const a = replay(twice.moves, 2),
    b = replay(thrice.moves, 3);
  assert.equal(a.counts.get(a.pos.keyHex()), 2);
  assert.equal(b.counts.get(b.pos.keyHex()), 3);
  assert.ok(thrice.moves.length > twice.moves.length);
  assert.deepEqual(thrice.moves.slice(0, twice.moves.length), twice.moves);
});

test('checkmate ends the game at once', async () => {
  const red = await engine('--mode mate');
  const black = await engine('--mode first');
  const rec = unwrap(await playGame(config(red, black, '5+0.1', fenOpening('3k5/R8/9/9/9/9/9/9/9/1R2K4 w'))));
  assert.equal(rec.result, 'red');
  assert.equal(rec.reason, 'checkmate');
  assert.equal(rec.moves.length, 1);
  assert.ok(['b0b9', 'b0d0'].includes(rec.moves[0]), rec.moves[0]);
});

test('opening moves are sent before the game moves', async () => {
  const red = await engine('--mode mate');
  const black = await engine('--mode first');
  // The black king is boxed in; black's pawn makes the waiting moves of the opening.
  const opening: Opening = {
    fen: '3k5/R8/9/9/9/8p/9/9/9/R3K4 w',
    moves: ['a0b0', 'i4i3', 'b0c0', 'i3i2'],
    name: 'x',
    line: 1,
  };
  const rec = unwrap(await playGame(config(red, black, 'movetime=500', opening)));
  assert.equal(rec.result, 'red');
  assert.equal(rec.reason, 'checkmate');
  assert.equal(rec.moves.length, 1);
  assert.ok(['c0c9', 'c0d0'].includes(rec.moves[0]), rec.moves[0]);
});

test('loss on time: no answer within movetime + margin', async () => {
  const red = await engine('--sleep 400');
  const black = await engine('');
  const rec = unwrap(await playGame(config(red, black, 'movetime=100')));
  assert.equal(rec.result, 'black');
  assert.equal(rec.termination, 'time');
  assert.equal(rec.forfeit, 0);
  assert.match(rec.reason, /\(red\) lost on time/);
  assert.equal(red.alive, true, 'the engine answered stop and stays usable');
});

test('loss on time: the clock runs out after a few moves', async () => {
  const red = await engine('--sleep 150');
  const black = await engine('');
  const rec = unwrap(await playGame(config(red, black, '0.4+0')));
  // 400 ms: two moves of 150 ms fit, the third does not.
  assert.equal(rec.result, 'black');
  assert.equal(rec.termination, 'time');
  assert.equal(rec.moves.length, 4);
});

test('an illegal move loses', async () => {
  const red = await engine('');
  const black = await engine('--illegal-at 2');
  const rec = unwrap(await playGame(config(red, black, 'depth=1')));
  assert.equal(rec.result, 'red');
  assert.equal(rec.termination, 'illegal');
  assert.equal(rec.forfeit, 1);
  assert.match(rec.reason, /\(black\) played an illegal move "a0a9"/);
  assert.equal(rec.moves.length, 3);
});

test('a crashing engine loses', async () => {
  const red = await engine('--crash-at 2');
  const black = await engine('');
  const rec = unwrap(await playGame(config(red, black, 'nodes=100')));
  assert.equal(rec.result, 'black');
  assert.equal(rec.termination, 'crash');
  assert.match(rec.reason, /crashed: .*exited with code 3/);
  assert.equal(red.alive, false);
  assert.equal(rec.moves.length, 2);
});

test('an engine that never answers (depth limit only) loses after the move timeout', async () => {
  const red = await engine('');
  const black = await engine('--hang-at 1');
  const rec = unwrap(await playGame(config(red, black, 'depth=3', START_OPENING, { moveTimeoutMs: 200 })));
  assert.equal(rec.result, 'red');
  assert.equal(rec.termination, 'time');
  assert.match(rec.reason, /did not answer within 200 ms/);
});

test('score adjudication: resign and draw', async () => {
  const red = await engine('--score 600');
  const black = await engine('--score=-600');
  const adj = { ...NO_ADJUDICATION, resignMoves: 3, resignScore: 500 };
  const rec = unwrap(await playGame(config(red, black, 'depth=1', START_OPENING, { adjudication: adj })));
  assert.equal(rec.result, 'red');
  assert.equal(rec.termination, 'adjudication');
  assert.equal(rec.moves.length, 6);
  const r2 = await engine('--score 5');
  const b2 = await engine('--score=-3');
  const draw = { ...NO_ADJUDICATION, drawMoveNumber: 3, drawMoves: 2, drawScore: 10 };
  const rec2 = unwrap(await playGame(config(r2, b2, 'depth=1', START_OPENING, { adjudication: draw })));
  assert.equal(rec2.result, 'draw');
  assert.equal(rec2.termination, 'adjudication');
  assert.equal(rec2.moves.length, 5);
});

test('max plies ends the game in a draw', async () => {
  const red = await engine('--mode random --seed 3');
  const black = await engine('--mode random --seed 4');
  const rec = unwrap(await playGame(config(red, black, 'depth=1', START_OPENING, { maxPlies: 6 })));
  if (rec.termination !== 'rules') {
    assert.equal(rec.result, 'draw');
    assert.equal(rec.termination, 'maxplies');
    assert.equal(rec.moves.length, 6);
  }
});
