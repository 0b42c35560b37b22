import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  BLACK,
  Position,
  RED,
  START_FEN,
  parseLegalMove,
  readGames,
  ruleConfigFrom,
  writePgn,
  type Color,
  type Move,
} from '../../src/browser/index.js';
import { endWords } from './end.js';
import type { Translate } from './host.js';
import { PLAY_MESSAGES } from './messages.js';
import { PlayGame } from './game.js';
import { clockControl, type TimeControl } from './timecontrol.js';

const zh: Translate = (key, params = {}) =>
  PLAY_MESSAGES['zh-Hans'][key].replace(/\{(\w+)\}/g, (_, n: string) => String(params[n]));

const asian = ruleConfigFrom({ repetitionRule: 'AsianRule', drawRule: 'None', rule60MaxPly: 120, mateThreatDepth: 0 });
const noJudging = ruleConfigFrom({
  repetitionRule: 'NoJudgement',
  drawRule: 'None',
  rule60MaxPly: 120,
  mateThreatDepth: 0,
});

/** A game on a hand-moved clock. */
function newPlay(opts: { fen?: string; human?: Color; control?: TimeControl; rules?: typeof asian } = {}) {
  let now = 1_700_000_000_000;
  const game = new PlayGame({
    startFen: opts.fen ?? START_FEN,
    human: opts.human ?? RED,
    control: opts.control ?? clockControl(1, 0),
    rules: opts.rules ?? asian,
    now: () => now,
  });
  const move = (uci: string): Move => {
    const m = parseLegalMove(game.position(), uci);
    assert.ok(m.ok, uci);
    return m.value;
  };
  const play = (line: string): void => {
    for (const uci of line.split(' ')) {
      const r = game.play(move(uci));
      assert.ok(r.ok, `${uci}: ${r.ok ? '' : r.error.message}`);
    }
  };
  return { game, move, play, advance: (ms: number) => (now += ms), now: () => now };
}

test('a timed game at 1+0 ends on time: the player who lets the clock run out loses', () => {
  const { game, move, play, advance } = newPlay();
  assert.equal(game.clock?.running(), null, "the clocks wait for Red's first move");
  advance(20_000);
  play('h2e2');
  assert.equal(game.clock?.remaining(RED), 60_000, "Red's first move is free");
  assert.equal(game.clock?.running(), BLACK);
  assert.equal(game.kirinToMove(), true);
  advance(2500);
  play('h9g7'); // Kirin's reply after 2.5 s
  assert.equal(game.clock?.remaining(BLACK), 57_500);
  assert.equal(game.playerToMove(), true);
  advance(59_999);
  assert.equal(game.tick(), null);
  advance(1);
  const end = game.tick();
  assert.deepEqual(end, { result: 'black', reason: 'flag', side: RED, byDrawRule: false });
  assert.equal(endWords(end!, zh), '黑胜：红方超时判负');
  // A move after the flag is refused; the result stands.
  const late = game.play(move('b0c2'));
  assert.ok(!late.ok);
  assert.equal(late.error.code, 'game-over');
  assert.equal(game.moves.length, 2);
  assert.equal(game.playerToMove(), false);
  // The record: players, time control, result, termination, and the words on the last move.
  const rec = game.record(
    { red: '棋手', black: 'Kirin', event: '与 Kirin 对弈', date: new Date(2026, 0, 5) },
    endWords(end!, zh),
  );
  assert.equal(rec.result, '0-1');
  assert.deepEqual(rec.headers, {
    Event: '与 Kirin 对弈',
    Date: '2026.01.05',
    Red: '棋手',
    Black: 'Kirin',
    TimeControl: '60+0',
    Result: '0-1',
    Termination: 'time forfeit',
  });
  const pgn = writePgn(rec);
  assert.ok(pgn.ok);
  const back = readGames(new TextEncoder().encode(pgn.value))[0];
  assert.ok(back.ok);
  assert.equal(back.value.children[0].children[0].comment, '黑胜：红方超时判负');
  assert.equal(back.value.result, '0-1');
});

test("Kirin's flag falls too: a move it plays after its time is out is refused and it loses", () => {
  const { game, move, play, advance } = newPlay({ control: clockControl(0.05, 0) }); // 3 s
  play('h2e2');
  advance(3001);
  const r = game.play(move('h9g7'));
  assert.ok(!r.ok);
  assert.deepEqual(game.end, { result: 'red', reason: 'flag', side: BLACK, byDrawRule: false });
});

test('a flag against a side with no attacking pieces left is a draw', () => {
  // Kirin (Black) has only its king, advisors and bishops; the player's clock runs out.
  const { game, play, advance } = newPlay({ fen: '2bak4/4a4/4b4/9/9/9/9/9/4R4/3K5 w - - 0 1' });
  play('e1e2 e8f9');
  advance(60_001);
  assert.deepEqual(game.tick(), { result: 'draw', reason: 'flag-no-material', side: RED, byDrawRule: false });
});

test('the increment: each move earns it, and goLimits sends the times at the start of the turn', () => {
  const { game, play, advance, now } = newPlay({ control: clockControl(3, 2), human: BLACK });
  // Kirin (Red) moves first before the clocks run: the full times from now.
  assert.deepEqual(game.goLimits(), { wtime: 180_000, btime: 180_000, winc: 2000, binc: 2000, startTime: now() });
  play('h2e2');
  advance(4000);
  play('h9g7'); // the player took 4 s and earns 2
  assert.equal(game.clock?.remaining(BLACK), 178_000);
  const turn = now();
  advance(700); // the page took 0.7 s to ask Kirin: the search counts it from the turn's start
  assert.deepEqual(game.goLimits(), { wtime: 180_000, btime: 178_000, winc: 2000, binc: 2000, startTime: turn });
  const perMove = newPlay({ control: { kind: 'movetime', moveMs: 3000 } });
  assert.equal(perMove.game.clock, null);
  assert.deepEqual(perMove.game.goLimits(), { movetime: 3000, startTime: perMove.now() });
});

test('mate and stalemate end the game with the winner, judged by the rules core', () => {
  const mate = newPlay({ fen: '4k4/1R7/9/9/R8/9/9/9/9/3K5 w - - 0 1' });
  const r = mate.game.play(mate.move('a5a9'));
  assert.ok(r.ok);
  assert.deepEqual(r.value, { result: 'red', reason: 'checkmate', side: BLACK, byDrawRule: false });
  assert.equal(mate.game.clock?.running(), null, 'the clocks stop');
  const stalemate = newPlay({ fen: '4k4/R8/9/9/9/9/9/9/5R3/3K5 w - - 0 1' });
  stalemate.play('f1f0');
  assert.equal(stalemate.game.end?.reason, 'stalemate');
  assert.equal(stalemate.game.end?.result, 'red');
  // A start position that is already mate ends the game at once.
  assert.equal(newPlay({ fen: 'R3k4/1R7/9/9/9/9/9/9/9/3K5 b - - 0 1' }).game.end?.reason, 'checkmate');
});

test('under AsianRule the perpetual checker loses; under NoJudgement the game goes on', () => {
  const line = 'a0a9 e9e8 a9a8 e8e9 a8a9 e9e8 a9a8 e8e9';
  const fen = '4k4/9/9/9/9/9/9/9/9/R4K3 w - - 0 1';
  const asianGame = newPlay({ fen });
  let ended = null;
  for (const uci of line.split(' ')) {
    const r = asianGame.game.play(asianGame.move(uci));
    assert.ok(r.ok);
    ended = r.value;
    if (ended) break;
  }
  assert.equal(ended?.reason, 'perpetual-check');
  assert.equal(ended?.result, 'black');
  const free = newPlay({ fen, rules: noJudging });
  free.play(line);
  assert.equal(free.game.end, null);
});

test('the move must be legal and the side to move the one that plays it', () => {
  const { game, move } = newPlay();
  const notYours = game.play(move('h2e2'), BLACK);
  assert.ok(!notYours.ok);
  assert.equal(notYours.error.code, 'not-your-turn');
  const pos = new Position();
  const illegal = game.play(((pos.pieceOn(0) ? 0 : 1) << 7) | 45); // a0 to a5: a rook through its own pawn
  assert.ok(!illegal.ok);
  assert.equal(illegal.error.code, 'illegal');
  assert.equal(game.moves.length, 0);
});

test('resign and draw offers: Kirin takes a draw only after ten moves each and when not better', () => {
  const resigned = newPlay({ human: BLACK });
  resigned.play('h2e2');
  assert.deepEqual(resigned.game.resign(), { result: 'red', reason: 'resign', side: BLACK, byDrawRule: false });
  assert.equal(resigned.game.resign(), resigned.game.end, 'resigning twice changes nothing');

  const { game, play } = newPlay({ rules: noJudging, control: clockControl(30, 0) });
  play('h0g2 h9g7');
  assert.equal(game.offerDraw(0), false, 'too early');
  for (let i = 0; i < 4; i++) play('g2h0 g7h9 h0g2 h9g7');
  assert.equal(game.moves.length, 18);
  assert.equal(game.offerDraw(0), false, 'still before ply 20');
  play('g2h0 g7h9');
  assert.equal(game.offerDraw(120), false, 'Kirin stands better by 1.20');
  assert.equal(game.end, null);
  assert.equal(game.offerDraw(-15), true);
  assert.deepEqual(game.end, { result: 'draw', reason: 'agreement', side: null, byDrawRule: false });
  assert.equal(game.clock?.running(), null);
});

test('takeback: back to the player turn, the times as they were spent', () => {
  const { game, play, advance } = newPlay({ control: clockControl(5, 3) });
  play('h2e2');
  advance(1000);
  play('h9g7'); // Kirin
  advance(5000);
  play('b0c2'); // the player; now Kirin is to move
  assert.equal(game.kirinToMove(), true);
  const before = game.clock!.remaining(RED);
  assert.equal(game.takeBack(), 1, "while Kirin thinks: the player's move alone");
  assert.equal(game.playerToMove(), true);
  assert.equal(game.clock?.running(), RED);
  assert.equal(game.clock!.remaining(RED), before, 'the time spent stays spent, the increment too');
  advance(1000);
  play('b0c2');
  advance(1000);
  play('b9c7');
  assert.equal(game.takeBack(), 2, "Kirin's reply and the player's move");
  assert.equal(game.moves.length, 2);
  assert.equal(game.position().fen(), 'rnbakab1r/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR w - - 2 2');
  assert.equal(game.takeBack(), 2);
  assert.equal(game.moves.length, 0);
  assert.equal(game.clock?.running(), null, 'back at the start: the clocks wait for the first move again');
  assert.equal(game.takeBack(), 0, 'nothing left');
  // As Black, Kirin's first move cannot be taken back alone.
  const black = newPlay({ human: BLACK });
  black.play('h2e2');
  assert.equal(black.game.takeBack(), 0);
});
