// The position: board, side to move, make/unmake with incremental Zobrist keys,
// check detection, legality, static exchange evaluation and the history of the
// game (needed by repetition rules and the 60-move rule).
//
// Representation: a 90-square mailbox (`board`), per-rank and per-file
// occupancy bit masks (for table-driven rook and cannon lines), piece lists per
// color, and a state stack of typed arrays indexed by ply (`sp`). Nothing here
// allocates after construction except when the state stack must grow, which
// happens only while a game history is being set up (`reserve`).

import {
  ADVISOR_TO,
  BISHOP_EYE,
  BISHOP_TO,
  FILE_CANNON_CAP,
  FILE_ROOK_CAP,
  KING_TO,
  KNIGHT_FROM,
  KNIGHT_FROM_LEG,
  KNIGHT_LEG,
  KNIGHT_TO,
  PAWN_TO,
  RANK_CANNON_CAP,
  RANK_ROOK_CAP,
  lsb,
  popcount,
} from './attacks.js';
import { START_FEN, formatBoard, parseFen, type FenErrorCode, type ParsedFen } from './fen.js';
import { err, ok, type Result } from './result.js';
import {
  ADVISOR,
  BISHOP,
  BLACK,
  CANNON,
  FILE_OF,
  KING,
  KNIGHT,
  MOVE_NULL,
  PAWN,
  PIECE_CHARS,
  PIECE_VALUE,
  RANK_OF,
  RED,
  ROOK,
  SQUARE_NB,
  colorOf,
  squareName,
  typeOf,
  type Color,
  type Move,
} from './types.js';
import { PSQ_HI, PSQ_LO, SIDE_HI, SIDE_LO, keyToHex } from './zobrist.js';

const INITIAL_CAPACITY = 1024;

/** Pikafish's repetition filter has 2^14 counters, indexed by the key's low 14 bits. */
export const KEY_FILTER_MASK = (1 << 14) - 1;

/** An exclusion map that excludes nothing (its entries are 0, never the stamp -1). */
const NO_EXCLUSION = new Int32Array(SQUARE_NB);

/**
 * A xiangqi position with the game that led to it: a mutable object (doMove,
 * undoMove, setFen change it; clone() copies it). A program using the library
 * works through its methods (fen, sideToMove, pieceOn, inCheck, doMove, legal
 * moves through legalMoves(), ...). The typed arrays and counters the engine
 * works on are public for the engine's own modules but not part of the API:
 * marked internal, they are left out of the published types (npm run
 * build:types), which makes them unseen, not unwritable.
 */
export class Position {
  /** @internal Piece code per square, 0 when empty. */
  readonly board = new Uint8Array(SQUARE_NB);
  /** @internal Bit f set when (file f, rank r) is occupied; indexed by rank. */
  readonly rankOcc = new Int32Array(10);
  /** @internal Bit r set when (file f, rank r) is occupied; indexed by file. */
  readonly fileOcc = new Int32Array(9);
  /** @internal Piece list: squares of color c's pieces at [c * 16 + i], i < listCount[c]. */
  readonly listSq = new Int8Array(32);
  /** @internal */
  readonly listCount = new Int32Array(2);
  /** @internal Index of the piece on a square inside its color's list. */
  readonly listIndex = new Int8Array(SQUARE_NB);
  /** @internal Number of pieces per piece code. */
  readonly pieceCount = new Int32Array(16);
  /**
   * @internal The squares of each piece code as a 90-bit set in three int32 words:
   * square s is bit s & 31 of word pieceBits[code * 3 + (s >> 5)]. Move
   * generation walks them to take pieces in Pikafish's order (squares ascending).
   */
  readonly pieceBits = new Int32Array(16 * 3);
  /** @internal */
  readonly kingSq = new Int32Array(2);
  /** @internal Material of rooks, knights and cannons per color (Pikafish's "major material"). */
  readonly majorMaterial = new Int32Array(2);
  /**
   * @internal
   * Counting filter of the keys of all earlier states in the history (indexed by
   * the low 14 bits of the key, KEY_FILTER_MASK), Pikafish's bloom filter: a zero
   * entry proves that the current key has not occurred before, so repetition scans
   * can be skipped. Its size is Pikafish's: the search's table key and the
   * ComputerRule judgement read its counts, false positives included.
   */
  readonly keyFilter = new Uint16Array(KEY_FILTER_MASK + 1);
  /** @internal */
  side: Color = RED;
  /** @internal Plies since the start of the game (0 = red's first move). */
  gamePly = 0;

  // ---- State stack, one entry per ply of the game so far -------------------
  /** @internal Index of the current state. States 0..sp form the game history. */
  sp = 0;
  private capacity = 0;
  /** @internal */
  keyLo!: Int32Array;
  /** @internal */
  keyHi!: Int32Array;
  /** @internal */
  pawnKey!: Int32Array;
  /** @internal */
  minorKey!: Int32Array;
  /** @internal */
  nonPawnKeyRed!: Int32Array;
  /** @internal */
  nonPawnKeyBlack!: Int32Array;
  /** @internal Piece captured by the move that led to this state (0 if none). */
  captured!: Uint8Array;
  /** @internal Where the captured piece stood in its color's piece list (restored exactly on undo). */
  capturedIndex!: Uint8Array;
  /** @internal Move that led to this state (0 at the root of the history). */
  moveAt!: Int32Array;
  /** @internal 1 when the side to move is in check in this state. */
  checked!: Uint8Array;
  /** @internal */
  rule60!: Int16Array;
  /** @internal */
  check10Red!: Int16Array;
  /** @internal */
  check10Black!: Int16Array;
  /** @internal */
  pliesFromNull!: Int16Array;

  /** The start position. (`Position.fromFen` sets any other, and says why a FEN is refused.) */
  constructor();
  /**
   * @internal For tests and trusted literals: `null` leaves the board empty; a
   * FEN sets it and throws when it is refused. The product never passes a FEN
   * here (test/architecture.test.ts checks it): input goes through fromFen/setFen.
   */
  constructor(fen: string | null);
  constructor(fen: string | null = START_FEN) {
    this.allocate(INITIAL_CAPACITY);
    if (fen === null) return;
    const r = this.setFen(fen);
    if (!r.ok) throw new Error(r.error.message);
  }

  /** The position of a FEN, or why the FEN is refused (a `fen-*` code and a message). */
  static fromFen(fen: string): Result<Position, FenErrorCode> {
    return new Position(null).setFen(fen);
  }

  private allocate(capacity: number): void {
    const grow = <T extends Int32Array | Int16Array | Uint8Array>(old: T | undefined, make: (n: number) => T): T => {
      const a = make(capacity);
      if (old) a.set(old.subarray(0, Math.min(old.length, capacity)));
      return a;
    };
    this.keyLo = grow(this.keyLo, (n) => new Int32Array(n));
    this.keyHi = grow(this.keyHi, (n) => new Int32Array(n));
    this.pawnKey = grow(this.pawnKey, (n) => new Int32Array(n));
    this.minorKey = grow(this.minorKey, (n) => new Int32Array(n));
    this.nonPawnKeyRed = grow(this.nonPawnKeyRed, (n) => new Int32Array(n));
    this.nonPawnKeyBlack = grow(this.nonPawnKeyBlack, (n) => new Int32Array(n));
    this.captured = grow(this.captured, (n) => new Uint8Array(n));
    this.capturedIndex = grow(this.capturedIndex, (n) => new Uint8Array(n));
    this.moveAt = grow(this.moveAt, (n) => new Int32Array(n));
    this.checked = grow(this.checked, (n) => new Uint8Array(n));
    this.rule60 = grow(this.rule60, (n) => new Int16Array(n));
    this.check10Red = grow(this.check10Red, (n) => new Int16Array(n));
    this.check10Black = grow(this.check10Black, (n) => new Int16Array(n));
    this.pliesFromNull = grow(this.pliesFromNull, (n) => new Int16Array(n));
    this.capacity = capacity;
  }

  /** @internal Makes sure `extra` more plies can be played without growing the stack (call before a search). */
  reserve(extra: number): void {
    if (this.sp + extra + 1 > this.capacity) this.allocate(Math.max(this.capacity * 2, this.sp + extra + 1));
  }

  // ---- Set-up ----------------------------------------------------------------

  /** Sets the position from a FEN; a rejected FEN (code and message) leaves the position unchanged. */
  setFen(fen: string): Result<Position, FenErrorCode> {
    const parsed = parseFen(fen);
    if (!parsed.ok) return parsed;
    return this.setParsed(parsed.value, fen);
  }

  private setParsed(p: ParsedFen, fen: string): Result<Position, FenErrorCode> {
    // Validate on a scratch copy first so a rejected FEN leaves us untouched.
    const scratch = Position.scratch ?? (Position.scratch = new Position(null));
    if (scratch !== this) {
      scratch.load(p);
      const attacker = scratch.side ^ 1;
      if (scratch.kingAttacked(attacker as Color)) {
        return err(
          'fen-check',
          `invalid FEN "${fen}": the side not to move (${attacker === RED ? 'red' : 'black'}) is in check, so its king could be captured`,
        );
      }
    }
    this.load(p);
    return ok(this);
  }
  private static scratch: Position | undefined;

  private load(p: ParsedFen): void {
    this.board.fill(0);
    this.rankOcc.fill(0);
    this.fileOcc.fill(0);
    this.listCount.fill(0);
    this.listIndex.fill(-1);
    this.pieceCount.fill(0);
    this.pieceBits.fill(0);
    this.majorMaterial.fill(0);
    this.side = p.side;
    this.sp = 0;
    this.keyFilter.fill(0);
    this.gamePly = Math.max(2 * (p.fullmove - 1), 0) + (p.side === BLACK ? 1 : 0);
    let lo = 0,
      hi = 0,
      pawn = 0,
      minor = 0,
      npR = 0,
      npB = 0;
    for (let s = 0; s < SQUARE_NB; s++) {
      const pc = p.board[s];
      if (!pc) continue;
      const c = colorOf(pc);
      this.board[s] = pc;
      this.rankOcc[RANK_OF[s]] |= 1 << FILE_OF[s];
      this.fileOcc[FILE_OF[s]] |= 1 << RANK_OF[s];
      this.listIndex[s] = this.listCount[c];
      this.listSq[c * 16 + this.listCount[c]++] = s;
      this.pieceCount[pc]++;
      this.pieceBits[pc * 3 + (s >> 5)] |= 1 << (s & 31);
      const t = typeOf(pc);
      if (t === KING) this.kingSq[c] = s;
      if (t & 1 && t !== KING) this.majorMaterial[c] += PIECE_VALUE[pc];
      const zl = PSQ_LO[pc * 90 + s];
      lo ^= zl;
      hi ^= PSQ_HI[pc * 90 + s];
      if (t === PAWN) pawn ^= zl;
      else {
        if (c === RED) npR ^= zl;
        else npB ^= zl;
        if (t === KNIGHT || t === CANNON) minor ^= zl;
      }
    }
    if (p.side === BLACK) {
      lo ^= SIDE_LO;
      hi ^= SIDE_HI;
    }
    this.keyLo[0] = lo;
    this.keyHi[0] = hi;
    this.pawnKey[0] = pawn;
    this.minorKey[0] = minor;
    this.nonPawnKeyRed[0] = npR;
    this.nonPawnKeyBlack[0] = npB;
    this.captured[0] = 0;
    this.moveAt[0] = 0;
    this.rule60[0] = p.rule60;
    this.check10Red[0] = 0;
    this.check10Black[0] = 0;
    this.pliesFromNull[0] = 0;
    this.checked[0] = this.kingAttacked(this.side) ? 1 : 0;
  }

  /** @internal Copies another position, including its whole history. */
  copyFrom(o: Position): void {
    if (this.capacity < o.capacity) this.allocate(o.capacity);
    this.board.set(o.board);
    this.rankOcc.set(o.rankOcc);
    this.fileOcc.set(o.fileOcc);
    this.listSq.set(o.listSq);
    this.listCount.set(o.listCount);
    this.listIndex.set(o.listIndex);
    this.pieceCount.set(o.pieceCount);
    this.pieceBits.set(o.pieceBits);
    this.keyFilter.set(o.keyFilter);
    this.kingSq.set(o.kingSq);
    this.majorMaterial.set(o.majorMaterial);
    this.side = o.side;
    this.gamePly = o.gamePly;
    this.sp = o.sp;
    const n = o.sp + 1;
    this.keyLo.set(o.keyLo.subarray(0, n));
    this.keyHi.set(o.keyHi.subarray(0, n));
    this.pawnKey.set(o.pawnKey.subarray(0, n));
    this.minorKey.set(o.minorKey.subarray(0, n));
    this.nonPawnKeyRed.set(o.nonPawnKeyRed.subarray(0, n));
    this.nonPawnKeyBlack.set(o.nonPawnKeyBlack.subarray(0, n));
    this.captured.set(o.captured.subarray(0, n));
    this.capturedIndex.set(o.capturedIndex.subarray(0, n));
    this.moveAt.set(o.moveAt.subarray(0, n));
    this.checked.set(o.checked.subarray(0, n));
    this.rule60.set(o.rule60.subarray(0, n));
    this.check10Red.set(o.check10Red.subarray(0, n));
    this.check10Black.set(o.check10Black.subarray(0, n));
    this.pliesFromNull.set(o.pliesFromNull.subarray(0, n));
  }

  clone(): Position {
    const p = new Position(null);
    p.copyFrom(this);
    return p;
  }

  // ---- Output ----------------------------------------------------------------

  fen(): string {
    const out = formatBoard(this.board);
    const fullmove = 1 + ((this.gamePly - (this.side === BLACK ? 1 : 0)) >> 1);
    return `${out} ${this.side === RED ? 'w' : 'b'} - - ${this.rule60[this.sp]} ${fullmove}`;
  }

  /** ASCII diagram of the board, rank 9 at the top, as Pikafish's `d` prints it. */
  diagram(): string {
    let s = ' +---+---+---+---+---+---+---+---+---+\n';
    for (let r = 9; r >= 0; r--) {
      for (let f = 0; f < 9; f++) s += ' | ' + PIECE_CHARS[this.board[r * 9 + f]];
      s += ` | ${r}\n +---+---+---+---+---+---+---+---+---+\n`;
    }
    s += '   a   b   c   d   e   f   g   h   i\n';
    return s;
  }

  keyHex(): string {
    return keyToHex(this.keyLo[this.sp], this.keyHi[this.sp]);
  }

  // ---- Simple queries ----------------------------------------------------------

  /** The side to move (RED or BLACK). */
  get sideToMove(): Color {
    return this.side;
  }
  /** The piece on a square (color << 3 | type; 0 when empty). */
  pieceOn(square: number): number {
    return this.board[square];
  }
  /** Plies played since the start of the game (0 before Red's first move). */
  get plies(): number {
    return this.gamePly;
  }
  inCheck(): boolean {
    return this.checked[this.sp] === 1;
  }
  /** @internal */
  key(): number {
    return this.keyLo[this.sp];
  }
  rule60Count(): number {
    return this.rule60[this.sp];
  }
  capturedPiece(): number {
    return this.captured[this.sp];
  }
  lastMove(): Move {
    return this.moveAt[this.sp];
  }
  isCapture(m: Move): boolean {
    return this.board[m & 127] !== 0;
  }
  movedPiece(m: Move): number {
    return this.board[m >> 7];
  }

  // ---- Attacks -----------------------------------------------------------------

  /** @internal True when the king of color `c` is attacked by the other side (including flying general). */
  kingAttacked(c: Color): boolean {
    const b = this.board;
    const ksq = this.kingSq[c];
    const themBit = (c ^ 1) << 3;
    const f = FILE_OF[ksq],
      r = RANK_OF[ksq];
    const rook = themBit | ROOK,
      cannon = themBit | CANNON,
      knight = themBit | KNIGHT;
    const pawn = themBit | PAWN,
      king = themBit | KING;
    const rbase = r * 9;
    let m = RANK_ROOK_CAP[(f << 9) | this.rankOcc[r]];
    while (m) {
      const x = 31 - Math.clz32(m & -m);
      m &= m - 1;
      if (b[rbase + x] === rook) return true;
    }
    m = RANK_CANNON_CAP[(f << 9) | this.rankOcc[r]];
    while (m) {
      const x = 31 - Math.clz32(m & -m);
      m &= m - 1;
      if (b[rbase + x] === cannon) return true;
    }
    m = FILE_ROOK_CAP[(r << 10) | this.fileOcc[f]];
    while (m) {
      const y = 31 - Math.clz32(m & -m);
      m &= m - 1;
      const p = b[y * 9 + f];
      if (p === rook || p === king) return true;
    }
    m = FILE_CANNON_CAP[(r << 10) | this.fileOcc[f]];
    while (m) {
      const y = 31 - Math.clz32(m & -m);
      m &= m - 1;
      if (b[y * 9 + f] === cannon) return true;
    }
    if (this.pieceCount[knight]) {
      const base = ksq * 8;
      for (let i = 0; i < 8; i++) {
        const from = KNIGHT_FROM[base + i];
        if (from < 0) break;
        if (b[from] === knight && b[KNIGHT_FROM_LEG[base + i]] === 0) return true;
      }
    }
    if (this.pieceCount[pawn]) {
      // The king is always in its palace, so the attacking pawn has crossed the river.
      if (b[ksq - 1] === pawn || b[ksq + 1] === pawn) return true;
      if (c === RED ? b[ksq + 9] === pawn : b[ksq - 9] === pawn) return true;
    }
    return false;
  }

  /**
   * @internal
   * Square of the piece of color `c` that Pikafish's exchange test would take to
   * capture on `sq` next, or -1: the first attacker by type in the order pawn,
   * elephant, advisor, cannon, knight, rook, king (Pikafish's order, which puts the
   * cannon before the knight), and of that type the one on the lowest square. Which
   * of two equal attackers goes first matters when it opens a line or was a
   * pinner. Kings count only for adjacent squares (flying general is handled by
   * the callers that need it). Squares `s` with `excl[s] === stamp` are left out.
   */
  leastAttacker(sq: number, c: number, excl: Int32Array = NO_EXCLUSION, stamp = -1): number {
    const b = this.board;
    const cb = c << 3;
    const f = FILE_OF[sq],
      r = RANK_OF[sq];
    // Pawns, lowest square first: Red's from below (sq - 9), Black's from above (sq + 9).
    const pawn = cb | PAWN;
    if (this.pieceCount[pawn]) {
      if (c === RED) {
        if (r > 0 && b[sq - 9] === pawn && excl[sq - 9] !== stamp) return sq - 9;
        if (r >= 5) {
          if (f > 0 && b[sq - 1] === pawn && excl[sq - 1] !== stamp) return sq - 1;
          if (f < 8 && b[sq + 1] === pawn && excl[sq + 1] !== stamp) return sq + 1;
        }
      } else {
        if (r <= 4) {
          if (f > 0 && b[sq - 1] === pawn && excl[sq - 1] !== stamp) return sq - 1;
          if (f < 8 && b[sq + 1] === pawn && excl[sq + 1] !== stamp) return sq + 1;
        }
        if (r < 9 && b[sq + 9] === pawn && excl[sq + 9] !== stamp) return sq + 9;
      }
    }
    const bishop = cb | BISHOP;
    if (this.pieceCount[bishop]) {
      for (let i = 0; i < 4; i++) {
        const s = BISHOP_TO[sq * 4 + i];
        if (s < 0) break;
        if (b[s] === bishop && b[BISHOP_EYE[sq * 4 + i]] === 0 && excl[s] !== stamp) return s;
      }
    }
    const advisor = cb | ADVISOR;
    if (this.pieceCount[advisor]) {
      for (let i = 0; i < 4; i++) {
        const s = ADVISOR_TO[sq * 4 + i];
        if (s < 0) break;
        if (b[s] === advisor && excl[s] !== stamp) return s;
      }
    }
    const cannon = cb | CANNON;
    if (this.pieceCount[cannon]) {
      const s = this.lowestOnLines(
        cannon,
        sq,
        RANK_CANNON_CAP[(f << 9) | this.rankOcc[r]],
        FILE_CANNON_CAP[(r << 10) | this.fileOcc[f]],
        excl,
        stamp,
      );
      if (s >= 0) return s;
    }
    const knight = cb | KNIGHT;
    if (this.pieceCount[knight]) {
      for (let i = 0; i < 8; i++) {
        const s = KNIGHT_FROM[sq * 8 + i];
        if (s < 0) break;
        if (b[s] === knight && b[KNIGHT_FROM_LEG[sq * 8 + i]] === 0 && excl[s] !== stamp) return s;
      }
    }
    const rook = cb | ROOK;
    if (this.pieceCount[rook]) {
      const s = this.lowestOnLines(
        rook,
        sq,
        RANK_ROOK_CAP[(f << 9) | this.rankOcc[r]],
        FILE_ROOK_CAP[(r << 10) | this.fileOcc[f]],
        excl,
        stamp,
      );
      if (s >= 0) return s;
    }
    const king = cb | KING;
    for (let i = 0; i < 4; i++) {
      const s = KING_TO[sq * 4 + i];
      if (s < 0) break;
      if (b[s] === king && excl[s] !== stamp) return s;
    }
    return -1;
  }

  /**
   * The lowest square holding `piece` among the squares of `sq`'s rank (`rankCaps`,
   * a mask of files) and file (`fileCaps`, a mask of ranks) that reach `sq`: the
   * file's squares below `sq`, then the rank's from the a-file, then the file's above.
   */
  private lowestOnLines(
    piece: number,
    sq: number,
    rankCaps: number,
    fileCaps: number,
    excl: Int32Array,
    stamp: number,
  ): number {
    const b = this.board;
    const f = FILE_OF[sq],
      r = RANK_OF[sq];
    let m = fileCaps & ((1 << r) - 1);
    while (m) {
      const s = lsb(m) * 9 + f;
      m &= m - 1;
      if (b[s] === piece && excl[s] !== stamp) return s;
    }
    m = rankCaps;
    while (m) {
      const s = r * 9 + lsb(m);
      m &= m - 1;
      if (b[s] === piece && excl[s] !== stamp) return s;
    }
    m = fileCaps & ~((1 << (r + 1)) - 1);
    while (m) {
      const s = lsb(m) * 9 + f;
      m &= m - 1;
      if (b[s] === piece && excl[s] !== stamp) return s;
    }
    return -1;
  }

  /** True when the king of color `c` would see the square `sq` along a clear file (flying general). */
  private kingSeesOnFile(c: number, sq: number): boolean {
    const ksq = this.kingSq[c];
    const f = FILE_OF[sq];
    if (FILE_OF[ksq] !== f) return false;
    const caps = FILE_ROOK_CAP[(RANK_OF[sq] << 10) | this.fileOcc[f]];
    return (caps & (1 << RANK_OF[ksq])) !== 0;
  }

  /** @internal True when `sq` is attacked by any piece of color `c` (kings by adjacency only). */
  isAttackedBy(sq: number, c: number): boolean {
    return this.leastAttacker(sq, c) >= 0;
  }

  /** Squares of the pieces giving check to the side to move (for diagnostics). */
  checkerSquares(): number[] {
    const ksq = this.kingSq[this.side];
    const them = this.side ^ 1;
    const out: number[] = [];
    for (let i = 0; i < this.listCount[them]; i++) {
      const s = this.listSq[them * 16 + i];
      if (this.attacksFrom(s, ksq)) out.push(s);
    }
    return out.sort((a, b) => a - b);
  }

  /** @internal True when the piece on `from` attacks `to` on the current board. */
  attacksFrom(from: number, to: number): boolean {
    const pc = this.board[from];
    if (!pc) return false;
    const t = typeOf(pc);
    const ff = FILE_OF[from],
      fr = RANK_OF[from],
      tf = FILE_OF[to],
      tr = RANK_OF[to];
    switch (t) {
      case ROOK:
      case CANNON:
      case KING: {
        if (t === KING && (ff !== tf || this.board[to] !== (((colorOf(pc) ^ 1) << 3) | KING))) {
          for (let i = 0; i < 4; i++) if (KING_TO[from * 4 + i] === to) return true;
          return false;
        }
        let between: number;
        if (fr === tr)
          between = this.rankOcc[fr] & (((1 << Math.max(ff, tf)) - 1) & ~((1 << (Math.min(ff, tf) + 1)) - 1));
        else if (ff === tf)
          between = this.fileOcc[ff] & (((1 << Math.max(fr, tr)) - 1) & ~((1 << (Math.min(fr, tr) + 1)) - 1));
        else return false;
        const n = popcount(between);
        return t === CANNON ? n === 1 : n === 0;
      }
      case KNIGHT:
        for (let i = 0; i < 8; i++) {
          if (KNIGHT_TO[from * 8 + i] === to) return this.board[KNIGHT_LEG[from * 8 + i]] === 0;
        }
        return false;
      case BISHOP:
        for (let i = 0; i < 4; i++) {
          if (BISHOP_TO[from * 4 + i] === to) return this.board[BISHOP_EYE[from * 4 + i]] === 0;
        }
        return false;
      case ADVISOR:
        for (let i = 0; i < 4; i++) if (ADVISOR_TO[from * 4 + i] === to) return true;
        return false;
      case PAWN: {
        const base = colorOf(pc) * 270 + from * 3;
        for (let i = 0; i < 3; i++) if (PAWN_TO[base + i] === to) return true;
        return false;
      }
    }
    return false;
  }

  // ---- Move properties -----------------------------------------------------------

  /**
   * True when `m` is a pseudo-legal move in this position (right color, right
   * geometry, nothing in the way); used to validate moves from the transposition
   * table, killers and the protocol.
   */
  pseudoLegal(m: Move): boolean {
    if (m <= 0 || m >= 90 * 128) return false;
    const from = m >> 7,
      to = m & 127;
    if (to >= SQUARE_NB || from === to) return false;
    const pc = this.board[from];
    if (!pc || colorOf(pc) !== this.side) return false;
    const cap = this.board[to];
    if (cap && colorOf(cap) === this.side) return false;
    if (typeOf(cap) === KING) return false;
    const t = typeOf(pc);
    if (t === CANNON && !cap) {
      // A cannon moves like a rook when not capturing.
      const ff = FILE_OF[from],
        fr = RANK_OF[from],
        tf = FILE_OF[to],
        tr = RANK_OF[to];
      let between: number;
      if (fr === tr)
        between = this.rankOcc[fr] & (((1 << Math.max(ff, tf)) - 1) & ~((1 << (Math.min(ff, tf) + 1)) - 1));
      else if (ff === tf)
        between = this.fileOcc[ff] & (((1 << Math.max(fr, tr)) - 1) & ~((1 << (Math.min(fr, tr) + 1)) - 1));
      else return false;
      return between === 0;
    }
    if (t === KING) {
      for (let i = 0; i < 4; i++) if (KING_TO[from * 4 + i] === to) return true;
      return false;
    }
    return this.attacksFrom(from, to);
  }

  /** Is a pseudo-legal move legal (does not leave the own king attacked or facing the other king)? */
  legal(m: Move): boolean {
    const from = m >> 7,
      to = m & 127;
    const b = this.board;
    const pc = b[from];
    const us = this.side;
    if ((pc & 7) !== KING && this.checked[this.sp] === 0) {
      // Fast path: unless the move vacates a square that shields the king or
      // fills a square that would become a cannon screen, it cannot expose the king.
      if (this.dangerLo !== this.keyLo[this.sp] || this.dangerHi !== this.keyHi[this.sp]) this.computeDanger();
      const st = this.dangerStamp;
      if (this.dangerFrom[from] !== st && this.dangerTo[to] !== st) return true;
    }
    const cap = b[to];
    const ff = FILE_OF[from],
      fr = RANK_OF[from],
      tf = FILE_OF[to],
      tr = RANK_OF[to];
    b[to] = pc;
    b[from] = 0;
    this.rankOcc[fr] ^= 1 << ff;
    this.fileOcc[ff] ^= 1 << fr;
    if (!cap) {
      this.rankOcc[tr] |= 1 << tf;
      this.fileOcc[tf] |= 1 << tr;
    } else this.pieceCount[cap]--;
    const isKing = (pc & 7) === KING;
    if (isKing) this.kingSq[us] = to;
    const ok = !this.kingAttacked(us);
    if (isKing) this.kingSq[us] = from;
    b[from] = pc;
    b[to] = cap;
    this.rankOcc[fr] |= 1 << ff;
    this.fileOcc[ff] |= 1 << fr;
    if (!cap) {
      this.rankOcc[tr] ^= 1 << tf;
      this.fileOcc[tf] ^= 1 << tr;
    } else this.pieceCount[cap]++;
    return ok;
  }

  // Squares whose vacating (dangerFrom) or filling (dangerTo) could expose the
  // king of the side to move, valid while (dangerLo, dangerHi) equals the key.
  // Square s is marked when dangerFrom[s] (dangerTo[s]) equals the current stamp.
  /** @internal read only, for bulk legality in movegen (see dangerSquares()). */
  readonly dangerFrom = new Int32Array(SQUARE_NB);
  /** @internal read only, for bulk legality in movegen (see dangerSquares()). */
  readonly dangerTo = new Int32Array(SQUARE_NB);
  private dangerStamp = 0;
  /** Number of squares marked in dangerTo by the last computeDanger(). */
  private dangerToCount = 0;
  private dangerLo = 0;
  private dangerHi = 0;

  /**
   * @internal
   * For bulk legality tests (movegen): brings the danger squares of the side to
   * move up to date and returns the stamp that marks them in `dangerFrom` and
   * `dangerTo`, negated when no square is marked in `dangerTo`. While the side
   * to move is not in check, a non-king move from an unmarked square to an
   * unmarked square is legal. Meaningless while in check.
   */
  dangerSquares(): number {
    if (this.dangerLo !== this.keyLo[this.sp] || this.dangerHi !== this.keyHi[this.sp]) this.computeDanger();
    return this.dangerToCount ? this.dangerStamp : -this.dangerStamp;
  }

  private computeDanger(): void {
    // The stamp lives in Int32Arrays: restart before it would overflow int32.
    let st = this.dangerStamp + 1;
    if (st > 0x7fffffff) {
      this.dangerFrom.fill(0);
      this.dangerTo.fill(0);
      st = 1;
    }
    this.dangerStamp = st;
    this.dangerLo = this.keyLo[this.sp];
    this.dangerHi = this.keyHi[this.sp];
    const ksq = this.kingSq[this.side];
    const themBit = (this.side ^ 1) << 3;
    const kf = FILE_OF[ksq],
      kr = RANK_OF[ksq];
    // The first three pieces in each direction from the king, found with the
    // rank and file occupancy masks (lowest set bits going up, highest going down).
    const rbase = kr * 9;
    let toCount = 0;
    let bits = this.rankOcc[kr] & ~((2 << kf) - 1);
    let p1 = -1,
      p2 = -1,
      p3 = -1;
    if (bits) {
      p1 = rbase + 31 - Math.clz32(bits & -bits);
      bits &= bits - 1;
      if (bits) {
        p2 = rbase + 31 - Math.clz32(bits & -bits);
        bits &= bits - 1;
        if (bits) p3 = rbase + 31 - Math.clz32(bits & -bits);
      }
      toCount += this.dangerLine(ksq, 1, p1, p2, p3, false, st);
    }
    bits = this.rankOcc[kr] & ((1 << kf) - 1);
    if (bits) {
      let x = 31 - Math.clz32(bits);
      p1 = rbase + x;
      p2 = p3 = -1;
      bits ^= 1 << x;
      if (bits) {
        x = 31 - Math.clz32(bits);
        p2 = rbase + x;
        bits ^= 1 << x;
        if (bits) p3 = rbase + 31 - Math.clz32(bits);
      }
      toCount += this.dangerLine(ksq, -1, p1, p2, p3, false, st);
    }
    bits = this.fileOcc[kf] & ~((2 << kr) - 1);
    if (bits) {
      p1 = (31 - Math.clz32(bits & -bits)) * 9 + kf;
      p2 = p3 = -1;
      bits &= bits - 1;
      if (bits) {
        p2 = (31 - Math.clz32(bits & -bits)) * 9 + kf;
        bits &= bits - 1;
        if (bits) p3 = (31 - Math.clz32(bits & -bits)) * 9 + kf;
      }
      toCount += this.dangerLine(ksq, 9, p1, p2, p3, true, st);
    }
    bits = this.fileOcc[kf] & ((1 << kr) - 1);
    if (bits) {
      let y = 31 - Math.clz32(bits);
      p1 = y * 9 + kf;
      p2 = p3 = -1;
      bits ^= 1 << y;
      if (bits) {
        y = 31 - Math.clz32(bits);
        p2 = y * 9 + kf;
        bits ^= 1 << y;
        if (bits) p3 = (31 - Math.clz32(bits)) * 9 + kf;
      }
      toCount += this.dangerLine(ksq, -9, p1, p2, p3, true, st);
    }
    if (this.pieceCount[themBit | KNIGHT]) {
      // The legs of knight attacks on the king are its diagonal neighbours.
      if (kf > 0 && kr > 0) this.dangerFrom[ksq - 10] = st;
      if (kf < 8 && kr > 0) this.dangerFrom[ksq - 8] = st;
      if (kf > 0 && kr < 9) this.dangerFrom[ksq + 8] = st;
      if (kf < 8 && kr < 9) this.dangerFrom[ksq + 10] = st;
    }
    this.dangerToCount = toCount;
  }

  /**
   * Marks the danger squares on one line from the king (`step` apart), given the
   * first three pieces on it (p1 >= 0; p2, p3 may be -1). Returns the number of
   * squares marked in dangerTo.
   */
  private dangerLine(
    ksq: number,
    step: number,
    p1: number,
    p2: number,
    p3: number,
    onFile: boolean,
    st: number,
  ): number {
    const b = this.board;
    const usBit = this.side << 3,
      themBit = usBit ^ 8;
    const cannon = themBit | CANNON;
    const v1 = b[p1];
    const v2 = p2 >= 0 ? b[p2] : 0;
    const v3 = p3 >= 0 ? b[p3] : 0;
    let n = 0;
    if (v1 === cannon) {
      // Filling any empty square between the king and this cannon gives it a screen.
      for (let sq = ksq + step; sq !== p1; sq += step) {
        this.dangerTo[sq] = st;
        n++;
      }
    }
    // Vacating p1 (own) exposes the king to a rook or king behind it, or leaves p2 as a
    // cannon's only screen; vacating p2 (own) leaves p1 as the only screen.
    if ((v1 & 8) === usBit && (v2 === (themBit | ROOK) || v3 === cannon || (onFile && v2 === (themBit | KING)))) {
      this.dangerFrom[p1] = st;
    }
    if (v2 !== 0 && (v2 & 8) === usBit && v3 === cannon) this.dangerFrom[p2] = st;
    return n;
  }

  /** Does the (legal) move give check? */
  givesCheck(m: Move): boolean {
    const from = m >> 7,
      to = m & 127;
    const b = this.board;
    const pc = b[from];
    const them = (this.side ^ 1) as Color;
    const cap = b[to];
    const ff = FILE_OF[from],
      fr = RANK_OF[from],
      tf = FILE_OF[to],
      tr = RANK_OF[to];
    const ksq = this.kingSq[them];
    const kf = FILE_OF[ksq],
      kr = RANK_OF[ksq];
    if (ff !== kf && fr !== kr && tf !== kf && tr !== kr && (ff - kf) * (ff - kf) + (fr - kr) * (fr - kr) !== 2) {
      // Neither square is on the enemy king's rank or file and `from` is no knight
      // leg of the king (a diagonal neighbour): the lines to the king and the legs
      // stay as they are, and only a knight can check from `to` (rooks, cannons,
      // pawns and kings attack along the king's lines, advisors and bishops never).
      if ((pc & 7) !== KNIGHT) return false;
      for (let i = ksq * 8, end = i + 8; i < end; i++) {
        const s = KNIGHT_FROM[i];
        if (s < 0) break;
        if (s === to) return b[KNIGHT_FROM_LEG[i]] === 0;
      }
      return false;
    }
    b[to] = pc;
    b[from] = 0;
    this.rankOcc[fr] ^= 1 << ff;
    this.fileOcc[ff] ^= 1 << fr;
    if (!cap) {
      this.rankOcc[tr] |= 1 << tf;
      this.fileOcc[tf] |= 1 << tr;
    } else this.pieceCount[cap]--;
    const isKing = (pc & 7) === KING;
    if (isKing) this.kingSq[this.side] = to;
    const check = this.kingAttacked(them);
    if (isKing) this.kingSq[this.side] = from;
    b[from] = pc;
    b[to] = cap;
    this.rankOcc[fr] |= 1 << ff;
    this.fileOcc[ff] |= 1 << fr;
    if (!cap) {
      this.rankOcc[tr] ^= 1 << tf;
      this.fileOcc[tf] ^= 1 << tr;
    } else this.pieceCount[cap]++;
    return check;
  }

  // ---- Make / unmake --------------------------------------------------------------

  /**
   * Makes a move. `givesCheck`, when given, must be givesCheck(m) computed in
   * this position (the search has it already); it saves the check test.
   */
  doMove(m: Move, givesCheck?: boolean): void {
    const from = m >> 7,
      to = m & 127;
    const b = this.board;
    const pc = b[from];
    const cap = b[to];
    const us = this.side,
      them = (us ^ 1) as Color;
    const sp = this.sp,
      np = sp + 1;
    if (np >= this.capacity) this.allocate(this.capacity * 2);

    this.keyFilter[this.keyLo[sp] & KEY_FILTER_MASK]++;
    const zi = pc * 90;
    let lo = this.keyLo[sp] ^ SIDE_LO ^ PSQ_LO[zi + from] ^ PSQ_LO[zi + to];
    let hi = this.keyHi[sp] ^ SIDE_HI ^ PSQ_HI[zi + from] ^ PSQ_HI[zi + to];
    let pawn = this.pawnKey[sp],
      minor = this.minorKey[sp];
    let npR = this.nonPawnKeyRed[sp],
      npB = this.nonPawnKeyBlack[sp];
    const pt = pc & 7;
    const moveZ = PSQ_LO[zi + from] ^ PSQ_LO[zi + to];
    if (pt === PAWN) pawn ^= moveZ;
    else {
      if (us === RED) npR ^= moveZ;
      else npB ^= moveZ;
      if (pt === KNIGHT || pt === CANNON) minor ^= moveZ;
    }

    const ff = FILE_OF[from],
      fr = RANK_OF[from],
      tf = FILE_OF[to],
      tr = RANK_OF[to];
    if (cap) {
      const ci = cap * 90 + to;
      lo ^= PSQ_LO[ci];
      hi ^= PSQ_HI[ci];
      const ct = cap & 7;
      if (ct === PAWN) pawn ^= PSQ_LO[ci];
      else {
        if (them === RED) npR ^= PSQ_LO[ci];
        else npB ^= PSQ_LO[ci];
        if (ct === KNIGHT || ct === CANNON) minor ^= PSQ_LO[ci];
        if (ct & 1) this.majorMaterial[them] -= PIECE_VALUE[cap];
      }
      this.pieceCount[cap]--;
      this.pieceBits[cap * 3 + (to >> 5)] ^= 1 << (to & 31);
      // Remove the captured piece from its list.
      const idx = this.listIndex[to];
      const last = this.listSq[them * 16 + --this.listCount[them]];
      this.listSq[them * 16 + idx] = last;
      this.listIndex[last] = idx;
      this.capturedIndex[np] = idx;
    } else {
      this.rankOcc[tr] |= 1 << tf;
      this.fileOcc[tf] |= 1 << tr;
    }
    this.rankOcc[fr] ^= 1 << ff;
    this.fileOcc[ff] ^= 1 << fr;
    b[from] = 0;
    b[to] = pc;
    this.pieceBits[pc * 3 + (from >> 5)] ^= 1 << (from & 31);
    this.pieceBits[pc * 3 + (to >> 5)] ^= 1 << (to & 31);
    const mi = this.listIndex[from];
    this.listSq[us * 16 + mi] = to;
    this.listIndex[to] = mi;
    if (pt === KING) this.kingSq[us] = to;
    this.side = them;
    this.gamePly++;

    this.sp = np;
    this.keyLo[np] = lo;
    this.keyHi[np] = hi;
    this.pawnKey[np] = pawn;
    this.minorKey[np] = minor;
    this.nonPawnKeyRed[np] = npR;
    this.nonPawnKeyBlack[np] = npB;
    this.captured[np] = cap;
    this.moveAt[np] = m;
    if (givesCheck === undefined) givesCheck = this.kingAttacked(them);
    this.checked[np] = givesCheck ? 1 : 0;
    this.pliesFromNull[np] = this.pliesFromNull[sp] + 1;

    // 60-move rule counter with Pikafish's exemption: a side's checks beyond ten
    // are not counted, nor the replies to them; a capture resets everything.
    if (cap) {
      this.rule60[np] = 0;
      this.check10Red[np] = 0;
      this.check10Black[np] = 0;
    } else {
      let r60 = this.rule60[sp];
      let c10us = us === RED ? this.check10Red[sp] : this.check10Black[sp];
      let c10them = us === RED ? this.check10Black[sp] : this.check10Red[sp];
      if (!givesCheck || ++c10us <= 10) {
        if (c10them > 10 && this.checked[sp]) ++c10them;
        else ++r60;
      }
      this.rule60[np] = r60;
      if (us === RED) {
        this.check10Red[np] = c10us;
        this.check10Black[np] = c10them;
      } else {
        this.check10Black[np] = c10us;
        this.check10Red[np] = c10them;
      }
    }
  }

  undoMove(m: Move): void {
    const from = m >> 7,
      to = m & 127;
    const b = this.board;
    const pc = b[to];
    const cap = this.captured[this.sp];
    const them = this.side,
      us = (them ^ 1) as Color;
    const ff = FILE_OF[from],
      fr = RANK_OF[from],
      tf = FILE_OF[to],
      tr = RANK_OF[to];
    b[from] = pc;
    b[to] = cap;
    this.pieceBits[pc * 3 + (from >> 5)] ^= 1 << (from & 31);
    this.pieceBits[pc * 3 + (to >> 5)] ^= 1 << (to & 31);
    this.rankOcc[fr] |= 1 << ff;
    this.fileOcc[ff] |= 1 << fr;
    const mi = this.listIndex[to];
    this.listSq[us * 16 + mi] = from;
    this.listIndex[from] = mi;
    if (cap) {
      // Put the captured piece back at its old place in the list, and the piece
      // that had filled that place back at the end, so the list order is exactly
      // what it was before the move (whatever walks the lists sees the same order).
      const n = this.listCount[them]++;
      const idx = this.capturedIndex[this.sp];
      const moved = this.listSq[them * 16 + idx];
      this.listSq[them * 16 + n] = moved;
      this.listIndex[moved] = n;
      this.listSq[them * 16 + idx] = to;
      this.listIndex[to] = idx;
      this.pieceCount[cap]++;
      this.pieceBits[cap * 3 + (to >> 5)] ^= 1 << (to & 31);
      const ct = cap & 7;
      if (ct & 1 && ct !== KING) this.majorMaterial[them] += PIECE_VALUE[cap];
    } else {
      this.rankOcc[tr] ^= 1 << tf;
      this.fileOcc[tf] ^= 1 << tr;
    }
    if ((pc & 7) === KING) this.kingSq[us] = from;
    this.side = us;
    this.gamePly--;
    this.sp--;
    this.keyFilter[this.keyLo[this.sp] & KEY_FILTER_MASK]--;
  }

  /** @internal */
  doNullMove(): void {
    const sp = this.sp,
      np = sp + 1;
    if (np >= this.capacity) this.allocate(this.capacity * 2);
    this.keyFilter[this.keyLo[sp] & KEY_FILTER_MASK]++;
    this.keyLo[np] = this.keyLo[sp] ^ SIDE_LO;
    this.keyHi[np] = this.keyHi[sp] ^ SIDE_HI;
    this.pawnKey[np] = this.pawnKey[sp];
    this.minorKey[np] = this.minorKey[sp];
    this.nonPawnKeyRed[np] = this.nonPawnKeyRed[sp];
    this.nonPawnKeyBlack[np] = this.nonPawnKeyBlack[sp];
    this.captured[np] = 0;
    this.moveAt[np] = MOVE_NULL;
    this.checked[np] = 0;
    this.rule60[np] = this.rule60[sp];
    this.check10Red[np] = this.check10Red[sp];
    this.check10Black[np] = this.check10Black[sp];
    this.pliesFromNull[np] = 0;
    this.sp = np;
    this.side = (this.side ^ 1) as Color;
    this.gamePly++;
  }

  /** @internal */
  undoNullMove(): void {
    this.sp--;
    this.keyFilter[this.keyLo[this.sp] & KEY_FILTER_MASK]--;
    this.side = (this.side ^ 1) as Color;
    this.gamePly--;
  }

  /**
   * @internal Takes the last move (or null move) back and returns it, for
   * redoLast() to make again after looking at the position before it.
   */
  undoLast(): Move {
    const m = this.moveAt[this.sp];
    if (m === MOVE_NULL) this.undoNullMove();
    else this.undoMove(m);
    return m;
  }

  /**
   * @internal Makes again the move undoLast() took back, with the check flag its
   * state-stack entry still holds: the state is rebuilt exactly as it was.
   */
  redoLast(m: Move): void {
    if (m === MOVE_NULL) this.doNullMove();
    else this.doMove(m, this.checked[this.sp + 1] === 1);
  }

  /** @internal Key after a move, without making it (for prefetch-like uses and tests). */
  keyAfter(m: Move): number {
    const from = m >> 7,
      to = m & 127;
    const pc = this.board[from],
      cap = this.board[to];
    let k = this.keyLo[this.sp] ^ SIDE_LO ^ PSQ_LO[pc * 90 + from] ^ PSQ_LO[pc * 90 + to];
    if (cap) k ^= PSQ_LO[cap * 90 + to];
    return k;
  }

  /** @internal Recomputes the key from scratch (for tests of the incremental update). */
  computeKey(): [number, number] {
    let lo = 0,
      hi = 0;
    for (let s = 0; s < SQUARE_NB; s++) {
      const pc = this.board[s];
      if (pc) {
        lo ^= PSQ_LO[pc * 90 + s];
        hi ^= PSQ_HI[pc * 90 + s];
      }
    }
    if (this.side === BLACK) {
      lo ^= SIDE_LO;
      hi ^= SIDE_HI;
    }
    return [lo, hi];
  }

  // ---- Static exchange evaluation ----------------------------------------------------

  // Blockers of attacks on each king (pieces whose removal would expose it) and
  // the enemy pieces pinning them, as Pikafish's blockersForKing/pinners; used
  // by SEE so that pinned pieces do not recapture while their pinner stands.
  private readonly blockersOf = [new Int32Array(SQUARE_NB), new Int32Array(SQUARE_NB)];
  private readonly pinners = new Int8Array(32);
  private readonly pinnerPiece = new Uint8Array(32);
  private readonly pinnerCount = new Int32Array(2);
  private readonly rayScratch = new Int8Array(10);
  private pinStamp = 0;
  private pinLo = 0;
  private pinHi = 0;

  private computePins(): void {
    let st = this.pinStamp + 1;
    if (st > 0x7fffffff) {
      this.blockersOf[0].fill(0);
      this.blockersOf[1].fill(0);
      st = 1;
    }
    this.pinStamp = st;
    this.pinLo = this.keyLo[this.sp];
    this.pinHi = this.keyHi[this.sp];
    const b = this.board;
    const ray = this.rayScratch;
    for (let c = 0; c < 2; c++) {
      const blockers = this.blockersOf[c];
      const ksq = this.kingSq[c];
      const usBit = c << 3,
        themBit = usBit ^ 8;
      const rook = themBit | ROOK,
        cannon = themBit | CANNON,
        king = themBit | KING,
        knight = themBit | KNIGHT;
      let np = 0;
      const kf = FILE_OF[ksq],
        kr = RANK_OF[ksq];
      for (let dir = 0; dir < 4; dir++) {
        // The occupied squares from the king outwards, read from the occupancy
        // masks: along the rank (dir 0 files up, 1 down), along the file (dir 2
        // ranks up, 3 down). Bit x of the mask is square base + x * stride.
        const onRank = dir < 2;
        const occ = onRank ? this.rankOcc[kr] : this.fileOcc[kf];
        const k = onRank ? kf : kr,
          base = onRank ? kr * 9 : kf,
          stride = onRank ? 1 : 9;
        let n = 0;
        if ((dir & 1) === 0) {
          for (let bits = occ & ~((2 << k) - 1); bits !== 0; bits &= bits - 1) {
            ray[n++] = base + (31 - Math.clz32(bits & -bits)) * stride;
          }
        } else {
          for (let bits = occ & ((1 << k) - 1); bits !== 0;) {
            const x = 31 - Math.clz32(bits);
            ray[n++] = base + x * stride;
            bits ^= 1 << x;
          }
        }
        let plain = 0; // pieces so far that are not rook/king snipers
        let lastPlain = -1;
        for (let j = 0; j < n; j++) {
          const sq = ray[j];
          const p = b[sq];
          if (p === rook || p === king) {
            if (plain === 1) {
              blockers[lastPlain] = st;
              if ((b[lastPlain] & 8) === usBit) {
                this.pinners[c * 16 + np] = sq;
                this.pinnerPiece[c * 16 + np++] = p;
              }
            }
            continue;
          }
          if (p === cannon && j === 2) {
            blockers[ray[0]] = st;
            blockers[ray[1]] = st;
            if ((b[ray[0]] & 8) === usBit || (b[ray[1]] & 8) === usBit) {
              this.pinners[c * 16 + np] = sq;
              this.pinnerPiece[c * 16 + np++] = p;
            }
          }
          plain++;
          lastPlain = sq;
        }
      }
      if (this.pieceCount[knight]) {
        for (let i = 0; i < 8; i++) {
          const s = KNIGHT_FROM[ksq * 8 + i];
          if (s < 0) break;
          const leg = KNIGHT_FROM_LEG[ksq * 8 + i];
          if (b[s] === knight && b[leg] !== 0) {
            blockers[leg] = st;
            if ((b[leg] & 8) === usBit) {
              this.pinners[c * 16 + np] = s;
              this.pinnerPiece[c * 16 + np++] = knight;
            }
          }
        }
      }
      this.pinnerCount[c] = np;
    }
  }

  /** Is some piece pinning color c's pieces still on its square (the capture square counts as vacated)? */
  private pinnerStands(c: number, to: number): boolean {
    for (let i = 0; i < this.pinnerCount[c]; i++) {
      const s = this.pinners[c * 16 + i];
      if (s !== to && this.board[s] === this.pinnerPiece[c * 16 + i]) return true;
    }
    return false;
  }

  private seeRemoved = new Int8Array(40);
  private seeRemovedPiece = new Uint8Array(40);

  /**
   * Static exchange evaluation as a threshold test: is the material balance of the
   * capture sequence on the destination square, started by `m`, at least
   * `threshold`? Both sides may stop capturing when it suits them. Pikafish's
   * see_ge, answer for answer: the capturing pieces come in its order (the cannon
   * before the knight, see leastAttacker), pinned pieces stay out while their
   * pinner stands, and a king's capture is judged with the king on its square.
   */
  seeGe(m: Move, threshold = 0): boolean {
    const from = m >> 7,
      to = m & 127;
    const b = this.board;
    let swap = PIECE_VALUE[b[to]] - threshold;
    if (swap < 0) return false;
    swap = PIECE_VALUE[b[from]] - swap;
    if (swap <= 0) return true;

    let nRemoved = 0;
    // The moving piece leaves `from`; the destination stays occupied throughout.
    this.seeRemoved[nRemoved] = from;
    this.seeRemovedPiece[nRemoved++] = b[from];
    this.hideSee(from);
    let stm = this.side as number;
    let res = 1;
    for (;;) {
      stm ^= 1;
      let sq = this.leastAttacker(to, stm);
      if (sq < 0) break;
      // Pinned pieces may not recapture while their pinner stands (Pikafish's
      // rule). The pins are worked out only when some piece can recapture;
      // the least attacker is looked for again only when it is a pinned one.
      if (this.pinLo !== this.keyLo[this.sp] || this.pinHi !== this.keyHi[this.sp]) this.computePinsBefore(nRemoved);
      if (this.blockersOf[stm][sq] === this.pinStamp && this.pinnerCount[stm] > 0 && this.pinnerStands(stm, to)) {
        sq = this.leastAttacker(to, stm, this.blockersOf[stm], this.pinStamp);
        if (sq < 0) break;
      }
      let isKing = false;
      const apc = b[sq];
      if ((apc & 7) === KING) isKing = true;
      res ^= 1;
      if (isKing) {
        // The king may only capture when the opponent has no attacker left,
        // including the other king along an open file. As in Pikafish, that is
        // judged with the king still on its square (a cannon that has it as its
        // screen counts as an attacker).
        const opp = stm ^ 1;
        const defended = this.leastAttacker(to, opp) >= 0 || this.kingSeesOnFile(opp, to);
        if (defended) res ^= 1;
        break;
      }
      swap = PIECE_VALUE[apc] - swap;
      if (swap < res) break;
      this.seeRemoved[nRemoved] = sq;
      this.seeRemovedPiece[nRemoved++] = apc;
      this.hideSee(sq);
    }
    this.restoreSee(nRemoved);
    return res === 1;
  }

  /** computePins() for the position itself: the first `nRemoved` pieces lifted by seeGe() are put back meanwhile. */
  private computePinsBefore(nRemoved: number): void {
    this.restoreSee(nRemoved);
    this.computePins();
    for (let i = 0; i < nRemoved; i++) this.hideSee(this.seeRemoved[i]);
  }

  /** Puts back the first `nRemoved` pieces lifted by seeGe(), last lifted first. */
  private restoreSee(nRemoved: number): void {
    const b = this.board;
    for (let i = nRemoved - 1; i >= 0; i--) {
      const s = this.seeRemoved[i];
      const p = this.seeRemovedPiece[i];
      b[s] = p;
      this.rankOcc[RANK_OF[s]] |= 1 << FILE_OF[s];
      this.fileOcc[FILE_OF[s]] |= 1 << RANK_OF[s];
      this.pieceCount[p]++;
    }
  }

  private hideSee(s: number): void {
    const p = this.board[s];
    this.board[s] = 0;
    this.rankOcc[RANK_OF[s]] &= ~(1 << FILE_OF[s]);
    this.fileOcc[FILE_OF[s]] &= ~(1 << RANK_OF[s]);
    this.pieceCount[p]--;
  }

  // ---- Debug helpers ----------------------------------------------------------------

  /** @internal Checks internal consistency (tests only). Returns null or a description of the problem. */
  validate(): string | null {
    const rank = new Int32Array(10),
      file = new Int32Array(9),
      counts = new Int32Array(16),
      bits = new Int32Array(16 * 3);
    for (let s = 0; s < SQUARE_NB; s++) {
      const p = this.board[s];
      if (!p) continue;
      bits[p * 3 + (s >> 5)] |= 1 << (s & 31);
      rank[RANK_OF[s]] |= 1 << FILE_OF[s];
      file[FILE_OF[s]] |= 1 << RANK_OF[s];
      counts[p]++;
      const c = colorOf(p);
      if (this.listSq[c * 16 + this.listIndex[s]] !== s) return `piece list broken at ${squareName(s)}`;
      if ((p & 7) === KING && this.kingSq[c] !== s) return 'king square broken';
    }
    for (let r = 0; r < 10; r++) if (rank[r] !== this.rankOcc[r]) return `rank occupancy broken on rank ${r}`;
    for (let f = 0; f < 9; f++) if (file[f] !== this.fileOcc[f]) return `file occupancy broken on file ${f}`;
    for (let p = 0; p < 16; p++) if (counts[p] !== this.pieceCount[p]) return `piece count broken for ${p}`;
    for (let i = 0; i < 16 * 3; i++)
      if (bits[i] !== this.pieceBits[i]) return `piece squares broken for ${(i / 3) | 0}`;
    for (const c of [RED, BLACK]) {
      let n = 0;
      for (let p = 1; p <= 7; p++) n += counts[(c << 3) | p];
      if (n !== this.listCount[c]) return 'piece list length broken';
    }
    const [lo, hi] = this.computeKey();
    if (lo !== this.keyLo[this.sp] || hi !== this.keyHi[this.sp]) return 'key broken';
    if ((this.checked[this.sp] === 1) !== this.kingAttacked(this.side)) return 'check flag broken';
    return null;
  }
}
