// The engine as the coordinator of its options: the search options and the
// rules every search is handed, the Hash table, and the opening book played
// through go() (the book itself: book-choice.test.ts; the evaluation:
// evaluation.test.ts).

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DEFAULT_RULES } from '../core/rules.js';
import { MOVE_NONE, moveToUci } from '../core/types.js';
import { Uci } from '../protocol/uci.js';
import { DEFAULT_SEARCH_OPTIONS } from '../search/types.js';
import { Engine } from './engine.js';

test('DEFAULT_SEARCH_OPTIONS are the search options of a fresh engine, key for key and in the same order', async () => {
  const engine = new Engine();
  try {
    const fresh = engine.searchOptions();
    assert.deepEqual({ ...DEFAULT_SEARCH_OPTIONS }, fresh);
    // Same shape for optimised code: the warm-up searches with these before the first `go`.
    assert.deepEqual(Object.keys(DEFAULT_SEARCH_OPTIONS), Object.keys(fresh));
    assert.deepEqual(Object.keys(DEFAULT_SEARCH_OPTIONS.rules), Object.keys(fresh.rules));
    // And a changed option shows (the comparison is against the live table, not a copy of it).
    assert.ok(engine.options.set('Move Overhead', '0').ok);
    assert.notDeepEqual({ ...DEFAULT_SEARCH_OPTIONS }, engine.searchOptions());
  } finally {
    await engine.close();
  }
});

test('the rules are one object, replaced exactly when a rule option changes, and handed to every search', async () => {
  const engine = new Engine();
  try {
    const first = engine.ruleConfig();
    assert.deepEqual(first, DEFAULT_RULES);
    assert.ok(Object.isFrozen(first));
    assert.equal(engine.searchOptions().rules, first);
    // Other options, and a rule option set to the value it has, leave the object alone.
    for (const [name, value] of [
      ['MultiPV', '3'],
      ['Hash', '4'],
      ['Repetition Rule', 'asianrule'],
      ['DrawRule', 'None'],
      ['Rule60MaxPly', '120'],
      ['Mate Threat Depth', '0'],
      ['Repetition Rule', 'MarsRule'],
      ['Rule60MaxPly', '121'],
    ] as const) {
      engine.options.set(name, value);
      assert.equal(engine.ruleConfig(), first, `${name} ${value}`);
    }
    // Each rule option: a new object with that one field changed.
    let last = first;
    for (const [name, value, field, expected] of [
      ['Repetition Rule', 'chineserule', 'repetitionRule', 'ChineseRule'],
      ['DrawRule', 'DrawAsBlackWin', 'drawRule', 'DrawAsBlackWin'],
      ['Rule60MaxPly', '0', 'rule60MaxPly', 0],
      ['Mate Threat Depth', '4', 'mateThreatDepth', 4],
    ] as const) {
      assert.ok(engine.options.set(name, value).ok);
      const now = engine.ruleConfig();
      assert.notEqual(now, last, name);
      assert.deepEqual(now, { ...last, [field]: expected });
      assert.ok(Object.isFrozen(now));
      assert.equal(engine.searchOptions().rules, now);
      assert.equal(engine.ruleConfig(), now, 'asked again: the same object');
      last = now;
    }
  } finally {
    await engine.close();
  }
});

test('the search thread plays by the rules the options set: a perpetual check is a draw or a loss', async () => {
  // Red (rook) against black rook and cannon, lost on material, but the rook can
  // check the bare king for ever: a8a9 repeats the position (src/core/rules-search.test.ts).
  const engine = new Engine();
  try {
    const best = async (rule: string): Promise<{ move: string; score: number }> => {
      assert.ok(engine.options.set('Repetition Rule', rule).ok);
      assert.ok(engine.setPosition('4k4/9/9/9/9/9/6c2/7r1/9/R4K3 w - - 0 1', ['a0a9', 'e9e8', 'a9a8', 'e8e9']).ok);
      const r = await engine.go({ startTime: Date.now(), depth: 10 });
      return { move: moveToUci(r.bestMove), score: r.score };
    };
    const free = await best('NoJudgement');
    assert.equal(free.move, 'a8a9');
    assert.ok(Math.abs(free.score) <= 2, `NoJudgement: ${free.score}`);
    const asian = await best('AsianRule');
    assert.notEqual(asian.move, 'a8a9');
    assert.ok(asian.score < -200, `AsianRule: ${asian.score}`);
  } finally {
    await engine.close();
  }
});

test('Hash: a table resized after start-up is brought into memory before ready() settles, and searches', async () => {
  const engine = new Engine({ warmup: true });
  try {
    await engine.ready();
    assert.equal(engine.preparing(), 0);
    assert.ok(engine.options.set('Hash', '64').ok);
    assert.equal(engine.preparing(), 1, 'the new table is being touched');
    await engine.ready();
    assert.equal(engine.preparing(), 0);
    engine.setPosition(null, ['h2e2']);
    const r = await engine.go({ startTime: Date.now(), depth: 4 });
    assert.ok(r.bestMove !== 0);
  } finally {
    await engine.close();
  }
});

test('the book through go(): OwnBook, Book Depth and the level decide between a book move and a search', async () => {
  const engine = new Engine();
  const limits = () => ({ startTime: Date.now(), depth: 2 });
  try {
    // OwnBook is off by default: a search.
    const searched = await engine.go(limits());
    assert.ok(!searched.book && searched.nodes > 0);
    assert.ok(engine.options.set('OwnBook', 'true').ok);
    engine.random = () => 0.5;
    const texts: string[] = [];
    const r = await engine.go(limits(), { text: (l) => texts.push(l) });
    assert.equal(r.book, true);
    assert.equal(r.nodes, 0);
    const moves = engine.bookMoves();
    assert.ok(moves.some((m) => m.move === r.bestMove));
    assert.equal(texts.length, 1);
    assert.match(
      texts[0],
      new RegExp(`^book move ${moveToUci(r.bestMove)} from kirin\\.book \\(weight \\d+%, \\d+ games, scored \\d+%\\)$`),
    );
    // The reply to ponder on is the book's heaviest answer.
    engine.setPosition(null, [moveToUci(r.bestMove)]);
    assert.equal(r.ponderMove, engine.bookMoves()[0]?.move ?? MOVE_NONE);
    engine.setPosition(null, []);
    // Book Depth 0, and a weakened level (Skill Level 0), play no book: the options reach the book.
    assert.ok(engine.options.set('Book Depth', '0').ok);
    assert.ok(!(await engine.go(limits())).book);
    assert.ok(engine.options.set('Book Depth', '20').ok);
    assert.ok(engine.options.set('Skill Level', '0').ok);
    assert.ok(!(await engine.go(limits())).book);
    assert.ok(engine.options.set('Skill Level', '20').ok);
    assert.ok((await engine.go(limits())).book);
  } finally {
    await engine.close();
  }
});

test('UCI: the book options are listed, and a book move prints an info string before bestmove', async () => {
  const engine = new Engine();
  const lines: string[] = [];
  const uci = new Uci(engine, (l) => lines.push(l));
  try {
    await uci.command('uci');
    for (const o of [
      'option name OwnBook type check default false',
      'option name BookFile type string default <empty>',
      'option name Book Depth type spin default 20 min 0 max 200',
      'option name Book Variety type spin default 100 min 0 max 100',
    ])
      assert.ok(lines.includes(o), o);
    lines.length = 0;
    await uci.command('setoption name OwnBook value true');
    await uci.command('setoption name Book Variety value 0');
    await uci.command('position startpos');
    await uci.command('go wtime 1000 btime 1000');
    await engine.waitIdle();
    await new Promise((r) => setTimeout(r, 10));
    const heaviest = engine.bookMoves()[0].uci;
    assert.equal(lines.length, 3, lines.join('\n'));
    assert.match(lines[0], /^info string opening book kirin\.book \(\d+ entries, \d+ games\)$/);
    assert.match(lines[1], new RegExp(`^info string book move ${heaviest} from kirin\\.book `));
    assert.match(lines[2], new RegExp(`^bestmove ${heaviest} ponder [a-i]\\d[a-i]\\d$`));
  } finally {
    await engine.close();
  }
});
