// Kirin training-data format version 2, the codec: self-play kept as game
// chains (docs/DATAGEN.md, "File format (version 2)"), as bytes in memory. A
// file (commands/datagen/chain.ts reads and writes them) is a 16-byte header,
// then blocks: each block a 28-byte header (magic, lengths, counts, the CRC-32s
// of its payload and of itself) and its payload, the games of the block in six
// sections, each compressed with Brotli. A game is its start (the standard start
// position, or a position as its differences from that or from the last
// position of the game before), the moves played (each its index in the
// position's legal moves sorted by move code), per position whether the search
// scored it and then the search score, the static evaluation and the best move
// when it is not the move played, and the result. A version-1 record that no
// game can hold is kept as it is.
//
// Everything here is over Uint8Array: makeBlock encodes entries as one block,
// readBlockHeader and decodeBlock read one back. Decoding replays the games: a
// visitor is called at every position with the position set up, so that a
// reader sees the boards without decoding them from bytes.
// commands/datagen/records.ts turns the games into version-1 records (what
// `kirin train`, `kirin tune` and the converter read).

import { brotliCompressSync, brotliDecompressSync, constants as zlibConstants } from 'node:zlib';
import { err, MOVE_NONE, ok, Position, type Move, type Result } from '../../src/dev.js';
import { crc32 } from '../../src/core/crc32.js';
import { generate } from '../../src/core/movegen.js';
import { GEN_LEGAL, MAX_MOVES } from '../../src/core/types.js';
import { RECORD_SIZE, makeHeader, recordFen, type DataRecord } from './format.js';

/** The version a chain file's header gives. */
export const CHAIN_VERSION = 2;
export const BLOCK_HEADER_SIZE = 28;
/** "KBLK" */
const BLOCK_MAGIC = [0x4b, 0x42, 0x4c, 0x4b];
const METHOD_STORED = 0;
const METHOD_BROTLI = 1;
/** A block's sections are at most this long uncompressed, in all (the reader refuses longer ones before allocating). */
const MAX_RAW = 1 << 28;

// Start kinds (bits 0-1 of a game's head).
const START_STANDARD = 0;
const START_DIFF_STANDARD = 1;
const START_RAW = 2;
const START_DIFF_LAST = 3;
// Tag bits (one byte per position).
const TAG_SCORED = 1;
const TAG_BEST = 2;
/** A scored position whose static evaluation is 0 (none: the side to move is in check); nothing stored. */
const TAG_EVAL_ZERO = 4;

/** A game's start when it is not the standard start position. */
export interface ChainStart {
  /** Piece codes per square (90). */
  board: Uint8Array;
  side: number;
  /** The 60-move rule counter. */
  rule60: number;
  /** The game ply (0 = Red's first move of the game). */
  ply: number;
}

/**
 * A game: `moves.length` moves played from its start, so positions 0 .. n
 * (n = moves.length); per position whether it was scored and then its search
 * score and static evaluation (side to move, internal units) and the search's
 * best move (MOVE_NONE for none). The last position has no move played.
 */
export interface ChainGame {
  kind: 'game';
  /** null: the standard start position. */
  start: ChainStart | null;
  /**
   * The scored positions are the records of a version-1 file, taken as they are
   * (no filter, no deduplication); false: self-play, every searched position.
   */
  records: boolean;
  /** The game's result from Red's view: 1, 0, -1. */
  result: number;
  moves: Int32Array;
  scored: Uint8Array;
  score: Int32Array;
  eval: Int32Array;
  best: Int32Array;
}

/** A version-1 record kept as it is (one that no game can hold). */
interface ChainRaw {
  kind: 'raw';
  record: Uint8Array;
}

export type ChainEntry = ChainGame | ChainRaw;

/** Builds a ChainGame position by position. */
export class GameBuilder {
  private readonly moves: number[] = [];
  private readonly scored: number[] = [0];
  private readonly score: number[] = [0];
  private readonly evals: number[] = [0];
  private readonly best: number[] = [MOVE_NONE];
  constructor(
    readonly start: ChainStart | null,
    readonly records = false,
  ) {}
  /** Positions so far (the moves played plus one). */
  get positions(): number {
    return this.scored.length;
  }
  /** Scores the current (last) position. */
  setScore(score: number, evalv: number, best: Move): void {
    const i = this.scored.length - 1;
    this.scored[i] = 1;
    this.score[i] = score;
    this.evals[i] = evalv;
    this.best[i] = best;
  }
  /** Plays a move from the current position. */
  play(move: Move): void {
    this.moves.push(move);
    this.scored.push(0);
    this.score.push(0);
    this.evals.push(0);
    this.best.push(MOVE_NONE);
  }
  /** The game with its result (Red's view). */
  finish(result: number): ChainGame {
    return {
      kind: 'game',
      start: this.start,
      records: this.records,
      result,
      moves: Int32Array.from(this.moves),
      scored: Uint8Array.from(this.scored),
      score: Int32Array.from(this.score),
      eval: Int32Array.from(this.evals),
      best: Int32Array.from(this.best),
    };
  }
}

/** The game with the positions after its first `positions` (at least 1) cut off; the result stays. */
export function cutGame(g: ChainGame, positions: number): ChainGame {
  const n = Math.max(1, Math.min(positions, g.scored.length));
  if (n === g.scored.length) return g;
  return {
    ...g,
    moves: g.moves.slice(0, n - 1),
    scored: g.scored.slice(0, n),
    score: g.score.slice(0, n),
    eval: g.eval.slice(0, n),
    best: g.best.slice(0, n),
  };
}

// ---- bytes ----------------------------------------------------------------------------------

/** A growable byte buffer with varint writers. */
class ByteWriter {
  buf = new Uint8Array(1024);
  n = 0;
  private room(k: number): void {
    if (this.n + k <= this.buf.length) return;
    const b = new Uint8Array(Math.max(this.buf.length * 2, this.n + k));
    b.set(this.buf.subarray(0, this.n));
    this.buf = b;
  }
  byte(v: number): void {
    this.room(1);
    this.buf[this.n++] = v;
  }
  bytes(b: Uint8Array): void {
    this.room(b.length);
    this.buf.set(b, this.n);
    this.n += b.length;
  }
  /** Unsigned LEB128, 0 <= v < 2^32. */
  varint(v: number): void {
    this.room(5);
    while (v >= 128) {
      this.buf[this.n++] = (v & 127) | 128;
      v = Math.floor(v / 128);
    }
    this.buf[this.n++] = v;
  }
  /** Zigzag, then varint: |v| < 2^31. */
  signed(v: number): void {
    this.varint(v >= 0 ? 2 * v : -2 * v - 1);
  }
  view(): Uint8Array {
    return this.buf.subarray(0, this.n);
  }
}

/** Reads one section of a block; a read past its end sets `bad`. */
class ByteReader {
  pos = 0;
  bad = false;
  constructor(readonly buf: Uint8Array) {}
  get left(): number {
    return this.buf.length - this.pos;
  }
  byte(): number {
    if (this.pos >= this.buf.length) {
      this.bad = true;
      return 0;
    }
    return this.buf[this.pos++];
  }
  varint(): number {
    let v = 0,
      mul = 1;
    for (let i = 0; i < 5; i++) {
      const b = this.byte();
      v += (b & 127) * mul;
      if (!(b & 128)) return v;
      mul *= 128;
    }
    this.bad = true;
    return 0;
  }
  signed(): number {
    const z = this.varint();
    return z % 2 === 0 ? z / 2 : -(z + 1) / 2;
  }
  bytes(k: number): Uint8Array {
    if (this.pos + k > this.buf.length) {
      this.bad = true;
      this.pos = this.buf.length;
      return new Uint8Array(k);
    }
    const b = this.buf.subarray(this.pos, this.pos + k);
    this.pos += k;
    return b;
  }
}

// ---- moves as indices -------------------------------------------------------------------

// A move is written as its index among the position's legal moves sorted by
// move code. Neither side sorts: the writer counts the moves below the one it
// writes, the reader selects the move of an index (quickselect) - linear in
// the 40-odd moves of a position where a sort is not, at every ply of every
// game (the sort was a fifth of reading a file).

/** The legal moves of `pos` into `list` (in generation order); their number. */
function legalList(pos: Position, list: Int32Array): number {
  return generate(pos, GEN_LEGAL, list, 0);
}

/** The index of `m` among the first `n` moves of `list` in sorted order, or -1 when it is not one of them. */
function indexOf(list: Int32Array, n: number, m: Move): number {
  let below = 0,
    found = false;
  for (let i = 0; i < n; i++) {
    const x = list[i];
    if (x < m) below++;
    else if (x === m) found = true;
  }
  return found ? below : -1;
}

/**
 * The move of index `k` (0 <= k < n) among the first `n` moves of `list` in
 * sorted order. Reorders those moves (they stay the same moves, so a second
 * call on the same list is still right).
 */
function moveAt(list: Int32Array, n: number, k: number): Move {
  let lo = 0,
    hi = n - 1;
  while (lo < hi) {
    const pivot = list[(lo + hi) >> 1];
    let i = lo,
      j = hi;
    while (i <= j) {
      while (list[i] < pivot) i++;
      while (list[j] > pivot) j--;
      if (i <= j) {
        const t = list[i];
        list[i] = list[j];
        list[j] = t;
        i++;
        j--;
      }
    }
    if (k <= j) hi = j;
    else if (k >= i) lo = i;
    else return list[k];
  }
  return list[k];
}

/** Sets `pos` to a game's start (a position given by board, side, counter and ply), or says why it is none. */
export function setStart(pos: Position, s: ChainStart | null): Result<Position, 'chain'> {
  if (s === null) {
    const r = pos.setFen('rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1');
    return r.ok ? ok(pos) : err('chain', r.error.message);
  }
  const rec: DataRecord = {
    board: s.board,
    side: s.side,
    score: 0,
    eval: 0,
    result: 0,
    rule60: s.rule60,
    ply: 0,
    move: 0,
  };
  const r = pos.setFen(recordFen(rec));
  if (!r.ok) return err('chain', `the start is no position: ${r.error.message}`);
  pos.gamePly = s.ply;
  return ok(pos);
}

// ---- blocks ------------------------------------------------------------------------------

/** The block header's numbers. */
export interface BlockInfo {
  /** Byte offset of the block in its file. */
  offset: number;
  /** Bytes of the payload as stored. */
  stored: number;
  /** Bytes of the payload uncompressed. */
  raw: number;
  /** Games (raw records count as games of one record). */
  games: number;
  /** Scored positions (raw records included). */
  positions: number;
}

/** The sections of a payload, in order. */
const SECTIONS = ['games', 'tags', 'moves', 'scores', 'evals', 'best'] as const;
type Sections<T> = Record<(typeof SECTIONS)[number], T>;

let standardBoard: Uint8Array | null = null;
/** The board of the standard start position. */
function startBoard(): Uint8Array {
  if (!standardBoard) {
    const pos = new Position(null);
    setStart(pos, null);
    standardBoard = pos.board.slice();
  }
  return standardBoard;
}

function boardDiff(board: Uint8Array, ref: Uint8Array): number {
  let d = 0;
  for (let s = 0; s < 90; s++) if (board[s] !== ref[s]) d++;
  return d;
}

/** The squares where `board` differs from `ref`: their number, then per square (ascending) (gap from the one before) * 16 + piece. */
function writeBoardDiff(w: ByteWriter, board: Uint8Array, ref: Uint8Array): void {
  w.varint(boardDiff(board, ref));
  let prev = -1;
  for (let s = 0; s < 90; s++) {
    if (board[s] === ref[s]) continue;
    w.varint((s - prev - 1) * 16 + (board[s] & 15));
    prev = s;
  }
}

/** Reads writeBoardDiff's squares into `out` (a copy of `ref` changed); false when they run off the board. */
function readBoardDiff(r: ByteReader, ref: Uint8Array, out: Uint8Array): boolean {
  out.set(ref);
  const c = r.varint();
  if (c > 90) return false;
  let prev = -1;
  for (let i = 0; i < c; i++) {
    const v = r.varint();
    const sq = prev + 1 + Math.floor(v / 16);
    if (r.bad || sq >= 90) return false;
    out[sq] = v & 15;
    prev = sq;
  }
  return true;
}

/**
 * Encodes entries as one block's sections (uncompressed); the games are
 * replayed to turn their moves into indices (an illegal move is an error
 * naming the game and ply).
 */
function encodeEntries(
  entries: readonly ChainEntry[],
): Result<{ sections: Sections<Uint8Array>; positions: number }, 'chain'> {
  const w: Sections<ByteWriter> = {
    games: new ByteWriter(),
    tags: new ByteWriter(),
    moves: new ByteWriter(),
    scores: new ByteWriter(),
    evals: new ByteWriter(),
    best: new ByteWriter(),
  };
  const pos = new Position(null);
  const list = new Int32Array(MAX_MOVES);
  let positions = 0;
  // The last position of the game before (a start may be given as a difference from it).
  const lastBoard = new Uint8Array(90);
  let lastPly = -1;
  for (let g = 0; g < entries.length; g++) {
    const e = entries[g];
    if (e.kind === 'raw') {
      if (e.record.length !== RECORD_SIZE) return err('chain', `entry ${g}: a raw record of ${e.record.length} bytes`);
      w.games.varint(START_RAW);
      w.games.bytes(e.record);
      positions++;
      continue;
    }
    const n = e.moves.length;
    if (e.scored.length !== n + 1 || e.score.length !== n + 1 || e.eval.length !== n + 1 || e.best.length !== n + 1)
      return err('chain', `game ${g}: ${n} moves but ${e.scored.length} positions`);
    if (e.result !== 1 && e.result !== 0 && e.result !== -1) return err('chain', `game ${g}: result ${e.result}`);
    const set = setStart(pos, e.start);
    if (!set.ok) return err('chain', `game ${g}: ${set.error.message}`);
    pos.reserve(n + 1);
    const common = (e.records ? 4 : 0) | ((e.result + 1) << 3);
    if (e.start === null) w.games.varint(START_STANDARD | common);
    else {
      const fromLast = lastPly >= 0 && boardDiff(e.start.board, lastBoard) < boardDiff(e.start.board, startBoard());
      w.games.varint((fromLast ? START_DIFF_LAST : START_DIFF_STANDARD) | common | (e.start.side << 5));
      writeBoardDiff(w.games, e.start.board, fromLast ? lastBoard : startBoard());
      w.games.varint(e.start.rule60);
      if (fromLast) w.games.signed(e.start.ply - lastPly);
      else w.games.varint(e.start.ply);
    }
    w.games.varint(n);
    // Scores from Red's view: as the difference from the game's scored position before (0 at the first);
    // evaluations as the difference from the mean of the score and the evaluation before (the score at the first).
    let prevScore = 0,
      prevEval: number | null = null;
    for (let i = 0; i <= n; i++) {
      const k = legalList(pos, list);
      const played = i < n ? e.moves[i] : MOVE_NONE;
      const scored = e.scored[i] !== 0;
      const explicit = scored && (i === n || e.best[i] !== played);
      const evalZero = scored && e.eval[i] === 0;
      w.tags.byte((scored ? TAG_SCORED : 0) | (explicit ? TAG_BEST : 0) | (evalZero ? TAG_EVAL_ZERO : 0));
      if (scored) {
        positions++;
        const red = pos.side === 0 ? e.score[i] : -e.score[i];
        w.scores.signed(red - prevScore);
        prevScore = red;
        if (!evalZero) {
          const redEval = pos.side === 0 ? e.eval[i] : -e.eval[i];
          w.evals.signed(redEval - ((red + (prevEval ?? red)) >> 1));
          prevEval = redEval;
        }
      }
      if (explicit) {
        const b = e.best[i];
        const j = b === MOVE_NONE ? -1 : indexOf(list, k, b);
        if (b === MOVE_NONE) w.best.varint(0);
        else if (j >= 0) w.best.varint(1 + j);
        else if (b > 0 && b < 65536) w.best.varint(1 + k + b);
        else return err('chain', `game ${g}, ply ${i}: best move ${b} out of range`);
      }
      if (i < n) {
        const j = indexOf(list, k, played);
        if (j < 0) return err('chain', `game ${g}, ply ${i}: move ${played} is not legal in ${pos.fen()}`);
        w.moves.byte(j);
        pos.doMove(played);
      }
    }
    lastBoard.set(pos.board);
    lastPly = pos.gamePly;
  }
  const sections = {} as Sections<Uint8Array>;
  for (const name of SECTIONS) sections[name] = w[name].view();
  return ok({ sections, positions });
}

/** One block, header and payload, ready to append to a file; Brotli at `quality` (-1: stored). */
export function makeBlock(entries: readonly ChainEntry[], quality = 11): Result<Uint8Array, 'chain'> {
  const enc = encodeEntries(entries);
  if (!enc.ok) return enc;
  const payload = new ByteWriter();
  let raw = 0;
  for (const name of SECTIONS) {
    const sec = enc.value.sections[name];
    raw += sec.length;
    let stored: Uint8Array = sec;
    let method = METHOD_STORED;
    if (quality >= 0 && sec.length > 0) {
      const c = brotliCompressSync(sec, {
        params: {
          [zlibConstants.BROTLI_PARAM_QUALITY]: quality,
          [zlibConstants.BROTLI_PARAM_LGWIN]: 24,
          [zlibConstants.BROTLI_PARAM_SIZE_HINT]: sec.length,
        },
      });
      if (c.length < sec.length) {
        stored = new Uint8Array(c.buffer, c.byteOffset, c.length);
        method = METHOD_BROTLI;
      }
    }
    payload.byte(method);
    payload.varint(sec.length);
    payload.varint(stored.length);
    payload.bytes(stored);
  }
  const body = payload.view();
  const block = new Uint8Array(BLOCK_HEADER_SIZE + body.length);
  const dv = new DataView(block.buffer);
  block.set(BLOCK_MAGIC, 0);
  dv.setUint32(4, body.length, true);
  dv.setUint32(8, raw, true);
  dv.setUint32(12, entries.length, true);
  dv.setUint32(16, enc.value.positions, true);
  dv.setUint32(20, crc32(body), true);
  dv.setUint32(24, crc32(block.subarray(0, 24)), true);
  block.set(body, BLOCK_HEADER_SIZE);
  return ok(block);
}

/** What a block header says (the block at byte `offset` of its file), or why it is not one. */
export function readBlockHeader(h: Uint8Array, offset: number): Result<BlockInfo, 'chain'> {
  for (let i = 0; i < 4; i++)
    if (h[i] !== BLOCK_MAGIC[i]) return err('chain', `no block at byte ${offset} (bad block magic)`);
  const dv = new DataView(h.buffer, h.byteOffset, BLOCK_HEADER_SIZE);
  if (crc32(h.subarray(0, 24)) !== dv.getUint32(24, true))
    return err('chain', `block at byte ${offset}: damaged header (CRC-32 mismatch)`);
  const info: BlockInfo = {
    offset,
    stored: dv.getUint32(4, true),
    raw: dv.getUint32(8, true),
    games: dv.getUint32(12, true),
    positions: dv.getUint32(16, true),
  };
  return ok(info);
}

// ---- decoding ------------------------------------------------------------------------------

/** What a reader is told at each game and position of a chain. */
export interface ChainVisitor {
  /** A game starts; `pos` is at its start. */
  game?(info: { records: boolean; result: number; moves: number; start: ChainStart | null }, pos: Position): void;
  /**
   * Position `i` of the current game (`pos` is there). Unscored positions have
   * score, eval 0 and best MOVE_NONE; `played` is the move played from it
   * (MOVE_NONE at the last position).
   */
  position?(pos: Position, i: number, scored: boolean, score: number, evalv: number, best: Move, played: Move): void;
  /** A version-1 record kept as it is. */
  raw?(record: Uint8Array): void;
}

/** Splits a block's payload into its sections, uncompressed (at most MAX_RAW bytes in all). */
function sections(payload: Uint8Array): Result<Sections<ByteReader>, 'chain'> {
  const r = new ByteReader(payload);
  const out = {} as Sections<ByteReader>;
  let total = 0;
  for (const name of SECTIONS) {
    const method = r.byte();
    const raw = r.varint();
    const stored = r.varint();
    total += raw;
    if (r.bad || stored > r.left) return err('chain', `the ${name} section runs past the payload`);
    if (total > MAX_RAW) return err('chain', `the ${name} section is ${raw} bytes uncompressed, too many`);
    const bytes = r.bytes(stored);
    if (method === METHOD_STORED) {
      if (raw !== stored) return err('chain', `the ${name} section is stored with ${stored} bytes, ${raw} expected`);
      out[name] = new ByteReader(bytes);
      continue;
    }
    if (method !== METHOD_BROTLI) return err('chain', `the ${name} section: unknown compression ${method}`);
    let un: Buffer;
    try {
      un = brotliDecompressSync(bytes, { maxOutputLength: Math.max(1, raw) });
    } catch (e) {
      return err('chain', `the ${name} section does not decompress (${(e as Error).message})`);
    }
    if (un.length !== raw) return err('chain', `the ${name} section: ${un.length} bytes uncompressed, ${raw} expected`);
    out[name] = new ByteReader(new Uint8Array(un.buffer, un.byteOffset, un.length));
  }
  if (r.left !== 0) return err('chain', `${r.left} bytes after the last section`);
  return ok(out);
}

/**
 * Replays the `games` entries of a block's payload through `visit`. Errors name the
 * game (its index in the block) and the ply. `pos` is the reader's position.
 */
function decodeEntries(
  payload: Uint8Array,
  games: number,
  visit: ChainVisitor,
  pos = new Position(null),
): Result<number, 'chain'> {
  const sec = sections(payload);
  if (!sec.ok) return sec;
  const s = sec.value;
  const list = new Int32Array(MAX_MOVES);
  const board = new Uint8Array(90);
  const lastBoard = new Uint8Array(90);
  let lastPly = -1;
  let positions = 0;
  for (let g = 0; g < games; g++) {
    const where = (i?: number) => `game ${g} of the block${i === undefined ? '' : `, position ${i}`}`;
    const head = s.games.varint();
    if (s.games.bad) return err('chain', `${where()}: the games section ends early`);
    const kind = head & 3;
    if (kind === START_RAW) {
      if (head !== START_RAW) return err('chain', `${where()}: bad game head ${head}`);
      const rec = s.games.bytes(RECORD_SIZE);
      if (s.games.bad) return err('chain', `${where()}: the games section ends inside a raw record`);
      visit.raw?.(rec);
      positions++;
      continue;
    }
    const result = ((head >> 3) & 3) - 1;
    if (head >> 6 || result > 1 || (kind === START_STANDARD && head & 32))
      return err('chain', `${where()}: bad game head ${head}`);
    const records = (head & 4) !== 0;
    let start: ChainStart | null = null;
    if (kind !== START_STANDARD) {
      if (kind === START_DIFF_LAST && lastPly < 0)
        return err('chain', `${where()}: a start given from the game before, the first game of the block`);
      if (!readBoardDiff(s.games, kind === START_DIFF_LAST ? lastBoard : startBoard(), board))
        return err('chain', `${where()}: the start's squares run off the board`);
      const rule60 = s.games.varint();
      const ply = kind === START_DIFF_LAST ? lastPly + s.games.signed() : s.games.varint();
      if (s.games.bad) return err('chain', `${where()}: the games section ends inside a start position`);
      if (ply < 0 || rule60 > 255) return err('chain', `${where()}: start ply ${ply}, 60-move counter ${rule60}`);
      start = { board: board.slice(), side: (head >> 5) & 1, rule60, ply };
    }
    const n = s.games.varint();
    if (s.games.bad) return err('chain', `${where()}: the games section ends early`);
    if (n > s.moves.left) return err('chain', `${where()}: ${n} moves, ${s.moves.left} left in the moves section`);
    const set = setStart(pos, start);
    if (!set.ok) return err('chain', `${where()}: ${set.error.message}`);
    pos.reserve(n + 1);
    visit.game?.({ records, result, moves: n, start }, pos);
    let prevScore = 0,
      prevEval: number | null = null;
    for (let i = 0; i <= n; i++) {
      const k = legalList(pos, list);
      const tag = s.tags.byte();
      if (s.tags.bad) return err('chain', `${where(i)}: the tags section ends early`);
      if (tag > 7) return err('chain', `${where(i)}: bad tag ${tag}`);
      const scored = (tag & TAG_SCORED) !== 0;
      if (!scored && tag !== 0) return err('chain', `${where(i)}: bad tag ${tag} of an unscored position`);
      let score = 0,
        evalv = 0;
      if (scored) {
        const red = prevScore + s.scores.signed();
        prevScore = red;
        score = pos.side === 0 ? red : -red;
        if (!(tag & TAG_EVAL_ZERO)) {
          const redEval: number = s.evals.signed() + ((red + (prevEval ?? red)) >> 1);
          prevEval = redEval;
          evalv = pos.side === 0 ? redEval : -redEval;
        }
        if (s.scores.bad || s.evals.bad) return err('chain', `${where(i)}: the scores or evals section ends early`);
        positions++;
      }
      let played: Move = MOVE_NONE;
      if (i < n) {
        const j = s.moves.byte();
        if (j >= k) return err('chain', `${where(i)}: move index ${j} of ${k} legal moves`);
        played = moveAt(list, k, j);
      }
      let best: Move = scored ? played : MOVE_NONE;
      if (tag & TAG_BEST) {
        const v = s.best.varint();
        if (s.best.bad) return err('chain', `${where(i)}: the best-move section ends early`);
        best = v === 0 ? MOVE_NONE : v <= k ? moveAt(list, k, v - 1) : v - 1 - k;
        if (best >= 65536) return err('chain', `${where(i)}: best move code ${best}`);
      } else if (scored && i === n) return err('chain', `${where(i)}: the last position is scored without a best move`);
      visit.position?.(pos, i, scored, score, evalv, best, played);
      if (i < n) pos.doMove(played);
    }
    lastBoard.set(pos.board);
    lastPly = pos.gamePly;
  }
  for (const name of SECTIONS)
    if (s[name].left !== 0)
      return err('chain', `${s[name].left} bytes left in the ${name} section after the last game`);
  return ok(positions);
}

// ---- blocks -> entries --------------------------------------------------------------------

/** A chain file's header. */
export function makeChainHeader(): Uint8Array {
  const h = makeHeader();
  new DataView(h.buffer).setUint16(8, CHAIN_VERSION, true);
  new DataView(h.buffer).setUint16(10, 0, true);
  return h;
}

/** Whether a block's payload is the one its header names (the CRC-32 at byte 20 of the header). */
export function payloadIntact(header: Uint8Array, payload: Uint8Array): boolean {
  return crc32(payload) === new DataView(header.buffer, header.byteOffset, BLOCK_HEADER_SIZE).getUint32(20, true);
}

/**
 * Replays the games of a block's payload (intact: payloadIntact) through
 * `visit`; the scored positions (checked against the header's count), or why
 * the payload does not decode. `pos` is the reader's position.
 */
export function decodeBlock(
  info: BlockInfo,
  payload: Uint8Array,
  visit: ChainVisitor,
  pos = new Position(null),
): Result<number, 'chain'> {
  const d = decodeEntries(payload, info.games, visit, pos);
  if (d.ok && d.value !== info.positions)
    return err('chain', `${d.value} positions, the block's header says ${info.positions}`);
  return d;
}

/** A visitor that collects what it reads as ChainEntry values (into `out`); call its `end` after the last. */
export function entryCollector(out: ChainEntry[]): ChainVisitor & { end(): void } {
  let cur: GameBuilder | null = null;
  let result = 0;
  const flush = () => {
    if (cur) out.push(cur.finish(result));
    cur = null;
  };
  return {
    game(info) {
      flush();
      cur = new GameBuilder(info.start, info.records);
      result = info.result;
    },
    position(_pos, _i, scored, score, evalv, best, played) {
      if (scored) cur!.setScore(score, evalv, best);
      if (played !== MOVE_NONE) cur!.play(played);
    },
    raw(record) {
      flush();
      out.push({ kind: 'raw', record: record.slice() });
    },
    end: flush,
  };
}

/**
 * The entries of one block in memory (as makeBlock made it), checked: its CRCs,
 * every move legal. `also`, when given, visits the games as they are replayed.
 */
export function blockEntries(block: Uint8Array, also?: ChainVisitor): Result<ChainEntry[], 'chain'> {
  if (block.length < BLOCK_HEADER_SIZE) return err('chain', `a block of ${block.length} bytes`);
  const info = readBlockHeader(block.subarray(0, BLOCK_HEADER_SIZE), 0);
  if (!info.ok) return info;
  const payload = block.subarray(BLOCK_HEADER_SIZE);
  if (payload.length !== info.value.stored)
    return err('chain', `a block of ${payload.length} payload bytes, its header says ${info.value.stored}`);
  if (!payloadIntact(block, payload)) return err('chain', 'damaged block (CRC-32 mismatch)');
  const out: ChainEntry[] = [];
  const c = entryCollector(out);
  const both: ChainVisitor = {
    game(info, pos) {
      c.game!(info, pos);
      also?.game?.(info, pos);
    },
    position(pos, i, scored, score, evalv, best, played) {
      c.position!(pos, i, scored, score, evalv, best, played);
      also?.position?.(pos, i, scored, score, evalv, best, played);
    },
    raw(record) {
      c.raw!(record);
      also?.raw?.(record);
    },
  };
  const d = decodeBlock(info.value, payload, both);
  c.end();
  return d.ok ? ok(out) : d;
}
