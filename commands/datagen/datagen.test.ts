import assert from 'node:assert/strict';
import { test } from 'node:test';
import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Position } from '../../src/core/position.js';
import { mulberry32 } from '../../src/core/prng.js';
import { Searcher } from '../../src/search/search.js';
import { runDatagenCli } from './cli.js';
import { countPositions, formatCount } from './count.js';
import {
  HEADER_SIZE,
  RECORD_SIZE,
  dedupKey,
  decodeRecord,
  encodeRecord,
  makeHeader,
  recordFen,
  recordPosition,
} from './format.js';
import { forEachRecord, isQuiet } from './records.js';
import { playGame } from './worker.js';
import { unwrap } from '../../test/support/fixtures.js';
import { randomKirinNet } from '../../test/support/kirinnet-random.js';
import { encodeKirinNet } from '../../src/eval/kirinnet/format.js';
import { loadEvalNetwork } from '../../src/eval/networks.js';
import { evaluate } from '../../src/eval/evaluate.js';

const FEN = 'r1bakab1r/9/1cn4c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C1N2/9/RNBAKAB1R b - - 3 3';

test('a record keeps the position, the labels and the best move', () => {
  const pos = new Position(FEN);
  const buf = new Uint8Array(RECORD_SIZE * 2);
  encodeRecord(buf, RECORD_SIZE, pos, -123, 45, -1, (10 << 7) | 20);
  const r = decodeRecord(buf, RECORD_SIZE);
  assert.equal(recordFen(r).split(' ').slice(0, 2).join(' '), FEN.split(' ').slice(0, 2).join(' '));
  assert.deepEqual(
    [r.side, r.score, r.eval, r.result, r.move, r.rule60],
    [1, -123, 45, -1, (10 << 7) | 20, pos.rule60Count()],
  );
  assert.equal(dedupKey(unwrap(recordPosition(r))), dedupKey(pos));
  encodeRecord(buf, 0, pos, 99999, -99999, 1, 0);
  const c = decodeRecord(buf, 0);
  assert.deepEqual([c.score, c.eval], [32767, -32767]);
});

test('a self-play game: opening plies unscored, then every position scored; its quiet positions and their keys', () => {
  const rnd = mulberry32(5);
  const g = playGame(
    {
      id: 0,
      seed: 5,
      openings: [{ fen: null, moves: ['h2e2', 'h9g7'], name: 'x', line: 1 }],
      randomPlies: 2,
      nodes: 400,
      depth: 0,
      maxPly: 80,
      adjudicateScore: 2000,
      adjudicatePlies: 8,
      hashMb: 1,
    },
    new Searcher(1),
    rnd,
  );
  const game = g.game;
  const n = game.moves.length;
  assert.equal(n, g.plies + 4, '2 opening moves, 2 random plies, then the searched moves');
  assert.deepEqual(Array.from(game.scored.subarray(0, 4)), [0, 0, 0, 0], 'the opening and the random plies');
  assert.ok(
    game.scored.subarray(4, n).every((s) => s === 1),
    'every searched position',
  );
  assert.ok(g.quiet.length > 5 && g.quiet.length <= n, `${g.quiet.length} quiet positions of ${n + 1}`);
  const pos = new Position();
  let q = 0;
  for (let i = 0; i <= n; i++) {
    if (game.scored[i] && i < n) assert.equal(game.best[i], game.moves[i], 'the best move is played');
    const quiet = game.scored[i] === 1 && isQuiet(pos, game.score[i], game.best[i]);
    assert.equal(quiet, g.quiet[q] === i, `position ${i}`);
    if (quiet) {
      assert.ok(!pos.inCheck() && !pos.isCapture(game.best[i]) && Math.abs(game.score[i]) < 30000);
      assert.equal(g.keys[q++], dedupKey(pos));
    }
    if (i < n) pos.doMove(game.moves[i]);
  }
  assert.equal(q, g.quiet.length);
});

test('datagen writes chains, stops at the target, resumes without duplicates and cuts a partial last block', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'kirin-datagen-'));
  const file = join(dir, 'd.bin');
  const quiet = process.stderr.write;
  try {
    process.stderr.write = () => true;
    const args = ['--out', file, '--threads', '2', '--nodes', '300', '--random-plies', '8', '--seed', '3'];
    assert.equal(await runDatagenCli([...args, '--positions', '40']), 0);
    const count = () => {
      const r = forEachRecord(file, () => {});
      assert.ok(r.ok, r.ok ? '' : r.error.message);
      return r.ok ? r.value : -1;
    };
    assert.equal(count(), 40, 'the last game is cut at the target');
    const first = readFileSync(file);
    const firstRecords: string[] = [];
    forEachRecord(file, (buf, off) =>
      firstRecords.push(Buffer.from(buf.subarray(off, off + RECORD_SIZE)).toString('hex')),
    );
    // An interrupted write: part of a block at the end.
    appendFileSync(file, first.subarray(HEADER_SIZE, HEADER_SIZE + 100));
    assert.equal(await runDatagenCli([...args, '--positions', '90']), 0);
    assert.equal(count(), 90);
    const all = readFileSync(file);
    assert.deepEqual(all.subarray(0, first.length), first, 'what was written stays');
    const records: string[] = [];
    const keys = new Set<number>();
    const r = forEachRecord(file, (buf, off) => {
      records.push(Buffer.from(buf.subarray(off, off + RECORD_SIZE)).toString('hex'));
      keys.add(dedupKey(unwrap(recordPosition(decodeRecord(buf, off)))));
    });
    assert.ok(r.ok && r.value === 90);
    assert.deepEqual(records.slice(0, 40), firstRecords);
    assert.equal(keys.size, 90, 'no duplicates');
    // A version-1 file is not appended to.
    writeFileSync(join(dir, 'v1.bin'), makeHeader());
    assert.equal(await runDatagenCli(['--out', join(dir, 'v1.bin'), '--positions', '1']), 2);
    // A file that is not ours is refused.
    writeFileSync(join(dir, 'bad.bin'), 'hello world, not a data file');
    assert.equal(await runDatagenCli(['--out', join(dir, 'bad.bin'), '--positions', '1']), 2);
    assert.equal(await runDatagenCli(['--out', file, '--threads', 'x']), 2);
    assert.equal(await runDatagenCli(['--out', file, '--nodes']), 2, 'an option without its value');
    assert.equal(await runDatagenCli(['--out', file, '--postions', '5']), 2, 'a misspelt option, before any game');
    // --help (or -h) prints the usage and succeeds, wherever it stands.
    const stdoutWrite = process.stdout.write;
    let printed = '';
    process.stdout.write = (chunk: string | Uint8Array) => {
      printed += String(chunk);
      return true;
    };
    try {
      assert.equal(await runDatagenCli(['--help']), 0);
      assert.equal(await runDatagenCli(['--out', file, '-h']), 0);
    } finally {
      process.stdout.write = stdoutWrite;
    }
    assert.match(printed, /^usage: kirin datagen --out FILE/);
  } finally {
    process.stderr.write = quiet;
    rmSync(dir, { recursive: true, force: true });
  }
});

test('--eval-file plays with a network and records its static evaluation; classical on request; bad files refused', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'kirin-datagen-net-'));
  const quiet = process.stderr.write;
  let said = '';
  try {
    process.stderr.write = (chunk: string | Uint8Array) => {
      said += String(chunk);
      return true;
    };
    const netFile = join(dir, 'n.knet');
    writeFileSync(netFile, encodeKirinNet(randomKirinNet(5, undefined, 40, 30)));
    const base = ['--threads', '1', '--nodes', '200', '--random-plies', '8', '--seed', '9', '--positions', '30'];
    const withNet = join(dir, 'net.bin'),
      classical = join(dir, 'classical.bin');
    assert.equal(await runDatagenCli(['--out', withNet, '--eval-file', netFile, ...base]), 0);
    assert.match(said, /evaluation: NNUE .*n\.knet/);
    assert.equal(await runDatagenCli(['--out', classical, '--eval-file', 'classical', ...base]), 0);
    assert.match(said, /evaluation: classical/);
    const net = loadEvalNetwork(netFile);
    assert.ok(net.ok);
    const searcher = new Searcher(1);
    if (net.ok) searcher.setNetwork(net.value);
    const clamp = (v: number) => Math.max(-32767, Math.min(32767, v));
    let differ = 0;
    forEachRecord(withNet, (buf, off) => {
      const r = decodeRecord(buf, off);
      const pos = unwrap(recordPosition(r));
      assert.equal(r.eval, clamp(searcher.staticEvaluation(pos).value ?? NaN), recordFen(r));
      if (r.eval !== clamp(evaluate(pos, 0))) differ++;
    });
    assert.ok(differ > 20, `${differ} of 30 records evaluated differently from the classical evaluation`);
    forEachRecord(classical, (buf, off) => {
      const r = decodeRecord(buf, off);
      assert.equal(r.eval, clamp(evaluate(unwrap(recordPosition(r)), 0)));
    });
    // The two evaluations play different games.
    assert.notDeepEqual(readFileSync(withNet), readFileSync(classical));
    // A missing or damaged network is refused before any game, naming the problem.
    said = '';
    assert.equal(await runDatagenCli(['--out', join(dir, 'x.bin'), '--eval-file', join(dir, 'none.knet'), ...base]), 2);
    assert.match(said, /--eval-file: .*none\.knet/);
    const damaged = readFileSync(netFile);
    damaged[200] ^= 1;
    writeFileSync(join(dir, 'bad.knet'), damaged);
    said = '';
    assert.equal(await runDatagenCli(['--out', join(dir, 'y.bin'), '--eval-file', join(dir, 'bad.knet'), ...base]), 2);
    assert.match(said, /--eval-file: .*bad\.knet/);
  } finally {
    process.stderr.write = quiet;
    rmSync(dir, { recursive: true, force: true });
  }
});

test('datagen --count: positions and different positions per file and across files (labels do not count)', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'kirin-count-'));
  const fens = [
    FEN,
    'rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1',
    'rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 0 1',
    '3ak1b2/4a4/2n1b1R2/p1N1pc2p/7r1/2PN1r3/P3P3P/3RB4/4A4/1C2KAB1c w - - 0 1',
  ];
  const file = (name: string, picks: Array<[number, number]>): string => {
    const buf = new Uint8Array(HEADER_SIZE + picks.length * RECORD_SIZE);
    buf.set(makeHeader());
    picks.forEach(([k, score], i) =>
      encodeRecord(buf, HEADER_SIZE + i * RECORD_SIZE, new Position(fens[k]), score, 0, 0, 0),
    );
    const path = join(dir, name);
    writeFileSync(path, buf);
    return path;
  };
  try {
    // The same position with other labels is the same position; the side to move makes another.
    const a = file('a.bin', [
      [0, 10],
      [1, 20],
      [0, -30],
      [2, 0],
    ]);
    const b = file('b.bin', [
      [1, 5],
      [3, 7],
    ]);
    const r = countPositions([a, b]);
    assert.ok(r.ok);
    if (!r.ok) return;
    assert.deepEqual(
      r.value.files.map((f) => [f.records, f.unique, f.added]),
      [
        [4, 3, 3],
        [2, 2, 1],
      ],
    );
    assert.deepEqual([r.value.records, r.value.unique], [6, 4]);
    assert.match(formatCount(r.value), /all 2 files: 6 positions, 4 different/);
    // Through the command line; a missing or foreign file is refused with its name.
    const out: string[] = [];
    const write = process.stdout.write;
    const errWrite = process.stderr.write;
    process.stdout.write = (c: string | Uint8Array) => (out.push(String(c)), true);
    process.stderr.write = (c: string | Uint8Array) => (out.push(String(c)), true);
    try {
      assert.equal(await runDatagenCli(['--count', `${a},${b}`]), 0);
      writeFileSync(join(dir, 'bad.bin'), 'not a data file at all');
      assert.equal(await runDatagenCli(['--count', `${a},${join(dir, 'bad.bin')}`]), 2);
      assert.equal(await runDatagenCli(['--count', join(dir, 'missing.bin')]), 2);
    } finally {
      process.stdout.write = write;
      process.stderr.write = errWrite;
    }
    const text = out.join('');
    assert.match(text, /b\.bin: 2 positions, 2 different, 1 not in the files before it/);
    assert.match(text, /bad\.bin: not a Kirin data file/);
    assert.match(text, /missing\.bin/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
