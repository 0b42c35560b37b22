// bench and speedtest arguments: bad input is answered with its message, never
// with an object's text, and nothing is searched.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Engine } from '../engine/engine.js';
import { parseBenchArgs, runBench, runSpeedtest } from './bench.js';

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

test('a rejected Hash value is printed as its message', async () => {
  const engine = new Engine();
  try {
    // bench [hash] ...; speedtest [threads] [hash] ... (a hash above the maximum).
    for (const [run, args] of [
      [runBench, ['70000']],
      [runSpeedtest, ['1', '70000']],
    ] as const) {
      const lines: string[] = [];
      const r = await run(
        engine,
        [...args],
        (l) => lines.push(l),
        () => {},
      );
      assert.equal(r, null);
      const error = lines.find((l) => l.startsWith('info string ERROR: '));
      assert.match(error ?? lines.join('\n'), /^info string ERROR: Hash value 70000 is out of range 1\.\.65536/);
    }
    assert.equal(engine.options.getNumber('Hash'), 16);
  } finally {
    await engine.close();
  }
});
