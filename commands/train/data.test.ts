import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { Position } from '../../src/core/position.js';
import { appendFeatures } from '../../src/eval/kirinnet/arch.js';
import { postProcessFactor } from '../../src/eval/evaluate.js';
import { randomCheckPositions, randomPositions, unwrap } from '../../test/support/fixtures.js';
import { HEADER_SIZE, RECORD_SIZE, decodeRecord, recordPosition } from '../datagen/format.js';
import { forEachRecord } from '../datagen/records.js';
import {
  DEFAULT_FILTER,
  DataError,
  FEATURE_TABLE,
  boardFactor,
  boardInCheck,
  fitK,
  loadTrainData,
  positionBoard,
  tableBase,
  type TrainDataBuffers,
} from './data.js';
import { syntheticDataFile } from './synthetic.js';
import { convertFile } from '../data/convert.js';

const dir = mkdtempSync(join(tmpdir(), 'kirin-train-data-'));
after(() => rmSync(dir, { recursive: true, force: true }));

function file(name: string, bytes: Uint8Array): string {
  const p = join(dir, name);
  writeFileSync(p, bytes);
  return p;
}

const GAMES = 40;
const synthetic = syntheticDataFile(GAMES, 7);
const syntheticPath = file('synthetic.bin', synthetic);

test('boardInCheck agrees with Position.inCheck', () => {
  const positions = [...randomPositions(300, 11, 80), ...randomCheckPositions(150, 12)];
  let checks = 0;
  for (const pos of positions) {
    assert.equal(boardInCheck(pos.board, pos.side), pos.inCheck(), pos.fen());
    if (pos.inCheck()) checks++;
  }
  assert.ok(checks >= 150, `${checks} positions in check`);
});

test("boardFactor is evaluate()'s postProcessFactor", () => {
  let n = 0;
  forEachRecord(syntheticPath, (buf, off) => {
    const r = decodeRecord(buf, off);
    r.rule60 = n % 100; // the damping too
    const pos = unwrap(recordPosition(r));
    assert.ok(Math.abs(boardFactor(r.board, r.rule60) - postProcessFactor(pos)) < 1e-12);
    n++;
  });
  assert.ok(n > 500);
});

test('the feature table gives the features of arch.ts appendFeatures for both perspectives', () => {
  const data = loadTrainData([syntheticPath], DEFAULT_FILTER, 0.2);
  const board = new Uint8Array(90);
  const expect = new Int32Array(40);
  for (let i = 0; i < data.count; i += 7) {
    positionBoard(data, i, board);
    const side = data.flags[i] & 1;
    for (let half = 0; half < 2; half++) {
      const n = appendFeatures(board, side ^ half, expect, 0);
      const base = tableBase(side ^ half, (data.flags[i] >> (1 + half)) & 1);
      const got = Array.from(data.entries.subarray(data.start[i], data.start[i + 1]), (x) => FEATURE_TABLE[base + x]);
      assert.deepEqual(got, Array.from(expect.subarray(0, n)));
    }
  }
});

test('reading: filters, games, whole games held out, several files', () => {
  // What the filters must drop, counted with the engine's own Position.
  let records = 0,
    inCheck = 0,
    capture = 0,
    big = 0;
  forEachRecord(syntheticPath, (buf, off) => {
    const r = decodeRecord(buf, off);
    const pos = unwrap(recordPosition(r, new Position(null)));
    records++;
    if (pos.inCheck()) inCheck++;
    else if (r.move && pos.board[r.move & 127]) capture++;
    else if (Math.abs(r.score) > 300) big++;
  });
  const d = loadTrainData([syntheticPath], { ...DEFAULT_FILTER, maxScore: 300 }, 0.25);
  assert.equal(d.counts.records, records);
  assert.equal(d.counts.inCheck, inCheck);
  assert.equal(d.counts.capture, capture);
  assert.equal(d.counts.score, big);
  assert.equal(d.count, records - inCheck - capture - big);
  assert.ok(inCheck > 0 && capture > 0 && big > 0);
  assert.equal(d.games, GAMES);
  assert.ok(d.validGames > 0 && d.validGames < GAMES);
  assert.equal(d.train.length + d.valid.length, d.count);
  // No game has positions on both sides of the split (games: the ply does not increase).
  const side = new Uint8Array(d.count);
  for (const i of d.valid) side[i] = 1;
  const gameOf = new Int32Array(d.count);
  let k = 0,
    game = -1,
    prevPly = -1;
  forEachRecord(syntheticPath, (buf, off) => {
    const r = decodeRecord(buf, off);
    if (r.ply <= prevPly || game < 0) game++;
    prevPly = r.ply;
    const pos = unwrap(recordPosition(r, new Position(null)));
    if (pos.inCheck() || (r.move && pos.board[r.move & 127]) || Math.abs(r.score) > 300) return;
    gameOf[k++] = game;
  });
  assert.equal(k, d.count);
  for (let i = 1; i < d.count; i++)
    if (gameOf[i] === gameOf[i - 1]) assert.equal(side[i], side[i - 1], `game ${gameOf[i]} split`);
  assert.equal(loadTrainData([syntheticPath], DEFAULT_FILTER, 0).valid.length, 0);
  // Early plies.
  const late = loadTrainData([syntheticPath], { ...DEFAULT_FILTER, minPly: 20 }, 0);
  assert.ok(late.counts.ply > 0);
  // Two files: the records of both, in order.
  const both = loadTrainData([syntheticPath, syntheticPath], DEFAULT_FILTER, 0);
  const one = loadTrainData([syntheticPath], DEFAULT_FILTER, 0);
  assert.equal(both.count, 2 * one.count);
  assert.equal(both.games, 2 * one.games);
  assert.deepEqual(
    both.files.map((f) => f.hash),
    [one.files[0].hash, one.files[0].hash],
  );
  assert.deepEqual(both.entries.subarray(one.entries.length), one.entries);
  assert.deepEqual(both.score.subarray(one.count), one.score);
});

test('--mirror adds the left-right image of every training position, labels unchanged, validation untouched', () => {
  const plain = loadTrainData([syntheticPath], DEFAULT_FILTER, 0.25);
  const m = loadTrainData([syntheticPath], { ...DEFAULT_FILTER, mirror: true }, 0.25);
  assert.equal(m.counts.kept, plain.count);
  assert.equal(m.counts.mirrored, plain.train.length);
  assert.equal(m.count, plain.count + plain.train.length);
  assert.equal(m.train.length, 2 * plain.train.length);
  assert.equal(m.valid.length, plain.valid.length);
  const a = new Uint8Array(90),
    b = new Uint8Array(90);
  // Walk both: each plain position is followed, in m, by its image when it is a training one.
  const validSet = new Set(plain.valid);
  let j = 0,
    images = 0,
    asymmetric = 0;
  for (let i = 0; i < plain.count; i++, j++) {
    positionBoard(plain, i, a);
    positionBoard(m, j, b);
    assert.deepEqual(b, a, `position ${i} kept as it is`);
    for (const key of ['score', 'result', 'factor'] as const) assert.equal(m[key][j], plain[key][i]);
    assert.equal(m.flags[j], plain.flags[i]);
    if (validSet.has(i)) continue;
    j++;
    images++;
    positionBoard(m, j, b);
    for (let s = 0; s < 90; s++) assert.equal(b[s], a[s - (s % 9) + 8 - (s % 9)], `image of ${i}, square ${s}`);
    if (b.some((x, s) => x !== a[s])) asymmetric++;
    for (const key of ['score', 'result', 'factor'] as const) assert.equal(m[key][j], plain[key][i]);
    assert.equal(m.flags[j] & 1, plain.flags[i] & 1);
  }
  assert.equal(j, m.count);
  assert.equal(images, plain.train.length);
  assert.ok(asymmetric > images / 2, `${asymmetric} of ${images} images differ from their position`);
  // The images' features and mirror flags are those of arch.ts for their boards.
  const expect = new Int32Array(40);
  for (let i = 1; i < m.count; i += 5) {
    positionBoard(m, i, b);
    const side = m.flags[i] & 1;
    for (let half = 0; half < 2; half++) {
      const n = appendFeatures(b, side ^ half, expect, 0);
      const base = tableBase(side ^ half, (m.flags[i] >> (1 + half)) & 1);
      const got = Array.from(m.entries.subarray(m.start[i], m.start[i + 1]), (x) => FEATURE_TABLE[base + x]);
      assert.deepEqual(got, Array.from(expect.subarray(0, n)));
    }
  }
});

test('bad files are refused with the file and the reason', () => {
  const refuse = (path: string, pattern: RegExp) =>
    assert.throws(
      () => loadTrainData([syntheticPath, path], DEFAULT_FILTER, 0),
      (e: unknown) => e instanceof DataError && pattern.test(e.message) && e.message.includes(path),
    );
  const magic = synthetic.slice();
  magic[0] = 0x58;
  refuse(file('magic.bin', magic), /bad magic/);
  const version = synthetic.slice();
  version[8] = 3;
  refuse(file('version.bin', version), /version 3/);
  // Version 2 (chains) with records where its blocks must be: named with the byte offset.
  const chains = synthetic.slice();
  chains[8] = 2;
  refuse(file('chains.bin', chains), /no block at byte 16/);
  refuse(file('truncated.bin', synthetic.subarray(0, HEADER_SIZE + 3 * RECORD_SIZE + 20)), /truncated: 20 bytes/);
  refuse(file('short.bin', synthetic.subarray(0, 10)), /too short/);
  const kings = synthetic.slice();
  // A second red king on the first record's square 0 (low nibble of byte 0).
  kings[HEADER_SIZE] = (kings[HEADER_SIZE] & 0xf0) | 7;
  refuse(file('kings.bin', kings), /record 0 .*2 red kings/);
  const result = synthetic.slice();
  result[HEADER_SIZE + 2 * RECORD_SIZE + 50] = 5;
  refuse(file('result.bin', result), /record 2 .*result 5/);
  refuse(join(dir, 'missing.bin'), /cannot open/);
  assert.throws(() => loadTrainData([], DEFAULT_FILTER, 0), DataError);
});

test('a chain file gives the training positions, games and hash of the version-1 file of the same records', () => {
  const chains = join(dir, 'synthetic.kc');
  const c = convertFile(syntheticPath, chains);
  assert.ok(c.ok, c.ok ? '' : c.error.message);
  const filter = { ...DEFAULT_FILTER, mirror: true };
  const a = loadTrainData([syntheticPath], filter, 0.25);
  const b = loadTrainData([chains], filter, 0.25);
  assert.ok(a.count > 500);
  for (const k of ['start', 'entries', 'flags', 'score', 'result', 'factor', 'train', 'valid'] as const)
    assert.deepEqual(b[k], a[k], k);
  assert.deepEqual([b.count, b.games, b.validGames, b.counts], [a.count, a.games, a.validGames, a.counts]);
  assert.deepEqual(
    b.files.map((f) => [f.records, f.hash]),
    a.files.map((f) => [f.records, f.hash]),
  );
});

test('fitK finds the scale that generated the results', () => {
  const n = 40000,
    k0 = 300;
  let seed = 12345;
  const rnd = () => (seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0) / 4294967296;
  const score = new Int16Array(n),
    result = new Int8Array(n);
  for (let i = 0; i < n; i++) {
    score[i] = Math.round((rnd() - 0.5) * 2000);
    const p = 1 / (1 + Math.exp(-score[i] / k0));
    result[i] = rnd() < p ? 1 : -1;
  }
  const idx = Uint32Array.from({ length: n }, (_, i) => i);
  const k = fitK({ score, result } as unknown as TrainDataBuffers, idx);
  assert.ok(Math.abs(k - k0) < 0.05 * k0, `K ${k}`);
  const sampled = fitK({ score, result } as unknown as TrainDataBuffers, idx, 10000);
  assert.ok(sampled !== k && Math.abs(sampled - k0) < 0.1 * k0, `K ${sampled} from a sample`);
});
