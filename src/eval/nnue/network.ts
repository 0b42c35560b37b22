// A loaded network and the per-thread evaluators that use it.
//
// `NnueNetwork` owns the one memory: the weights (layout.ts) followed by
// SLOT_COUNT work areas. The memory is a shared NnueMemory where
// SharedArrayBuffer exists, so the search threads receive the same weights
// (postMessage of `transferable()`), never copies. Each thread evaluates in its
// own slot.
//
// `NnueEvaluator` keeps, per ply of the position's state stack (a ring of
// STACK_PLIES entries stamped with the position key), both perspectives'
// accumulators, the board and the raw threat list they were computed for.
// An evaluation finds the nearest computed ancestor (within MAX_WALK plies;
// ../accumulator-stack.ts, shared with Kirin's networks);
// one further back than the parent is first carried to the parent (the last
// move taken back on the position and made again), so the parent's other
// children start one move away. With the same feature bucket and mirror it
// updates from the ancestor by the difference: pieces that changed square,
// and threats that appeared or vanished. From the parent these come from the
// move (features.ts ThreatDelta: the parent's raw threat list with the threats
// of the pieces around the move's two squares, and on its lines, listed again);
// from further back, by diffing the two raw threat lists.
// Otherwise it refreshes from the "Finny" cache: per perspective, feature
// bucket and mirror, the piece-square part of the accumulator for the board
// last seen there, updated by the pieces that differ, plus the current threats.

import type { Position } from '../../core/position.js';
import { MOVE_NULL } from '../../core/types.js';
import { postProcess } from '../evaluate.js';
import {
  appendPsqFeatures,
  appendRawThreats,
  appendThreatRows,
  ThreatDelta,
  featureBuckets,
  initThreatTables,
  layerStackBucket,
  midEncodings,
  midEncodingsAfterMove,
  psqIndex,
} from './features.js';
import type { NnueKernels } from './kernels.js';
import { PortableKernels } from './kernels-portable.js';
import { createWasmKernels, type WasmMemory } from './kernels-wasm.js';
import { ACC_BYTES, ACC_PSQT, L1, PSQT_BUCKETS, SCRATCH_BYTES, STACKS, STACK_BYTES, WEIGHTS_END } from './layout.js';
import type { OpenedNetworkFile } from '../../platform/seam.js';
import {
  loadNetworkBytes,
  loadNetworkFile,
  loadOpenedNetworkFile,
  type NetworkData,
  type NnueLoadCode,
  type NnueMemory,
} from './loader.js';
import { ok, type Result } from '../../core/result.js';
import { AccumulatorStack, STACK_PLIES, type AccumulatorKind } from '../accumulator-stack.js';

/** How far back an evaluation looks for a computed ancestor. */
const MAX_WALK = 24;
/** Finny-cache entries per perspective: 24 feature buckets x 2 mirror states. */
const CACHE_ENTRIES = 48;
/** Capacity of the added/removed feature lists. */
const LIST_CAP = 1024;
/** Raw threats per board (at most 4 per piece in practice; 8 per knight in theory). */
const MAX_RAW = 256;

// Byte offsets inside one slot.
const SLOT_ACC = 0;
const SLOT_CACHE = SLOT_ACC + STACK_PLIES * 2 * ACC_BYTES;
const SLOT_VERIFY = SLOT_CACHE + 2 * CACHE_ENTRIES * ACC_BYTES;
const SLOT_ADDED = SLOT_VERIFY + 2 * ACC_BYTES;
const SLOT_REMOVED = SLOT_ADDED + 4 * LIST_CAP;
const SLOT_SCRATCH = SLOT_REMOVED + 4 * LIST_CAP;
const SLOT_BYTES = Math.ceil((SLOT_SCRATCH + SCRATCH_BYTES) / 65536) * 65536;
/**
 * Work slots allocated with a network: 0 for the protocol thread (`eval`), slot
 * i + 1 for search thread i. More threads grow the (shared) memory with
 * NnueNetwork.ensureSlots(); the wasm32 limit of 4 GiB bounds the total at
 * about (4 GiB - weights) / SLOT_BYTES slots (some 2,900 with the official
 * network), above the `Threads` maximum of 1024.
 */
export const SLOT_COUNT = 4;

/**
 * Chooses the kernels for a memory: the WebAssembly SIMD kernels where the
 * runtime has WebAssembly SIMD and the compiled module is present, else the
 * portable TypeScript kernels (identical numbers, slower).
 */
export function createKernels(memory: NnueMemory): NnueKernels {
  const wasm = createWasmKernels(memory as unknown as WasmMemory);
  return wasm.ok ? wasm.value : new PortableKernels(memory.buffer);
}

/** What a search thread needs to use a network loaded elsewhere (postMessage-able; the memory is shared). */
export interface NetworkHandle {
  memory: NnueMemory;
  data: NetworkData;
}

export class NnueNetwork {
  private constructor(
    readonly memory: NnueMemory,
    readonly data: NetworkData,
  ) {
    initThreatTables();
  }

  static load(path: string, programDirs?: readonly string[]): Result<NnueNetwork, NnueLoadCode> {
    const r = loadNetworkFile(path, SLOT_COUNT * SLOT_BYTES, programDirs);
    if (!r.ok) return r;
    return ok(new NnueNetwork(r.value.memory, r.value.data));
  }

  /** A network file found by openNetworkFile (read in pieces where it can be). */
  static fromFile(file: OpenedNetworkFile): Result<NnueNetwork, NnueLoadCode> {
    const r = loadOpenedNetworkFile(file, SLOT_COUNT * SLOT_BYTES);
    if (!r.ok) return r;
    return ok(new NnueNetwork(r.value.memory, r.value.data));
  }

  static fromBytes(bytes: Uint8Array, name: string): Result<NnueNetwork, NnueLoadCode> {
    const r = loadNetworkBytes(bytes, name, SLOT_COUNT * SLOT_BYTES);
    if (!r.ok) return r;
    return ok(new NnueNetwork(r.value.memory, r.value.data));
  }

  static fromHandle(h: NetworkHandle): NnueNetwork {
    return new NnueNetwork(h.memory, h.data);
  }

  /** Work slots the memory holds now. */
  slotCount(): number {
    return Math.floor((this.memory.buffer.byteLength - WEIGHTS_END) / SLOT_BYTES);
  }

  /**
   * Makes room for `count` work slots (slot 0 .. count - 1), growing the shared
   * memory when needed. Threads that already use the memory keep working (a
   * shared memory grows in place). False when it cannot grow that far.
   */
  ensureSlots(count: number): boolean {
    const have = this.memory.buffer.byteLength;
    const need = WEIGHTS_END + count * SLOT_BYTES;
    if (have >= need) return true;
    if (!this.memory.grow) return false;
    try {
      this.memory.grow(Math.ceil((need - have) / 65536));
      return true;
    } catch {
      return false;
    }
  }

  handle(): NetworkHandle {
    return { memory: this.memory, data: this.data };
  }

  /** A short name for messages: the file name and the description. */
  label(): string {
    const name = this.data.path.split(/[\\/]/).pop() ?? this.data.path;
    return this.data.description ? `${name} (${this.data.description})` : name;
  }
}

export class NnueEvaluator implements AccumulatorKind {
  readonly kernels: NnueKernels;
  /** Output of the last compute(): side-to-move PSQT and positional terms, internal units. */
  psqt = 0;
  positional = 0;
  /** Layer stack used by the last compute(). */
  bucket = 0;
  /** Counters (diagnostics): incremental updates, cache refreshes, reuses, parents computed first. */
  readonly stats = { incremental: 0, refresh: 0, reused: 0, parents: 0 };

  private readonly base: number;
  private readonly i32: Int32Array;
  private readonly added: Int32Array;
  private readonly removed: Int32Array;
  private readonly stack = new AccumulatorStack(this, MAX_WALK, this.stats);
  private readonly bucketOf = new Int32Array(STACK_PLIES * 2);
  /** Both colours' mid-mirror encodings per ply (features.ts, midEncodings). */
  private readonly mids = new Float64Array(STACK_PLIES * 4);
  private readonly boards = new Uint8Array(STACK_PLIES * 90);
  private readonly threats = new Int32Array(STACK_PLIES * MAX_RAW);
  private readonly threatCount = new Int32Array(STACK_PLIES);
  private readonly cacheBoards = new Uint8Array(2 * CACHE_ENTRIES * 90);
  private readonly fb = new Int32Array(4);
  /** The raw threats a move changes, or that differ from an ancestor several moves back. */
  private readonly delta = new ThreatDelta();
  private readonly rawScratch = new Int32Array(MAX_RAW);
  private readonly changed = new Int32Array(90);

  constructor(
    readonly net: NnueNetwork,
    readonly slot: number,
    kernels?: NnueKernels,
  ) {
    const buf = net.memory.buffer;
    if (slot < 0 || WEIGHTS_END + (slot + 1) * SLOT_BYTES > buf.byteLength)
      throw new Error(`NNUE work slot ${slot} out of range (the memory holds ${net.slotCount()})`);
    this.kernels = kernels ?? createKernels(net.memory);
    this.base = WEIGHTS_END + slot * SLOT_BYTES;
    this.i32 = new Int32Array(buf);
    this.added = new Int32Array(buf, this.base + SLOT_ADDED, LIST_CAP);
    this.removed = new Int32Array(buf, this.base + SLOT_REMOVED, LIST_CAP);
    for (let e = 0; e < 2 * CACHE_ENTRIES; e++) this.kernels.refresh(this.cacheAcc(e), this.base + SLOT_ADDED, 0);
  }

  /** Byte offset of the accumulator of perspective p at ring index i. */
  accOffset(i: number, p: number): number {
    return this.base + SLOT_ACC + (i * 2 + p) * ACC_BYTES;
  }
  private cacheAcc(e: number): number {
    return this.base + SLOT_CACHE + e * ACC_BYTES;
  }
  /** Byte offset of the scratch accumulator of perspective p used by full refreshes. */
  verifyOffset(p: number): number {
    return this.base + SLOT_VERIFY + p * ACC_BYTES;
  }

  /** Byte offset of this slot's SCRATCH_BYTES of propagate work space. */
  scratchOffset(): number {
    return this.base + SLOT_SCRATCH;
  }

  /** Forgets every computed accumulator (the Finny cache stays valid). */
  reset(): void {
    this.stack.reset();
  }

  /** Static evaluation with Pikafish's blend (evaluate.cpp), side to move, internal units. */
  evaluate(pos: Position, optimism: number): number {
    this.compute(pos);
    const psqt = this.psqt,
      positional = this.positional;
    let nnue = psqt + positional;
    const complexity = Math.abs(psqt - positional);
    optimism += ((optimism * complexity) / 465) | 0;
    nnue -= ((nnue * complexity) / 11743) | 0;
    return postProcess(pos, nnue, optimism);
  }

  /** Network output of `pos` (into psqt/positional), with incrementally updated accumulators. */
  compute(pos: Position): void {
    const i = this.stack.current(pos);
    this.finish(pos, this.accOffset(i, pos.side), this.accOffset(i, pos.side ^ 1));
  }

  /** Network output of `pos` from a full refresh of both accumulators (no incremental state used or changed). */
  computeFull(pos: Position): void {
    this.refreshFull(pos, 0, this.verifyOffset(0));
    this.refreshFull(pos, 1, this.verifyOffset(1));
    this.finish(pos, this.verifyOffset(pos.side), this.verifyOffset(pos.side ^ 1));
  }

  /** Full refresh of perspective p's accumulator into `dst`: bias + every active feature. */
  refreshFull(pos: Position, p: number, dst: number): void {
    featureBuckets(pos, this.fb);
    const bucket = this.fb[p * 2],
      mirror = this.fb[p * 2 + 1];
    let n = appendPsqFeatures(pos, p, bucket, mirror, this.added, 0);
    const t = appendRawThreats(pos, this.rawScratch, 0);
    n = appendThreatRows(p, mirror, this.rawScratch, 0, t, this.added, n);
    this.kernels.refresh(dst, this.base + SLOT_ADDED, n);
  }

  /** True when the accumulators compute() used for `pos` equal a full refresh (tests). */
  matchesRefresh(pos: Position): boolean {
    const i = AccumulatorStack.entryOf(pos);
    const i16 = new Int16Array(this.net.memory.buffer);
    for (let p = 0; p < 2; p++) {
      this.refreshFull(pos, p, this.verifyOffset(p));
      const a = this.accOffset(i, p),
        b = this.verifyOffset(p);
      for (let j = 0; j < L1; j++) if (i16[(a >> 1) + j] !== i16[(b >> 1) + j]) return false;
      for (let k = 0; k < PSQT_BUCKETS; k++)
        if (this.i32[((a + ACC_PSQT) >> 2) + k] !== this.i32[((b + ACC_PSQT) >> 2) + k]) return false;
    }
    return true;
  }

  private finish(pos: Position, accUs: number, accThem: number): void {
    const b = layerStackBucket(pos);
    this.bucket = b;
    const i32 = this.i32;
    const d = i32[((accUs + ACC_PSQT) >> 2) + b] - i32[((accThem + ACC_PSQT) >> 2) + b];
    this.psqt = (((d / 2) | 0) / 16) | 0;
    this.positional = this.kernels.propagate(accUs, accThem, STACKS + b * STACK_BYTES, this.base + SLOT_SCRATCH);
  }

  /** Output of every layer stack for `pos` (for `eval`): psqt[b], positional[b]. */
  traceBuckets(pos: Position): { psqt: number[]; positional: number[]; used: number } {
    this.computeFull(pos);
    const used = this.bucket;
    const accUs = this.verifyOffset(pos.side),
      accThem = this.verifyOffset(pos.side ^ 1);
    const psqt: number[] = [],
      positional: number[] = [];
    for (let b = 0; b < PSQT_BUCKETS; b++) {
      const d = this.i32[((accUs + ACC_PSQT) >> 2) + b] - this.i32[((accThem + ACC_PSQT) >> 2) + b];
      psqt.push((((d / 2) | 0) / 16) | 0);
      positional.push(this.kernels.propagate(accUs, accThem, STACKS + b * STACK_BYTES, this.base + SLOT_SCRATCH));
    }
    return { psqt, positional, used };
  }

  /**
   * Computes the accumulators of ply n (ring entry i) from entry j of the
   * ancestor `dist` plies back (j -1: from the cache). AccumulatorStack calls it.
   */
  updateFrom(pos: Position, n: number, i: number, j: number, dist: number): void {
    const threats = this.threats,
      base = i * MAX_RAW;
    const last = pos.moveAt[n],
      mids = this.mids;
    // The raw threats of this board and their difference from the ancestor's.
    let tc: number,
      nAdd = 0,
      nRem = 0;
    if (dist === 1 && last !== MOVE_NULL) {
      // One move: from the parent's list and the squares the move touched.
      const jb = j * MAX_RAW,
        delta = this.delta;
      tc = delta.update(pos, last >> 7, last & 127, threats, jb, jb + this.threatCount[j], threats, base) - base;
      nAdd = delta.nAdded;
      nRem = delta.nRemoved;
    } else if (dist === 1) {
      // A null move changes no threat.
      tc = this.threatCount[j];
      threats.copyWithin(base, j * MAX_RAW, j * MAX_RAW + tc);
    } else tc = appendRawThreats(pos, threats, base) - base;
    this.threatCount[i] = tc;
    this.boards.set(pos.board, i * 90);
    // The mid-mirror encodings of every computed ply are kept, so a child's come
    // from its parent's and the move.
    if (dist !== 1) midEncodings(pos, mids, i * 4);
    else if (last === MOVE_NULL) mids.copyWithin(i * 4, j * 4, j * 4 + 4);
    else {
      const to = last & 127;
      midEncodingsAfterMove(mids, j * 4, mids, i * 4, pos.board[to], last >> 7, to, pos.captured[n]);
    }
    featureBuckets(pos, this.fb, mids, i * 4);
    const code0 = this.fb[0] * 2 + this.fb[1],
      code1 = this.fb[2] * 2 + this.fb[3];
    if (dist > 1 && j >= 0 && (this.bucketOf[j * 2] === code0 || this.bucketOf[j * 2 + 1] === code1)) {
      // Several moves back: the difference of the two raw threat lists.
      const delta = this.delta,
        jb = j * MAX_RAW;
      delta.diff(threats, jb, jb + this.threatCount[j], threats, base, base + tc);
      nAdd = delta.nAdded;
      nRem = delta.nRemoved;
    }
    // Squares whose piece changed since the ancestor.
    let nChanged = 0;
    if (dist === 1 && last !== MOVE_NULL) {
      // The parent: only the move's two squares changed.
      const from = last >> 7,
        to = last & 127;
      this.changed[nChanged++] = (from << 8) | (pos.board[to] << 4);
      this.changed[nChanged++] = (to << 8) | (pos.captured[n] << 4) | pos.board[to];
    } else if (dist === 1) {
      // A null move changes nothing on the board.
    } else if (j >= 0) {
      const boards = this.boards,
        changed = this.changed;
      const jo = j * 90,
        io = i * 90;
      for (let s = 0; s < 90; s++) {
        const a = boards[jo + s],
          b = boards[io + s];
        if (a !== b) changed[nChanged++] = (s << 8) | (a << 4) | b;
      }
    }
    for (let p = 0; p < 2; p++) {
      const bucket = this.fb[p * 2],
        mirror = this.fb[p * 2 + 1];
      const code = bucket * 2 + mirror;
      if (j >= 0 && this.bucketOf[j * 2 + p] === code) {
        this.stats.incremental++;
        let na = 0,
          nr = 0;
        const added = this.added,
          removed = this.removed,
          changed = this.changed;
        for (let c = 0; c < nChanged; c++) {
          const x = changed[c],
            s = x >> 8,
            a = (x >> 4) & 15,
            b = x & 15;
          if (a) removed[nr++] = psqIndex(p, a, s, bucket, mirror);
          if (b) added[na++] = psqIndex(p, b, s, bucket, mirror);
        }
        na = appendThreatRows(p, mirror, this.delta.added, 0, nAdd, added, na);
        nr = appendThreatRows(p, mirror, this.delta.removed, 0, nRem, removed, nr);
        this.kernels.update(
          this.accOffset(i, p),
          this.accOffset(j, p),
          this.base + SLOT_ADDED,
          na,
          this.base + SLOT_REMOVED,
          nr,
        );
      } else {
        this.stats.refresh++;
        this.refreshFromCache(pos, p, bucket, mirror, i, tc);
      }
      this.bucketOf[i * 2 + p] = code;
    }
  }

  private refreshFromCache(pos: Position, p: number, bucket: number, mirror: number, i: number, tc: number): void {
    const e = p * CACHE_ENTRIES + bucket * 2 + mirror;
    const cacc = this.cacheAcc(e);
    const cb = this.cacheBoards,
      co = e * 90,
      board = pos.board;
    const added = this.added,
      removed = this.removed;
    let na = 0,
      nr = 0;
    for (let s = 0; s < 90; s++) {
      const a = cb[co + s],
        b = board[s];
      if (a !== b) {
        if (a) removed[nr++] = psqIndex(p, a, s, bucket, mirror);
        if (b) added[na++] = psqIndex(p, b, s, bucket, mirror);
        cb[co + s] = b;
      }
    }
    if (na + nr) this.kernels.update(cacc, cacc, this.base + SLOT_ADDED, na, this.base + SLOT_REMOVED, nr);
    const t0 = i * MAX_RAW;
    na = appendThreatRows(p, mirror, this.threats, t0, t0 + tc, added, 0);
    this.kernels.update(this.accOffset(i, p), cacc, this.base + SLOT_ADDED, na, this.base + SLOT_REMOVED, 0);
  }
}
