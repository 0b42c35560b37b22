import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { Position } from '../../src/core/position.js';
import { decodeKirinNet, type KirinNetWeights } from '../../src/eval/kirinnet/format.js';
import { referenceEvaluate } from '../../src/eval/kirinnet/reference.js';
import { randomFens } from '../../test/support/fixtures.js';
import { repoRoot } from '../../toolkit/files.js';
import { syntheticDataFile } from './synthetic.js';

const dir = mkdtempSync(join(tmpdir(), 'kirin-train-cli-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const dataPath = join(dir, 'd.bin');
writeFileSync(dataPath, syntheticDataFile(60, 5));

function kirin(...args: string[]) {
  const r = spawnSync(process.execPath, [join(repoRoot(), 'bin/kirin.js'), 'train', ...args], { encoding: 'utf8' });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

/** The command line of the --init tests: one short epoch on the synthetic data. */
const initCommon = ['--data', dataPath, '--epochs', '1', '--batch', '700', '--threads', '1'];
let startNet: { path: string; net: KirinNetWeights } | undefined;
/** A 32-unit, 2-bucket network to start from, trained once and shared by the --init tests. */
function startingNetwork() {
  if (!startNet) {
    const path = join(dir, 'from.knet');
    const r = kirin(...initCommon, '--hidden', '32', '--buckets', '2', '--out', path);
    assert.equal(r.code, 0, r.err);
    const decoded = decodeKirinNet(readFileSync(path), path);
    assert.ok(decoded.ok);
    startNet = { path, net: decoded.value };
  }
  return startNet;
}

test('kirin train --help, and a refused command line', () => {
  const help = kirin('--help');
  assert.equal(help.code, 0);
  assert.match(help.out, /^usage: kirin train --data FILE/);
  assert.match(help.out, /--resume/);
  const bad = kirin('--data', dataPath, '--out', join(dir, 'x.knet'), '--lr');
  assert.equal(bad.code, 2);
  assert.match(bad.err, /^kirin train: Option '--lr <value>' argument missing/);
  assert.match(bad.err, /usage: kirin train/);
  assert.equal(existsSync(join(dir, 'x.knet')), false);
});

test('kirin train refuses a bad data file and writes nothing', () => {
  const badPath = join(dir, 'bad.bin');
  writeFileSync(badPath, readFileSync(dataPath).subarray(0, 16 + 56 * 10 + 7));
  const r = kirin('--data', `${dataPath},${badPath}`, '--out', join(dir, 'bad.knet'));
  assert.equal(r.code, 1);
  assert.ok(r.err.includes(`kirin train: ${badPath}: truncated: 7 bytes after the last of 10 whole records`), r.err);
  assert.equal(existsSync(join(dir, 'bad.knet')), false);
});

test('kirin train: a run, the same network again, checkpoints and --resume', () => {
  const common = ['--data', dataPath, '--hidden', '32', '--buckets', '2', '--epochs', '2', '--batch', '700'];
  const out1 = join(dir, 'n1.knet'),
    out2 = join(dir, 'n2.knet');
  const r1 = kirin(...common, '--out', out1, '--threads', '2');
  assert.equal(r1.code, 0, r1.err);
  assert.match(r1.out, /^data: \d+ records in 1 file\(s\), 60 games; kept \d+ /);
  assert.match(r1.out, /K = [\d.]+ \(fitted/);
  assert.match(r1.out, /epoch {3}2\/2 {2}train 0\.\d+ {2}valid 0\.\d+/);
  assert.match(r1.out, /quantised vs float on \d+ positions: mean \|diff\| [\d.]+, max [\d.]+ internal units/);
  const r2 = kirin(...common, '--out', out2, '--threads', '1');
  assert.equal(r2.code, 0, r2.err);
  const bytes = readFileSync(out1);
  assert.deepEqual(readFileSync(out2), bytes);
  const net = decodeKirinNet(bytes, out1);
  assert.ok(net.ok);
  assert.deepEqual(net.value.shape, { inputs: 1260, hidden: 32, outputBuckets: 2 });
  assert.match(net.value.description, /^kirin train: \d+ positions .* 2 epochs, batch 700, lr 0.001 cosine/);
  assert.ok(existsSync(`${out1}.ckpt`));
  // Resuming the finished run writes the same network; another --lr is refused.
  const out3 = join(dir, 'n3.knet');
  const again = kirin(...common, '--out', out3, '--checkpoint', `${out1}.ckpt`, '--resume');
  assert.equal(again.code, 0, again.err);
  assert.match(again.out, /resuming .* after epoch 2 of 2/);
  assert.deepEqual(readFileSync(out3), bytes);
  const other = kirin(...common, '--out', out3, '--checkpoint', `${out1}.ckpt`, '--resume', '--lr', '0.002');
  assert.equal(other.code, 1);
  assert.match(other.err, /is of another run:\n {2}lr: 0.001 in the checkpoint, 0.002 now/);
  const none = kirin(...common, '--out', out3, '--checkpoint', join(dir, 'none.ckpt'), '--resume');
  assert.equal(none.code, 1);
  assert.match(none.err, /--resume: no checkpoint/);
});

test('kirin train --init starts from a network: with a learning rate of almost 0 it writes the same weights back', () => {
  const common = initCommon;
  const { path: from, net: start } = startingNetwork();
  // The shape comes from the network (no --hidden or --buckets needed).
  const out = join(dir, 'init.knet');
  const r = kirin(...common, '--init', from, '--lr', '1e-9', '--warmup', '0', '--seed', '9', '--out', out);
  assert.equal(r.code, 0, r.err);
  assert.match(r.out, /starting from .*from\.knet \(SHA-256 [0-9a-f]{64}\)/);
  const net = decodeKirinNet(readFileSync(out), out);
  assert.ok(net.ok);
  assert.deepEqual(net.value.shape, start.shape);
  assert.deepEqual(net.value.ftWeights, start.ftWeights);
  assert.deepEqual(net.value.ftBias, start.ftBias);
  assert.deepEqual(net.value.outWeights, start.outWeights);
  assert.deepEqual(net.value.outBias, start.outBias);
  assert.match(net.value.description, /from [0-9a-f]{16}, 1 epochs/);
  // Trained on, it changes; a checkpoint of a run from another start is not resumed.
  const moved = kirin(...common, '--init', from, '--lr', '0.01', '--warmup', '0', '--out', join(dir, 'moved.knet'));
  assert.equal(moved.code, 0, moved.err);
  const m = decodeKirinNet(readFileSync(join(dir, 'moved.knet')), 'moved');
  assert.ok(m.ok);
  assert.notDeepEqual(m.value.ftWeights, start.ftWeights);
  const resumed = kirin(
    ...common,
    '--hidden',
    '32',
    '--buckets',
    '2',
    '--out',
    join(dir, 'r.knet'),
    '--checkpoint',
    `${out}.ckpt`,
    '--resume',
  );
  assert.equal(resumed.code, 1);
  assert.match(resumed.err, /is of another run:\n {2}.*init: [0-9a-f]{64} in the checkpoint, \(none\) now/s);
  // Refusals: another shape, a file that is not a network, no file.
  const shape = kirin(...common, '--init', from, '--hidden', '16', '--out', join(dir, 'x.knet'));
  assert.equal(shape.code, 1);
  assert.match(shape.err, /--init: .*from\.knet has 32 hidden units, more than the 16 of --hidden/);
  const buckets = kirin(...common, '--init', from, '--buckets', '8', '--out', join(dir, 'x.knet'));
  assert.equal(buckets.code, 1);
  assert.match(buckets.err, /--init: .*from\.knet has 2 output buckets, not the 8 of --buckets/);
  const damaged = kirin(...common, '--init', dataPath, '--out', join(dir, 'x.knet'));
  assert.equal(damaged.code, 1);
  assert.match(damaged.err, /^kirin train: --init: /);
  const missing = kirin(...common, '--init', join(dir, 'none.knet'), '--out', join(dir, 'x.knet'));
  assert.equal(missing.code, 1);
  assert.match(missing.err, /--init: cannot read .*none\.knet \(ENOENT\)/);
  assert.equal(existsSync(join(dir, 'x.knet')), false);
});

test('kirin train --init with a larger --hidden grows the network: it starts out evaluating exactly as before', () => {
  const common = initCommon;
  const { path: from, net: n } = startingNetwork();
  const out = join(dir, 'grown.knet');
  const r = kirin(...common, '--init', from, '--hidden', '48', '--lr', '1e-9', '--warmup', '0', '--out', out);
  assert.equal(r.code, 0, r.err);
  assert.match(r.out, /starting from .*from\.knet \(SHA-256 [0-9a-f]{64}\), grown from 32 to 48 hidden units/);
  const grown = decodeKirinNet(readFileSync(out), out);
  assert.ok(grown.ok);
  const g = grown.value;
  assert.deepEqual(g.shape, { ...n.shape, hidden: 48 });
  // The old units are kept, the new ones have feature weights but no output weights.
  for (let i = 0; i < n.shape.inputs; i++)
    assert.deepEqual(g.ftWeights.subarray(i * 48, i * 48 + 32), n.ftWeights.subarray(i * 32, i * 32 + 32));
  assert.ok(
    g.ftWeights.some((w, k) => k % 48 >= 32 && w !== 0),
    'the new units have feature weights',
  );
  assert.deepEqual(g.ftBias.subarray(0, 32), n.ftBias);
  for (let b = 0; b < 2; b++)
    for (let half = 0; half < 2; half++) {
      const gw = g.outWeights.subarray(b * 96 + half * 48, b * 96 + half * 48 + 48);
      assert.deepEqual(gw.subarray(0, 32), n.outWeights.subarray(b * 64 + half * 32, b * 64 + half * 32 + 32));
      assert.ok(gw.subarray(32).every((w) => w === 0));
    }
  assert.deepEqual(g.outBias, n.outBias);
  let nonZero = 0;
  for (const fen of randomFens(60, 4)) {
    const pos = new Position(fen);
    const want = referenceEvaluate(n, pos.board, pos.side);
    if (want !== 0) nonZero++;
    assert.equal(referenceEvaluate(g, pos.board, pos.side), want, fen);
  }
  assert.ok(nonZero > 30);
  // Trained on, the new units get a say.
  const moved = join(dir, 'grown2.knet');
  const r2 = kirin(...common, '--init', from, '--hidden', '48', '--lr', '0.01', '--warmup', '0', '--out', moved);
  assert.equal(r2.code, 0, r2.err);
  const m = decodeKirinNet(readFileSync(moved), moved);
  assert.ok(m.ok);
  assert.ok(m.value.outWeights.some((w, k) => k % 48 >= 32 && w !== 0));
});
