// Chase detection: which enemy pieces a side "chases" (threatens to win) on the
// current board, following the definition of Pikafish's rule book (the
// ComputerRule) which the other rule sets build on:
//
// - attackers are all pieces except the king and the pawns (both may chase freely);
// - targets are enemy pieces other than the king, and enemy pawns only once they
//   have crossed the river;
// - an attacker pinned against its own king only chases the pinning piece;
// - the capture must not expose the attacker's own king;
// - knights and cannons chase rooks, and advisors and bishops chase rooks, knights
//   and cannons, even when the target is protected;
// - otherwise the target must be unprotected (no legal recapture), and an attack
//   on a piece of the same type only counts when it is not mutual (the target
//   cannot legally capture back, or it is a knight whose leg is blocked).
//
// Pieces are identified by an id (0..15 per color) fixed when a cycle analysis
// starts, so that "the same piece" can be followed while it moves; the result of
// `chasedMask` is a bit set of the ids of the chased enemy pieces.
//
// Nothing here allocates: the two scratch arrays (a line's pieces, a piece's
// targets) are written before they are read within a call, and trial moves are
// made directly on the position's board arrays and undone. The one state that
// outlives a call is `idBoard`, the piece ids, which the caller numbers
// (`assignIds`) and follows through moves (`moveId`); the pins are found by id.

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
  RANK_CANNON_CAP,
  RANK_ROOK_CAP,
} from './attacks.js';
import type { Position } from './position.js';
import { ADVISOR, BISHOP, CANNON, FILE_OF, KING, KNIGHT, PAWN, RANK_OF, RED, ROOK, type Color } from './types.js';

/** Piece id per square (valid for occupied squares after `assignIds`). */
export const idBoard = new Int8Array(90);

/** Numbers the pieces of each color 0, 1, ... in square order (a0 first), as Pikafish does. */
export function assignIds(pos: Position): void {
  const b = pos.board;
  let red = 0,
    black = 0;
  for (let s = 0; s < 90; s++) {
    const p = b[s];
    if (!p) continue;
    idBoard[s] = p >> 3 === RED ? red++ : black++;
  }
}

/** Follows a piece id through a move (forwards: from -> to). */
export function moveId(from: number, to: number): void {
  idBoard[to] = idBoard[from];
}

// ---- Trial moves on the board arrays only ---------------------------------------

/**
 * Is the move from -> to of the piece of color `side` legal as far as the king
 * is concerned (Pikafish's chase_legal): after it, the side's king is not
 * attacked. Works whichever side is to move; leaves the position unchanged.
 */
function chaseLegal(pos: Position, side: Color, from: number, to: number): boolean {
  const b = pos.board;
  const pc = b[from];
  const cap = b[to];
  const ff = FILE_OF[from],
    fr = RANK_OF[from],
    tf = FILE_OF[to],
    tr = RANK_OF[to];
  b[to] = pc;
  b[from] = 0;
  pos.rankOcc[fr] ^= 1 << ff;
  pos.fileOcc[ff] ^= 1 << fr;
  if (cap) pos.pieceCount[cap]--;
  else {
    pos.rankOcc[tr] |= 1 << tf;
    pos.fileOcc[tf] |= 1 << tr;
  }
  const isKing = (pc & 7) === KING;
  if (isKing) pos.kingSq[side] = to;
  const ok = !pos.kingAttacked(side);
  if (isKing) pos.kingSq[side] = from;
  b[from] = pc;
  b[to] = cap;
  pos.rankOcc[fr] |= 1 << ff;
  pos.fileOcc[ff] |= 1 << fr;
  if (cap) pos.pieceCount[cap]++;
  else {
    pos.rankOcc[tr] ^= 1 << tf;
    pos.fileOcc[tf] ^= 1 << tr;
  }
  return ok;
}

/**
 * Trial capture from -> to on the board arrays only, to test for recaptures;
 * returns the captured piece for `trialUndo`.
 */
function trialDo(pos: Position, from: number, to: number): number {
  const b = pos.board;
  const piece = b[from],
    captured = b[to];
  b[to] = piece;
  b[from] = 0;
  pos.rankOcc[RANK_OF[from]] ^= 1 << FILE_OF[from];
  pos.fileOcc[FILE_OF[from]] ^= 1 << RANK_OF[from];
  if (captured) pos.pieceCount[captured]--;
  else {
    pos.rankOcc[RANK_OF[to]] |= 1 << FILE_OF[to];
    pos.fileOcc[FILE_OF[to]] |= 1 << RANK_OF[to];
  }
  if ((piece & 7) === KING) pos.kingSq[piece >> 3] = to;
  return captured;
}

/** Takes back `trialDo(pos, from, to)`, which captured `captured`. */
function trialUndo(pos: Position, from: number, to: number, captured: number): void {
  const b = pos.board;
  const piece = b[to];
  b[from] = piece;
  b[to] = captured;
  pos.rankOcc[RANK_OF[from]] |= 1 << FILE_OF[from];
  pos.fileOcc[FILE_OF[from]] |= 1 << RANK_OF[from];
  if (captured) pos.pieceCount[captured]++;
  else {
    pos.rankOcc[RANK_OF[to]] ^= 1 << FILE_OF[to];
    pos.fileOcc[FILE_OF[to]] ^= 1 << RANK_OF[to];
  }
  if ((piece & 7) === KING) pos.kingSq[piece >> 3] = from;
}

// ---- Pins (Pikafish's blockers_for_king / pinners) ---------------------------------

const ray = new Int32Array(10);

/**
 * The pins on the king of color `c`: in bits 0-15 the ids of the pieces of color
 * `c` whose removal would let an enemy rook, king, knight or cannon attack it
 * (blockers, including both screens of a cannon with two pieces in between), in
 * bits 16-31 the ids of the enemy pieces that pin a piece of color `c` this way.
 */
function kingPins(pos: Position, c: Color): number {
  const b = pos.board;
  const ksq = pos.kingSq[c];
  const them = (c ^ 1) << 3;
  const kf = FILE_OF[ksq],
    kr = RANK_OF[ksq];
  let blockers = 0,
    pinners = 0;
  for (let dir = 0; dir < 4; dir++) {
    const df = dir === 0 ? 1 : dir === 1 ? -1 : 0;
    const dr = dir === 2 ? 1 : dir === 3 ? -1 : 0;
    let n = 0;
    let f = kf + df,
      r = kr + dr;
    while (f >= 0 && f < 9 && r >= 0 && r < 10) {
      const s = r * 9 + f;
      if (b[s]) ray[n++] = s;
      f += df;
      r += dr;
    }
    for (let j = 0; j < n; j++) {
      const p = b[ray[j]];
      if ((p & 8) !== them) continue;
      const t = p & 7;
      if (t === CANNON) {
        if (j === 2) {
          const own0 = (b[ray[0]] & 8) !== them,
            own1 = (b[ray[1]] & 8) !== them;
          if (own0) blockers |= 1 << idBoard[ray[0]];
          if (own1) blockers |= 1 << idBoard[ray[1]];
          if (own0 || own1) pinners |= 1 << idBoard[ray[j]];
        }
      } else if (t === ROOK || t === KING) {
        // Pieces in between, not counting other enemy rooks and kings (which are snipers themselves).
        let cnt = 0,
          only = -1;
        for (let k = 0; k < j; k++) {
          const q = b[ray[k]];
          if ((q & 8) === them && ((q & 7) === ROOK || (q & 7) === KING)) continue;
          cnt++;
          only = ray[k];
        }
        if (cnt === 1 && (b[only] & 8) !== them) {
          blockers |= 1 << idBoard[only];
          pinners |= 1 << idBoard[ray[j]];
        }
      }
    }
  }
  const knight = them | KNIGHT;
  if (pos.pieceCount[knight]) {
    for (let i = 0; i < 8; i++) {
      const s = KNIGHT_FROM[ksq * 8 + i];
      if (s < 0) break;
      if (b[s] !== knight) continue;
      const leg = KNIGHT_FROM_LEG[ksq * 8 + i];
      if (b[leg] && (b[leg] & 8) !== them) {
        blockers |= 1 << idBoard[leg];
        pinners |= 1 << idBoard[s];
      }
    }
  }
  return blockers | (pinners << 16);
}

// ---- Attack enumeration --------------------------------------------------------------

const targets = new Int32Array(16);

/** Occupied squares attacked by the piece on `from` (not for kings and pawns). */
function attackTargets(pos: Position, from: number, t: number): number {
  const b = pos.board;
  let n = 0;
  switch (t) {
    case ROOK:
    case CANNON: {
      const f = FILE_OF[from],
        r = RANK_OF[from];
      let m = t === ROOK ? RANK_ROOK_CAP[(f << 9) | pos.rankOcc[r]] : RANK_CANNON_CAP[(f << 9) | pos.rankOcc[r]];
      while (m) {
        targets[n++] = r * 9 + 31 - Math.clz32(m & -m);
        m &= m - 1;
      }
      m = t === ROOK ? FILE_ROOK_CAP[(r << 10) | pos.fileOcc[f]] : FILE_CANNON_CAP[(r << 10) | pos.fileOcc[f]];
      while (m) {
        targets[n++] = (31 - Math.clz32(m & -m)) * 9 + f;
        m &= m - 1;
      }
      break;
    }
    case KNIGHT:
      for (let i = 0; i < 8; i++) {
        const to = KNIGHT_TO[from * 8 + i];
        if (to < 0) break;
        if (b[to] && !b[KNIGHT_LEG[from * 8 + i]]) targets[n++] = to;
      }
      break;
    case BISHOP:
      for (let i = 0; i < 4; i++) {
        const to = BISHOP_TO[from * 4 + i];
        if (to < 0) break;
        if (b[to] && !b[BISHOP_EYE[from * 4 + i]]) targets[n++] = to;
      }
      break;
    case ADVISOR:
      for (let i = 0; i < 4; i++) {
        const to = ADVISOR_TO[from * 4 + i];
        if (to < 0) break;
        if (b[to]) targets[n++] = to;
      }
      break;
  }
  return n;
}

/** True when some piece of color `c` can legally (chase_legal) capture on `sq`. */
function defended(pos: Position, sq: number, c: Color): boolean {
  const b = pos.board;
  const cb = c << 3;
  const f = FILE_OF[sq],
    r = RANK_OF[sq];
  // Pawns
  const pawn = cb | PAWN;
  if (pos.pieceCount[pawn]) {
    if (c === RED) {
      if (r > 0 && b[sq - 9] === pawn && chaseLegal(pos, c, sq - 9, sq)) return true;
      if (r >= 5) {
        if (f > 0 && b[sq - 1] === pawn && chaseLegal(pos, c, sq - 1, sq)) return true;
        if (f < 8 && b[sq + 1] === pawn && chaseLegal(pos, c, sq + 1, sq)) return true;
      }
    } else {
      if (r < 9 && b[sq + 9] === pawn && chaseLegal(pos, c, sq + 9, sq)) return true;
      if (r <= 4) {
        if (f > 0 && b[sq - 1] === pawn && chaseLegal(pos, c, sq - 1, sq)) return true;
        if (f < 8 && b[sq + 1] === pawn && chaseLegal(pos, c, sq + 1, sq)) return true;
      }
    }
  }
  const knight = cb | KNIGHT;
  if (pos.pieceCount[knight]) {
    for (let i = 0; i < 8; i++) {
      const s = KNIGHT_FROM[sq * 8 + i];
      if (s < 0) break;
      if (b[s] === knight && !b[KNIGHT_FROM_LEG[sq * 8 + i]] && chaseLegal(pos, c, s, sq)) return true;
    }
  }
  const bishop = cb | BISHOP;
  if (pos.pieceCount[bishop]) {
    for (let i = 0; i < 4; i++) {
      const s = BISHOP_TO[sq * 4 + i];
      if (s < 0) break;
      if (b[s] === bishop && !b[BISHOP_EYE[sq * 4 + i]] && chaseLegal(pos, c, s, sq)) return true;
    }
  }
  const advisor = cb | ADVISOR;
  const king = cb | KING;
  for (let i = 0; i < 4; i++) {
    const s = ADVISOR_TO[sq * 4 + i];
    if (s < 0) break;
    if (b[s] === advisor && chaseLegal(pos, c, s, sq)) return true;
  }
  for (let i = 0; i < 4; i++) {
    const s = KING_TO[sq * 4 + i];
    if (s < 0) break;
    if (b[s] === king && chaseLegal(pos, c, s, sq)) return true;
  }
  const rook = cb | ROOK,
    cannon = cb | CANNON;
  const ri = (f << 9) | pos.rankOcc[r],
    fi = (r << 10) | pos.fileOcc[f];
  if (pos.pieceCount[rook]) {
    let m = RANK_ROOK_CAP[ri];
    while (m) {
      const s = r * 9 + 31 - Math.clz32(m & -m);
      m &= m - 1;
      if (b[s] === rook && chaseLegal(pos, c, s, sq)) return true;
    }
    m = FILE_ROOK_CAP[fi];
    while (m) {
      const s = (31 - Math.clz32(m & -m)) * 9 + f;
      m &= m - 1;
      if (b[s] === rook && chaseLegal(pos, c, s, sq)) return true;
    }
  }
  if (pos.pieceCount[cannon]) {
    let m = RANK_CANNON_CAP[ri];
    while (m) {
      const s = r * 9 + 31 - Math.clz32(m & -m);
      m &= m - 1;
      if (b[s] === cannon && chaseLegal(pos, c, s, sq)) return true;
    }
    m = FILE_CANNON_CAP[fi];
    while (m) {
      const s = (31 - Math.clz32(m & -m)) * 9 + f;
      m &= m - 1;
      if (b[s] === cannon && chaseLegal(pos, c, s, sq)) return true;
    }
  }
  return false;
}

/** Leg square of a knight on `knightSq` attacking `sq` (-1 if it does not reach it). */
function knightLegTowards(knightSq: number, sq: number): number {
  for (let i = 0; i < 8; i++) {
    const s = KNIGHT_FROM[sq * 8 + i];
    if (s < 0) break;
    if (s === knightSq) return KNIGHT_FROM_LEG[sq * 8 + i];
  }
  return -1;
}

/**
 * Ids of the enemy pieces that color `c` chases on the current board
 * (Pikafish's chased(c)), whichever side is to move.
 */
export function chasedMask(pos: Position, c: Color): number {
  const b = pos.board;
  const them = (c ^ 1) as Color;
  const themBit = them << 3;
  const pins = kingPins(pos, c);
  const pinners = pins >>> 16;
  let chase = 0;
  const cnt = pos.listCount[c];
  for (let i = 0; i < cnt; i++) {
    const from = pos.listSq[c * 16 + i];
    const t = b[from] & 7;
    if (t === KING || t === PAWN) continue;
    const n = attackTargets(pos, from, t);
    const pinned = (pins & (1 << idBoard[from])) !== 0;
    for (let k = 0; k < n; k++) {
      const to = targets[k];
      const tp = b[to];
      if ((tp & 8) !== themBit) continue;
      const tt = tp & 7;
      if (tt === KING) continue;
      if (pinned) {
        if (!(pinners & (1 << idBoard[to]))) continue;
      } else if (tt === PAWN && (RANK_OF[to] >= 5 ? 1 : 0) !== c) continue;
      const bit = 1 << idBoard[to];
      if (chase & bit) continue;
      if (!chaseLegal(pos, c, from, to)) continue;
      if ((t === KNIGHT || t === CANNON) && tt === ROOK) chase |= bit;
      else if ((t === ADVISOR || t === BISHOP) && tt & 1) chase |= bit;
      else {
        const captured = trialDo(pos, from, to);
        const prot = defended(pos, to, them);
        trialUndo(pos, from, to, captured);
        if (prot) continue;
        if (t === tt) {
          // Mutual attacks are not chases unless the target cannot strike back.
          if ((t === KNIGHT && b[knightLegTowards(to, from)]) || !chaseLegal(pos, them, to, from)) chase |= bit;
        } else chase |= bit;
      }
    }
  }
  return chase;
}
