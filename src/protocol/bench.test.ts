// bench and speedtest arguments: bad input is answered with its message, never
// with an object's text, and nothing is searched.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Engine } from '../engine/engine.js';
import { parseBenchArgs, runBench, runSpeedtest } from './bench.js';
import { Uci } from './uci.js';

test('bench arguments: defaults, and codes for what is rejected', () => {
  const r = parseBenchArgs([], 'fen');
  assert.ok(r.ok);
  assert.deepEqual([r.value.hash, r.value.threads, r.value.limit, r.value.limitType], [16, 1, 13, 'depth']);
  const bad = parseBenchArgs(['lots'], 'fen');
  assert.ok(
    !bad.ok &&
      bad.error.code === 'bench-arg' &&
      /hash \(MB\) must be a positive integer, got 'lots'/.test(bad.error.message),
  );
  const file = parseBenchArgs(['16', '1', '1', '/no/such/file.fen'], 'fen');
  assert.ok(!file.ok && file.error.code === 'bench-file');
});

test('a rejected Hash value is the error, with its code and message; nothing is searched', async () => {
  const engine = new Engine();
  try {
    // bench [hash] ...; speedtest [threads] [hash] ... (a hash above the maximum).
    const lines: string[] = [];
    const bench = await runBench(
      engine,
      ['70000'],
      (l) => lines.push(l),
      (l) => lines.push(l),
    );
    const speed = await runSpeedtest(engine, ['1', '70000'], (l) => lines.push(l));
    for (const r of [bench, speed]) {
      assert.ok(!r.ok && r.error.code === 'option-range', JSON.stringify(r));
      assert.match(r.error.message, /^Hash value 70000 is out of range 1\.\.65536/);
    }
    assert.deepEqual(lines, []);
    assert.equal(engine.options.getNumber('Hash'), 16);
    // The protocol prints it as one error line.
    const out: string[] = [];
    const uci = new Uci(engine, (l) => out.push(l));
    await uci.command('bench 70000');
    await uci.command('speedtest 1 x');
    assert.match(out[0], /^info string ERROR: Hash value 70000 is out of range 1\.\.65536/);
    assert.equal(out[1], "info string ERROR: speedtest [threads] [hash MB] [seconds]: 'x' is not a positive integer");
  } finally {
    await engine.close();
  }
});
