import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseThinkingField, summarizeThinking, thinkingField } from './thinking.js';

test('thinkingField: written and read back, times rounded, "-" without a clock', () => {
  const moves = [
    { usedMs: 1367.6, depth: 18, leftMs: 8732.4 },
    { usedMs: 12, depth: 0, leftMs: null },
  ];
  const field = thinkingField(moves);
  assert.equal(field, 'thinking 1368/18/8732 12/0/-');
  const back = parseThinkingField(field);
  assert.ok(back.ok);
  assert.deepEqual(back.value, [
    { usedMs: 1368, depth: 18, leftMs: 8732 },
    { usedMs: 12, depth: 0, leftMs: null },
  ]);
  assert.equal(thinkingField([]), 'thinking');
  const none = parseThinkingField('thinking');
  assert.ok(none.ok);
  assert.deepEqual(none.value, []);
});

test("parseThinkingField: a field that is not the runner's is refused with the word", () => {
  for (const [field, why] of [
    ['moves 1/2/3', /does not start with "thinking"/],
    ['thinking 1/2', /"1\/2" is not USED\/DEPTH\/LEFT/],
    ['thinking -1/2/3', /"-1\/2\/3"/],
  ] as const) {
    const r = parseThinkingField(field);
    assert.ok(!r.ok, field);
    assert.match(r.error.message, why);
  }
});

test('summarizeThinking: mean, median, longest, depth over scored moves, the flag closest', () => {
  assert.equal(summarizeThinking([]), null);
  const s = summarizeThinking([
    { usedMs: 100, depth: 10, leftMs: 9000 },
    { usedMs: 400, depth: 0, leftMs: 600 },
    { usedMs: 1000, depth: 14, leftMs: 3000 },
    { usedMs: 300, depth: 12, leftMs: 2000 },
  ]);
  assert.deepEqual(s, {
    moves: 4,
    meanMs: 450,
    medianMs: 350,
    longestMs: 1000,
    meanDepth: 12,
    fewestLeftMs: 600,
    largestShare: 0.4,
  });
  const noClock = summarizeThinking([{ usedMs: 5, depth: 3, leftMs: null }]);
  assert.equal(noClock?.fewestLeftMs, null);
  assert.equal(noClock?.largestShare, null);
});
