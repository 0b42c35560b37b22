import assert from 'node:assert/strict';
import { test } from 'node:test';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoPath } from '../../toolkit/files.js';
import { runDataCli } from './cli.js';
import { statsOfFiles } from './stats.js';

/** Runs `kirin data ...`: its exit code and what it printed. */
async function run(args: string[]): Promise<{ code: number; out: string; err: string }> {
  const write = process.stdout.write,
    errWrite = process.stderr.write;
  let out = '',
    err = '';
  // Only text is the command's: while it awaits its worker threads the test runner writes its own bytes.
  process.stdout.write = ((c: string | Uint8Array, ...rest: never[]) =>
    typeof c === 'string' ? ((out += c), true) : write.call(process.stdout, c, ...rest)) as typeof write;
  process.stderr.write = ((c: string | Uint8Array, ...rest: never[]) =>
    typeof c === 'string' ? ((err += c), true) : errWrite.call(process.stderr, c, ...rest)) as typeof errWrite;
  try {
    const code = await runDataCli(args);
    return { code, out, err };
  } finally {
    process.stdout.write = write;
    process.stderr.write = errWrite;
  }
}

const V1 = repoPath('test', 'data', 'selfplay-v1-sample.bin');
const CHAINS = repoPath('data', 'selfplay', 'kn16-sample.kc');

test('kirin data stats: per file and a total line; a damaged file is refused naming the offset', async () => {
  const r = await run(['stats', V1, CHAINS]);
  assert.equal(r.code, 0, r.err);
  const lines = r.out.split('\n');
  assert.match(lines[0], /^file\s+format\s+games\s+positions\s+records\s+bytes\s+bytes\/position\s+bytes\/record$/);
  assert.match(r.out, /selfplay-v1-sample\.bin\s+records\s+\d+\s+3000\s+3000\s+168016\s+56\.01\s+56\.01/);
  assert.match(r.out, /kn16-sample\.kc\s+chains\s+\d+\s+3000\s+3000\s+\d+\s+[0-4]\.\d\d/);
  assert.match(r.out, /^total\s+\d+\s+6000\s+6000\s/m);
  assert.match(r.out, /search scores \(pawns, side to move; % of positions\):\nfile\s+<-16\s+-16\.\.-8/);
  const dir = mkdtempSync(join(tmpdir(), 'kirin-data-cli-'));
  try {
    const bad = readFileSync(CHAINS);
    bad[200] ^= 0x10;
    writeFileSync(join(dir, 'bad.kc'), bad);
    const b = await run(['stats', join(dir, 'bad.kc')]);
    assert.equal(b.code, 2);
    assert.match(b.err, /bad\.kc: block at byte 16: damaged \(CRC-32 mismatch\)/);
    // Convert both ways through the command line.
    const c = await run(['convert', V1, join(dir, 'x.kc')]);
    assert.equal(c.code, 0, c.err);
    assert.match(c.out, /3000 records, [0-4]\.\d\d bytes\/record.*\n.*read back: identical/);
    assert.equal((await run(['convert', join(dir, 'x.kc'), join(dir, 'y.bin')])).code, 0);
    assert.ok(readFileSync(join(dir, 'y.bin')).equals(readFileSync(V1)));
    assert.equal((await run(['convert', V1, join(dir, 'x.kc')])).code, 2, 'OUT exists');
    // A folder stands for its data files, by name; one without any is refused, not a crash.
    rmSync(join(dir, 'bad.kc'));
    writeFileSync(join(dir, 'notes.md'), 'not data\n');
    const d = await run(['stats', dir]);
    assert.equal(d.code, 0, d.err);
    assert.match(d.out, /x\.kc\s+chains\s+\d+\s+3000\s+3000\s[\s\S]*y\.bin\s+records\s+\d+\s+3000\s+3000\s/);
    assert.doesNotMatch(d.out, /notes\.md/);
    const empty = mkdtempSync(join(dir, 'empty-'));
    const e = await run(['stats', empty]);
    assert.equal(e.code, 2);
    assert.match(e.err, /a folder with no data files \(\.kc or \.bin\)/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  // Usage errors.
  assert.equal((await run(['stats'])).code, 2);
  assert.equal((await run(['convert', V1])).code, 2);
  assert.equal((await run(['frobnicate'])).code, 2);
  assert.equal((await run(['stats', V1, '--seed', '3'])).code, 2, '--seed belongs to manifest add');
  assert.equal((await run(['manifest', 'add', CHAINS, '--seed', '3'])).code, 2, '--command and the rest are required');
  assert.equal((await run(['--help'])).code, 0);
});

test('kirin data stats: worker threads give the same stats as one thread, in the files order', async () => {
  const paths = [V1, CHAINS, V1];
  const one = await statsOfFiles(paths, 1);
  const two = await statsOfFiles(paths, 2);
  assert.ok(one.ok && two.ok);
  assert.deepEqual(two.value, one.value);
  assert.deepEqual(
    two.value.map((f) => f.path),
    paths,
  );
  const missing = await statsOfFiles([CHAINS, '/nonexistent/x.kc'], 2);
  assert.ok(!missing.ok);
  assert.match(missing.error.message, /^\/nonexistent\/x\.kc: /);
});
