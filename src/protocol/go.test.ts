// `go` arguments: strict parsing, refusal of anything malformed, documented clamping.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MAX_GO_DEPTH, MAX_GO_MATE, MAX_TIME_MS, parseGo } from './go.js';

const T = 12345;
const go = (line: string) => parseGo(line.split(/\s+/).filter(Boolean), T);

// [arguments, expected limits (startTime added), expected note count]
const ACCEPTED: Array<[string, Record<string, unknown>, number?]> = [
  ['', {}],
  ['infinite', { infinite: true }],
  [
    'ponder wtime 1000 btime 2000 winc 10 binc 20 movestogo 5',
    { ponder: true, wtime: 1000, btime: 2000, winc: 10, binc: 20, movestogo: 5 },
  ],
  ['depth 7', { depth: 7 }],
  ['depth +7', { depth: 7 }],
  ['depth 245', { depth: 245 }],
  ['depth 246', { depth: MAX_GO_DEPTH }, 1],
  ['depth 99999999999999999999999999', { depth: MAX_GO_DEPTH }, 1],
  ['mate 3', { mate: 3 }],
  ['mate 500', { mate: MAX_GO_MATE }, 1],
  ['nodes 1', { nodes: 1 }],
  ['nodes 123456789012345678901234567890', { nodes: Number.MAX_SAFE_INTEGER }, 1],
  ['movetime 1', { movetime: 1 }],
  ['movetime 99999999999', { movetime: MAX_TIME_MS }, 1],
  ['wtime 0 btime -50', { wtime: 1, btime: 1 }],
  ['wtime 1000 winc -20', { wtime: 1000, winc: 0 }],
  ['movestogo 0 wtime 100', { wtime: 100 }],
  ['depth 5 depth 9', { depth: 9 }],
  ['depth 3 infinite nodes 100', { depth: 3, infinite: true, nodes: 100 }],
];

for (const [args, want, notes] of ACCEPTED) {
  test(`go ${args || '(no arguments)'} is accepted`, () => {
    const r = go(args);
    assert.ok(r.ok, r.ok ? '' : r.error.message);
    assert.deepEqual(r.value.limits, { startTime: T, ...want });
    assert.equal(r.value.notes.length, notes ?? 0, r.value.notes.join('; '));
    assert.equal(r.value.perft, 0);
    assert.equal(r.value.searchmoves, null);
  });
}

test('go perft and go searchmoves', () => {
  const p = go('perft 3');
  assert.ok(p.ok);
  assert.equal(p.value.perft, 3);
  const s = go('depth 4 searchmoves h2e2 b0c2');
  assert.ok(s.ok);
  assert.deepEqual(s.value.searchmoves, ['h2e2', 'b0c2']);
  assert.equal(s.value.limits.depth, 4);
});

// [arguments, error code, a piece of the message that names the bad token]
const REFUSED: Array<[string, string, string]> = [
  ['depth banana', 'not-an-integer', "got 'banana'"],
  ['depth', 'missing-value', "'go depth' needs an integer value"],
  ['depth 0', 'out-of-range', "'go depth 0'"],
  ['depth -3', 'out-of-range', "'go depth -3'"],
  ['depth 5.5', 'not-an-integer', "got '5.5'"],
  ['depth 0x10', 'not-an-integer', "got '0x10'"],
  ['movetime -5', 'out-of-range', "'go movetime -5'"],
  ['movetime 0', 'out-of-range', "'go movetime 0'"],
  ['nodes 1e99', 'not-an-integer', "got '1e99'"],
  ['nodes 0', 'out-of-range', "'go nodes 0'"],
  ['nodes -1', 'out-of-range', "'go nodes -1'"],
  ['mate 0', 'out-of-range', "'go mate 0'"],
  ['movestogo -1', 'out-of-range', "'go movestogo -1'"],
  ['perft 0', 'out-of-range', "'go perft 0'"],
  ['perft 21', 'out-of-range', ''],
  ['wtime 1000 wtmie 5', 'unknown-token', "'wtmie'"],
  ['infinite banana', 'unknown-token', "'banana'"],
  ['wtime', 'missing-value', "'go wtime'"],
  ['wtime infinite', 'not-an-integer', "got 'infinite'"],
  ['searchmoves', 'no-searchmoves', 'at least one move'],
  ['depth \u0000\u0007', 'not-an-integer', "got '??'"],
];

for (const [args, code, piece] of REFUSED) {
  test(`go ${JSON.stringify(args)} is refused (${code})`, () => {
    const r = go(args);
    assert.ok(!r.ok, 'refused');
    assert.equal(r.error.code, code);
    assert.ok(r.error.message.includes(piece), r.error.message);
    assert.match(r.error.message, /; no search$/);
  });
}

test('perft above the maximum is refused, not clamped (it would block the protocol thread)', () => {
  const r = go('perft 99');
  assert.ok(!r.ok);
});

test('a very long token is shortened in the message', () => {
  const r = go(`depth ${'x'.repeat(10000)}`);
  assert.ok(!r.ok);
  assert.ok(r.error.message.length < 200, `${r.error.message.length}`);
});
