import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  appendFileSync,
  closeSync,
  existsSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Position } from '../../src/core/position.js';
import { legalMoves } from '../../src/core/movegen.js';
import { mulberry32 } from '../../src/core/prng.js';
import { repoPath } from '../../toolkit/files.js';
import { assertSameEntries, everyKindOfEntry, randomGame } from '../../test/support/chain-games.js';
import { BLOCK_HEADER_SIZE, makeBlock, makeChainHeader, type ChainEntry } from './chain-codec.js';
import { ChainWriter, openChainForAppend, readChain, readChainEntries } from './chain.js';
import { HEADER_SIZE, RECORD_SIZE, decodeRecord, encodeRecord, makeHeader } from './format.js';
import { forEachChainRecord, forEachRecord, isQuiet, KeySet } from './records.js';
import { convertFile, sameRecords } from '../data/convert.js';
import { fileStats, formatStats } from '../data/stats.js';

const SAMPLE = repoPath('test', 'data', 'selfplay-v1-sample.bin');

function writeChainFile(path: string, blocks: ChainEntry[][]): void {
  const parts: Uint8Array[] = [makeChainHeader()];
  for (const entries of blocks) {
    const b = makeBlock(entries);
    assert.ok(b.ok, b.ok ? '' : b.error.message);
    if (b.ok) parts.push(b.value);
  }
  writeFileSync(path, Buffer.concat(parts));
}

function withDir(f: (dir: string) => void): void {
  const dir = mkdtempSync(join(tmpdir(), 'kirin-chain-'));
  try {
    f(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test('the entries of every block of a file come back as they went in; its stats count them', () =>
  withDir((dir) => {
    const games = everyKindOfEntry();
    const path = join(dir, 'a.kc');
    writeChainFile(path, [games.slice(0, 3), games.slice(3)]);
    const back = readChainEntries(path);
    assert.ok(back.ok, back.ok ? '' : back.error.message);
    if (back.ok) assertSameEntries(back.value, games);
    const stats = fileStats(path);
    assert.ok(stats.ok);
    if (stats.ok) {
      const scored = games.reduce((s, g) => s + (g.kind === 'raw' ? 1 : g.scored.reduce((x, y) => x + y, 0)), 0);
      assert.deepEqual([stats.value.games, stats.value.positions], [games.length, scored]);
      assert.match(formatStats([stats.value]), /^total\s+\d+/m);
    }
  }));

test('a damaged, cut-off or foreign file is refused naming the byte offset; resuming cuts a partial last block', () =>
  withDir((dir) => {
    const path = join(dir, 'a.kc');
    writeChainFile(path, [[randomGame(1, 40, 1)], [randomGame(2, 40, 1)]]);
    const good = readFileSync(path);
    const second = HEADER_SIZE + BLOCK_HEADER_SIZE + good.readUInt32LE(HEADER_SIZE + 4);
    const refused = (bytes: Uint8Array, re: RegExp) => {
      writeFileSync(path, bytes);
      const r = readChain(path, {});
      assert.ok(!r.ok);
      if (!r.ok) assert.match(r.error.message, re);
    };
    // A flipped bit in the second block's payload.
    const flipped = Buffer.from(good);
    flipped[second + BLOCK_HEADER_SIZE + 5] ^= 4;
    refused(flipped, new RegExp(`block at byte ${second}: damaged \\(CRC-32 mismatch\\)`));
    // A damaged block header (its length): not taken for a cut-off block.
    const length = Buffer.from(good);
    length[second + 4] ^= 1;
    refused(length, new RegExp(`block at byte ${second}: damaged header`));
    // Not a block where one must start.
    const magic = Buffer.from(good);
    magic[second] = 0;
    refused(magic, new RegExp(`no block at byte ${second}`));
    // Cut off: refused by readers, cut by the writer when it resumes.
    refused(good.subarray(0, good.length - 3), new RegExp(`truncated: the block at byte ${second} is cut off`));
    const o = openChainForAppend(path);
    assert.ok(o.ok);
    if (o.ok) {
      closeSync(o.value.fd);
      assert.equal(o.value.truncated, good.length - 3 - second);
    }
    assert.equal(statSync(path).size, second);
    assert.ok(readChain(path, {}).ok);
    // Half a block header left by an interrupted write.
    appendFileSync(path, good.subarray(second, second + 10));
    const o2 = openChainForAppend(path);
    assert.ok(o2.ok && o2.value.truncated === 10);
    if (o2.ok) closeSync(o2.value.fd);
    // Not a data file; a version-1 file cannot be appended to.
    writeFileSync(join(dir, 'x'), 'not a data file at all');
    assert.match(String(!readChain(join(dir, 'x'), {}).ok && 'bad'), /bad/);
    writeFileSync(join(dir, 'v1'), makeHeader());
    const v1 = openChainForAppend(join(dir, 'v1'));
    assert.ok(!v1.ok);
    if (!v1.ok) assert.match(v1.error.message, /version-1 file: convert it first/);
  }));

test('the writer appends blocks; a new file gets its header', () =>
  withDir((dir) => {
    const path = join(dir, 'w.kc');
    const o = openChainForAppend(path);
    assert.ok(o.ok && o.value.created);
    if (!o.ok) return;
    const w = new ChainWriter(o.value.fd, 50);
    for (let i = 0; i < 6; i++) assert.ok(w.add(randomGame(10 + i, 30, 1)).ok);
    assert.ok(w.flush().ok);
    closeSync(o.value.fd);
    const r = readChain(path, {});
    assert.ok(r.ok);
    if (r.ok) assert.deepEqual([r.value.games, r.value.blocks > 1], [6, true]);
  }));

/** Version-1 records: `[fen, score, eval, result, move]`, the record's ply and counter from the FEN. */
function v1File(
  path: string,
  recs: Array<{ pos: Position; score?: number; evalv?: number; result?: number; move?: number }>,
  patch?: (buf: Uint8Array) => void,
): void {
  const buf = new Uint8Array(HEADER_SIZE + recs.length * RECORD_SIZE);
  buf.set(makeHeader());
  recs.forEach((r, i) =>
    encodeRecord(buf, HEADER_SIZE + i * RECORD_SIZE, r.pos, r.score ?? 0, r.evalv ?? 0, r.result ?? 0, r.move ?? 0),
  );
  patch?.(buf);
  writeFileSync(path, buf);
}

test('version 1 -> chains -> version 1 keeps every record byte for byte (joins, new games, odd records)', () =>
  withDir((dir) => {
    // A game's records with gaps of 1 to 9 plies (longer gaps start a new game), then odd records.
    const rnd = mulberry32(11);
    const pos = new Position();
    const recs: Array<{ pos: Position; score?: number; evalv?: number; result?: number; move?: number }> = [];
    let gap = 1;
    for (let ply = 0; ply < 120; ply++) {
      const moves = legalMoves(pos);
      if (moves.length === 0) break;
      const m = moves[Math.floor(rnd() * moves.length)];
      if (--gap === 0) {
        recs.push({ pos: pos.clone(), score: ply * 7 - 300, evalv: -ply, result: pos.side === 0 ? 1 : -1, move: m });
        gap = 1 + (recs.length % 9);
      }
      pos.doMove(m);
    }
    const joined = recs.length;
    // A duplicate, a record whose best move is none or no legal move, a draw from the start.
    recs.push({ ...recs[3] }, { pos: new Position(), move: 0 }, { pos: new Position(), move: 0x3fff, result: 0 });
    for (let i = 0; i < 5; i++) recs.push({ ...recs[0] });
    const v1 = join(dir, 'in.bin');
    v1File(v1, recs, (buf) => {
      const at = (i: number) => HEADER_SIZE + (joined + i) * RECORD_SIZE;
      // Records no game can hold: a result of 5, no kings, a score of -32768, a counter of 200, an odd ply for Red.
      for (let i = 0; i < 5; i++) buf.copyWithin(at(3 + i), at(0), at(1));
      buf[at(3) + 50] = 5;
      buf.fill(0, at(4), at(4) + 45);
      buf[at(5) + 46] = 0;
      buf[at(5) + 47] = 0x80;
      buf[at(6) + 51] = 200;
      buf[at(7) + 52] = 1;
    });
    const out = join(dir, 'out.kc');
    const c = convertFile(v1, out);
    assert.ok(c.ok, c.ok ? '' : c.error.message);
    if (!c.ok) return;
    assert.equal(c.value.records, joined + 8);
    assert.equal(
      c.value.counts!.raw,
      4,
      'the result 5, the empty board, the score -32768 and the counter 200 are kept as they are',
    );
    assert.ok(
      c.value.counts!.joins.slice(1, 7).every((n) => n > 0),
      `joins ${c.value.counts!.joins.join(', ')}`,
    );
    assert.ok(sameRecords(v1, out).ok);
    // And back: the same bytes as the input.
    const back = join(dir, 'back.bin');
    assert.ok(convertFile(out, back).ok);
    assert.deepEqual(readFileSync(back), readFileSync(v1));
    // The converter writes new files only.
    const again = convertFile(v1, out);
    assert.ok(!again.ok && /exists/.test(again.error.message));
  }));

test('a real version-1 file converts to chains and back byte for byte, in about 4 bytes per record', () =>
  withDir((dir) => {
    const out = join(dir, 'sample.kc');
    const c = convertFile(SAMPLE, out);
    assert.ok(c.ok, c.ok ? '' : c.error.message);
    if (!c.ok) return;
    const records = (statSync(SAMPLE).size - HEADER_SIZE) / RECORD_SIZE;
    assert.equal(c.value.records, records);
    assert.ok(c.value.bytesOut / records < 4.6, `${(c.value.bytesOut / records).toFixed(2)} bytes per record`);
    const back = join(dir, 'back.bin');
    assert.ok(convertFile(out, back).ok);
    assert.ok(readFileSync(back).equals(readFileSync(SAMPLE)));
    // forEachRecord reads both formats alike.
    const a: string[] = [],
      b: string[] = [];
    forEachRecord(SAMPLE, (buf, off) => a.push(Buffer.from(buf.subarray(off, off + RECORD_SIZE)).toString('hex')));
    forEachRecord(out, (buf, off) => b.push(Buffer.from(buf.subarray(off, off + RECORD_SIZE)).toString('hex')));
    assert.deepEqual(b, a);
    assert.ok(existsSync(out));
  }));

test('the record view of self-play chains: quiet positions new in the file, with the game result', () =>
  withDir((dir) => {
    const path = join(dir, 's.kc');
    const g = randomGame(21, 80, 1);
    writeChainFile(path, [[g, g]]);
    const seen = new Set<string>();
    const r = forEachChainRecord(path, (buf, off) => {
      const rec = decodeRecord(buf, off);
      const key = Buffer.from(buf.subarray(off, off + 46)).toString('hex');
      assert.ok(!seen.has(key), 'no position twice');
      seen.add(key);
      assert.ok((rec.side === 0 ? rec.result : -rec.result) === g.result);
    });
    assert.ok(r.ok);
    if (!r.ok) return;
    // Replayed here: the quiet positions of the game, counted once (the second copy of the game adds none).
    const pos = new Position();
    let quiet = 0;
    const keys = new Set<string>();
    for (let i = 0; i < g.scored.length; i++) {
      if (isQuiet(pos, g.score[i], g.best[i]) && !keys.has(pos.fen().split(' ').slice(0, 2).join(' '))) {
        keys.add(pos.fen().split(' ').slice(0, 2).join(' '));
        quiet++;
      }
      if (i < g.moves.length) pos.doMove(g.moves[i]);
    }
    assert.ok(quiet > 5);
    assert.equal(r.value.records, quiet);
    assert.ok(r.value.view.duplicates >= quiet, 'the second copy of the game gives no record');
  }));

test('the dedup key set: 53-bit keys, 0 among them, any number of them', () => {
  const s = new KeySet();
  const keys = [0, 1, 63, 64, 2 ** 53 - 1, 2 ** 53 - 65, 123456789012345, 65536, 2 ** 32, 2 ** 32 + 1];
  for (const k of keys) s.add(k);
  s.add(64);
  s.add(0);
  assert.equal(s.size, keys.length);
  for (const k of keys) assert.ok(s.has(k));
  assert.ok(!s.has(2) && !s.has(2 ** 53 - 2) && !s.has(128) && !s.has(2 ** 33));
  // Past the first table (65,536 slots, half full): keys that share their low 32 bits collide, and still count.
  const big = new KeySet();
  const n = 300_000;
  for (let i = 1; i <= n; i++) big.add(i * 4294967296 + (i % 7));
  for (let i = 1; i <= n; i += 997) big.add(i * 4294967296 + (i % 7));
  assert.equal(big.size, n);
  for (let i = 1; i <= n; i += 13) assert.ok(big.has(i * 4294967296 + (i % 7)));
  assert.ok(!big.has((n + 1) * 4294967296) && !big.has(5 * 4294967296 + 6));
});
