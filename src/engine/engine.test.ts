// The engine's option table, the search options other code assumes as defaults,
// and the rules every search is handed.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DEFAULT_RULES } from '../core/rules.js';
import { moveToUci } from '../core/types.js';
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
