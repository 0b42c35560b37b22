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
 * Generates moves of the given kind, in Pikafish's order: the pieces by type
 * (pawns, bishops, advisors, knights, cannons, rooks, then the king), each
 * type's pieces and each piece's destinations in ascending square order.
 * CAPTURES, QUIETS and PSEUDO_LEGAL are pseudo-legal (the own king may be left
 * in check). EVASIONS, for a side in check, are Pikafish's evasions: with one
 * checker the moves that block its line or capture it (a knight's leg counts as
 * its line), then the king's moves, then the moves of an own cannon screen off
 * the line; with more checkers every pseudo-legal move. Callers filter them
 * with `pos.legal()`. LEGAL yields exactly the legal moves: the evasions or the
 * pseudo-legal moves with each illegal one replaced by the last of the list,
 * as Pikafish's generate<LEGAL> does.
 */
export function generate(pos: Position, type: GenType, list: Int32Array, start: number): number {
  if (type === GEN_LEGAL) {
    let end = pos.inCheck() ? generateEvasions(pos, list, start) : generatePseudo(pos, true, true, list, start);
    let i = start;
    while (i < end) {
      if (pos.legal(list[i])) i++;
      else list[i] = list[--end];
    }
    return end;
  }
  if (type === GEN_EVASIONS) return generateEvasions(pos, list, start);
  if (type === GEN_PSEUDO_LEGAL) return generatePseudo(pos, true, true, list, start);
  return generatePseudo(pos, type === GEN_CAPTURES, type === GEN_QUIETS, list, start);
}

/** Piece types in Pikafish's generation order (the king comes last, on its own). */
const TYPE_ORDER = [PAWN, BISHOP, ADVISOR, KNIGHT, CANNON, ROOK];

function generatePseudo(pos: Position, caps: boolean, quiets: boolean, list: Int32Array, start: number): number {
  const n = generateAllButKing(pos, caps, quiets, list, start);
  return generatePiece(pos, pos.kingSq[pos.side], caps, quiets, list, n);
}

/** The moves of every piece of the side to move but its king, in Pikafish's order. */
function generateAllButKing(pos: Position, caps: boolean, quiets: boolean, list: Int32Array, start: number): number {
  const us = pos.side;
  const bits = pos.pieceBits;
  let n = start;
  for (let k = 0; k < TYPE_ORDER.length; k++) {
    const base = ((us << 3) | TYPE_ORDER[k]) * 3;
    for (let w = 0; w < 3; w++) {
      let m = bits[base + w];
      while (m) {
        const sq = (w << 5) + 31 - Math.clz32(m & -m);
        m &= m - 1;
        n = generatePiece(pos, sq, caps, quiets, list, n);
      }
    }
  }
  return n;
}

/** Square s as a bit of its word (s >> 5) in a three-word square set. */
function squareBit(s: number): number {
  return 1 << (s & 31);
}

/** Pikafish's generate<EVASIONS> (see generate()); pseudo-legal moves when not in check by one piece. */
function generateEvasions(pos: Position, list: Int32Array, start: number): number {
  const us = pos.side,
    them = us ^ 1;
  const b = pos.board;
  const ksq = pos.kingSq[us];
  let checker = -1,
    checkers = 0;
  for (let i = 0; i < pos.listCount[them]; i++) {
    const s = pos.listSq[them * 16 + i];
    if (pos.attacksFrom(s, ksq)) {
      checker = s;
      checkers++;
    }
  }
  // Several checkers, or the kings facing each other (a position set up so): every move.
  if (checkers !== 1 || (b[checker] & 7) === KING) return generatePseudo(pos, true, true, list, start);

  // The squares a block or a capture may go to, as a set of three words: the
  // checker's square and the squares between it and the king (a knight: its leg).
  let target0 = 0,
    target1 = 0,
    target2 = 0;
  const cpt = b[checker] & 7;
  const kf = FILE_OF[ksq],
    kr = RANK_OF[ksq];
  const sameFile = FILE_OF[checker] === kf;
  const slider = cpt === ROOK || cpt === CANNON;
  let hurdle = -1;
  if (slider) {
    const step = sameFile ? (RANK_OF[checker] > kr ? 9 : -9) : FILE_OF[checker] > kf ? 1 : -1;
    for (let s = ksq + step; s !== checker; s += step) {
      const p = b[s];
      if (p !== 0 && p >> 3 === us) hurdle = s;
      else if (s < 32) target0 |= squareBit(s);
      else if (s < 64) target1 |= squareBit(s);
      else target2 |= squareBit(s);
    }
  } else if (cpt === KNIGHT) {
    for (let k = checker * 8; k < checker * 8 + 8 && KNIGHT_TO[k] >= 0; k++)
      if (KNIGHT_TO[k] === ksq) {
        const leg = KNIGHT_LEG[k];
        if (leg < 32) target0 |= squareBit(leg);
        else if (leg < 64) target1 |= squareBit(leg);
        else target2 |= squareBit(leg);
      }
  }
  if (checker < 32) target0 |= squareBit(checker);
  else if (checker < 64) target1 |= squareBit(checker);
  else target2 |= squareBit(checker);

  // Blocks and captures of the checker, by every piece but the king: their
  // moves kept in order where they land on a target square.
  const end = generateAllButKing(pos, true, true, list, start);
  let n = start;
  for (let i = start; i < end; i++) {
    const mv = list[i];
    const to = mv & 127;
    if (((to < 32 ? target0 : to < 64 ? target1 : target2) & squareBit(to)) !== 0) list[n++] = mv;
  }
  // King moves; along a rook's or cannon's line only captures.
  for (let k = ksq * 4; k < ksq * 4 + 4; k++) {
    const to = KING_TO[k];
    if (to < 0) break;
    const p = b[to];
    if (p !== 0 ? p >> 3 === us : slider && (sameFile ? FILE_OF[to] === kf : RANK_OF[to] === kr)) continue;
    list[n++] = (ksq << 7) | to;
  }
  // A cannon's screen of ours steps off the line (a cannon screen may also capture anywhere).
  if (hurdle >= 0) {
    const screenIsCannon = (b[hurdle] & 7) === CANNON;
    const end = generatePiece(pos, hurdle, true, true, list, n);
    for (let i = n; i < end; i++) {
      const to = list[i] & 127;
      if ((sameFile ? FILE_OF[to] !== kf : RANK_OF[to] !== kr) || (screenIsCannon && b[to] !== 0)) list[n++] = list[i];
    }
  }
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
      // Destinations as masks along the rank (bits = files) and the file (bits = ranks).
      let rm = 0,
        fm = 0;
      if (caps) {
        let m = pt === ROOK ? RANK_ROOK_CAP[ri] : RANK_CANNON_CAP[ri];
        while (m) {
          const bit = m & -m;
          m ^= bit;
          const p = b[rbase + 31 - Math.clz32(bit)];
          if ((p & 8) === themBit && p !== 0) rm |= bit;
        }
        m = pt === ROOK ? FILE_ROOK_CAP[fi] : FILE_CANNON_CAP[fi];
        while (m) {
          const bit = m & -m;
          m ^= bit;
          const p = b[(31 - Math.clz32(bit)) * 9 + f];
          if ((p & 8) === themBit && p !== 0) fm |= bit;
        }
      }
      if (quiets) {
        rm |= RANK_MOVES[ri];
        fm |= FILE_MOVES[fi];
      }
      // Ascending squares: the file below the piece, its rank, the file above.
      let m = fm & ((1 << r) - 1);
      while (m) {
        list[n++] = fromBits | ((31 - Math.clz32(m & -m)) * 9 + f);
        m &= m - 1;
      }
      while (rm) {
        list[n++] = fromBits | (rbase + 31 - Math.clz32(rm & -rm));
        rm &= rm - 1;
      }
      m = fm & ~((2 << r) - 1);
      while (m) {
        list[n++] = fromBits | ((31 - Math.clz32(m & -m)) * 9 + f);
        m &= m - 1;
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
    const end = generateEvasions(pos, scratch, start);
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
  const end = pos.inCheck() ? generateEvasions(pos, scratch, start) : generatePseudo(pos, true, true, scratch, start);
  for (let i = start; i < end; i++) if (pos.legal(scratch[i])) return true;
  return false;
}
