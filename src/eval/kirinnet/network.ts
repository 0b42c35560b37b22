// A loaded Kirin network and the per-thread evaluators that use it.
//
// `KirinNetwork` owns one memory: the weights (kernels.ts kirinLayout) followed
// by work slots, one per thread. Where SharedArrayBuffer exists the memory is a
// shared WebAssembly.Memory, so search threads receive the same weights
// (postMessage of `handle()`), never copies.
//
// `KirinEvaluator` keeps, per ply of the position's state stack (a ring of
// STACK_PLIES entries stamped with the position key), both perspectives'
// accumulators (../accumulator-stack.ts, shared with Pikafish's networks).
// An evaluation starts from the nearest computed ancestor
// (within MAX_WALK plies) whose perspective has the same mirror flag and
// adds/removes the rows of the pieces that changed: the move's two squares for
// the parent (nothing for a null move); further back, the squares the moves in
// between touched, with the ancestor's pieces found by taking those moves back
// (the state stack's moves and captured pieces). An ancestor further back than
// the parent is first carried to the parent (the last move taken back on the
// position and made again), so the parent's other children start one move
// away. Otherwise (the king crossed to the other half of the palace, or nothing
// computed nearby) it refreshes from the piece list.

import type { Position } from '../../core/position.js';
import { FILE_OF, MOVE_NULL, SQUARE_NB } from '../../core/types.js';
import { err, ok, type Result } from '../../core/result.js';
import { postProcess } from '../evaluate.js';
import { featureIndex, mirrorFor, outputBucket, type KirinNetShape } from './arch.js';
import { decodeKirinNet, type KirinNetWeights, type KnetLoadCode } from './format.js';
import {
  createWasmKirinKernels,
  kirinLayout,
  PortableKirinKernels,
  type KirinKernels,
  type KirinLayout,
} from './kernels.js';
import { scaleOutput } from './reference.js';
import { AccumulatorStack, STACK_PLIES, type AccumulatorKind } from '../accumulator-stack.js';

/** How far back an evaluation looks for a computed ancestor. */
const MAX_WALK = 16;
/** Capacity of the added/removed lists (a refresh lists every piece: at most 32). */
const LIST_CAP = 64;
/** Work slots allocated with a network: 0 for the protocol thread, i + 1 for search thread i. */
const SLOT_COUNT = 4;
/** The most pages a shared network memory may grow to (4 GiB). */
const MAX_SHARED_PAGES = 65536;

/** A network memory: a WebAssembly.Memory, or a plain buffer where WebAssembly is missing. */
export interface KirinMemory {
  readonly buffer: ArrayBuffer | SharedArrayBuffer;
  grow?(pages: number): number;
}

/** What a search thread needs to use a network loaded elsewhere (postMessage-able; the memory is shared). */
export interface KirinNetHandle {
  readonly kind: 'kirin';
  readonly memory: KirinMemory;
  readonly shape: KirinNetShape;
  readonly outBias: readonly number[];
  readonly name: string;
  readonly description: string;
}

function slotBytes(hidden: number): number {
  const bytes = STACK_PLIES * 2 * hidden * 2 + 2 * hidden * 2 + 2 * LIST_CAP * 4;
  return Math.ceil(bytes / 65536) * 65536;
}

type MemoryConstructor = new (d: { initial: number; maximum?: number; shared?: boolean }) => KirinMemory;

function allocate(bytes: number): KirinMemory {
  const pages = Math.ceil(bytes / 65536);
  const Memory = (globalThis as { WebAssembly?: { Memory: MemoryConstructor } }).WebAssembly?.Memory;
  if (!Memory) return { buffer: new ArrayBuffer(pages * 65536) };
  return typeof SharedArrayBuffer === 'function'
    ? new Memory({ initial: pages, maximum: Math.max(pages, MAX_SHARED_PAGES), shared: true })
    : new Memory({ initial: pages, maximum: pages });
}

export class KirinNetwork {
  readonly layout: KirinLayout;
  readonly slotBytes: number;

  private constructor(
    readonly memory: KirinMemory,
    readonly shape: KirinNetShape,
    readonly outBias: Int32Array,
    readonly name: string,
    readonly description: string,
  ) {
    this.layout = kirinLayout(shape.inputs, shape.hidden, shape.outputBuckets);
    this.slotBytes = slotBytes(shape.hidden);
  }

  /** A network from the bytes of a .knet file (`name` for messages); a damaged file is refused. */
  static fromBytes(bytes: Uint8Array, name: string): Result<KirinNetwork, KnetLoadCode> {
    const r = decodeKirinNet(bytes, name);
    if (!r.ok) return r;
    return ok(KirinNetwork.fromWeights(r.value, name));
  }

  /** A network from decoded weights. */
  static fromWeights(w: KirinNetWeights, name: string): KirinNetwork {
    const layout = kirinLayout(w.shape.inputs, w.shape.hidden, w.shape.outputBuckets);
    const memory = allocate(layout.end + SLOT_COUNT * slotBytes(w.shape.hidden));
    const i16 = new Int16Array(memory.buffer);
    i16.set(w.ftWeights, layout.ftWeights >> 1);
    i16.set(w.ftBias, layout.ftBias >> 1);
    i16.set(w.outWeights, layout.outWeights >> 1);
    return new KirinNetwork(memory, w.shape, Int32Array.from(w.outBias), name, w.description);
  }

  static fromHandle(h: KirinNetHandle): KirinNetwork {
    return new KirinNetwork(h.memory, h.shape, Int32Array.from(h.outBias), h.name, h.description);
  }

  handle(): KirinNetHandle {
    return {
      kind: 'kirin',
      memory: this.memory,
      shape: this.shape,
      outBias: Array.from(this.outBias),
      name: this.name,
      description: this.description,
    };
  }

  /** Work slots the memory holds now. */
  slotCount(): number {
    return Math.floor((this.memory.buffer.byteLength - this.layout.end) / this.slotBytes);
  }

  /** Makes room for `count` work slots, growing the (shared) memory when needed; false when it cannot. */
  ensureSlots(count: number): boolean {
    const have = this.memory.buffer.byteLength,
      need = this.layout.end + count * this.slotBytes;
    if (have >= need) return true;
    if (!this.memory.grow) return false;
    try {
      this.memory.grow(Math.ceil((need - have) / 65536));
      return true;
    } catch {
      return false;
    }
  }

  /** A short name for messages: the file name and the architecture. */
  label(): string {
    const file = this.name.split(/[\\/]/).pop() ?? this.name;
    const { hidden, outputBuckets } = this.shape;
    return `${file} (Kirin network ${this.shape.inputs}x2-${hidden}-${outputBuckets} buckets)`;
  }

  /** The kernels for this network's memory: WebAssembly SIMD where possible, else portable. */
  createKernels(): KirinKernels {
    const r = createWasmKirinKernels(this.memory, this.layout);
    return r.ok ? r.value : new PortableKirinKernels(this.memory.buffer, this.layout);
  }
}

export class KirinEvaluator implements AccumulatorKind {
  readonly kernels: KirinKernels;
  /** Network output of the last compute(), internal units, side to move. */
  raw = 0;
  /** Output bucket of the last compute(). */
  bucket = 0;
  /** Counters (diagnostics and tests): incremental updates, refreshes, reuses, updates from an ancestor two or more plies back, parents computed first. */
  readonly stats = { incremental: 0, refresh: 0, reused: 0, walked: 0, parents: 0 };

  private readonly base: number;
  private readonly hidden: number;
  private readonly i32: Int32Array;
  private readonly stack = new AccumulatorStack(this, MAX_WALK, this.stats);
  private readonly mirrorOf = new Uint8Array(STACK_PLIES * 2);
  private readonly changed = new Int32Array(SQUARE_NB);
  /** Squares already listed in this update (stamped with `epoch`), their list, and their pieces at the ancestor. */
  private readonly seen = new Int32Array(SQUARE_NB);
  private readonly touched = new Int32Array(SQUARE_NB);
  private readonly old = new Uint8Array(SQUARE_NB);
  private epoch = 0;
  private readonly slotAdded: number;
  private readonly slotRemoved: number;
  private readonly slotVerify: number;
  private readonly addedAt: number;
  private readonly removedAt: number;

  constructor(
    readonly net: KirinNetwork,
    readonly slot: number,
    kernels?: KirinKernels,
  ) {
    if (slot < 0 || slot >= net.slotCount())
      throw new RangeError(`Kirin network work slot ${slot} out of range (the memory holds ${net.slotCount()})`);
    this.kernels = kernels ?? net.createKernels();
    this.hidden = net.shape.hidden;
    this.base = net.layout.end + slot * net.slotBytes;
    const accBytes = STACK_PLIES * 2 * this.hidden * 2;
    this.slotVerify = this.base + accBytes;
    this.slotAdded = this.slotVerify + 2 * this.hidden * 2;
    this.slotRemoved = this.slotAdded + LIST_CAP * 4;
    this.i32 = new Int32Array(net.memory.buffer);
    this.addedAt = this.slotAdded >> 2;
    this.removedAt = this.slotRemoved >> 2;
  }

  /** Byte offset of perspective p's accumulator at ring index i. */
  private acc(i: number, p: number): number {
    return this.base + (i * 2 + p) * this.hidden * 2;
  }

  /** Forgets every computed accumulator. */
  reset(): void {
    this.stack.reset();
  }

  /** Static evaluation with evaluate()'s post-processing (material blend, rule-60 damping, clamp). */
  evaluate(pos: Position, optimism: number): number {
    this.compute(pos);
    return postProcess(pos, this.raw, optimism);
  }

  /** Network output of `pos` (into `raw`), with incrementally updated accumulators. */
  compute(pos: Position): void {
    const i = this.stack.current(pos);
    this.finish(pos, this.acc(i, pos.side), this.acc(i, pos.side ^ 1));
  }

  /** Network output of `pos` from a full refresh of both perspectives (no incremental state used or changed). */
  computeFull(pos: Position): void {
    const a = this.slotVerify,
      b = a + this.hidden * 2;
    this.refresh(pos, 0, a);
    this.refresh(pos, 1, b);
    this.finish(pos, pos.side === 0 ? a : b, pos.side === 0 ? b : a);
  }

  /** True when the accumulators compute() used for `pos` equal a full refresh (tests). */
  matchesRefresh(pos: Position): boolean {
    const i = AccumulatorStack.entryOf(pos);
    const i16 = new Int16Array(this.net.memory.buffer);
    for (let p = 0; p < 2; p++) {
      this.refresh(pos, p, this.slotVerify);
      const a = this.acc(i, p) >> 1,
        b = this.slotVerify >> 1;
      for (let j = 0; j < this.hidden; j++) if (i16[a + j] !== i16[b + j]) return false;
    }
    return true;
  }

  /**
   * The output of bucket `bucket` for `pos` from a full refresh, with the board
   * changed at `without` (a square emptied; -1: none). For `eval`.
   */
  outputOf(pos: Position, bucket: number, without = -1): number {
    const a = this.slotVerify,
      b = a + this.hidden * 2;
    const saved = without >= 0 ? pos.board[without] : 0;
    if (without >= 0) pos.board[without] = 0;
    try {
      this.refreshFromBoard(pos.board, 0, a);
      this.refreshFromBoard(pos.board, 1, b);
    } finally {
      if (without >= 0) pos.board[without] = saved;
    }
    const sum = pos.side === 0 ? this.kernels.output(a, b, bucket) : this.kernels.output(b, a, bucket);
    return scaleOutput(sum, this.net.outBias[bucket]);
  }

  private finish(pos: Position, accUs: number, accThem: number): void {
    const bucket = outputBucket(pos.listCount[0] + pos.listCount[1], this.net.shape.outputBuckets);
    this.bucket = bucket;
    this.raw = scaleOutput(this.kernels.output(accUs, accThem, bucket), this.net.outBias[bucket]);
  }

  /** Perspective p's accumulator for `pos` into `dst` from its piece lists. */
  private refresh(pos: Position, p: number, dst: number): void {
    const mirror = mirrorFor(FILE_OF[pos.kingSq[p]]);
    const list = this.i32,
      at = this.addedAt;
    let n = 0;
    for (let c = 0; c < 2; c++)
      for (let k = 0; k < pos.listCount[c]; k++) {
        const s = pos.listSq[c * 16 + k];
        list[at + n++] = featureIndex(p, pos.board[s], s, mirror);
      }
    this.kernels.refresh(dst, this.slotAdded, n);
  }

  /** Perspective p's accumulator for any board (for `eval`'s piece values). */
  private refreshFromBoard(board: Uint8Array, p: number, dst: number): void {
    const king = (p << 3) | 7;
    let mirror = 0;
    for (let s = 0; s < SQUARE_NB; s++) if (board[s] === king) mirror = mirrorFor(FILE_OF[s]);
    const list = this.i32,
      at = this.addedAt;
    let n = 0;
    for (let s = 0; s < SQUARE_NB; s++) if (board[s] !== 0) list[at + n++] = featureIndex(p, board[s], s, mirror);
    this.kernels.refresh(dst, this.slotAdded, n);
  }

  private nextEpoch(): number {
    if (this.epoch === 0x3fffffff) {
      this.seen.fill(0);
      this.epoch = 0;
    }
    return ++this.epoch;
  }

  /**
   * Computes the accumulators of ply n (ring entry i) from entry j of the
   * ancestor `dist` plies back (j -1: from the pieces). AccumulatorStack calls it.
   */
  updateFrom(pos: Position, n: number, i: number, j: number, dist: number): void {
    // Squares whose piece changed since the ancestor: (square << 8) | (old << 4) | new.
    let nChanged = 0;
    const changed = this.changed;
    if (j >= 0) {
      const last = pos.moveAt[n];
      if (dist === 1 && last !== MOVE_NULL) {
        const from = last >> 7,
          to = last & 127;
        changed[nChanged++] = (from << 8) | (pos.board[to] << 4);
        changed[nChanged++] = (to << 8) | (pos.captured[n] << 4) | pos.board[to];
      } else if (dist > 1) {
        // Only the squares the moves in between touched can differ; their pieces
        // at the ancestor come from taking those moves back on a copy of them.
        const board = pos.board,
          seen = this.seen,
          touched = this.touched,
          old = this.old,
          epoch = this.nextEpoch();
        this.stats.walked++;
        let nt = 0;
        for (let k = n - dist + 1; k <= n; k++) {
          const m = pos.moveAt[k];
          if (m === MOVE_NULL) continue;
          const from = m >> 7,
            to = m & 127;
          if (seen[from] !== epoch) {
            seen[from] = epoch;
            touched[nt++] = from;
            old[from] = board[from];
          }
          if (seen[to] !== epoch) {
            seen[to] = epoch;
            touched[nt++] = to;
            old[to] = board[to];
          }
        }
        for (let k = n; k > n - dist; k--) {
          const m = pos.moveAt[k];
          if (m === MOVE_NULL) continue;
          const from = m >> 7,
            to = m & 127;
          old[from] = old[to];
          old[to] = pos.captured[k];
        }
        for (let t = 0; t < nt; t++) {
          const s = touched[t],
            a = old[s],
            b = board[s];
          if (a !== b) changed[nChanged++] = (s << 8) | (a << 4) | b;
        }
      }
    }
    const list = this.i32;
    for (let p = 0; p < 2; p++) {
      const mirror = mirrorFor(FILE_OF[pos.kingSq[p]]);
      if (j >= 0 && this.mirrorOf[j * 2 + p] === mirror && nChanged <= LIST_CAP) {
        this.stats.incremental++;
        let na = 0,
          nr = 0;
        for (let c = 0; c < nChanged; c++) {
          const x = changed[c],
            s = x >> 8,
            a = (x >> 4) & 15,
            b = x & 15;
          if (a) list[this.removedAt + nr++] = featureIndex(p, a, s, mirror);
          if (b) list[this.addedAt + na++] = featureIndex(p, b, s, mirror);
        }
        this.kernels.update(this.acc(i, p), this.acc(j, p), this.slotAdded, na, this.slotRemoved, nr);
      } else {
        this.stats.refresh++;
        this.refresh(pos, p, this.acc(i, p));
      }
      this.mirrorOf[i * 2 + p] = mirror;
    }
  }
}

/** A network file's bytes as a Kirin network, or why not (also used by the loader that tells formats apart). */
export function kirinNetworkFromBytes(bytes: Uint8Array, name: string): Result<KirinNetwork, KnetLoadCode> {
  if (bytes.length === 0) return err('truncated', `${name}: the file is empty`);
  return KirinNetwork.fromBytes(bytes, name);
}
