// Move generation by kind: captures, quiets, pseudo-legal, evasions and legal.
//
// Moves are written into a caller-owned Int32Array starting at `start`; the
// functions return the end index. Nothing is allocated.

import {
  ADVISOR_TO,
  BISHOP_EYE,
  BISHOP_TO,
  FILE_CANNON_CAP,
  FILE_MOVES,
  FILE_ROOK_CAP,
  KING_TO,
  KNIGHT_LEG,
  KNIGHT_TO,
  PAWN_TO,
  RANK_CANNON_CAP,
  RANK_MOVES,
  RANK_ROOK_CAP,
  popcount,
} from './attacks.js';
import type { Position } from './position.js';
import {
  ADVISOR,
  BISHOP,
  CANNON,
  FILE_OF,
  GEN_CAPTURES,
  GEN_EVASIONS,
  GEN_LEGAL,
  GEN_PSEUDO_LEGAL,
  GEN_QUIETS,
  KING,
  KNIGHT,
  MAX_MOVES,
  PAWN,
  RANK_OF,
  ROOK,
  type GenType,
  type Move,
} from './types.js';

/**
 * Generates moves of the given kind. CAPTURES, QUIETS and PSEUDO_LEGAL are
 * pseudo-legal (the own king may be left in check); EVASIONS is for a side in
 * check and yields pseudo-legal candidates that the caller filters with
 * `pos.legal()` (with several checkers no chess-style shortcut is valid);
 * LEGAL yields exactly the legal moves.
 */
export function generate(pos: Position, type: GenType, list: Int32Array, start: number): number {
  if (type === GEN_LEGAL) {
    const end = generatePseudo(pos, true, true, list, start);
    let n = start;
    for (let i = start; i < end; i++) {
      const m = list[i];
      if (pos.legal(m)) list[n++] = m;
    }
    return n;
  }
  if (type === GEN_EVASIONS || type === GEN_PSEUDO_LEGAL) return generatePseudo(pos, true, true, list, start);
  return generatePseudo(pos, type === GEN_CAPTURES, type === GEN_QUIETS, list, start);
}

function generatePseudo(pos: Position, caps: boolean, quiets: boolean, list: Int32Array, start: number): number {
  const us = pos.side;
  let n = start;
  const count = pos.listCount[us];
  for (let i = 0; i < count; i++) n = generatePiece(pos, pos.listSq[us * 16 + i], caps, quiets, list, n);
  return n;
}

/** Pseudo-legal captures and/or quiet moves of the piece on `from` (of the side to move). */
function generatePiece(
  pos: Position,
  from: number,
  caps: boolean,
  quiets: boolean,
  list: Int32Array,
  start: number,
): number {
  const b = pos.board;
  const themBit = (pos.side ^ 1) << 3;
  const rankOcc = pos.rankOcc,
    fileOcc = pos.fileOcc;
  const fromBits = from << 7;
  const pt = b[from] & 7;
  let n = start;
  switch (pt) {
    case ROOK:
    case CANNON: {
      const f = FILE_OF[from],
        r = RANK_OF[from];
      const ri = (f << 9) | rankOcc[r];
      const fi = (r << 10) | fileOcc[f];
      const rbase = r * 9;
      if (caps) {
        let m = pt === ROOK ? RANK_ROOK_CAP[ri] : RANK_CANNON_CAP[ri];
        while (m) {
          const to = rbase + 31 - Math.clz32(m & -m);
          m &= m - 1;
          const p = b[to];
          if ((p & 8) === themBit && p !== 0) list[n++] = fromBits | to;
        }
        m = pt === ROOK ? FILE_ROOK_CAP[fi] : FILE_CANNON_CAP[fi];
        while (m) {
          const to = (31 - Math.clz32(m & -m)) * 9 + f;
          m &= m - 1;
          const p = b[to];
          if ((p & 8) === themBit && p !== 0) list[n++] = fromBits | to;
        }
      }
      if (quiets) {
        let m = RANK_MOVES[ri];
        while (m) {
          list[n++] = fromBits | (rbase + 31 - Math.clz32(m & -m));
          m &= m - 1;
        }
        m = FILE_MOVES[fi];
        while (m) {
          list[n++] = fromBits | ((31 - Math.clz32(m & -m)) * 9 + f);
          m &= m - 1;
        }
      }
      break;
    }
    case KNIGHT: {
      const base = from * 8;
      for (let k = 0; k < 8; k++) {
        const to = KNIGHT_TO[base + k];
        if (to < 0) break;
        if (b[KNIGHT_LEG[base + k]] !== 0) continue;
        const p = b[to];
        if (p === 0) {
          if (quiets) list[n++] = fromBits | to;
        } else if (caps && (p & 8) === themBit) list[n++] = fromBits | to;
      }
      break;
    }
    case PAWN: {
      const base = pos.side * 270 + from * 3;
      for (let k = 0; k < 3; k++) {
        const to = PAWN_TO[base + k];
        if (to < 0) break;
        const p = b[to];
        if (p === 0) {
          if (quiets) list[n++] = fromBits | to;
        } else if (caps && (p & 8) === themBit) list[n++] = fromBits | to;
      }
      break;
    }
    case BISHOP: {
      const base = from * 4;
      for (let k = 0; k < 4; k++) {
        const to = BISHOP_TO[base + k];
        if (to < 0) break;
        if (b[BISHOP_EYE[base + k]] !== 0) continue;
        const p = b[to];
        if (p === 0) {
          if (quiets) list[n++] = fromBits | to;
        } else if (caps && (p & 8) === themBit) list[n++] = fromBits | to;
      }
      break;
    }
    case ADVISOR:
    case KING: {
      const table = pt === KING ? KING_TO : ADVISOR_TO;
      const base = from * 4;
      for (let k = 0; k < 4; k++) {
        const to = table[base + k];
        if (to < 0) break;
        const p = b[to];
        if (p === 0) {
          if (quiets) list[n++] = fromBits | to;
        } else if (caps && (p & 8) === themBit) list[n++] = fromBits | to;
      }
      break;
    }
  }
  return n;
}

/**
 * Counts the legal moves (used by perft's bulk counting at the last ply).
 * When not in check, moves that cannot expose the king (see
 * `pos.dangerSquares()`) are counted without being generated one by one.
 */
export function countLegal(pos: Position, scratch: Int32Array, start: number): number {
  if (pos.inCheck()) {
    const end = generatePseudo(pos, true, true, scratch, start);
    let c = 0;
    for (let i = start; i < end; i++) if (pos.legal(scratch[i])) c++;
    return c;
  }
  let st = pos.dangerSquares();
  const anyTo = st > 0;
  if (st < 0) st = -st;
  const dFrom = pos.dangerFrom,
    dTo = pos.dangerTo;
  const b = pos.board;
  const us = pos.side;
  const themBit = (us ^ 1) << 3;
  const rankOcc = pos.rankOcc,
    fileOcc = pos.fileOcc;
  let c = 0;
  const count = pos.listCount[us];
  for (let i = 0; i < count; i++) {
    const from = pos.listSq[us * 16 + i];
    const pt = b[from] & 7;
    if (pt === KING || dFrom[from] === st) {
      // Moves of this piece may expose the king: test each one.
      const end = generatePiece(pos, from, true, true, scratch, start);
      for (let k = start; k < end; k++) if (pos.legal(scratch[k])) c++;
      continue;
    }
    switch (pt) {
      case ROOK:
      case CANNON: {
        const f = FILE_OF[from],
          r = RANK_OF[from];
        const ri = (f << 9) | rankOcc[r];
        const fi = (r << 10) | fileOcc[f];
        const rbase = r * 9;
        // Captures land on occupied squares, which are never danger squares.
        let m = pt === ROOK ? RANK_ROOK_CAP[ri] : RANK_CANNON_CAP[ri];
        while (m) {
          const p = b[rbase + 31 - Math.clz32(m & -m)];
          m &= m - 1;
          if ((p & 8) === themBit && p !== 0) c++;
        }
        m = pt === ROOK ? FILE_ROOK_CAP[fi] : FILE_CANNON_CAP[fi];
        while (m) {
          const p = b[(31 - Math.clz32(m & -m)) * 9 + f];
          m &= m - 1;
          if ((p & 8) === themBit && p !== 0) c++;
        }
        const rm = RANK_MOVES[ri],
          fm = FILE_MOVES[fi];
        if (!anyTo) {
          c += popcount(rm) + popcount(fm);
        } else {
          m = rm;
          while (m) {
            const to = rbase + 31 - Math.clz32(m & -m);
            m &= m - 1;
            if (dTo[to] !== st || pos.legal((from << 7) | to)) c++;
          }
          m = fm;
          while (m) {
            const to = (31 - Math.clz32(m & -m)) * 9 + f;
            m &= m - 1;
            if (dTo[to] !== st || pos.legal((from << 7) | to)) c++;
          }
        }
        break;
      }
      case KNIGHT: {
        const base = from * 8;
        for (let k = 0; k < 8; k++) {
          const to = KNIGHT_TO[base + k];
          if (to < 0) break;
          if (b[KNIGHT_LEG[base + k]] !== 0) continue;
          const p = b[to];
          if (p === 0) {
            if (dTo[to] !== st || pos.legal((from << 7) | to)) c++;
          } else if ((p & 8) === themBit) c++;
        }
        break;
      }
      case PAWN: {
        const base = us * 270 + from * 3;
        for (let k = 0; k < 3; k++) {
          const to = PAWN_TO[base + k];
          if (to < 0) break;
          const p = b[to];
          if (p === 0) {
            if (dTo[to] !== st || pos.legal((from << 7) | to)) c++;
          } else if ((p & 8) === themBit) c++;
        }
        break;
      }
      case BISHOP:
      case ADVISOR: {
        const base = from * 4;
        const table = pt === BISHOP ? BISHOP_TO : ADVISOR_TO;
        for (let k = 0; k < 4; k++) {
          const to = table[base + k];
          if (to < 0) break;
          if (pt === BISHOP && b[BISHOP_EYE[base + k]] !== 0) continue;
          const p = b[to];
          if (p === 0) {
            if (dTo[to] !== st || pos.legal((from << 7) | to)) c++;
          } else if ((p & 8) === themBit) c++;
        }
        break;
      }
    }
  }
  return c;
}

/** All legal moves as a fresh array (convenient outside hot paths). */
export function legalMoves(pos: Position): Move[] {
  const list = new Int32Array(MAX_MOVES);
  const n = generate(pos, GEN_LEGAL, list, 0);
  return Array.from(list.subarray(0, n));
}

/** True when the side to move has at least one legal move. */
export function hasLegalMove(pos: Position, scratch: Int32Array, start: number): boolean {
  const end = generatePseudo(pos, true, true, scratch, start);
  for (let i = start; i < end; i++) if (pos.legal(scratch[i])) return true;
  return false;
}
