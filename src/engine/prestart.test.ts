// A main search thread started ahead of the engine (src/engine/prestart.ts)
// (bin/kirin.js does this first) is taken once by the engine, warms up there,
// and searches exactly like a thread the engine started itself.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Engine } from './engine.js';
import { prestartSearchThread, takePrestartedSearchThread } from './prestart.js';

async function depthSearch(engine: Engine): Promise<{ move: number; nodes: number }> {
  engine.setPosition(null, ['h2e2', 'h9g7']);
  const r = await engine.go({ startTime: Date.now(), depth: 7 });
  return { move: r.bestMove, nodes: r.nodes };
}

test('prestartSearchThread: the engine takes the thread once; after its warm-up a search is the same as on a cold thread', async () => {
  const cold = new Engine();
  let expected: { move: number; nodes: number };
  try {
    expected = await depthSearch(cold);
  } finally {
    await cold.close();
  }

  prestartSearchThread();
  prestartSearchThread(); // a second call keeps the first thread
  const engine = new Engine({ warmup: true });
  try {
    // The engine took it; nothing is left to take.
    assert.equal(takePrestartedSearchThread(), null);
    await engine.ready();
    // The warm-up searched on the real table and histories and left no trace.
    assert.deepEqual(await depthSearch(engine), expected);
  } finally {
    await engine.close();
  }
});

test('takePrestartedSearchThread: null when none was started; an engine then starts its own thread', async () => {
  assert.equal(takePrestartedSearchThread(), null);
  const engine = new Engine({ warmup: true });
  try {
    await engine.ready();
    const r = await depthSearch(engine);
    assert.ok(r.nodes > 0);
  } finally {
    await engine.close();
  }
});
