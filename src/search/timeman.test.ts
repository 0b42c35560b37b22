import assert from 'node:assert/strict';
import { test } from 'node:test';
import { TimeManager } from './timeman.js';

test('budgets never exceed the remaining time minus the overhead', () => {
  const times = [5, 30, 100, 500, 999, 1000, 3000, 10000, 60000, 300000, 3600000];
  const incs = [0, 10, 100, 1000, 5000];
  const overheads = [0, 10, 30, 100, 1000];
  const mtgs = [0, 1, 2, 10, 40, 80];
  for (const time of times)
    for (const inc of incs)
      for (const overhead of overheads)
        for (const movestogo of mtgs)
          for (const ply of [0, 1, 40, 150])
            for (const ponder of [false, true]) {
              const tm = new TimeManager();
              const used = tm.init(
                { wtime: time, btime: 1, winc: inc, binc: 0, movestogo: movestogo || undefined, startTime: 0 },
                0,
                ply,
                { moveOverhead: overhead, nodestime: 0, ponder },
              );
              assert.equal(used, true);
              const cap = Math.max(1, time - overhead);
              const what = `time ${time} inc ${inc} overhead ${overhead} mtg ${movestogo} ply ${ply}`;
              assert.ok(tm.maximum() <= cap, `maximum ${tm.maximum()} > ${cap}: ${what}`);
              assert.ok(tm.optimum() <= tm.maximum(), `optimum above maximum: ${what}`);
              assert.ok(tm.optimum() >= 1, what);
            }
});

test('black uses btime/binc, and no clock means no time management', () => {
  const tm = new TimeManager();
  assert.equal(tm.init({ wtime: 100000, btime: 2000, startTime: 0 }, 1, 11, { moveOverhead: 10, nodestime: 0 }), true);
  assert.ok(tm.maximum() < 2000);
  const tm2 = new TimeManager();
  assert.equal(tm2.init({ wtime: 100000, startTime: 0 }, 1, 11, { moveOverhead: 10, nodestime: 0 }), false);
  assert.equal(tm2.init({ movetime: 1000, startTime: 0 }, 0, 0, { moveOverhead: 10, nodestime: 0 }), false);
});

test('more time or increment never gives a smaller budget; sudden death spends a small fraction', () => {
  let prev = 0;
  for (const time of [1000, 2000, 5000, 10000, 30000, 60000, 120000]) {
    const tm = new TimeManager();
    tm.init({ wtime: time, startTime: 0 }, 0, 20, { moveOverhead: 10, nodestime: 0 });
    assert.ok(tm.optimum() >= prev, `optimum shrank at ${time}`);
    assert.ok(tm.optimum() < time / 10, `optimum ${tm.optimum()} too large for ${time}`);
    prev = tm.optimum();
  }
  const a = new TimeManager(),
    b = new TimeManager();
  a.init({ wtime: 10000, winc: 0, startTime: 0 }, 0, 20, { moveOverhead: 10, nodestime: 0 });
  b.init({ wtime: 10000, winc: 1000, startTime: 0 }, 0, 20, { moveOverhead: 10, nodestime: 0 });
  assert.ok(b.optimum() > a.optimum());
  // With one move to go almost everything may be used, but never more than the clock.
  const c = new TimeManager();
  c.init({ wtime: 10000, movestogo: 1, startTime: 0 }, 0, 20, { moveOverhead: 50, nodestime: 0 });
  assert.ok(c.optimum() > 5000 && c.maximum() <= 9950);
});

test('nodes as time: the clock becomes a node budget consumed across searches', () => {
  const tm = new TimeManager();
  tm.init({ wtime: 10000, startTime: 0 }, 0, 0, { moveOverhead: 10, nodestime: 100 });
  assert.equal(tm.useNodesTime, true);
  const first = tm.optimum();
  // 100 nodes per ms: budgets are in nodes, of the order of 100x the millisecond budget
  // (Pikafish's once-per-game time adjustment is computed in nodes here, so somewhat more).
  const ms = new TimeManager();
  ms.init({ wtime: 10000, startTime: 0 }, 0, 0, { moveOverhead: 10, nodestime: 0 });
  assert.ok(first / 100 >= ms.optimum() && first / 100 <= 2.5 * ms.optimum(), `${first} vs ${ms.optimum()}`);
  assert.ok(tm.maximum() <= 100 * (10000 - 10));
  assert.equal(tm.elapsed(12345), 12345);
  // Spending nodes lowers the next budget even if the GUI reports the same clock.
  tm.advanceNodesTime(900000);
  tm.init({ wtime: 10000, startTime: 0 }, 0, 2, { moveOverhead: 10, nodestime: 100 });
  assert.ok(tm.optimum() < first);
  tm.clear();
  tm.init({ wtime: 10000, startTime: 0 }, 0, 0, { moveOverhead: 10, nodestime: 100 });
  assert.equal(tm.optimum(), first);
});

test('elapsed follows the clock of the start time (Date.now or performance.now)', () => {
  const tm = new TimeManager();
  tm.init({ startTime: Date.now() - 500 }, 0, 0, { moveOverhead: 10, nodestime: 0 });
  const e1 = tm.elapsedTime();
  assert.ok(e1 >= 500 && e1 < 5000, `Date.now clock: ${e1}`);
  tm.init({ startTime: performance.now() - 300 }, 0, 0, { moveOverhead: 10, nodestime: 0 });
  const e2 = tm.elapsedTime();
  assert.ok(e2 >= 300 && e2 < 5000, `performance clock: ${e2}`);
});
