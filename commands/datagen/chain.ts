// Chain files (Kirin training-data format version 2, docs/DATAGEN.md): reading
// one block by block through a visitor, opening one for appending (an
// interrupted write's cut-off last block cut off), and appending entries as
// blocks. The bytes of the header and of each block are chain-codec.ts's.

import { closeSync, fstatSync, ftruncateSync, openSync, readSync, writeSync } from 'node:fs';
import { err, ok, Position, type Result } from '../../src/dev.js';
import {
  BLOCK_HEADER_SIZE,
  CHAIN_VERSION,
  decodeBlock,
  entryCollector,
  makeBlock,
  makeChainHeader,
  payloadIntact,
  readBlockHeader,
  type BlockInfo,
  type ChainEntry,
  type ChainVisitor,
} from './chain-codec.js';
import { HEADER_SIZE, headerVersion } from './format.js';

/** Reads `len` bytes at `at` (short at the end of the file). */
function readAt(fd: number, at: number, len: number): Uint8Array {
  const b = new Uint8Array(len);
  let got = 0;
  while (got < len) {
    const k = readSync(fd, b, got, len - got, at + got);
    if (k === 0) break;
    got += k;
  }
  return b.subarray(0, got);
}

/** A block's payload, its CRC-32 checked. */
function blockPayload(fd: number, info: BlockInfo, header: Uint8Array): Result<Uint8Array, 'chain'> {
  const at = info.offset;
  const stored = readAt(fd, at + BLOCK_HEADER_SIZE, info.stored);
  if (stored.length !== info.stored) return err('chain', `block at byte ${at}: short read`);
  if (!payloadIntact(header, stored)) return err('chain', `block at byte ${at}: damaged (CRC-32 mismatch)`);
  return ok(stored);
}

/** The blocks of an open chain file, their headers only; `partial` is the byte offset of a cut-off last block (-1: none). */
function scanBlocks(fd: number, size: number): Result<{ blocks: BlockInfo[]; partial: number }, 'chain'> {
  const blocks: BlockInfo[] = [];
  let at = HEADER_SIZE;
  while (at < size) {
    const h = readAt(fd, at, BLOCK_HEADER_SIZE);
    if (h.length < BLOCK_HEADER_SIZE) return ok({ blocks, partial: at });
    const info = readBlockHeader(h, at);
    if (!info.ok) return info;
    if (at + BLOCK_HEADER_SIZE + info.value.stored > size) return ok({ blocks, partial: at });
    blocks.push(info.value);
    at += BLOCK_HEADER_SIZE + info.value.stored;
  }
  return ok({ blocks, partial: -1 });
}

/** What readChain found. */
export interface ChainSummary {
  blocks: number;
  games: number;
  positions: number;
  /** File size in bytes. */
  bytes: number;
}

/**
 * Reads a chain file through `visit`, block by block: a damaged block, a cut-off
 * last block or a payload that does not decode is an error naming the byte
 * offset of its block (and the game in it). With `visit` null the blocks' CRCs
 * are checked and their headers counted, nothing decoded.
 */
export function readChain(path: string, visit: ChainVisitor | null): Result<ChainSummary, 'chain' | 'file'> {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (e) {
    return err('file', `cannot open (${(e as Error).message})`);
  }
  try {
    const size = fstatSync(fd).size;
    const head = readAt(fd, 0, HEADER_SIZE);
    const v = headerVersion(head);
    if (!v.ok) return err('chain', v.error.message);
    if (v.value !== CHAIN_VERSION) return err('chain', `a version-${v.value} file, not a chain file`);
    const scan = scanBlocks(fd, size);
    if (!scan.ok) return scan;
    if (scan.value.partial >= 0)
      return err(
        'chain',
        `truncated: the block at byte ${scan.value.partial} is cut off at byte ${size} (an interrupted write; \`kirin datagen\` cuts it off when it resumes)`,
      );
    const pos = new Position(null);
    const sum: ChainSummary = { blocks: 0, games: 0, positions: 0, bytes: size };
    for (const info of scan.value.blocks) {
      const header = readAt(fd, info.offset, BLOCK_HEADER_SIZE);
      const raw = blockPayload(fd, info, header);
      if (!raw.ok) return raw;
      if (visit) {
        const d = decodeBlock(info, raw.value, visit, pos);
        if (!d.ok) return err('chain', `block at byte ${info.offset}: ${d.error.message}`);
      }
      sum.blocks++;
      sum.games += info.games;
      sum.positions += info.positions;
    }
    return ok(sum);
  } finally {
    closeSync(fd);
  }
}

/** The entries of a chain file as ChainEntry values (tests, the converter). */
export function readChainEntries(path: string): Result<ChainEntry[], 'chain' | 'file'> {
  const out: ChainEntry[] = [];
  const c = entryCollector(out);
  const r = readChain(path, c);
  c.end();
  return r.ok ? ok(out) : r;
}

/** An open chain file for appending. */
export interface OpenChain {
  fd: number;
  /** Bytes of a cut-off last block removed. */
  truncated: number;
  /** True when the file was new (empty or missing). */
  created: boolean;
}

/**
 * Opens a chain file for appending (creating it with a header when missing or
 * empty); a cut-off last block (an interrupted write) is cut off. The blocks'
 * contents are not checked here: readChain does that.
 */
export function openChainForAppend(path: string): Result<OpenChain, 'chain'> {
  const fd = openSync(path, 'a+');
  const size = fstatSync(fd).size;
  if (size === 0) {
    writeSync(fd, makeChainHeader());
    return ok({ fd, truncated: 0, created: true });
  }
  const v = headerVersion(readAt(fd, 0, HEADER_SIZE));
  const fail = (message: string): Result<OpenChain, 'chain'> => {
    closeSync(fd);
    return err('chain', message);
  };
  if (!v.ok) return fail(v.error.message);
  if (v.value !== CHAIN_VERSION)
    return fail(`a version-${v.value} file: convert it first (kirin data convert IN OUT) or write a new file`);
  const scan = scanBlocks(fd, size);
  if (!scan.ok) return fail(scan.error.message);
  let truncated = 0;
  if (scan.value.partial >= 0) {
    truncated = size - scan.value.partial;
    ftruncateSync(fd, scan.value.partial);
  }
  return ok({ fd, truncated, created: false });
}

/** Collects entries and appends them to a file as blocks of about `blockPositions` scored positions. */
export class ChainWriter {
  private pending: ChainEntry[] = [];
  private pendingPositions = 0;
  constructor(
    private readonly fd: number,
    private readonly blockPositions = 1 << 16,
    private readonly quality = 11,
  ) {}
  add(e: ChainEntry): Result<null, 'chain'> {
    this.pending.push(e);
    if (e.kind === 'raw') this.pendingPositions++;
    else for (let i = 0; i < e.scored.length; i++) this.pendingPositions += e.scored[i];
    return this.pendingPositions >= this.blockPositions ? this.flush() : ok(null);
  }
  /** Games waiting for their block. */
  get waiting(): number {
    return this.pending.length;
  }
  /** Writes what is pending as one block. */
  flush(): Result<null, 'chain'> {
    if (this.pending.length === 0) return ok(null);
    const b = makeBlock(this.pending, this.quality);
    if (!b.ok) return b;
    writeSync(this.fd, b.value);
    this.pending = [];
    this.pendingPositions = 0;
    return ok(null);
  }
}
