// The staged move picker: hands out pseudo-legal moves one at a time, best
// first, generating and scoring them lazily so that a beta cutoff early in the
// list saves the work for the rest (Pikafish's movepick.cpp).
//
// Main search:  TT move, good captures (SEE >= -score/18, by capture history and
//               victim value), good quiets (histories, check bonus, threats),
//               bad captures, bad quiets.
// In check:     TT move, then every evasion candidate (captures by victim value,
//               then quiets by history).
// Quiescence:   TT move, then captures.
// ProbCut:      TT move if it is a capture, then captures with SEE >= threshold.
// The moves are pseudo-legal: the search checks pos.legal() before playing.

import {
  ADVISOR_TO,
  BISHOP_EYE,
  BISHOP_TO,
  KNIGHT_FROM,
  KNIGHT_FROM_LEG,
  KNIGHT_LEG,
  KNIGHT_TO,
  PAWN_TO,
} from '../core/attacks.js';
import { generate } from '../core/movegen.js';
import type { Position } from '../core/position.js';
import {
  ADVISOR,
  BISHOP,
  CANNON,
  FILE_OF,
  GEN_CAPTURES,
  GEN_EVASIONS,
  GEN_QUIETS,
  KING,
  KNIGHT,
  MAX_MOVES,
  MOVE_NONE,
  PAWN,
  PIECE_VALUE,
  RANK_OF,
  ROOK,
  type Move,
} from '../core/types.js';
import {
  BUTTERFLY,
  CONT_HISTORY_START,
  Histories,
  LOW_PLY_HISTORY_SIZE,
  PAWN_HISTORY_START,
  pawnHistoryBase,
} from './history.js';

/** What a quiet move's score adds back for its two pawn and five continuation entries (tables stored relative to it). */
const QUIET_START = 2 * PAWN_HISTORY_START + 5 * CONT_HISTORY_START;

const STAGE_MAIN_TT = 0;
const CAPTURE_INIT = 1;
const GOOD_CAPTURE = 2;
const QUIET_INIT = 3;
const GOOD_QUIET = 4;
const BAD_CAPTURE = 5;
const BAD_QUIET = 6;
const STAGE_EVASION_TT = 7;
const EVASION_INIT = 8;
const EVASION = 9;
const STAGE_PROBCUT_TT = 10;
const PROBCUT_INIT = 11;
const PROBCUT = 12;
const STAGE_QSEARCH_TT = 13;
const QCAPTURE_INIT = 14;
const QCAPTURE = 15;
const STAGE_END = 16;

const INT_MIN = -2147483648;

// ---- Scratch maps for quiet scoring (one picker scores at a time) ----------
/**
 * checkSq[pt * 90 + sq] === the stamp `computeCheckSquares` returned: a piece of
 * type pt moving to sq gives check.
 *
 * A cache kept on purpose: the running stamp spares clearing the 720-entry map
 * before each quiet scoring. `bench` scores quiets 367,000 times; a fill(0) of
 * the map costs about 100 ns (CPU time on the 2-core development machine), some
 * 37 ms a bench or 0.2% of its CPU time, on the search's hot path.
 */
const checkSq = new Int32Array(8 * 90);
let checkStamp = 0;
/** Bits of enemy attacks on a square: 1 = pawn, 2 = advisor/bishop, 4 = knight/cannon. */
const threatBits = new Uint8Array(90);
/** Which threat bits count as "attacked by a lesser piece" for each moving piece type. */
const LESSER = new Uint8Array([0, 7, 1, 3, 0, 3, 1, 0]);

const DIR_DF = [1, -1, 0, 0];
const DIR_DR = [0, 0, 1, -1];

/**
 * Marks the squares where a piece of the side to move would check the enemy king
 * (Pikafish's check_squares) in `checkSq`; returns the stamp that marks them.
 */
function computeCheckSquares(pos: Position): number {
  if (++checkStamp > 0x3fffffff) {
    // Before the stamp outgrows the Int32Array's range: start the marks afresh.
    checkSq.fill(0);
    checkStamp = 1;
  }
  const st = checkStamp;
  const b = pos.board;
  const us = pos.side;
  const ksq = pos.kingSq[us ^ 1];
  const kf = FILE_OF[ksq],
    kr = RANK_OF[ksq];
  // Pawns: a pawn of ours attacks the king from behind it (towards our side) or beside it.
  const back = us === 0 ? ksq - 9 : ksq + 9;
  if (back >= 0 && back < 90) checkSq[PAWN * 90 + back] = st;
  if (kf > 0) checkSq[PAWN * 90 + ksq - 1] = st;
  if (kf < 8) checkSq[PAWN * 90 + ksq + 1] = st;
  // Knights: squares a knight attacks the king from, with a free leg.
  for (let i = 0; i < 8; i++) {
    const s = KNIGHT_FROM[ksq * 8 + i];
    if (s < 0) break;
    if (b[KNIGHT_FROM_LEG[ksq * 8 + i]] === 0) checkSq[KNIGHT * 90 + s] = st;
  }
  // Rooks and cannons: walk the four lines from the king.
  const usBit = us << 3;
  for (let d = 0; d < 4; d++) {
    const df = DIR_DF[d],
      dr = DIR_DR[d];
    let f = kf + df,
      r = kr + dr;
    let screen = false;
    while (f >= 0 && f < 9 && r >= 0 && r < 10) {
      const s = r * 9 + f;
      if (!screen) checkSq[ROOK * 90 + s] = st;
      else checkSq[CANNON * 90 + s] = st;
      const p = b[s];
      if (p !== 0) {
        if (screen) break;
        screen = true;
        if (p === (usBit | CANNON)) {
          // Hollow cannon: any piece dropped between it and the king gives check.
          let f2 = kf + df,
            r2 = kr + dr;
          while (r2 * 9 + f2 !== s) {
            const s2 = r2 * 9 + f2;
            for (let pt = ROOK; pt < KING; pt++) checkSq[pt * 90 + s2] = st;
            f2 += df;
            r2 += dr;
          }
        }
      }
      f += df;
      r += dr;
    }
  }
  return st;
}

/** Marks the squares attacked by the opponent's pawns, advisors/bishops and knights/cannons. */
function computeThreats(pos: Position): void {
  threatBits.fill(0);
  const b = pos.board;
  const them = pos.side ^ 1;
  const n = pos.listCount[them];
  for (let i = 0; i < n; i++) {
    const s = pos.listSq[them * 16 + i];
    const pt = b[s] & 7;
    switch (pt) {
      case PAWN:
        for (let k = 0; k < 3; k++) {
          const t = PAWN_TO[them * 270 + s * 3 + k];
          if (t < 0) break;
          threatBits[t] |= 1;
        }
        break;
      case ADVISOR:
        for (let k = 0; k < 4; k++) {
          const t = ADVISOR_TO[s * 4 + k];
          if (t < 0) break;
          threatBits[t] |= 2;
        }
        break;
      case BISHOP:
        for (let k = 0; k < 4; k++) {
          const t = BISHOP_TO[s * 4 + k];
          if (t < 0) break;
          if (b[BISHOP_EYE[s * 4 + k]] === 0) threatBits[t] |= 2;
        }
        break;
      case KNIGHT:
        for (let k = 0; k < 8; k++) {
          const t = KNIGHT_TO[s * 8 + k];
          if (t < 0) break;
          if (b[KNIGHT_LEG[s * 8 + k]] === 0) threatBits[t] |= 4;
        }
        break;
      case CANNON: {
        const f0 = FILE_OF[s],
          r0 = RANK_OF[s];
        for (let d = 0; d < 4; d++) {
          const df = DIR_DF[d],
            dr = DIR_DR[d];
          let f = f0 + df,
            r = r0 + dr;
          let screen = false;
          while (f >= 0 && f < 9 && r >= 0 && r < 10) {
            const t = r * 9 + f;
            if (screen) threatBits[t] |= 4;
            if (b[t] !== 0) {
              if (screen) break;
              screen = true;
            }
            f += df;
            r += dr;
          }
        }
        break;
      }
    }
  }
}

export class MovePicker {
  readonly moves = new Int32Array(MAX_MOVES);
  readonly values = new Int32Array(MAX_MOVES);
  private pos!: Position;
  private h!: Histories;
  private ttMove = MOVE_NONE;
  private depth = 0;
  private ply = 0;
  private threshold = 0;
  private stage = STAGE_END;
  private cur = 0;
  private endCur = 0;
  private endBadCaptures = 0;
  private endBadQuiets = 0;
  private skipQuiets = false;
  // Continuation history table offsets for the moves 1..6 plies back.
  private c0 = 0;
  private c1 = 0;
  private c2 = 0;
  private c3 = 0;
  private c5 = 0;
  private pawnBase = 0;

  /**
   * Main search (depth > 0) and quiescence search (depth <= 0) picker; evasions
   * when in check. `cont` holds continuation-history offsets of the search
   * stack and `ci` is the current node's index in it (cont[ci - k] = k plies back).
   */
  init(pos: Position, h: Histories, ttm: Move, depth: number, ply: number, cont: Int32Array, ci: number): void {
    this.pos = pos;
    this.h = h;
    this.depth = depth;
    this.ply = ply;
    this.skipQuiets = false;
    this.c0 = cont[ci - 1];
    this.c1 = cont[ci - 2];
    this.c2 = cont[ci - 3];
    this.c3 = cont[ci - 4];
    this.c5 = cont[ci - 6];
    this.pawnBase = pawnHistoryBase(pos.pawnKey[pos.sp]);
    const ttOk = ttm !== MOVE_NONE && pos.pseudoLegal(ttm);
    this.ttMove = ttOk ? ttm : MOVE_NONE;
    if (pos.checked[pos.sp]) this.stage = STAGE_EVASION_TT + (ttOk ? 0 : 1);
    else this.stage = (depth > 0 ? STAGE_MAIN_TT : STAGE_QSEARCH_TT) + (ttOk ? 0 : 1);
  }

  /** ProbCut picker: captures whose SEE is at least `threshold` (not in check). */
  initProbCut(pos: Position, h: Histories, ttm: Move, threshold: number): void {
    this.pos = pos;
    this.h = h;
    this.threshold = threshold;
    this.skipQuiets = false;
    const ttOk = ttm !== MOVE_NONE && pos.pseudoLegal(ttm) && pos.isCapture(ttm);
    this.ttMove = ttOk ? ttm : MOVE_NONE;
    this.stage = STAGE_PROBCUT_TT + (ttOk ? 0 : 1);
  }

  skipQuietMoves(): void {
    this.skipQuiets = true;
  }

  private scoreCaptures(end: number): void {
    const b = this.pos.board;
    const capH = this.h.capture;
    const mv = this.moves,
      val = this.values;
    for (let i = this.cur; i < end; i++) {
      const m = mv[i];
      const to = m & 127;
      const pc = b[m >> 7];
      const cap = b[to];
      val[i] = capH[(pc * 90 + to) * 8 + (cap & 7)] + 7 * PIECE_VALUE[cap];
    }
  }

  private scoreQuiets(end: number): void {
    const pos = this.pos;
    const b = pos.board;
    const us = pos.side;
    const h = this.h;
    const main = h.main,
      cont = h.cont,
      pawn = h.pawn,
      lowPly = h.lowPly;
    const mainBase = us * BUTTERFLY;
    const c0 = this.c0,
      c1 = this.c1,
      c2 = this.c2,
      c3 = this.c3,
      c5 = this.c5;
    const pawnBase = this.pawnBase;
    const ply = this.ply;
    const lowBase = ply * BUTTERFLY;
    const st = computeCheckSquares(pos);
    computeThreats(pos);
    const ksq = pos.kingSq[us ^ 1];
    const kf = FILE_OF[ksq],
      kr = RANK_OF[ksq];
    const mv = this.moves,
      val = this.values;
    for (let i = this.cur; i < end; i++) {
      const m = mv[i];
      const from = m >> 7,
        to = m & 127;
      const pc = b[from];
      const pt = pc & 7;
      const pi = pc * 90 + to;
      // pawn and cont are stored relative to their starting values (QUIET_START adds them back).
      let v = 2 * main[mainBase + m] + 2 * pawn[pawnBase + pi] + QUIET_START;
      v += cont[c0 + pi] + cont[c1 + pi] + cont[c2 + pi] + cont[c3 + pi] + cont[c5 + pi];
      // Bonus for checks (a cannon sliding along its line to the king does not count).
      if (checkSq[pt * 90 + to] === st) {
        const alongLine =
          pt === CANNON &&
          ((FILE_OF[from] === kf && FILE_OF[to] === kf) || (RANK_OF[from] === kr && RANK_OF[to] === kr));
        if (!alongLine && pos.seeGe(m, -75)) v += 16384;
      }
      // Penalty for moving onto a square attacked by a lesser piece, bonus for leaving one.
      const lesser = LESSER[pt];
      if (lesser) {
        const t = ((threatBits[from] & lesser) !== 0 ? 1 : 0) - ((threatBits[to] & lesser) !== 0 ? 1 : 0);
        v += PIECE_VALUE[pt] * 20 * t;
      }
      if (ply < LOW_PLY_HISTORY_SIZE) v += ((8 * lowPly[lowBase + m]) / (1 + ply)) | 0;
      val[i] = v;
    }
  }

  private scoreEvasions(end: number): void {
    const pos = this.pos;
    const b = pos.board;
    const main = this.h.main,
      cont = this.h.cont;
    const mainBase = pos.side * BUTTERFLY;
    const c0 = this.c0;
    const mv = this.moves,
      val = this.values;
    for (let i = this.cur; i < end; i++) {
      const m = mv[i];
      const to = m & 127;
      const cap = b[to];
      if (cap) val[i] = PIECE_VALUE[cap] + (1 << 28);
      else val[i] = main[mainBase + m] + cont[c0 + b[m >> 7] * 90 + to] + CONT_HISTORY_START;
    }
  }

  /** Sorts [begin, end) descending for values >= limit; the rest follow in no particular order. */
  private partialSort(begin: number, end: number, limit: number): void {
    const mv = this.moves,
      val = this.values;
    let sortedEnd = begin;
    for (let p = begin + 1; p < end; p++) {
      if (val[p] >= limit) {
        const tm = mv[p],
          tv = val[p];
        sortedEnd++;
        mv[p] = mv[sortedEnd];
        val[p] = val[sortedEnd];
        let q = sortedEnd;
        while (q !== begin && val[q - 1] < tv) {
          mv[q] = mv[q - 1];
          val[q] = val[q - 1];
          q--;
        }
        mv[q] = tm;
        val[q] = tv;
      }
    }
  }

  /** The next pseudo-legal move, or MOVE_NONE when there are no more. */
  nextMove(): Move {
    const mv = this.moves;
    for (;;) {
      switch (this.stage) {
        case STAGE_MAIN_TT:
        case STAGE_EVASION_TT:
        case STAGE_QSEARCH_TT:
        case STAGE_PROBCUT_TT:
          this.stage++;
          return this.ttMove;

        case CAPTURE_INIT:
        case PROBCUT_INIT:
        case QCAPTURE_INIT: {
          this.cur = this.endBadCaptures = 0;
          this.endCur = generate(this.pos, GEN_CAPTURES, mv, 0);
          this.scoreCaptures(this.endCur);
          this.partialSort(0, this.endCur, INT_MIN);
          this.stage++;
          continue;
        }

        case GOOD_CAPTURE: {
          const pos = this.pos;
          while (this.cur < this.endCur) {
            const m = mv[this.cur];
            const v = this.values[this.cur];
            this.cur++;
            if (m === this.ttMove) continue;
            if (pos.seeGe(m, 0 - ((v / 18) | 0))) return m;
            // Losing capture: keep it for the BAD_CAPTURE stage.
            mv[this.endBadCaptures] = m;
            this.values[this.endBadCaptures++] = v;
          }
          this.stage = QUIET_INIT;
          continue;
        }

        case QUIET_INIT:
          if (!this.skipQuiets) {
            this.cur = this.endBadQuiets = this.endBadCaptures;
            this.endCur = generate(this.pos, GEN_QUIETS, mv, this.cur);
            this.scoreQuiets(this.endCur);
            this.partialSort(this.cur, this.endCur, -3330 * this.depth);
          }
          this.stage = GOOD_QUIET;
          continue;

        case GOOD_QUIET:
          if (!this.skipQuiets) {
            while (this.cur < this.endCur) {
              const m = mv[this.cur];
              const v = this.values[this.cur];
              this.cur++;
              if (m === this.ttMove) continue;
              if (v > -14000) return m;
              mv[this.endBadQuiets] = m;
              this.values[this.endBadQuiets++] = v;
            }
          }
          this.cur = 0;
          this.endCur = this.endBadCaptures;
          this.stage = BAD_CAPTURE;
          continue;

        case BAD_CAPTURE:
          while (this.cur < this.endCur) {
            const m = mv[this.cur++];
            if (m !== this.ttMove) return m;
          }
          this.cur = this.endBadCaptures;
          this.endCur = this.endBadQuiets;
          this.stage = BAD_QUIET;
          continue;

        case BAD_QUIET:
          if (!this.skipQuiets) {
            while (this.cur < this.endCur) {
              const m = mv[this.cur++];
              if (m !== this.ttMove) return m;
            }
          }
          this.stage = STAGE_END;
          return MOVE_NONE;

        case EVASION_INIT:
          this.cur = 0;
          this.endCur = generate(this.pos, GEN_EVASIONS, mv, 0);
          this.scoreEvasions(this.endCur);
          this.partialSort(0, this.endCur, INT_MIN);
          this.stage = EVASION;
          continue;

        case EVASION:
        case QCAPTURE:
          while (this.cur < this.endCur) {
            const m = mv[this.cur++];
            if (m !== this.ttMove) return m;
          }
          return MOVE_NONE;

        case PROBCUT: {
          const pos = this.pos;
          while (this.cur < this.endCur) {
            const m = mv[this.cur++];
            if (m !== this.ttMove && pos.seeGe(m, this.threshold)) return m;
          }
          return MOVE_NONE;
        }

        default:
          return MOVE_NONE;
      }
    }
  }
}
