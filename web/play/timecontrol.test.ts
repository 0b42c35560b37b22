import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  PRESETS,
  clockControl,
  formatClock,
  formatTimeControl,
  parseTimeControl,
  pgnTimeControl,
} from './timecontrol.js';

test('time controls as players write them: minutes + increment seconds, minutes alone, seconds a move', () => {
  assert.deepEqual(parseTimeControl('10+5'), {
    ok: true,
    value: { kind: 'clock', baseMs: 600_000, incrementMs: 5000 },
  });
  assert.deepEqual(parseTimeControl(' 15 + 10 '), {
    ok: true,
    value: { kind: 'clock', baseMs: 900_000, incrementMs: 10_000 },
  });
  assert.deepEqual(parseTimeControl('30'), { ok: true, value: { kind: 'clock', baseMs: 1_800_000, incrementMs: 0 } });
  assert.deepEqual(parseTimeControl('0.5+1'), {
    ok: true,
    value: { kind: 'clock', baseMs: 30_000, incrementMs: 1000 },
  });
  assert.deepEqual(parseTimeControl('３＋２'), {
    ok: true,
    value: { kind: 'clock', baseMs: 180_000, incrementMs: 2000 },
  });
  assert.deepEqual(parseTimeControl('3s'), { ok: true, value: { kind: 'movetime', moveMs: 3000 } });
  assert.deepEqual(parseTimeControl('0.5S'), { ok: true, value: { kind: 'movetime', moveMs: 500 } });
});

test('a time control that cannot be read, or is out of range, is refused with its reason', () => {
  for (const bad of ['', 'abc', '10+', '+5', '10+5+3', '-1+0', '10 min', 's', '1e3']) {
    const r = parseTimeControl(bad);
    assert.ok(!r.ok, bad);
    assert.equal(r.error.code, 'tc-syntax', bad);
    assert.match(r.error.message, /write minutes \+ increment in seconds/);
  }
  for (const bad of ['0+0', '0+2', '0', '181+0', '10+61', '0.05s', '61s']) {
    const r = parseTimeControl(bad);
    assert.ok(!r.ok, bad);
    assert.equal(r.error.code, 'tc-range', bad);
    assert.ok(r.error.message.includes(`"${bad}"`));
  }
});

test('presets, and the text of a control reads back to it', () => {
  assert.deepEqual(PRESETS.map(formatTimeControl), ['1+0', '3+2', '5+3', '10+5', '15+10', '30+0']);
  for (const tc of [...PRESETS, clockControl(0.5, 1), { kind: 'movetime', moveMs: 2500 } as const]) {
    const back = parseTimeControl(formatTimeControl(tc));
    assert.ok(back.ok);
    assert.deepEqual(back.value, tc);
  }
  assert.equal(pgnTimeControl(clockControl(10, 5)), '600+5');
  assert.equal(pgnTimeControl({ kind: 'movetime', moveMs: 3000 }), '-');
});

test('clock times as players read them', () => {
  assert.equal(formatClock(600_000), '10:00');
  assert.equal(formatClock(598_400), '9:58');
  assert.equal(formatClock(3_900_000), '1:05:00');
  assert.equal(formatClock(10_000), '0:10');
  assert.equal(formatClock(9_450), '0:09.4');
  assert.equal(formatClock(0), '0:00.0');
  assert.equal(formatClock(-300), '0:00.0');
});
