// Threads (Lazy SMP) through the library API: the option, resizing between and
// during searches, stop, and node counts over all threads.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Position } from '../core/position.js';
import { legalMoves } from '../core/movegen.js';
import { moveToUci } from '../core/types.js';
import { Engine } from './engine.js';

test('Threads: option 1..1024; searches with 1, 3 and 2 threads give one legal best move; nodes count all threads', async () => {
  const engine = new Engine();
  try {
    assert.equal(engine.options.set('Threads', '0').ok, false);
    assert.equal(engine.options.set('Threads', '1025').ok, false);
    assert.equal(engine.options.getNumber('Threads'), 1);
    engine.setPosition(null, ['h2e2', 'h9g7']);
    const legal = legalMoves(new Position(engine.fen())).map(moveToUci);
    const one = await engine.go({ startTime: Date.now(), depth: 5 });
    assert.ok(legal.includes(moveToUci(one.bestMove)));
    assert.ok(engine.options.set('Threads', '3').ok);
    let infos = 0;
    let lastNodes = 0;
    const three = await engine.go(
      { startTime: Date.now(), nodes: 20000 },
      {
        info: (i) => {
          infos++;
          lastNodes = i.nodes;
        },
      },
    );
    assert.ok(legal.includes(moveToUci(three.bestMove)));
    assert.ok(infos > 0);
    assert.ok(three.nodes >= lastNodes && three.nodes > 0);
    // Hash and Threads change between searches without a new engine.
    assert.ok(engine.options.set('Hash', '4').ok);
    assert.ok(engine.options.set('Threads', '2').ok);
    const two = await engine.go({ startTime: Date.now(), movetime: 300 });
    assert.ok(legal.includes(moveToUci(two.bestMove)));
  } finally {
    await engine.close();
  }
});

test('Threads: stop ends an infinite search of 4 threads promptly with one answer; Threads set during a search applies to the next', async () => {
  const engine = new Engine();
  try {
    assert.ok(engine.options.set('Threads', '4').ok);
    const signals = new Int32Array(new SharedArrayBuffer(8));
    let done = 0;
    const p = engine.go({ startTime: Date.now(), infinite: true }, {}, signals).then((r) => {
      done++;
      return r;
    });
    await new Promise((r) => setTimeout(r, 400));
    assert.ok(engine.options.set('Threads', '2').ok); // during the search
    assert.equal(done, 0, 'an infinite search waits for stop');
    engine.stop();
    const r = await p;
    assert.equal(done, 1);
    assert.notEqual(r.bestMove, 0);
    const next = await engine.go({ startTime: Date.now(), depth: 3 });
    assert.notEqual(next.bestMove, 0);
  } finally {
    await engine.close();
  }
});

test('Threads with a network: the shared weights memory grows to give every thread its own work slot', async () => {
  const { syntheticNetFile } = await import('../../toolkit/nnue/synthetic-net.js');
  const { NnueNetwork, NnueEvaluator, SLOT_COUNT } = await import('../eval/nnue/network.js');
  const { readFileSync } = await import('node:fs');
  // The network object: more slots on demand; an evaluator in a new slot evaluates as one in slot 1.
  const r = NnueNetwork.fromBytes(readFileSync(syntheticNetFile(1)), 'seed1.nnue');
  assert.ok(r.ok);
  const net = r.value;
  assert.equal(net.slotCount(), SLOT_COUNT);
  assert.throws(() => new NnueEvaluator(net, SLOT_COUNT + 3), /out of range/);
  assert.ok(net.ensureSlots(SLOT_COUNT + 4));
  assert.ok(net.slotCount() >= SLOT_COUNT + 4);
  const pos = new Position();
  pos.doMove(legalMoves(pos)[3]);
  assert.equal(new NnueEvaluator(net, SLOT_COUNT + 3).evaluate(pos, 0), new NnueEvaluator(net, 1).evaluate(pos, 0));

  // The engine: 6 threads (slots 1..6) with the network; no thread reports an error.
  const engine = new Engine();
  const messages: string[] = [];
  engine.onMessage = (l) => messages.push(l);
  try {
    assert.ok(engine.options.set('EvalFile', syntheticNetFile(1)).ok);
    assert.ok(engine.options.set('Threads', '6').ok);
    const res = await engine.go({ startTime: Date.now(), nodes: 3000 });
    assert.ok(legalMoves(new Position()).map(moveToUci).includes(moveToUci(res.bestMove)));
    assert.deepEqual(
      messages.filter((m) => /ERROR/.test(m)),
      [],
    );
  } finally {
    await engine.close();
  }
});

test('Threads with warm-up: helpers added before the first search warm up and ready() waits for them; one added after a search does not', async () => {
  const engine = new Engine({ warmup: true });
  try {
    // Thread 0 warms up from the start (and its table comes into memory); a
    // helper set before any search warms up too.
    const atStart = engine.preparing();
    assert.ok(atStart >= 1);
    assert.ok(engine.options.set('Threads', '2').ok);
    assert.equal(engine.preparing(), atStart + 1);
    await engine.ready();
    assert.equal(engine.preparing(), 0);
    engine.setPosition(null, ['h2e2']);
    const r = await engine.go({ startTime: Date.now(), depth: 4 });
    assert.ok(r.bestMove !== 0);
    // A search has begun: a new helper compiles in its first search instead.
    assert.ok(engine.options.set('Threads', '3').ok);
    assert.equal(engine.preparing(), 0);
    await engine.ready();
    const r3 = await engine.go({ startTime: Date.now(), depth: 4 });
    assert.ok(r3.bestMove !== 0);
  } finally {
    await engine.close();
  }
});
