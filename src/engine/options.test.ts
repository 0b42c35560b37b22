import assert from 'node:assert/strict';
import { test } from 'node:test';
import { uciOptionLines } from '../protocol/info.js';
import { err } from '../core/result.js';
import { ACCEPTED, Options } from './options.js';

function make() {
  const changes: unknown[] = [];
  const o = new Options()
    .add({
      name: 'Hash',
      type: 'spin',
      default: 16,
      min: 1,
      max: 1024,
      onChange: (v) => {
        changes.push(v);
        return ACCEPTED;
      },
    })
    .add({ name: 'Ponder', type: 'check', default: false })
    .add({ name: 'Repetition Rule', type: 'combo', default: 'AsianRule', vars: ['AsianRule', 'ComputerRule'] })
    .add({
      name: 'Clear Hash',
      type: 'button',
      onChange: () => {
        changes.push('cleared');
        return ACCEPTED;
      },
    })
    .add({ name: 'Debug Log File', type: 'string', default: '' });
  return { o, changes };
}

test('uci lines list every option with type, default and range', () => {
  const { o } = make();
  assert.deepEqual(uciOptionLines(o.list()), [
    'option name Hash type spin default 16 min 1 max 1024',
    'option name Ponder type check default false',
    'option name Repetition Rule type combo default AsianRule var AsianRule var ComputerRule',
    'option name Clear Hash type button',
    'option name Debug Log File type string default <empty>',
  ]);
});

test('names are case-insensitive and values are typed', () => {
  const { o, changes } = make();
  assert.deepEqual(o.set('hash', '64'), { ok: true, value: {} });
  assert.equal(o.getNumber('Hash'), 64);
  assert.deepEqual(changes, [64]);
  assert.equal(o.set('PONDER', 'true').ok, true);
  assert.equal(o.getBool('Ponder'), true);
  assert.equal(o.set('repetition rule', 'computerrule').ok, true);
  assert.equal(o.getString('Repetition Rule'), 'ComputerRule');
  assert.equal(o.set('Clear Hash', undefined).ok, true);
  assert.equal(changes.at(-1), 'cleared');
});

test('out-of-range and malformed values are rejected with a message and the old value kept', () => {
  const { o, changes } = make();
  for (const [name, value, code, re] of [
    ['Hash', '0', 'option-range', /out of range 1\.\.1024/],
    ['Hash', '2048', 'option-range', /out of range/],
    ['Hash', 'lots', 'option-value', /must be an integer/],
    ['Hash', undefined, 'option-value', /must be an integer/],
    ['Ponder', 'yes', 'option-value', /true or false/],
    ['Repetition Rule', 'MarsRule', 'option-value', /one of AsianRule, ComputerRule/],
    ['No Such', '1', 'option-unknown', /No such option: No Such/],
  ] as const) {
    const r = o.set(name, value);
    assert.equal(r.ok, false, `${name}=${value}`);
    if (!r.ok) {
      assert.equal(r.error.code, code);
      assert.match(r.error.message, re);
    }
  }
  assert.equal(o.getNumber('Hash'), 16);
  assert.equal(o.getBool('Ponder'), false);
  assert.equal(o.getString('Repetition Rule'), 'AsianRule');
  assert.deepEqual(changes, []);
});

test('a handler that refuses a value rejects the change', () => {
  const o = new Options().add({
    name: 'EvalFile',
    type: 'string',
    default: 'a',
    onChange: (v) => (v === 'bad' ? err('option-rejected', 'cannot read bad') : ACCEPTED),
  });
  const r = o.set('EvalFile', 'bad');
  assert.equal(r.ok, false);
  if (!r.ok) {
    assert.equal(r.error.code, 'option-rejected');
    assert.match(r.error.message, /cannot read bad/);
  }
  assert.equal(o.getString('EvalFile'), 'a');
});

test('a name or value with a control character is refused whole: nothing changes, no handler runs', () => {
  const { o, changes } = make();
  for (const [name, value, message] of [
    ['Hash', '16\nsetoption name Debug Log File value /tmp/x', /^option "Hash" value: LF at offset 2 /],
    ['Debug Log File', '/tmp/x\rsetoption name Hash value 1', /^option "Debug Log File" value: CR at offset 6 /],
    ['Debug Log File', 'a\u0000b', /value: NUL at offset 1 /],
    ['Debug Log File', 'a\u2028b', /value: U\+2028 at offset 1 /],
    ['Ha\u0000sh', '1', /^option name: NUL at offset 2 /],
    ['Hash\n', '1', /^option name: LF at offset 4 /],
    ['Clear Hash\r', undefined, /^option name: CR at offset 10 /],
  ] as const) {
    const r = o.set(name, value);
    assert.ok(!r.ok && r.error.code === 'command-text', JSON.stringify([name, value]));
    assert.match(r.error.message, message);
  }
  assert.equal(o.getNumber('Hash'), 16);
  assert.equal(o.getString('Debug Log File'), '');
  assert.deepEqual(changes, []);
  assert.equal(o.set('Debug Log File', 'ok.log').ok, true, 'plain text still goes through');
});

test('each handler gets the value typed by its kind: number, boolean, the combo name as listed, text', () => {
  const got: unknown[] = [];
  const o = new Options()
    .add({ name: 'Depth', type: 'spin', default: 1, min: -5, max: 50, onChange: (n) => keep(n + 1) })
    .add({ name: 'On', type: 'check', default: false, onChange: (b) => keep(!b) })
    .add({ name: 'Rule', type: 'combo', default: 'AsianRule', vars: ['AsianRule', 'SkyRule'], onChange: keep })
    .add({ name: 'File', type: 'string', default: 'x', onChange: keep });
  function keep(v: unknown) {
    got.push(v);
    return ACCEPTED;
  }
  assert.ok(o.set('Depth', ' +7 ').ok);
  assert.ok(o.set('Depth', '-3').ok);
  assert.ok(o.set('On', 'TRUE').ok);
  assert.ok(o.set('Rule', 'skyrule').ok);
  assert.ok(o.set('File', '<empty>').ok);
  assert.ok(o.set('File', ' a b ').ok);
  assert.deepEqual(got, [8, -2, false, 'SkyRule', '', ' a b ']);
  assert.equal(o.getNumber('Depth'), -3);
  assert.equal(o.getBool('On'), true);
});

test('a refused button says why without a value to keep', () => {
  const o = new Options().add({ name: 'Clear', type: 'button', onChange: () => err('option-rejected', 'busy') });
  assert.deepEqual(o.set('Clear', undefined), {
    ok: false,
    error: { code: 'option-rejected', message: 'Clear: busy' },
  });
});
