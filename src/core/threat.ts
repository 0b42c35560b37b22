// Tactical threats, for the Chinese rules' 捉 (chase) and 杀 (mate threat).
//
// The Chinese rule book (中国象棋竞赛规则, chapter 6) calls a move a chase when,
// after it, the mover could win material on its next move - directly, by checks
// or discovered checks (抽将), by a sequence of exchanges, by a second attacker
// against a protected piece - and that threat did not exist before the move; and
// a mate threat when it creates a plan to mate. Pikafish's chase (chase.ts) is
// the direct attack on an unprotected or more valuable piece only. This module
// decides the book's wider notion with short searches from the position where the
// side that threatens (S) is to move, as if its opponent (O) had passed:
//
// - `threatTargets`: the enemy pieces S can win. A quiescence search with the
//   book's piece values (rook 20, knight and cannon 10, advisor, bishop and a
//   crossed pawn 4, a pawn at home 1). S opens with a capture or a quiet check
//   (two quiet checks in all); O may stop (stand pat), recapture on the square of
//   the exchange, or check (two quiet checks). After S's check S may capture
//   anywhere (a check that forks); O's checks and S's answers to them leave the
//   exchange where it was, so that O's counter-threats elsewhere (O's own, which
//   the book does not count as a defence) do not spoil it. A capture wins when
//   the exchange on its square leaves S at least GAIN ahead of what S keeps if it
//   does nothing (O's own threats are no part of S's), and the whole line - O also taking what S's capturing piece
//   unmasked behind it - does not lose (the book: "after the full exchange, equal
//   or better is a chase, a loss is idle"). Its target is the first enemy piece S
//   captures. The book's exceptions are in the rules of S's captures that open an
//   exchange: kings and pawns may attack freely (a capture by them is no chase,
//   though a king or pawn move may unmask another piece's attack), the king is
//   never a target (that is a check) nor a pawn that has not crossed the river,
//   and two pieces of equal value that attack each other offer an exchange (兑).
//   A threat is joint (联合捉, `threatJoint`) when only several pieces together
//   win it: a piece that two or more pieces attack and the first of them cannot
//   win alone, or a check by a piece that cannot win alone, or a discovered one,
//   unless a piece it wins can be taken by one piece anyway.
// - `attackPairs`: which pieces of S attack which enemy pieces, to find a piece
//   that joins the attack on a piece that can be won (联合捉).
// - `forcedMate`: S mates within `depth` of its moves, checks but for one quiet
//   first move when `depth` >= 2; the first move may not take a piece that offers
//   an exchange (taking it back would be the mate: an exchange offer, not 杀).
//
// Each search is bounded in nodes (`limit`); past the bound a line counts as not
// winning. Pieces are followed by the ids of chase.ts (`idBoard`), so that a
// caller can tell a threat that existed before a move from a new one. Nothing
// allocates: the move lists and the lines' targets are module-level typed arrays.

import { idBoard } from './chase.js';
import { generate } from './movegen.js';
import type { Position } from './position.js';
import {
  ADVISOR,
  BISHOP,
  CANNON,
  FILE_OF,
  GEN_LEGAL,
  GEN_PSEUDO_LEGAL,
  KING,
  KNIGHT,
  MAX_MOVES,
  PAWN,
  RANK_OF,
  ROOK,
} from './types.js';

/** The book's piece values: a rook is worth two strong pieces (knight, cannon); advisors, bishops and crossed pawns are weak. */
const VALUE = new Int32Array(8);
VALUE[ROOK] = 20;
VALUE[KNIGHT] = 10;
VALUE[CANNON] = 10;
VALUE[ADVISOR] = 4;
VALUE[BISHOP] = 4;
/** A pawn that has crossed the river (its value floats in the book: here that of an advisor or a bishop). */
const CROSSED_PAWN = 4;
const HOME_PAWN = 1;
/** The least gain that wins material (an advisor, a bishop or a crossed pawn; not a pawn at home). */
const GAIN = 2;
/** Quiet checks each side may play in a threat line. */
const S_CHECKS = 2;
const O_CHECKS = 2;
const MATE = 1000;
const MAX_PLY = 14;
/** Mate Threat Depth reaches 10 moves: 20 plies and the replies' lists. */
const MATE_PLY = 22;

function crossed(piece: number, sq: number): boolean {
  return piece >> 3 === 0 ? RANK_OF[sq] >= 5 : RANK_OF[sq] <= 4;
}

/** The book value of `piece` standing on `sq`. */
function bookValue(piece: number, sq: number): number {
  const t = piece & 7;
  if (t === PAWN) return crossed(piece, sq) ? CROSSED_PAWN : HOME_PAWN;
  return VALUE[t];
}

const moves = new Int32Array(MAX_MOVES * (MATE_PLY + 2));
/** Ordering keys of the quiescence search's moves (captures by value). */
const order = new Int32Array(MAX_MOVES * (MAX_PLY + 2));
/** Per ply: the id of the first enemy piece S captures along the best line from there (-1: none). */
const lineTarget = new Int32Array(MAX_PLY + 2);
/** Per ply: the id of S's piece that makes that capture. */
const lineBy = new Int32Array(MAX_PLY + 2);
const savedId = new Int8Array(MAX_PLY + 2);

let nodes = 0,
  budget = 0,
  rootSide = 0;

function make(pos: Position, m: number, ply: number): void {
  const from = m >> 7,
    to = m & 127;
  savedId[ply] = idBoard[to];
  pos.doMove(m);
  idBoard[to] = idBoard[from];
}

function unmake(pos: Position, m: number, ply: number): void {
  const from = m >> 7,
    to = m & 127;
  pos.undoMove(m);
  idBoard[from] = idBoard[to];
  idBoard[to] = savedId[ply];
}

/** Does vacating `v` let the piece of type `t` on `from` reach `to` (on its line, or as its knight leg)? */
function opens(from: number, to: number, v: number, t: number): boolean {
  const ff = FILE_OF[from],
    fr = RANK_OF[from],
    tf = FILE_OF[to],
    tr = RANK_OF[to],
    vf = FILE_OF[v],
    vr = RANK_OF[v];
  if (t === KNIGHT) {
    const df = tf - ff,
      dr = tr - fr;
    return v === (df === 2 || df === -2 ? fr * 9 + ff + df / 2 : (fr + dr / 2) * 9 + ff);
  }
  if (t !== ROOK && t !== CANNON) return false;
  if (fr === tr && vr === fr) return (vf - ff) * (vf - tf) < 0;
  if (ff === tf && vf === ff) return (vr - fr) * (vr - tr) < 0;
  return false;
}

/**
 * May S open an exchange with the capture from -> to? The capturing piece is no
 * king or pawn, the target no pawn at home, and with `mutualTest` the target is
 * not a piece of equal value that could capture the attacker back (兑).
 */
function opensExchange(pos: Position, from: number, to: number, mutualTest: boolean): boolean {
  const b = pos.board;
  const pt = b[from] & 7;
  if (pt === KING || pt === PAWN) return false;
  const cap = b[to];
  if ((cap & 7) === PAWN && !crossed(cap, to)) return false;
  if (mutualTest && bookValue(cap, to) === bookValue(b[from], from) && pos.attacksFrom(to, from)) return false;
  return true;
}

/** How many pieces of the side to move, other than its king, attack `sq`? */
function attackers(pos: Position, sq: number): number {
  const us = pos.side;
  const n = pos.listCount[us];
  let count = 0;
  for (let i = 0; i < n; i++) {
    const a = pos.listSq[us * 16 + i];
    if ((pos.board[a] & 7) !== KING && pos.attacksFrom(a, sq)) count++;
  }
  return count;
}

/** After a move to `to`, does the piece it moved give the check itself (not a discovered one)? */
function checksDirectly(pos: Position, to: number): boolean {
  return pos.attacksFrom(to, pos.kingSq[pos.side]);
}

/** The threats of the last `threatTargets` that S can win only with two or more pieces (联合捉); CHECK_WINS when a winning check is one. */
export const threatJoint = { mask: 0 };

/**
 * Quiescence search for the side to move, in book units relative to S (`mat`),
 * negamax, fail-soft. `sChecks` / `oChecks`: quiet checks S / O may still play;
 * `opened`: S has made its first capture on this line; `square`: where the
 * exchange goes on (-1: anywhere, after S's check); `vacated`: the square S's
 * last capture left, whose unmasked pieces O may take when `unmask` (both kept
 * through O's checks and S's answers to them).
 */
function qsearch(
  pos: Position,
  alpha: number,
  beta: number,
  ply: number,
  mat: number,
  sChecks: number,
  oChecks: number,
  opened: boolean,
  square: number,
  vacated: number,
  unmask: boolean,
  only: number,
): number {
  nodes++;
  const isS = pos.side === rootSide;
  const standing = isS ? mat : -mat;
  lineTarget[ply] = -1;
  lineBy[ply] = -1;
  if (ply >= MAX_PLY || nodes > budget) return standing;
  const b = pos.board;
  const inCheck = pos.checked[pos.sp] === 1;
  const base = ply * MAX_MOVES;
  let best: number, end: number;
  if (inCheck) {
    end = generate(pos, GEN_LEGAL, moves, base);
    // A mate before S has taken anything is a mate threat (forcedMate), not a
    // threat to win material: it counts as nothing won.
    if (end === base) return !isS && !opened ? standing : -MATE + ply;
    best = -MATE;
  } else {
    best = standing;
    if (best >= beta) return best;
    if (best > alpha) alpha = best;
    end = generate(pos, GEN_PSEUDO_LEGAL, moves, base);
  }
  const checksLeft = isS ? sChecks : oChecks;
  // Most valuable victim first, by the least valuable attacker (fewer nodes: the
  // bound on them is rarely reached, and then the same way for mirrored positions).
  for (let i = base; i < end; i++) {
    const mv = moves[i];
    const victim = b[mv & 127];
    order[i] = victim ? bookValue(victim, mv & 127) * 64 - bookValue(b[mv >> 7], mv >> 7) : -1000;
  }
  for (let i = base; i < end; i++) {
    let bi = i;
    for (let k = i + 1; k < end; k++) if (order[k] > order[bi]) bi = k;
    if (bi !== i) {
      const tm = moves[i],
        to_ = order[i];
      moves[i] = moves[bi];
      order[i] = order[bi];
      moves[bi] = tm;
      order[bi] = to_;
    }
    const m = moves[i];
    const from = m >> 7,
      to = m & 127;
    const cap = b[to];
    // With `only`, S's captures and checks are that one piece's.
    if (isS && !inCheck && only >= 0 && idBoard[from] !== only) continue;
    let quietCheck = false,
      first = false;
    if (!inCheck) {
      if (!cap) {
        if (checksLeft <= 0 || !pos.legal(m) || !pos.givesCheck(m)) continue;
        quietCheck = true;
      } else if (isS) {
        // S recaptures on the square, or opens an exchange elsewhere by the chase rules.
        if (!opened || to !== square) {
          if (!opensExchange(pos, from, to, false)) continue;
          first = !opened;
        }
        if (!pos.legal(m)) continue;
      } else {
        // O recaptures, takes what S's capture unmasked, or checks.
        if (
          !pos.legal(m) ||
          (square >= 0 &&
            to !== square &&
            !(unmask && vacated >= 0 && opens(from, to, vacated, b[from] & 7)) &&
            !pos.givesCheck(m))
        )
          continue;
      }
    } else if (isS && cap && !opened) first = opensExchange(pos, from, to, false);
    const gained = cap ? bookValue(cap, to) : 0;
    const targetId = idBoard[to],
      byId = idBoard[from];
    make(pos, m, ply);
    if (quietCheck && isS && only >= 0 && !checksDirectly(pos, to)) {
      unmake(pos, m, ply);
      continue;
    }
    // O's checks and S's answers to them leave the exchange where it was: O may
    // go on taking only on its square and what S's capture unmasked. After S's
    // check S may take anywhere (a check that forks).
    const checks = pos.checked[pos.sp] === 1;
    let nextSquare: number, nextVacated: number;
    if (isS) {
      nextSquare = inCheck ? square : cap ? to : -1;
      nextVacated = inCheck ? vacated : cap ? from : -1;
    } else {
      nextSquare = inCheck ? -1 : checks || !cap ? square : to;
      nextVacated = !inCheck && checks ? vacated : -1;
    }
    const v = -qsearch(
      pos,
      -beta,
      -alpha,
      ply + 1,
      isS ? mat + gained : mat - gained,
      isS && quietCheck ? sChecks - 1 : sChecks,
      !isS && quietCheck ? oChecks - 1 : oChecks,
      opened || first,
      nextSquare,
      nextVacated,
      unmask,
      only,
    );
    unmake(pos, m, ply);
    if (v > best) {
      best = v;
      if (first) {
        lineTarget[ply] = targetId;
        lineBy[ply] = byId;
      } else {
        lineTarget[ply] = lineTarget[ply + 1];
        lineBy[ply] = lineBy[ply + 1];
      }
      if (v > alpha) {
        alpha = v;
        if (v >= beta) break;
      }
    }
  }
  return best;
}

/** For each enemy piece id in the last `threatTargets` result: the id of S's piece that captures it. */
export const threatBy = new Int8Array(16);

/** The bit of a `threatTargets` result that says: a check of S wins material, whatever O answers. */
export const CHECK_WINS = 1 << 16;

/**
 * With CHECK_WINS: the pieces of S (bits of their ids) whose check wins material
 * (`by`), those among them that win it only with other pieces (`joint`, 联合捉).
 */
export const checkWins = { by: 0, joint: 0 };

/** Per id of a piece in `checkWins.by`: one enemy piece (id) that its check's line wins, or -1. */
export const checkTarget = new Int8Array(16);

/**
 * The enemy pieces (bits of their ids) that the side to move (S) can win by
 * force on this move, see the top of the file; `threatBy` tells with which
 * piece. CHECK_WINS is set when a check wins material whatever the answer
 * (`checkWins` names the checkers, `checkTarget` a piece each can win). The caller sets
 * `idBoard` (chase.ts). Searches at most about `limit` nodes. 0 when S is in
 * check or would be mated if it did nothing.
 */
export function threatTargets(pos: Position, limit: number): number {
  threatJoint.mask = 0;
  checkWins.by = 0;
  checkWins.joint = 0;
  if (pos.checked[pos.sp]) return 0;
  rootSide = pos.side;
  nodes = 0;
  budget = limit;
  const b = pos.board;
  // What S keeps if it makes no capture: O may go on with threats of its own,
  // which are no part of S's threat (a capture must gain against this).
  pos.doNullMove();
  const base = -qsearch(pos, -MATE, MATE, 1, 0, 0, O_CHECKS, true, -1, -1, true, -1);
  pos.undoNullMove();
  if (base <= -MATE + MAX_PLY) return 0;
  const need = base + GAIN;
  const end = generate(pos, GEN_PSEUDO_LEGAL, moves, 0);
  let mask = 0;
  // Captures first: their targets are known before the search.
  for (let pass = 0; pass < 2 && nodes <= budget; pass++) {
    for (let i = 0; i < end; i++) {
      const m = moves[i];
      const from = m >> 7,
        to = m & 127;
      const cap = b[to];
      if (pass === 0 ? !cap : cap) continue;
      if (cap) {
        if (mask & (1 << idBoard[to]) || !opensExchange(pos, from, to, true) || !pos.legal(m)) continue;
      } else if (!pos.legal(m) || !pos.givesCheck(m)) continue;
      const gained = cap ? bookValue(cap, to) : 0;
      const targetId = idBoard[to],
        byId = idBoard[from];
      const several = cap !== 0 && attackers(pos, to) >= 2;
      make(pos, m, 0);
      if (cap) {
        // The exchange on the square (with the checks of both sides) must win, and
        // the whole line, O also taking what the capture unmasked, must not lose.
        const v = -qsearch(pos, -need, -need + 1, 1, gained, S_CHECKS, O_CHECKS, true, to, -1, false, -1);
        if (
          v >= need &&
          -qsearch(pos, -base, -base + 1, 1, gained, S_CHECKS, O_CHECKS, true, to, from, true, -1) >= base
        ) {
          mask |= 1 << targetId;
          threatBy[targetId] = byId;
          // Joint (联合捉) when the capturing piece cannot win it alone.
          if (
            several &&
            -qsearch(pos, -need, -need + 1, 1, gained, S_CHECKS, O_CHECKS, true, to, -1, false, byId) < need
          )
            threatJoint.mask |= 1 << targetId;
        }
      } else if (!(checkWins.by & (1 << byId))) {
        // A check that wins material whatever the answer: which piece it wins
        // depends on the answer, so the threat is the check's (CHECK_WINS); a piece
        // it can win is kept for the words (checkTarget; -1 when the line found first
        // wins by other means, such as a king taking a checker).
        // The check must win material outright: a check that only stops O's own
        // threats (what S would lose by doing nothing) wins nothing.
        const bar = need > GAIN ? need : GAIN;
        const v = -qsearch(pos, -bar, -bar + 1, 1, 0, S_CHECKS - 1, O_CHECKS, false, -1, -1, false, -1);
        if (v >= bar) {
          mask |= CHECK_WINS;
          checkWins.by |= 1 << byId;
          const target = lineTarget[1];
          checkTarget[byId] = target;
          // Joint when the check is another piece's (discovered) or the checker
          // cannot win alone, not when a piece it wins can be taken by one piece anyway.
          const alone = target >= 0 && (mask & ~threatJoint.mask & (1 << target)) !== 0;
          if (
            !alone &&
            (!checksDirectly(pos, to) ||
              -qsearch(pos, -bar, -bar + 1, 1, 0, S_CHECKS - 1, O_CHECKS, false, -1, -1, false, byId) < bar)
          ) {
            threatJoint.mask |= CHECK_WINS;
            checkWins.joint |= 1 << byId;
          }
        }
      }
      unmake(pos, m, 0);
    }
  }
  return mask;
}

/**
 * Of the threats `mask` (a `threatTargets` result for the side to move, S, whose
 * `threatBy` and `checkWins` it left), those that S's last move from -> to made:
 * the piece that moved takes or checks, or the square it left opens the line of
 * the piece that takes. A move answering a check keeps only these: the rest
 * comes from the position the opponent's check left (the book's 参考图22).
 */
export function threatsOfMove(pos: Position, mask: number, from: number, to: number): number {
  const b = pos.board;
  const mover = idBoard[to];
  let out = mask & CHECK_WINS && checkWins.by & (1 << mover) ? CHECK_WINS : 0;
  for (let s = 0; s < 90; s++) {
    const p = b[s];
    if (!p || p >> 3 === pos.side || !(mask & (1 << idBoard[s]))) continue;
    const by = threatBy[idBoard[s]];
    if (by === mover) {
      out |= 1 << idBoard[s];
      continue;
    }
    for (let a = 0; a < 90; a++)
      if (b[a] && b[a] >> 3 === pos.side && idBoard[a] === by) {
        if (opens(a, s, from, b[a] & 7)) out |= 1 << idBoard[s];
        break;
      }
  }
  return out;
}

/** Per id of a piece of S: the ids of the enemy pieces it attacks (the last `attackPairs`). */
export const pairs = new Int32Array(16);

/**
 * Fills `pairs`: which of the enemy pieces in `targets` (ids) each piece of the
 * side to move other than its king and pawns can capture legally. A piece that
 * joins the attack on a piece that can be won chases it too (the book's 联合捉).
 */
export function attackPairs(pos: Position, targets: number): void {
  pairs.fill(0);
  if (targets === 0) return;
  const b = pos.board;
  const us = pos.side,
    them = us ^ 1;
  const n = pos.listCount[us],
    k = pos.listCount[them];
  for (let i = 0; i < n; i++) {
    const a = pos.listSq[us * 16 + i];
    const t = b[a] & 7;
    if (t === KING || t === PAWN) continue;
    for (let j = 0; j < k; j++) {
      const s = pos.listSq[them * 16 + j];
      if (!(targets & (1 << idBoard[s])) || !pos.attacksFrom(a, s) || !pos.legal((a << 7) | s)) continue;
      pairs[idBoard[a]] |= 1 << idBoard[s];
    }
  }
}

// ---- Mate threats -------------------------------------------------------------------

/** Can the side to move force mate within `depth` of its moves (checks; a quiet first move when `quiet`)? */
function mateSearch(pos: Position, depth: number, ply: number, quiet: boolean): boolean {
  if (++nodes > budget) return false;
  const base = ply * MAX_MOVES;
  const end = generate(pos, GEN_LEGAL, moves, base);
  for (let i = base; i < end; i++) {
    const m = moves[i];
    const check = pos.givesCheck(m);
    if (!check && !(quiet && depth >= 2)) continue;
    // The first move may not take a piece that offers an exchange (兑): a
    // piece of equal value that attacks the mover back is an offer, not a target.
    if (ply === 0) {
      const from = m >> 7,
        to = m & 127,
        cap = pos.board[to];
      if (cap && bookValue(cap, to) === bookValue(pos.board[from], from) && pos.attacksFrom(to, from)) continue;
    }
    pos.doMove(m, check);
    const eb = (ply + 1) * MAX_MOVES;
    const ee = generate(pos, GEN_LEGAL, moves, eb);
    let mated = true;
    if (ee > eb) {
      if (depth <= 1) mated = false;
      for (let j = eb; j < ee && mated; j++) {
        pos.doMove(moves[j]);
        mated = mateSearch(pos, depth - 1, ply + 2, false);
        pos.undoMove(moves[j]);
      }
    }
    pos.undoMove(m);
    if (mated) return true;
    if (nodes > budget) return false;
  }
  return false;
}

/**
 * Does the side to move have a forced mate within `depth` of its moves: checks,
 * except that with `depth` >= 2 the first move may be a quiet one (a plan to
 * mate)? Searches at most about `limit` nodes (then: no).
 */
export function forcedMate(pos: Position, depth: number, limit: number, plan: boolean): boolean {
  if (depth <= 0 || 2 * depth > MATE_PLY) return false;
  nodes = 0;
  budget = limit;
  return mateSearch(pos, depth, 0, plan);
}
