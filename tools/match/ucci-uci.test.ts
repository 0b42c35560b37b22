// The UCCI -> UCI adapter (tools/match/ucci-uci.ts): the translations, the
// adapter's state machine on scripted engine answers (ElephantEye's
// nobestmove, a stop that crosses the answer, go infinite), and end to end
// with Kirin itself in UCCI mode as the wrapped engine: the handshake, a
// search on a clock, and two games through the match runner against Kirin UCI.
// No external binary is needed (ElephantEye is run by hand: docs/ANCHORS.md).

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { after, test } from 'node:test';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Position } from '../../src/core/position.js';
import { BLACK, RED } from '../../src/core/types.js';
import { parseLegalMove, playUciMoves } from '../../src/core/ucimove.js';
import { KIRIN_BIN, killEngineProcesses } from '../../test/support/engine-process.js';
import type { RelayIO } from './relay.js';
import { playRunnerGames } from '../../test/support/runner-games.js';
import {
  createUcciAdapter,
  goToUcci,
  parseArgs,
  parseUcciOption,
  parseUciGo,
  translateInfo,
  MAX_UCCI_MOVES,
} from './ucci-uci.js';
import { UciEngine } from './uci-engine.js';
import { unwrap } from '../../test/support/fixtures.js';

after(killEngineProcesses);

const here = dirname(fileURLToPath(import.meta.url));
const adapterJs = join(here, 'ucci-uci.js');
const q = (s: string): string => `"${s}"`;
/** Kirin in UCCI mode behind the adapter, as a command line for the runner. */
const WRAPPED_KIRIN = `${q(process.execPath)} ${q(adapterJs)} -- ${q(process.execPath)} ${q(KIRIN_BIN)}`;

test('command line: options, the engine command after --, clear errors', () => {
  const a = parseArgs(['--option', 'usebook=false', '-o', 'Hash=16', '--', '/x/eleeye', '-v']);
  assert.ok(a.ok);
  assert.deepEqual(a.value.options, [
    ['usebook', 'false'],
    ['Hash', '16'],
  ]);
  assert.equal(a.value.command, '/x/eleeye');
  assert.deepEqual(a.value.args, ['-v']);
  const b = parseArgs(['eleeye']);
  assert.ok(b.ok && b.value.command === 'eleeye');
  for (const [argv, message] of [
    [[], /no engine command/],
    [['--option', 'Hash=1', '--'], /no engine command/],
    [['--option', 'nonsense', '--', 'e'], /--option needs NAME=VALUE/],
    [['--option'], /argument missing/],
    [['--bogus', '--', 'e'], /Unknown option '--bogus'/],
  ] as Array<[string[], RegExp]>) {
    const r = parseArgs(argv);
    assert.ok(!r.ok, argv.join(' '));
    assert.equal(r.error.code, 'arguments');
    assert.match(r.error.message, message);
  }
  const help = parseArgs(['--help']);
  assert.ok(!help.ok && help.error.code === 'help');
  // The script itself: a bad command line is an error on stderr and exit code 2.
  const r = spawnSync(process.execPath, [adapterJs, '--option', 'x'], { encoding: 'utf8' });
  assert.equal(r.status, 2);
  assert.match(r.stderr, /ucci-uci: --option needs NAME=VALUE/);
  // An engine that cannot be started.
  const r2 = spawnSync(process.execPath, [adapterJs, '--', '/nonexistent/eleeye'], {
    encoding: 'utf8',
    input: 'uci\n',
  });
  assert.equal(r2.status, 1);
  assert.match(r2.stderr, /cannot start \/nonexistent\/eleeye/);
});

test('UCCI option lines become UCI option lines', () => {
  assert.equal(
    parseUcciOption('option hashsize type spin min 16 max 1024 default 16')?.line,
    'option name Hash type spin default 16 min 16 max 1024',
  );
  assert.equal(
    parseUcciOption('option idle type combo var none var small default none')?.line,
    'option name idle type combo default none var none var small',
  );
  assert.equal(
    parseUcciOption('option bookfiles type string default /opt/my books/BOOK.DAT')?.line,
    'option name bookfiles type string default /opt/my books/BOOK.DAT',
  );
  assert.equal(parseUcciOption('option newgame type button')?.line, 'option name newgame type button');
  assert.equal(parseUcciOption('option usebook type check default true')?.ucci, 'usebook');
  assert.equal(parseUcciOption('id name x'), null);
});

test('info lines: centipawns, mates from MATE_VALUE 10000, book weights are not scores', () => {
  assert.equal(translateInfo('info depth 8 score -5 pv h9g7 g3g4'), 'info depth 8 score cp -5 pv h9g7 g3g4');
  // Mate in 3 plies for the side to move = mate in 2 moves; mated in 4 plies = -2.
  assert.equal(translateInfo('info depth 9 score 9997 pv a0a1'), 'info depth 9 score mate 2 pv a0a1');
  assert.equal(translateInfo('info depth 9 score -9996 pv a0a1'), 'info depth 9 score mate -2 pv a0a1');
  // ElephantEye's perpetual-check scores (BAN_VALUE 9900 minus plies) stay centipawns.
  assert.equal(translateInfo('info depth 9 score 9890 pv a0a1'), 'info depth 9 score cp 9890 pv a0a1');
  assert.equal(translateInfo('info depth 0 score 1473 pv h2e2'), 'info string book move h2e2 weight 1473');
  assert.equal(translateInfo('info time 420 nodes 998303'), 'info time 420 nodes 998303');
  assert.equal(translateInfo('info string score 5'), 'info string score 5');
});

test('go: the clock of the side to move, units, one limit, infinite/ponder held', () => {
  const g = parseUciGo('go wtime 9000 btime 8000 winc 100 binc 200');
  assert.ok(g.ok);
  assert.deepEqual(goToUcci(g.value, RED, true), {
    line: 'go time 9000 increment 100 opptime 8000 oppincrement 200',
    hold: false,
  });
  assert.deepEqual(goToUcci(g.value, BLACK, true), {
    line: 'go time 8000 increment 200 opptime 9000 oppincrement 100',
    hold: false,
  });
  // Seconds for an engine without usemillisec.
  assert.equal(goToUcci(g.value, RED, false).line, 'go time 9 increment 0 opptime 8 oppincrement 0');
  const mtg = parseUciGo('go wtime 60000 btime 50000 movestogo 20');
  assert.ok(mtg.ok);
  assert.equal(goToUcci(mtg.value, BLACK, true).line, 'go time 50000 movestogo 20 opptime 60000 oppmovestogo 20');
  const mt = parseUciGo('go movetime 250');
  assert.ok(mt.ok);
  assert.equal(goToUcci(mt.value, RED, true).line, 'go time 250 movestogo 1');
  const d = parseUciGo('go wtime 1000 btime 1000 depth 5');
  assert.ok(d.ok);
  assert.equal(goToUcci(d.value, RED, true).line, 'go depth 5');
  const n = parseUciGo('go nodes 20000');
  assert.ok(n.ok);
  assert.equal(goToUcci(n.value, RED, true).line, 'go nodes 20000');
  const inf = parseUciGo('go infinite');
  assert.ok(inf.ok);
  assert.deepEqual(goToUcci(inf.value, RED, true), { line: 'go infinite', hold: true });
  const p = parseUciGo('go ponder wtime 1000 btime 1000');
  assert.ok(p.ok);
  assert.deepEqual(goToUcci(p.value, RED, true), {
    line: 'go ponder time 1000 increment 0 opptime 1000 oppincrement 0',
    hold: true,
  });
  const bad = parseUciGo('go wtime soon');
  assert.ok(!bad.ok);
  assert.ok(!parseUciGo('go sideways').ok);
});

/** The adapter with a recording io. */
function scripted(options: Array<[string, string]> = []) {
  let clock = 0;
  const a = createUcciAdapter(options, () => clock);
  const engine: string[] = [];
  const gui: string[] = [];
  const io: RelayIO = { toEngine: (l) => engine.push(l), toGui: (l) => gui.push(l) };
  return {
    engine,
    gui,
    gui_: (l: string) => a.fromGui(l, io),
    eng: (...ls: string[]) => ls.forEach((l) => a.fromEngine(l, io)),
    tick: (ms: number) => (clock += ms),
    take: () => [engine.splice(0), gui.splice(0)] as const,
    startup: a.startup,
  };
}

function bootEleeye(s: ReturnType<typeof scripted>): void {
  s.gui_('uci');
  s.gui_('setoption name Hash value 32'); // before ucciok: waits for the option list
  s.eng(
    'id name ElephantEye',
    'id version 3.31',
    'id copyright 2004-2016 www.xqbase.com',
    'id author ElephantEye Development Team',
    'option usemillisec type check default true',
    'option usebook type check default true',
    'option hashsize type spin min 16 max 1024 default 16',
    'option newgame type button',
    'ucciok',
  );
}

test('handshake: ucci first, usemillisec set, options by UCI and UCCI name, Threads held at 1', () => {
  const s = scripted([['usebook', 'false']]);
  assert.deepEqual(s.startup, ['ucci']);
  bootEleeye(s);
  const [eng, gui] = s.take();
  assert.deepEqual(eng, ['setoption usemillisec true', 'setoption usebook false', 'setoption hashsize 32']);
  assert.deepEqual(gui, [
    'id name ElephantEye',
    'id author ElephantEye Development Team',
    'option name usebook type check default true',
    'option name Hash type spin default 16 min 16 max 1024',
    'option name newgame type button',
    'option name Threads type spin default 1 min 1 max 1',
    'uciok',
  ]);
  s.gui_('setoption name Threads value 1');
  s.gui_('setoption name Threads value 4');
  s.gui_('setoption name usemillisec value false');
  s.gui_('setoption name NoSuch value 1');
  // A control character in a value (a line break would be a command of its own) goes nowhere.
  s.gui_('setoption name Hash value 32\u0000setoption usebook true');
  s.gui_('ucinewgame');
  s.gui_('isready');
  const [eng2, gui2] = s.take();
  assert.deepEqual(eng2, ['setoption newgame', 'isready']);
  assert.equal(gui2.length, 4);
  assert.match(gui2[3], /^info string ERROR: option Hash value: NUL at offset 2 /);
  for (const l of gui2) assert.match(l, /^info string ERROR: /);
  // A second uci is answered from what the engine said the first time.
  s.gui_('uci');
  assert.equal(s.take()[1].at(-1), 'uciok');
});

test('positions are checked and passed on; a bad one is refused and the last one kept', () => {
  const s = scripted();
  bootEleeye(s);
  s.take();
  s.gui_('position startpos moves h2e2 h9g7');
  s.gui_('position startpos moves h2e2 h9h9');
  s.gui_('position startpos moves');
  s.gui_('position fen 3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1 moves e0e1');
  const [eng, gui] = s.take();
  assert.deepEqual(eng, [
    'position startpos moves h2e2 h9g7',
    'position startpos',
    'position fen 3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1 moves e0e1',
  ]);
  assert.equal(gui.length, 1);
  assert.match(gui[0], /^info string ERROR: position: move 2 of the list: 'h9h9'/);
  // Black to move after e0e1: btime is `time`.
  s.gui_('go wtime 1000 btime 2000');
  assert.deepEqual(s.take()[0], ['go time 2000 increment 0 opptime 1000 oppincrement 0']);
});

test('a move list longer than UCCI engines hold is rebased on a FEN with the same position', () => {
  const s = scripted();
  bootEleeye(s);
  s.take();
  // Knights out and back: 4 plies per cycle, the same position every cycle.
  const cycle = ['b0c2', 'b9c7', 'c2b0', 'c7b9'];
  const moves: string[] = [];
  while (moves.length <= MAX_UCCI_MOVES + 3) moves.push(...cycle);
  moves.push('h2e2');
  s.gui_(`position startpos moves ${moves.join(' ')}`);
  const [eng] = s.take();
  assert.equal(eng.length, 1);
  const m = /^position fen (.*?) moves (.*)$/.exec(eng[0]);
  assert.ok(m, eng[0]);
  const tail = m[2].split(' ');
  assert.ok(tail.length < MAX_UCCI_MOVES);
  const a = new Position();
  assert.ok(playUciMoves(a, moves).ok);
  const b = new Position(m[1]);
  assert.ok(playUciMoves(b, tail).ok);
  assert.equal(b.keyHex(), a.keyHex());
});

test('nobestmove (ElephantEye judging a draw by its own rules): asked again from the bare FEN, clock reduced', () => {
  const s = scripted();
  bootEleeye(s);
  s.take();
  s.gui_('position startpos moves h2e2 h9g7');
  s.gui_('go wtime 5000 btime 5000 winc 100 binc 100');
  s.take();
  s.tick(30);
  s.eng('nobestmove');
  const [eng, gui] = s.take();
  const p = new Position();
  assert.ok(playUciMoves(p, ['h2e2', 'h9g7']).ok);
  assert.deepEqual(eng, [`position fen ${p.fen()}`, 'go time 4970 increment 100 opptime 5000 oppincrement 100']);
  assert.deepEqual(gui, ['info string the engine gave no move; asking again from the bare FEN of this position']);
  // Its answer is the move; the draw offer goes to an info string.
  s.eng('info depth 5 score 12 pv h0g2', 'bestmove h0g2 ponder i9h9 draw');
  assert.deepEqual(s.take()[1], [
    'info depth 5 score cp 12 pv h0g2',
    'info string the engine offers a draw (the game goes on)',
    'bestmove h0g2 ponder i9h9',
  ]);
  // A second refusal in a row gives no move.
  s.gui_('go wtime 5000 btime 5000');
  s.eng('nobestmove');
  s.take();
  s.eng('nobestmove');
  assert.deepEqual(s.take()[1], ['bestmove (none)']);
});

test('a stop that crosses the answer: the stray nobestmove is swallowed before the next command', () => {
  const s = scripted();
  bootEleeye(s);
  s.take();
  s.gui_('position startpos');
  s.gui_('go wtime 1000 btime 1000');
  s.eng('bestmove h2e2'); // the engine answered ...
  s.gui_('stop'); // ... while the GUI's stop was on its way: stop is not sent
  s.gui_('stop');
  let [eng, gui] = s.take();
  assert.deepEqual(eng, ['position startpos', 'go time 1000 increment 0 opptime 1000 oppincrement 0']);
  assert.deepEqual(gui, ['bestmove h2e2']);
  s.gui_('position startpos moves h2e2');
  s.gui_('go wtime 1000 btime 1000');
  s.gui_('stop'); // sent while the engine searches
  s.eng('bestmove h9g7');
  s.gui_('position startpos moves h2e2 h9g7'); // waits for the engine to be idle
  s.gui_('isready');
  [eng, gui] = s.take();
  assert.deepEqual(eng.slice(-2), ['stop', 'isready']);
  assert.deepEqual(gui, ['bestmove h9g7']);
  s.eng('nobestmove', 'readyok'); // the engine had finished before it read stop
  [eng, gui] = s.take();
  assert.deepEqual(eng, ['position startpos moves h2e2 h9g7', 'isready']);
  assert.deepEqual(gui, []);
  s.eng('readyok');
  assert.deepEqual(s.take()[1], ['readyok']);
});

test('go infinite and go ponder: the bestmove waits for stop or ponderhit; searchmoves become banmoves', () => {
  const s = scripted();
  bootEleeye(s);
  s.take();
  s.gui_('position startpos');
  s.gui_('go infinite');
  s.eng('bestmove h2e2');
  assert.deepEqual(s.take(), [['position startpos', 'go infinite'], []]);
  s.gui_('stop');
  assert.deepEqual(s.take(), [[], ['bestmove h2e2']]);
  s.gui_('go ponder wtime 1000 btime 1000');
  s.gui_('ponderhit');
  s.eng('bestmove b0c2');
  assert.deepEqual(s.take(), [
    ['go ponder time 1000 increment 0 opptime 1000 oppincrement 0', 'ponderhit'],
    ['bestmove b0c2'],
  ]);
  s.gui_('go depth 3 searchmoves h2e2 b0c2');
  const [eng] = s.take();
  assert.equal(eng.length, 2);
  const banned = eng[0].split(' ');
  assert.equal(banned[0], 'banmoves');
  assert.equal(banned.length - 1, 44 - 2); // 44 legal moves in the start position
  assert.ok(!banned.includes('h2e2') && !banned.includes('b0c2'));
  assert.equal(eng[1], 'go depth 3');
  s.eng('bestmove h2e2');
  s.gui_('go depth 3'); // the bans are forgotten
  assert.deepEqual(s.take()[0], ['position startpos', 'go depth 3']);
});

test('Kirin in UCCI mode behind the adapter: uciok, options, a clocked search with a legal move', async () => {
  const e = new UciEngine({ command: WRAPPED_KIRIN, options: [['Hash', '16']] });
  try {
    unwrap(await e.start(30000));
    assert.match(e.name, /^Kirin /);
    assert.ok(e.declaredOptions.has('hash'));
    assert.ok(e.declaredOptions.has('threads'));
    assert.ok(!e.declaredOptions.has('usemillisec'));
    assert.equal(await e.newGame(), true);
    const moves = ['h2e2', 'h9g7'];
    const r = await e.go(
      `position startpos moves ${moves.join(' ')}`,
      'go wtime 2000 btime 2000 winc 20 binc 20',
      10000,
    );
    assert.equal(r.kind, 'move');
    if (r.kind !== 'move') return;
    // Milliseconds reached Kirin as milliseconds: a 2 s clock is not read as 2000 s.
    assert.ok(r.elapsedMs < 2000, `${r.elapsedMs} ms`);
    assert.ok(r.infoCount > 0);
    const p = new Position();
    assert.ok(playUciMoves(p, moves).ok);
    assert.ok(parseLegalMove(p, r.move).ok, r.move);
    // A depth search reports scores the runner reads.
    const d = await e.go('position startpos', 'go depth 4', 20000);
    assert.equal(d.kind, 'move');
    if (d.kind === 'move') assert.ok(d.score !== null);
  } finally {
    await e.quit();
  }
  assert.equal(e.alive, false);
});

test('two games through the match runner: Kirin UCCI (adapter) against Kirin UCI, no forfeits', async () => {
  const wrapped = new UciEngine({ command: WRAPPED_KIRIN, name: 'Kirin-UCCI', options: [['Hash', '8']] });
  const plain = new UciEngine({
    command: `${q(process.execPath)} ${q(KIRIN_BIN)}`,
    name: 'Kirin-UCI',
    options: [['Hash', '8']],
  });
  try {
    unwrap(await wrapped.start(30000));
    unwrap(await plain.start(30000));
    await playRunnerGames(wrapped, plain, { moveTimeoutMs: 30000, minPlies: 8 });
  } finally {
    await wrapped.quit();
    await plain.quit();
  }
});
