// What a worker accepts from Redis (validate.ts): specs of each kind as the
// coordinator makes them pass; anything else written there is refused with the
// field's path, and never crashes the worker. The property test throws random
// text into every string field of each kind of spec, and random values into
// every number field: a control character anywhere is refused, whatever the field.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { mulberry32 } from '../../src/core/prng.js';
import { parseTimeControl } from '../match/game.js';
import { repoRoot } from '../../toolkit/files.js';
import { unwrap } from '../../test/support/fixtures.js';
import { makeAnalyseSpec } from './analyse.js';
import { workerPolicy } from './policy.js';
import type { DatagenSpec, SprtSpec } from './specs.js';
import { validateRun } from './validate.js';

const tc = unwrap(parseTimeControl('nodes=100'));
const FEN = 'rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1';

function sprtSpec(): SprtSpec {
  return {
    engines: [
      { command: 'node bin/kirin.js', options: [['Hash', '16']] },
      { command: 'node bin/kirin.js', name: 'base', options: [['Skill Level', '10']] },
    ],
    names: ['Kirin', 'Kirin (2)'],
    tc: [tc, { ...tc }],
    games: 40,
    pairs: 2,
    openings: [
      { fen: null, moves: ['h2e2', 'h9g7'], name: 'central cannon', line: 1 },
      { fen: FEN, moves: ['b2e2'], name: 'fen', line: 2 },
    ],
    openingsLabel: '2 openings from o.txt',
    rules: { repetitionRule: 'AsianRule', drawRule: 'None', rule60MaxPly: 120, mateThreatDepth: 0 },
    maxPlies: 600,
    repetitions: 3,
    timeMarginMs: 100,
    moveTimeoutMs: 60000,
    adjudication: { resignMoves: 3, resignScore: 600, drawMoveNumber: 30, drawMoves: 8, drawScore: 10 },
    sprt: { elo0: 0, elo1: 10, alpha: 0.05, beta: 0.05 },
    sprtModel: 'pentanomial',
    ratingInterval: 10,
    logFile: 'games.log',
  };
}

function datagenSpec(): DatagenSpec {
  return {
    out: '/data/dg.bin',
    positions: 10000,
    shard: 1000,
    firstShard: 3,
    seed: 11,
    nodes: 2500,
    depth: 0,
    randomPlies: 6,
    maxPly: 400,
    hash: 16,
    openings: [{ fen: null, moves: ['h2e2'], name: 'h2e2', line: 1 }],
    openingsPath: 'data/openings/openings.txt',
  };
}

const analyseSpec = () =>
  unwrap(
    makeAnalyseSpec({
      positions: ['h2e2 h9g7', `${FEN} moves b2e2`],
      positionFiles: [],
      games: ['h2e2 h9g7 h0g2 i9h9'],
      gameFiles: [],
      depth: 0,
      nodes: 1000,
      hash: 16,
      options: [['MultiPV', '2']],
    }),
  );

const SPECS: Array<[kind: string, make: () => unknown]> = [
  ['sprt', sprtSpec],
  ['datagen', datagenSpec],
  ['analyse', analyseSpec],
];

const policy = workerPolicy({ cwd: repoRoot() });

/** Every leaf of a JSON value with its path, as validate.ts names fields: `engines[0].options[1][1]`. */
function leaves(v: unknown, path = ''): Array<{ path: string; value: unknown }> {
  if (Array.isArray(v)) return v.flatMap((x, i) => leaves(x, `${path}[${i}]`));
  if (typeof v === 'object' && v !== null)
    return Object.entries(v).flatMap(([k, x]) => leaves(x, path ? `${path}.${k}` : k));
  return [{ path, value: v }];
}

/** A copy of `v` with the leaf at `path` replaced. */
function withLeaf(v: unknown, path: string, value: unknown): unknown {
  const copy = JSON.parse(JSON.stringify(v)) as unknown;
  const steps = [...path.matchAll(/([^.[\]]+)|\[(\d+)\]/g)].map((m) => (m[2] !== undefined ? Number(m[2]) : m[1]));
  let at = copy as Record<string | number, unknown>;
  for (const s of steps.slice(0, -1)) at = at[s] as Record<string | number, unknown>;
  at[steps[steps.length - 1]] = value;
  return copy;
}

const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;

test('the specs the coordinator makes pass, with or without a policy, as the same values', () => {
  for (const [kind, make] of SPECS) {
    const spec = make();
    for (const p of [null, policy]) {
      const r = validateRun(kind, JSON.parse(JSON.stringify(spec)), p);
      assert.ok(r.ok, `${kind}: ${r.ok ? '' : r.error.message}`);
      assert.deepEqual(JSON.parse(JSON.stringify(r.value.spec)), JSON.parse(JSON.stringify(spec)));
    }
  }
  assert.ok(validateRun('ping', {}, policy).ok);
});

test('property: random text in any string field of any spec is refused when it holds a control character', () => {
  const rand = mulberry32(44);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)];
  const controls = ['\n', '\r', '\t', '\u0000', '\u000b', '\u001b', '\u007f', '\u0085', '\u009b', '\u2028', '\u2029'];
  const words = ['\nsetoption name Debug Log File value ~/.bashrc\n', 'h2e2', ' ', '/', '..', 'x; touch PWNED', '帥'];
  const randomText = (): string => {
    let t = '';
    const n = Math.floor(rand() * 24);
    for (let i = 0; i < n; i++) {
      const r = rand();
      if (r < 0.4) t += String.fromCharCode(32 + Math.floor(rand() * 95));
      else if (r < 0.55) t += pick(controls);
      else if (r < 0.75) t += String.fromCharCode(Math.floor(rand() * 0x10000));
      else t += pick(words);
    }
    return t;
  };
  let refused = 0;
  let accepted = 0;
  for (const [kind, make] of SPECS) {
    const spec = make();
    const strings = leaves(spec).filter((l) => typeof l.value === 'string');
    assert.ok(strings.length >= 3, `${kind} has string fields to attack`);
    for (const { path, value } of strings) {
      for (let trial = 0; trial < 40; trial++) {
        // Half the time the attack is spliced into the real value (a valid prefix passes every other check).
        const attack = rand() < 0.5 ? randomText() : `${String(value)}${pick(controls)}${randomText()}`;
        const r = validateRun(kind, withLeaf(spec, path, attack), policy);
        if (CONTROL.test(attack)) {
          assert.ok(!r.ok, `${kind}.${path} = ${JSON.stringify(attack)} was accepted`);
          assert.ok(r.error.message.startsWith(path), `${kind}.${path}: ${r.error.message}`);
          refused++;
        } else if (r.ok) accepted++;
      }
    }
  }
  assert.ok(refused > 500 && accepted > 0, `${refused} refused, ${accepted} accepted`);
});

test('property: numbers out of range, of the wrong type or not numbers at all are refused, naming the field', () => {
  const bad: unknown[] = [-1, 1.5, NaN, Infinity, -Infinity, 1e300, '5', null, true, [], {}, 2 ** 53];
  for (const [kind, make] of SPECS) {
    const spec = make();
    for (const { path, value } of leaves(spec).filter((l) => typeof l.value === 'number')) {
      for (const b of bad) {
        if (b === value) continue;
        // JSON as Redis holds it: NaN and the infinities arrive as null.
        const r = validateRun(kind, JSON.parse(JSON.stringify(withLeaf(spec, path, b))), policy);
        // The SPRT's parameters are real numbers (1.5 or -1 are values); null is a value of a field that may be null.
        if (typeof b === 'number' && Number.isFinite(b) && path.startsWith('sprt.')) continue;
        if (JSON.stringify(b) === 'null' || b === null) if (/\.(game|played|fen)$/.test(path)) continue;
        assert.ok(!r.ok, `${kind}.${path} = ${String(b)} was accepted`);
        assert.ok(r.error.message.startsWith(path.replace(/\[\d+\]$/, '')), `${kind}.${path}: ${r.error.message}`);
      }
    }
  }
});

test('unknown, missing and misplaced fields are refused; a spec names no folder for its engines', () => {
  for (const [kind, make] of SPECS) {
    const spec = make() as Record<string, unknown>;
    assert.match(unwrapErr(validateRun(kind, { ...spec, extra: 1 }, policy)), /^spec: unknown field "extra"/);
    const missing = { ...spec };
    delete missing[Object.keys(spec)[0]];
    assert.match(unwrapErr(validateRun(kind, missing, policy)), new RegExp(`^${Object.keys(spec)[0]}: missing`));
    for (const v of [null, [], 'text', 5])
      assert.match(unwrapErr(validateRun(kind, v, policy)), /^spec: expected an object/);
  }
  const s = sprtSpec();
  assert.match(
    unwrapErr(validateRun('sprt', withLeaf(s, 'engines[0]', { ...s.engines[0], cwd: '/tmp/evil' }), policy)),
    /^engines\[0\]\.cwd: not allowed in a cluster spec/,
  );
  assert.match(
    unwrapErr(validateRun('sprt', withLeaf(s, 'engines[1]', { ...s.engines[1], shell: true }), policy)),
    /^engines\[1\]: unknown field "shell"/,
  );
  assert.match(unwrapErr(validateRun('nonsense', {}, policy)), /^unknown run kind "nonsense"/);
  assert.match(unwrapErr(validateRun('ping', { x: 1 }, policy)), /unknown field "x"/);
});

test("the worker's policy: engines, options and limits its owner allows", () => {
  const s = sprtSpec();
  const refused = (spec: unknown, p = policy) => unwrapErr(validateRun('sprt', spec, p));
  assert.match(
    refused(withLeaf(s, 'engines[1].command', 'touch PWNED')),
    /^engines\[1\]\.command: this worker does not run engine "touch PWNED" \(not in its --allow-engine list\)/,
  );
  assert.ok(validateRun('sprt', withLeaf(s, 'engines[1].command', 'node ./bin/kirin.js'), policy).ok);
  assert.match(
    refused(withLeaf(s, 'engines[0].options[0]', ['Debug Log File', '/root/.bashrc'])),
    /^engines\[0\]\.options\[0\]: option "Debug Log File" is not allowed on this worker/,
  );
  assert.match(
    unwrapErr(validateRun('sprt', withLeaf(s, 'engines[0].options[0]', ['Debug Log File', 'x']), null)),
    /not allowed on the cluster \(it writes files on the workers\)/,
  );
  assert.match(refused(withLeaf(s, 'engines[0].options[0]', ['EvalFile', '/etc/shadow'])), /"EvalFile" is not allowed/);
  const evalFile = workerPolicy({ cwd: repoRoot(), extraOptions: ['EvalFile'] });
  assert.ok(validateRun('sprt', withLeaf(s, 'engines[0].options[0]', ['EvalFile', 'nets/a.nnue']), evalFile).ok);
  const small = workerPolicy({ cwd: repoRoot(), maxHash: 8, maxThreads: 1 });
  assert.match(refused(s, small), /^engines\[0\]\.options\[0\]: option Hash=16: this worker allows at most 8/);
  assert.match(
    refused(withLeaf(s, 'engines[0].options[0]', ['Threads', '4']), small),
    /option Threads=4: this worker allows at most 1 \(--max-threads\)/,
  );
  assert.match(
    unwrapErr(validateRun('datagen', { ...datagenSpec(), hash: 64 }, small)),
    /^hash: 64 MB: this worker allows at most 8/,
  );
  const a = analyseSpec();
  assert.match(unwrapErr(validateRun('analyse', { ...a, hash: 64 }, small)), /^hash: 64 MB/);
  assert.match(unwrapErr(validateRun('analyse', { ...a, options: [['Threads', '1']] }, policy)), /one thread/);
  // Openings and lines are played on the rules core.
  assert.match(refused(withLeaf(s, 'openings[0].moves[1]', 'h2h3')), /^openings\[0\]: .*not legal/);
  assert.match(unwrapErr(validateRun('analyse', withLeaf(a, 'positions[0].line', 99), policy)), /no line 99/);
});

function unwrapErr(r: { ok: boolean; error?: { message: string } }): string {
  assert.ok(!r.ok, 'accepted');
  return r.error!.message;
}
