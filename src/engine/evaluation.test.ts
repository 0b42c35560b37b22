// The engine's evaluation choice on its own: EvalFile, Use NNUE, a network given
// as bytes, Kirin's embedded network as the fallback; what it says (status,
// name), which win-rate model and trace go with it, and when it tells the engine
// that the network that plays changed (onSwitch). The engine end (uci, eval,
// the search threads) is in src/eval/nnue/engine-nnue.test.ts.

import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { Position } from '../core/position.js';
import { traceClassical } from '../eval/evaluate.js';
import type { EvalNetwork } from '../eval/networks.js';
import { CLASSICAL_WIN_RATE, PIKAFISH_WIN_RATE } from '../eval/score.js';
import { syntheticNetFile } from '../../toolkit/nnue/synthetic-net.js';
import { DEFAULT_EVAL_FILE, EvaluationChoice } from './evaluation.js';

const dir = mkdtempSync(join(tmpdir(), 'kirin-evaluation-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const missing = join(dir, 'missing.nnue');
const garbage = join(dir, 'garbage.nnue');
writeFileSync(garbage, 'not a network at all');
const seed1 = syntheticNetFile(1);

/** A choice started with `file`, and the networks its onSwitch was told of. */
function start(file: string): { choice: EvaluationChoice; switches: (EvalNetwork | null)[] } {
  const switches: (EvalNetwork | null)[] = [];
  const choice = new EvaluationChoice(file, (net) => switches.push(net));
  return { choice, switches };
}

const EMBEDDED = /^NNUE evaluation using Kirin's embedded network kirin\.knet \(Kirin network [^)]*\)/;

test('at start-up without the file: the embedded network plays, and the status says why', () => {
  const { choice, switches } = start(missing);
  const net = choice.network();
  assert.ok(net, 'this build has an embedded network');
  assert.deepEqual(switches, [net], 'the first choice is told too');
  assert.match(choice.status(), EMBEDDED);
  assert.ok(choice.status().endsWith(`(no ${missing} found)`), choice.status());
  assert.match(choice.name(), /^NNUE kirin\.knet \(Kirin network .*\), (portable|wasm-simd) kernels$/);
  assert.equal(choice.winRateModel(), CLASSICAL_WIN_RATE, "Kirin's networks score on the classical scale");
});

test('at start-up with a damaged file: the embedded network plays, and the status names the error', () => {
  const { choice } = start(garbage);
  assert.match(choice.status(), EMBEDDED);
  assert.match(choice.status(), /\(.*garbage\.nnue is not used: network file '.*garbage\.nnue' has version /);
});

test('EvalFile: a network that loads plays; one that fails is refused with its error and the network stays', () => {
  const { choice, switches } = start(missing);
  const loaded = choice.setFile(seed1);
  assert.ok(loaded.ok);
  const net = choice.network();
  assert.ok(net && net !== switches[0]);
  assert.deepEqual(switches.slice(1), [net]);
  assert.match(loaded.value ?? '', /^NNUE evaluation using \S+ \(random net, make_random_net\.py seed=1\)$/);
  assert.equal(choice.status(), loaded.value);
  assert.equal(choice.winRateModel(), PIKAFISH_WIN_RATE);
  for (const [file, problem] of [
    [missing, /was not found/],
    [garbage, /has version/],
    [dir, /./],
  ] as const) {
    const r = choice.setFile(file);
    assert.ok(!r.ok, file);
    assert.equal(r.error.code, 'option-rejected');
    assert.match(r.error.message, /^network file '.*' /);
    assert.match(r.error.message, problem);
    assert.match(
      r.error.message,
      /; the evaluation stays: NNUE \S+ \(random net, make_random_net\.py seed=1\), \S+ kernels$/,
    );
    assert.equal(choice.network(), net, 'the network stays');
    assert.equal(choice.status(), loaded.value, 'and so does the status');
  }
  assert.equal(switches.length, 2, 'no switch on a refusal');
});

test('a network given as bytes plays like a file; damaged bytes are refused and the network stays', () => {
  const { choice, switches } = start(missing);
  const embedded = choice.network();
  const bad = choice.loadBytes(new Uint8Array(100), 'page.nnue');
  assert.ok(!bad.ok);
  assert.match(bad.error.message, /page\.nnue/);
  assert.equal(choice.network(), embedded);
  const good = choice.loadBytes(readFileSync(seed1), 'page.nnue');
  assert.ok(good.ok);
  assert.match(good.value, /^NNUE evaluation using page\.nnue \(random net/);
  assert.equal(switches.length, 2);
  assert.match(choice.name(), /^NNUE page\.nnue /);
});

test('Use NNUE off plays the classical evaluation whatever EvalFile loads; on again plays the network', () => {
  const { choice, switches } = start(missing);
  const off = choice.setUseNnue(false);
  assert.deepEqual(off, { ok: true, value: 'classical evaluation (Use NNUE is off)' });
  assert.equal(choice.network(), null);
  assert.equal(switches.at(-1), null);
  assert.equal(choice.name(), 'classical');
  assert.equal(choice.winRateModel(), CLASSICAL_WIN_RATE);
  const pos = new Position();
  assert.equal(choice.trace(pos), traceClassical(pos));
  // A file loaded meanwhile waits for Use NNUE.
  const loaded = choice.setFile(seed1);
  assert.deepEqual(loaded, off);
  assert.equal(choice.network(), null);
  const on = choice.setUseNnue(true);
  assert.match(on.ok ? (on.value ?? '') : '', /^NNUE evaluation using \S+ \(random net/);
  assert.equal(switches.length, 3, 'embedded, classical, the file');
  assert.notEqual(choice.trace(pos), traceClassical(pos));
  assert.match(choice.trace(pos), /NNUE/);
});

test('EvalFile empty drops the file: the embedded network plays again; the default name echoed back changes nothing', () => {
  const { choice, switches } = start(missing);
  const embedded = choice.network();
  // A GUI sending EvalFile's default back (no such file here) keeps what plays, without an error.
  const echoed = choice.setFile(DEFAULT_EVAL_FILE);
  assert.deepEqual(echoed, { ok: true, value: choice.status() });
  assert.equal(switches.length, 1);
  assert.ok(choice.setFile(seed1).ok);
  // Once a file plays, the default name that is not there is an error like any missing file.
  assert.ok(!choice.setFile(DEFAULT_EVAL_FILE).ok);
  const empty = choice.setFile('');
  assert.ok(empty.ok);
  assert.equal(choice.network(), embedded, 'the embedded network is decoded once');
  assert.match(empty.value ?? '', EMBEDDED);
  assert.ok((empty.value ?? '').endsWith('(EvalFile is empty)'));
  assert.equal(switches.length, 3);
});
