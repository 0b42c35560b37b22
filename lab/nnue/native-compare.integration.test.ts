import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { test } from 'node:test';
import { repoRoot } from '../../toolkit/files.js';
import { parseBenchSummary } from './native-compare.js';

test('native-compare reads the bench summary both engines print', () => {
  const kirin =
    'bestmove h2e2\n\n===========================\nTotal time (ms) : 1234\nNodes searched  : 56789\nNodes/second    : 46020\nEvaluation      : NNUE\n';
  assert.deepEqual(parseBenchSummary(kirin), { nodes: 56789, timeMs: 1234, nps: 46020 });
  const pikafish =
    '===========================\nTotal time (ms) : 9000\nNodes searched  : 5280197\nNodes/second    : 586688\n';
  assert.deepEqual(parseBenchSummary(pikafish), { nodes: 5280197, timeMs: 9000, nps: 586688 });
  assert.equal(parseBenchSummary('Total time (ms) : 12\nNodes searched  : 40\n'), null, 'no nodes/second');
});

test(
  'native-compare: Kirin against itself searches the same nodes and prints the ratio',
  { timeout: 120_000 },
  async () => {
    const root = repoRoot();
    const net = join(root, 'src', 'eval', 'kirinnet', 'kirin.knet');
    const out = await new Promise<string>((done, fail) =>
      execFile(
        process.execPath,
        [
          join(root, 'dist/lab/nnue/native-compare.js'),
          '--native',
          join(root, 'bin/kirin.js'),
          '--net',
          net,
          '--depth',
          '4',
          '--rounds',
          '1',
          '--json',
        ],
        { encoding: 'utf8', timeout: 110_000 },
        (error, stdout, stderr) => (error ? fail(new Error(`${error.message}\n${stderr}`)) : done(stdout)),
      ),
    );
    const r = JSON.parse(out) as {
      kirin: { nodes: number; medianNps: number };
      native: { nodes: number };
      ratio: number;
    };
    assert.ok(r.kirin.nodes > 1000, `bench searched ${r.kirin.nodes} nodes`);
    assert.equal(r.native.nodes, r.kirin.nodes, 'the same engine and network search the same tree');
    assert.ok(r.ratio > 0 && Number.isFinite(r.ratio));
  },
);
