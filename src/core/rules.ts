// Game-end judgement: repetition rule sets, the 60-move rule, insufficient
// material and DrawRule.
//
// One module serves the search (`ruleJudge`, called at every node, allocation
// free: the search owns a RuleVerdict that each call fills, working memory
// included), the match runner and the library API (`judge`, the whole game so
// far). The module keeps no state of its own; the piece ids that follow pieces
// through a cycle are chase.ts's `idBoard`.
// The interpretation of every rule set is written down in docs/RULES.md.
//
// Repetition scan (all rule sets): only the reversible part of the history is
// searched (bounded by the rule-60 counter with the checks exempted by the
// check10 logic added back, and by the last null move), every second ply, after
// a fast reject through the position's counting key filter. When the current
// position occurred before, the cycle between the two occurrences is classified
// move by move: which moves give check, which pieces each move newly chases
// (src/core/chase.ts) and, for ChineseRule, which moves threaten mate.

import { assignIds, chasedMask, idBoard, moveId } from './chase.js';
import { generate } from './movegen.js';
import {
  CHECK_WINS,
  attackPairs,
  checkTarget,
  checkWins,
  forcedMate,
  pairs,
  threatBy,
  threatTargets,
  threatJoint,
  threatsOfMove,
} from './threat.js';
import type { FenErrorCode } from './fen.js';
import { KEY_FILTER_MASK, Position } from './position.js';
import { err, ok, type Result } from './result.js';
import { parseLegalMove, type MoveErrorCode } from './ucimove.js';
import {
  ADVISOR,
  BISHOP,
  BLACK,
  CANNON_VALUE,
  GEN_LEGAL,
  KING,
  MAX_MOVES,
  PAWN,
  RED,
  VALUE_DRAW,
  VALUE_NONE,
  mateIn,
  matedIn,
  type Color,
  type Move,
} from './types.js';

export type RepetitionRule =
  'AsianRule' | 'ComputerRule' | 'ChineseRule' | 'SkyRule' | 'YitianRule' | 'AllowChase' | 'NoJudgement';
export type DrawRule = 'None' | 'DrawAsBlackWin' | 'DrawAsRedWin' | 'DrawRepAsBlackWin' | 'DrawRepAsRedWin';

export const REPETITION_RULES: readonly RepetitionRule[] = Object.freeze([
  'AsianRule',
  'ComputerRule',
  'ChineseRule',
  'SkyRule',
  'YitianRule',
  'AllowChase',
  'NoJudgement',
] as RepetitionRule[]);
export const DRAW_RULES: readonly DrawRule[] = Object.freeze([
  'None',
  'DrawAsBlackWin',
  'DrawAsRedWin',
  'DrawRepAsBlackWin',
  'DrawRepAsRedWin',
] as DrawRule[]);

export interface RuleConfig {
  repetitionRule: RepetitionRule;
  drawRule: DrawRule;
  /** 0 = off, else plies without capture (120 = 60 moves), checks beyond ten per side exempted. */
  rule60MaxPly: number;
  /** ChineseRule only: depth in moves (0..10) of the mate-threat ("杀") detection; 0 = off. */
  mateThreatDepth: number;
}

export const DEFAULT_RULES: RuleConfig = Object.freeze({
  repetitionRule: 'AsianRule',
  drawRule: 'None',
  rule60MaxPly: 120,
  mateThreatDepth: 0,
}) as RuleConfig;

/** Builds a validated config from option values (names case-insensitive; unknown names give the defaults; numbers clamped). */
export function ruleConfigFrom(o: {
  repetitionRule: string;
  drawRule: string;
  rule60MaxPly: number;
  mateThreatDepth: number;
}): RuleConfig {
  const rr =
    REPETITION_RULES.find((r) => r.toLowerCase() === String(o.repetitionRule).toLowerCase()) ??
    DEFAULT_RULES.repetitionRule;
  const dr = DRAW_RULES.find((r) => r.toLowerCase() === String(o.drawRule).toLowerCase()) ?? DEFAULT_RULES.drawRule;
  const clamp = (v: number, lo: number, hi: number, d: number): number =>
    typeof v === 'number' && Number.isFinite(v) ? Math.min(hi, Math.max(lo, Math.trunc(v))) : d;
  return {
    repetitionRule: rr,
    drawRule: dr,
    rule60MaxPly: clamp(o.rule60MaxPly, 0, 120, DEFAULT_RULES.rule60MaxPly),
    mateThreatDepth: clamp(o.mateThreatDepth, 0, 10, DEFAULT_RULES.mateThreatDepth),
  };
}

// ---- Verdicts: who wins, why -----------------------------------------------------------

/** Outcomes, relative to the side to move. */
const GOES_ON = 0;
const WIN = 1;
const LOSS = 2;
const DRAW = 3;

// Reasons (index into REASON_CODES and REASON_TEXTS).
const R_NONE = 0,
  R_PERPETUAL_CHECK = 1,
  R_PERPETUAL_CHASE = 2,
  R_REPETITION = 3,
  R_RULE60 = 4;
const R_MATERIAL = 5,
  R_CHECKMATE = 6,
  R_STALEMATE = 7,
  R_FORBIDDEN = 8,
  R_MATE_THREAT = 9,
  R_CHECK_LIMIT = 10;

// Inside this module a verdict is an int, returned by value so that the search's
// judgement allocates nothing: the outcome in bits 0-1, the reason in bits 2-5,
// PROVISIONAL in bit 6 and the plies of the cycle judged from bit 7.

/**
 * ComputerRule: a two-fold repetition inside the search whose outcome (WIN or
 * LOSS in the outcome bits) is not final yet; the game goes on.
 */
const PROVISIONAL = 1 << 6;
const CYCLE_SHIFT = 7;

function verdict(outcome: number, reason: number): number {
  return outcome | (reason << 2);
}

/** The verdict `v` on the cycle of `plies` plies. */
function onCycle(v: number, plies: number): number {
  return v | (plies << CYCLE_SHIFT);
}

function outcomeOf(v: number): number {
  return v & PROVISIONAL ? GOES_ON : v & 3;
}

function reasonOf(v: number): number {
  return (v >> 2) & 15;
}

const GAME_GOES_ON = verdict(GOES_ON, R_NONE);
const REPETITION_DRAW = verdict(DRAW, R_REPETITION);

/** Why a game ended: a stable code that callers switch on (`reasonText` gives the words). */
export type ReasonCode =
  | 'none'
  | 'perpetual-check'
  | 'perpetual-chase'
  | 'repetition'
  | 'rule60'
  | 'insufficient-material'
  | 'checkmate'
  | 'stalemate'
  | 'forbidden-cycle'
  | 'perpetual-mate-threat'
  | 'check-limit';
const REASON_CODES: readonly ReasonCode[] = [
  'none',
  'perpetual-check',
  'perpetual-chase',
  'repetition',
  'rule60',
  'insufficient-material',
  'checkmate',
  'stalemate',
  'forbidden-cycle',
  'perpetual-mate-threat',
  'check-limit',
];
const REASON_TEXTS: readonly string[] = [
  '',
  'perpetual check',
  'perpetual chase',
  'repetition',
  '60-move rule',
  'insufficient material',
  'checkmate',
  'stalemate',
  'forbidden cycle',
  'perpetual mate threat',
  'check limit',
];

/** The words for a reason code, as `d` and the match runner print them. */
export function reasonText(code: ReasonCode): string {
  return REASON_TEXTS[REASON_CODES.indexOf(code)];
}

/** True for the reasons that end a game on the board itself (no cycle of positions involved). */
export function isBoardReason(code: ReasonCode): boolean {
  return code === 'checkmate' || code === 'stalemate' || code === 'rule60' || code === 'insufficient-material';
}

// ---- Working memory ---------------------------------------------------------------------

/** The longest cycle classified move by move (a longer one is cut to its latest MAX_CYCLE moves). */
const MAX_CYCLE = 1024;

/**
 * What a classification found for each move of a cycle, index 0 the latest move.
 * The arrays grow on demand up to MAX_CYCLE moves and are reused.
 */
class CycleFacts {
  /** Moves classified. */
  length = 0;
  /** Who played the move. */
  side = new Uint8Array(0);
  /** The move gives check. */
  check = new Uint8Array(0);
  /** The mover was in check before the move (the move answers a check). */
  answersCheck = new Uint8Array(0);
  /** The move threatens mate (ChineseRule with Mate Threat Depth > 0). */
  mateThreat = new Uint8Array(0);
  /** Ids (chase.ts) of the enemy pieces the move newly chases. */
  chased = new Int32Array(0);
  /**
   * ChineseRule: which of the move's new chases (`chased` bits) are joint attacks,
   * won only by two or more pieces together - the book's 联合捉 (threat.ts).
   */
  jointAttack = new Int32Array(0);
  /** Ids of the mover's pieces that deliver the check or the new chases. */
  attackers = new Int32Array(0);
  /** For `analyseCycle` (ChineseRule): per move and chased id, the id of the mover's piece that would take it. */
  chasedBy = new Int8Array(0);
  /** For `analyseCycle` (ChineseRule): per move, the checking piece and a piece its check wins (CHECK_WINS), or -1. */
  checkWin = new Int8Array(0);

  /** Starts a classification of `n` moves (at most MAX_CYCLE). */
  begin(n: number): void {
    this.length = n;
    if (this.side.length >= n) return;
    const size = Math.min(MAX_CYCLE, Math.max(n, 2 * this.side.length, 16));
    this.side = new Uint8Array(size);
    this.check = new Uint8Array(size);
    this.answersCheck = new Uint8Array(size);
    this.mateThreat = new Uint8Array(size);
    this.chased = new Int32Array(size);
    this.jointAttack = new Int32Array(size);
    this.attackers = new Int32Array(size);
    this.chasedBy = new Int8Array(size * 16);
    this.checkWin = new Int8Array(size * 2);
  }
}

/**
 * The moves taken back while a cycle is walked, latest first, to be made again;
 * the piece ids of chase.ts (`idBoard`) follow the pieces. Empty between walks.
 */
class Rewind {
  private moves = new Int32Array(64);
  private count = 0;

  /** Takes back the last move of `pos`; the piece that moved keeps its id. */
  back(pos: Position): void {
    const m = pos.moveAt[pos.sp];
    if (this.count === this.moves.length) {
      const grown = new Int32Array(2 * this.count);
      grown.set(this.moves);
      this.moves = grown;
    }
    this.moves[this.count++] = m;
    idBoard[m >> 7] = idBoard[m & 127];
    pos.undoMove(m);
  }

  /** Makes the latest taken-back move again; the piece that moves keeps its id. */
  forward(pos: Position): void {
    const m = this.moves[--this.count];
    pos.doMove(m);
    idBoard[m & 127] = idBoard[m >> 7];
  }

  /** Makes every taken-back move again; the ids stay those of the earliest position reached. */
  forwardAll(pos: Position): void {
    while (this.count > 0) pos.doMove(this.moves[--this.count]);
  }
}

/**
 * A judgement's working memory, owned by its caller (the search keeps one in its
 * RuleVerdict) so that nothing allocates per call and nothing is shared between
 * callers: everything here is written before it is read within one judgement.
 */
class RuleWork {
  /** The moves of the cycle judged, as the rule set classified them. */
  readonly cycle = new CycleFacts();
  /** SkyRule: the reversible history before the cycle, classified to compare the sides' runs of attacks. */
  readonly history = new CycleFacts();
  readonly rewind = new Rewind();
  /** Legal move lists, one per level (0..3) of `hasLegal` and the material test. */
  readonly moves = new Int32Array(MAX_MOVES * 4);
  /** SkyRule's check limit: per piece id, the latest checks in a row it took part in. */
  readonly checkStreak = new Int32Array(16);
  /** ChineseRule: per piece id of the mover, the enemy pieces it attacks after the move (threat.ts `pairs`). */
  readonly pairsAfter = new Int32Array(16);
  /** ChineseRule with `record`: per enemy piece id won after the move, the mover's piece that takes it (threat.ts `threatBy`). */
  readonly takerAfter = new Int8Array(16);
  /** ChineseRule with `record`: per piece id of the mover whose check wins material after the move, a piece it wins (threat.ts `checkTarget`). */
  readonly checkTargetAfter = new Int8Array(16);
}

function hasLegal(pos: Position, level: number, work: RuleWork): boolean {
  const base = level * MAX_MOVES;
  return generate(pos, GEN_LEGAL, work.moves, base) > base;
}

// ---- ComputerRule: Pikafish's detect_chases --------------------------------------------

/**
 * Chase judgement of the cycle of length d ending at the current state, exactly as
 * Pikafish: any position of the cycle with the side to move in check makes it a
 * draw; otherwise each side's chase set is the intersection over its moves of the
 * pieces newly chased by that move; exactly one side with a non-empty set loses.
 */
function computerRuleChases(pos: Position, d: number, rewind: Rewind): number {
  assignIds(pos);
  const us = pos.side;
  let chaseUs = 0xffff,
    chaseThem = 0xffff;
  let check = false;
  for (let i = 0; i < d; i++) {
    if (pos.checked[pos.sp]) {
      check = true;
      break;
    }
    const mover = pos.side ^ 1;
    const moverChase = mover === us ? chaseUs : chaseThem;
    if (moverChase === 0) {
      if ((mover === us ? chaseThem : chaseUs) === 0) break;
      rewind.back(pos);
    } else {
      const after = chasedMask(pos, mover as 0 | 1);
      rewind.back(pos);
      const diff = after & ~chasedMask(pos, mover as 0 | 1);
      if (mover === us) chaseUs &= diff;
      else chaseThem &= diff;
    }
  }
  rewind.forwardAll(pos);
  if (check) return REPETITION_DRAW;
  const a = chaseUs !== 0,
    b = chaseThem !== 0;
  if (a === b) return REPETITION_DRAW;
  return verdict(a ? LOSS : WIN, R_PERPETUAL_CHASE);
}

// ---- Other rule sets: per-move classification of a cycle --------------------------------

/** Ids of the pieces of color c attacking the king or one of the pieces in `targets` (ids of the other color). */
function attackerIds(pos: Position, c: number, check: boolean, targets: number): number {
  const b = pos.board;
  const them = c ^ 1;
  const ksq = pos.kingSq[them];
  let ids = 0;
  const n = pos.listCount[c];
  for (let i = 0; i < n; i++) {
    const s = pos.listSq[c * 16 + i];
    let hit = check && pos.attacksFrom(s, ksq);
    if (!hit && targets) {
      const m = pos.listCount[them];
      for (let j = 0; j < m && !hit; j++) {
        const t = pos.listSq[them * 16 + j];
        if (targets & (1 << idBoard[t]) && b[t] && pos.attacksFrom(s, t)) hit = true;
      }
    }
    if (hit) ids |= 1 << idBoard[s];
  }
  return ids;
}

/**
 * Records in `facts`, for each move of the last d plies, whether it checks,
 * answers a check, which enemy pieces it newly chases and (`wantAttackers`)
 * which pieces deliver the attack.
 */
function classifyCycle(pos: Position, d: number, wantAttackers: boolean, facts: CycleFacts, rewind: Rewind): void {
  assignIds(pos);
  const n = d < MAX_CYCLE ? d : MAX_CYCLE;
  facts.begin(n);
  for (let i = 0; i < n; i++) {
    const mover = (pos.side ^ 1) as 0 | 1;
    const check = pos.checked[pos.sp] === 1;
    facts.side[i] = mover;
    facts.check[i] = check ? 1 : 0;
    facts.answersCheck[i] = pos.checked[pos.sp - 1];
    facts.mateThreat[i] = 0;
    facts.jointAttack[i] = 0;
    const after = chasedMask(pos, mover);
    const attackersAfter = wantAttackers ? attackerIds(pos, mover, check, after) : 0;
    rewind.back(pos);
    const fresh = after & ~chasedMask(pos, mover);
    facts.chased[i] = fresh;
    // Attackers of the targets that are really new (attackersAfter covers all chased ones).
    facts.attackers[i] = attackersAfter;
    if (wantAttackers && fresh !== after) {
      // Narrow to the pieces attacking the new targets or the king: redo the move to look again.
      rewind.forward(pos);
      facts.attackers[i] = attackerIds(pos, mover, check, fresh);
      rewind.back(pos);
    }
  }
  rewind.forwardAll(pos);
}

/** Nodes the referee's tactical searches may spend per question (threat.ts). */
const THREAT_NODES = 20000;
const MATE_NODES = 40000;
/** Inside the search: mate by checks only, and fewer nodes. */
const SEARCH_MATE_NODES = 300;

/**
 * ChineseRule: records for each move of the cycle of length d ending at the
 * current state whether it checks, threatens mate (杀) and which enemy pieces it
 * newly threatens to win (捉). `full`: the book's tactical detector (threat.ts),
 * else Pikafish's direct chase and mate by checks. A king move that answers a
 * check is idle whatever it makes possible (the book's 图17); another answer
 * chases only what its own piece or the line it opens threatens, not what the
 * check left en prise (参考图47 against 参考图22). `record` (for `analyseCycle`)
 * also keeps which pieces attack.
 */
function classifyChineseCycle(
  pos: Position,
  d: number,
  mateDepth: number,
  full: boolean,
  work: RuleWork,
  record = false,
): void {
  const facts = work.cycle,
    rewind = work.rewind;
  const pairsAfter = work.pairsAfter,
    takerAfter = work.takerAfter,
    checkTargetAfter = work.checkTargetAfter;
  assignIds(pos);
  const n = d < MAX_CYCLE ? d : MAX_CYCLE;
  facts.begin(n);
  for (let i = 0; i < n; i++) {
    const mover = (pos.side ^ 1) as 0 | 1;
    const check = pos.checked[pos.sp] === 1;
    const forced = pos.checked[pos.sp - 1] === 1;
    const kingAnswer = forced && (pos.board[pos.moveAt[pos.sp] & 127] & 7) === KING;
    facts.side[i] = mover;
    facts.check[i] = check ? 1 : 0;
    facts.answersCheck[i] = forced ? 1 : 0;
    let threat = false,
      after = 0,
      jointAfter = 0,
      checkersAfter = 0,
      jointCheckersAfter = 0,
      answerThreats = 0;
    if (!check) {
      if (full) {
        pos.doNullMove();
        threat = mateDepth > 0 && forcedMate(pos, mateDepth, MATE_NODES, true);
        after = threatTargets(pos, THREAT_NODES);
        jointAfter = threatJoint.mask;
        checkersAfter = checkWins.by;
        jointCheckersAfter = checkWins.joint;
        if (record) {
          takerAfter.set(threatBy);
          checkTargetAfter.set(checkTarget);
        }
        attackPairs(pos, after);
        pairsAfter.set(pairs);
        if (forced) {
          const m = pos.moveAt[pos.sp - 1];
          answerThreats = threatsOfMove(pos, after, m >> 7, m & 127);
        }
        pos.undoNullMove();
      } else {
        pos.doNullMove();
        threat = mateDepth > 0 && forcedMate(pos, mateDepth, SEARCH_MATE_NODES, false);
        pos.undoNullMove();
        after = chasedMask(pos, mover);
      }
    }
    if (record) facts.attackers[i] = check ? attackerIds(pos, mover, true, 0) : 0;
    rewind.back(pos);
    const before = check ? 0 : full ? threatTargets(pos, THREAT_NODES) : chasedMask(pos, mover);
    // A check that wins material is new when its checker's check did not win before.
    const newCheckers = checkersAfter & ~(full && !check ? checkWins.by : 0);
    let fresh = (after & ~before & ~CHECK_WINS) | (newCheckers ? CHECK_WINS : 0);
    let joint = (fresh & jointAfter & ~CHECK_WINS) | (newCheckers & jointCheckersAfter ? CHECK_WINS : 0);
    if (record) {
      const by = 31 - Math.clz32(newCheckers & -newCheckers);
      facts.checkWin[2 * i] = newCheckers ? by : -1;
      facts.checkWin[2 * i + 1] = newCheckers ? checkTargetAfter[by] : -1;
    }
    if (record) for (let t = 0; t < 16; t++) facts.chasedBy[i * 16 + t] = fresh & (1 << t) ? takerAfter[t] : -1;
    if (full && after !== 0 && !pos.checked[pos.sp]) {
      // A piece that newly joins the attack on a piece that can be won chases it.
      attackPairs(pos, -1);
      for (let id = 0; id < 16; id++) {
        const joined = pairsAfter[id] & ~pairs[id] & ~fresh;
        fresh |= joined;
        joint |= joined & jointAfter;
        if (record) for (let t = 0; t < 16; t++) if (joined & (1 << t)) facts.chasedBy[i * 16 + t] = id;
      }
    }
    facts.mateThreat[i] = threat && !kingAnswer ? 1 : 0;
    facts.chased[i] = forced ? (full && !kingAnswer ? answerThreats : 0) : fresh;
    facts.jointAttack[i] = forced ? answerThreats & jointAfter : joint;
  }
  rewind.forwardAll(pos);
}

// ---- Offences: what each side did over the cycle ----------------------------------------

/**
 * Does color c chase one and the same piece with every one of its moves of the
 * cycle, without a check or a mate threat? AsianRule / YitianRule: a side that
 * gives check anywhere in the cycle is not chasing; the AXF rules (rule 12,
 * diagram 13; rule 18, diagrams 37-38) rule "one check, one chase" and "several
 * checks, one chase" allowed moves.
 */
function chasesOnePiece(facts: CycleFacts, c: number): boolean {
  let and = 0xffff,
    moves = 0;
  for (let i = 0; i < facts.length; i++) {
    if (facts.side[i] !== c) continue;
    if (facts.check[i] || facts.mateThreat[i]) return false;
    moves++;
    and &= facts.chased[i];
  }
  return moves > 0 && and !== 0;
}

/**
 * ChineseRule, when both sides attack on every move: does color c chase on every
 * move (no checks or mate threats) with single pieces only, no joint attack
 * among its chases? The book rules against the side whose chases are all single
 * when the other side's attacks include joint ones (参考图14, 34, 36, 39, 40, 41);
 * where neither side attacks jointly, or both do, a draw (图3, 参考图42, 44, 45, 46).
 */
function chasesSingly(facts: CycleFacts, c: number): boolean {
  let moves = 0;
  for (let i = 0; i < facts.length; i++) {
    if (facts.side[i] !== c) continue;
    if (facts.check[i] || facts.mateThreat[i] || facts.jointAttack[i]) return false;
    moves++;
  }
  return moves > 0;
}

/** ChineseRule: does color c make a joint attack (联合捉, `jointAttack`) on some move that neither checks nor threatens mate? */
function attacksJointly(facts: CycleFacts, c: number): boolean {
  for (let i = 0; i < facts.length; i++)
    if (facts.side[i] === c && !facts.check[i] && !facts.mateThreat[i] && facts.jointAttack[i]) return true;
  return false;
}

/**
 * The verdict when each side's offence has a level (0: none, a higher level
 * weighs more): the heavier offence loses, for its reason; equal levels draw.
 */
function heavierOffenceLoses(levelUs: number, levelThem: number, reasonUs: number, reasonThem: number): number {
  if (levelUs === levelThem) return REPETITION_DRAW;
  return levelUs > levelThem ? verdict(LOSS, reasonUs) : verdict(WIN, reasonThem);
}

/**
 * ChineseRule: color c's offence, R_NONE when it has none. Color c offends when
 * every one of its moves checks, threatens mate or newly chases some piece
 * (chases of different pieces count alike) and not every move is a check; the
 * reason is perpetual chase (chases only), perpetual mate threat (mate threats
 * only) or a forbidden cycle (a mixture).
 */
function chineseOffence(facts: CycleFacts, c: number): number {
  let moves = 0,
    checks = 0,
    chases = 0,
    mateThreats = 0;
  for (let i = 0; i < facts.length; i++) {
    if (facts.side[i] !== c) continue;
    moves++;
    if (facts.check[i]) checks++;
    else if (facts.mateThreat[i]) mateThreats++;
    else if (facts.chased[i]) chases++;
    else return R_NONE;
  }
  if (moves === 0 || checks === moves) return R_NONE;
  if (checks === 0 && mateThreats === 0) return R_PERPETUAL_CHASE;
  if (checks === 0 && chases === 0) return R_MATE_THREAT;
  return R_FORBIDDEN;
}

/**
 * SkyRule (TianTian) offence level of color c (see docs/RULES.md): 4 perpetual
 * check; 3 one piece checking and chasing in turn; 2 chasing one and the same
 * piece on every move; 1 several pieces checking and chasing in turn, or chasing
 * different pieces while the opponent gives checks; 0 otherwise. A move
 * answering a check is left out of the mover's record (it is neither an attack
 * nor an idle move).
 */
function skyOffenceLevel(facts: CycleFacts, c: number): number {
  let moves = 0,
    checks = 0,
    counted = 0,
    attacks = 0,
    chaseAnd = 0xffff,
    pieceAnd = -1;
  let opponentChecks = 0;
  for (let i = 0; i < facts.length; i++) {
    if (facts.side[i] !== c) {
      if (facts.check[i]) opponentChecks++;
      continue;
    }
    moves++;
    if (facts.check[i]) checks++;
    if (facts.answersCheck[i] && !facts.check[i]) continue;
    counted++;
    if (facts.check[i] || facts.chased[i]) {
      attacks++;
      pieceAnd &= facts.attackers[i];
    }
    if (!facts.check[i]) chaseAnd &= facts.chased[i];
  }
  if (moves === 0) return 0;
  if (checks === moves) return 4;
  if (counted === 0 || attacks !== counted) return 0;
  if (checks > 0) return checks < counted ? (pieceAnd !== 0 ? 3 : 1) : 0;
  if (chaseAnd !== 0) return 2;
  return opponentChecks > 0 ? 1 : 0;
}

/**
 * SkyRule: how many moves in a row color c has attacked (checked or newly
 * chased), counted back from its latest move through classified history; a
 * move answering a check neither counts nor breaks the run.
 */
function skyAttackRun(facts: CycleFacts, c: number): number {
  let run = 0;
  for (let i = 0; i < facts.length; i++) {
    if (facts.side[i] !== c) continue;
    if (facts.check[i] || facts.chased[i]) run++;
    else if (!facts.answersCheck[i]) break;
  }
  return run;
}

function skyReason(level: number): number {
  return level === 4 ? R_PERPETUAL_CHECK : level === 2 ? R_PERPETUAL_CHASE : R_FORBIDDEN;
}

/**
 * The verdict of every rule set but ComputerRule on the cycle of d plies ending
 * at the current position. `checkUs` / `checkThem`: every move of the side to
 * move / of the other side in the cycle gave check. `ply` 0 is a search root
 * (or a whole-game judgement), where ChineseRule uses its full tactical detector.
 */
function judgeCycle(
  pos: Position,
  d: number,
  checkUs: boolean,
  checkThem: boolean,
  cfg: RuleConfig,
  ply: number,
  work: RuleWork,
): number {
  const rule = cfg.repetitionRule;
  const facts = work.cycle;
  const us = pos.side,
    them = us ^ 1;
  if (rule === 'SkyRule') {
    classifyCycle(pos, d, true, facts, work.rewind);
    const levelUs = skyOffenceLevel(facts, us),
      levelThem = skyOffenceLevel(facts, them);
    if (levelUs > 0 && levelThem > 0) {
      // Both sides break the rules: the platform's counters reach their limit
      // first for the side whose attacks started earlier.
      const h = scanLength(pos);
      if (h > d) {
        classifyCycle(pos, h, false, work.history, work.rewind);
        const runUs = skyAttackRun(work.history, us),
          runThem = skyAttackRun(work.history, them);
        if (runUs !== runThem)
          return runUs > runThem ? verdict(LOSS, skyReason(levelUs)) : verdict(WIN, skyReason(levelThem));
      }
    }
    return heavierOffenceLoses(levelUs, levelThem, skyReason(levelUs), skyReason(levelThem));
  }
  // Perpetual check is the most serious offence under every other rule set.
  if (checkUs || checkThem) {
    if (checkUs && checkThem) return REPETITION_DRAW;
    return verdict(checkUs ? LOSS : WIN, R_PERPETUAL_CHECK);
  }
  if (rule === 'AllowChase') return REPETITION_DRAW;
  if (rule === 'ChineseRule') {
    classifyChineseCycle(pos, d, cfg.mateThreatDepth, ply === 0, work);
    const offenceUs = chineseOffence(facts, us),
      offenceThem = chineseOffence(facts, them);
    if (offenceUs !== R_NONE && offenceThem !== R_NONE) {
      // Both sides attack on every move: chases by a piece alone on every move
      // lose against joint attacks (联合捉).
      if (chasesSingly(facts, us) && attacksJointly(facts, them)) return verdict(LOSS, R_PERPETUAL_CHASE);
      if (chasesSingly(facts, them) && attacksJointly(facts, us)) return verdict(WIN, R_PERPETUAL_CHASE);
    }
    return heavierOffenceLoses(offenceUs !== R_NONE ? 1 : 0, offenceThem !== R_NONE ? 1 : 0, offenceUs, offenceThem);
  }
  // AsianRule, YitianRule: perpetually chasing one and the same piece loses.
  classifyCycle(pos, d, false, facts, work.rewind);
  const chaseUs = chasesOnePiece(facts, us),
    chaseThem = chasesOnePiece(facts, them);
  if (chaseUs === chaseThem) return REPETITION_DRAW;
  return verdict(chaseUs ? LOSS : WIN, R_PERPETUAL_CHASE);
}

// ---- Repetition scan --------------------------------------------------------------------

/** Plies of reversible history that may contain an earlier occurrence (Pikafish's `end`). */
function scanLength(pos: Position): number {
  const sp = pos.sp;
  const c10r = pos.check10Red[sp],
    c10b = pos.check10Black[sp];
  const end = pos.rule60[sp] + (c10r > 10 ? c10r - 10 : 0) + (c10b > 10 ? c10b - 10 : 0);
  const pfn = pos.pliesFromNull[sp];
  return pfn < end ? pfn : end;
}

/**
 * Pikafish's rule_judge repetition part (ComputerRule): a final verdict, or a
 * PROVISIONAL one for a two-fold win or loss that may still turn into a
 * three-fold repetition with another verdict.
 */
function computerRepetition(pos: Position, ply: number, cfg: RuleConfig, work: RuleWork): number {
  const end = scanLength(pos);
  const sp = pos.sp;
  const filter = pos.keyFilter;
  const lo = pos.keyLo[sp],
    hi = pos.keyHi[sp];
  if (end < 4 || filter[lo & KEY_FILTER_MASK] === 0) return GAME_GOES_ON;
  const checked = pos.checked;
  let occurrences = 0;
  let checkThem = checked[sp] === 1 && checked[sp - 2] === 1;
  let checkUs = checked[sp - 1] === 1 && checked[sp - 3] === 1;
  let pending = GAME_GOES_ON;
  for (let i = 4; i <= end; i += 2) {
    const s = sp - i;
    checkThem = checkThem && checked[s] === 1;
    if (pos.keyLo[s] === lo && pos.keyHi[s] === hi && (++occurrences === 2 || ply > i)) {
      let v: number;
      if (!checkThem && !checkUs) v = computerRuleChases(pos, i, work.rewind);
      else if (!checkUs) v = verdict(WIN, R_PERPETUAL_CHECK);
      else if (!checkThem) v = verdict(LOSS, R_PERPETUAL_CHECK);
      else v = REPETITION_DRAW;
      v = onCycle(v, i);
      if (outcomeOf(v) === DRAW || occurrences === 2) return v;
      // A two-fold win or loss inside the search: final only when the cycle cannot
      // turn into a three-fold repetition with another verdict.
      pending = v | PROVISIONAL;
      if (filter[lo & KEY_FILTER_MASK] <= 1) {
        const max = cfg.rule60MaxPly;
        if (
          (max === 0 || pos.rule60[sp] < max) &&
          pos.keyLo[sp - 1] === pos.keyLo[s - 1] &&
          pos.keyHi[sp - 1] === pos.keyHi[s - 1]
        ) {
          let prev = sp - 1;
          while (--prev !== s) if (filter[pos.keyLo[prev] & KEY_FILTER_MASK] > 1) break;
          if (prev === s) return v;
        }
        break;
      }
    }
    if (i + 1 <= end) checkUs = checkUs && checked[s - 1] === 1;
  }
  return pending;
}

/** Repetition judgement for the rule sets judged at the 2nd occurrence (or the 3rd for YitianRule). */
function ruleRepetition(pos: Position, ply: number, cfg: RuleConfig, work: RuleWork): number {
  const end = scanLength(pos);
  const sp = pos.sp;
  const lo = pos.keyLo[sp],
    hi = pos.keyHi[sp];
  if (end < 4 || pos.keyFilter[lo & KEY_FILTER_MASK] === 0) return GAME_GOES_ON;
  const rule = cfg.repetitionRule;
  const folds = rule === 'YitianRule' ? 2 : 1;
  const checked = pos.checked;
  let occurrences = 0;
  let checkThem = checked[sp] === 1 && checked[sp - 2] === 1;
  let checkUs = checked[sp - 1] === 1 && checked[sp - 3] === 1;
  for (let i = 4; i <= end; i += 2) {
    const s = sp - i;
    checkThem = checkThem && checked[s] === 1;
    if (pos.keyLo[s] === lo && pos.keyHi[s] === hi && (++occurrences >= folds || ply > i)) {
      if (rule === 'NoJudgement') {
        // Cycles are not judged: the game goes on. Inside the search (ply > 0) a
        // repetition cannot gain anything, so it is scored as a draw.
        return ply > 0 ? onCycle(REPETITION_DRAW, i) : GAME_GOES_ON;
      }
      return onCycle(judgeCycle(pos, i, checkUs, checkThem, cfg, ply, work), i);
    }
    if (i + 1 <= end) checkUs = checkUs && checked[s - 1] === 1;
  }
  return GAME_GOES_ON;
}

// ---- SkyRule check limit -------------------------------------------------------------

/**
 * TianTian's limit on consecutive checks: one piece may give at most 6 checks in a
 * row, two pieces 12, three or more 18. The run is the side's unbroken series of
 * checking moves up to now; a piece's streak is the number of the latest checks of
 * the run it took part in (as checker, discovered checks included). A win for
 * the side to move when the side that just moved went over a limit.
 */
function skyCheckLimit(pos: Position, work: RuleWork): number {
  const sp = pos.sp;
  if (!pos.checked[sp]) return GAME_GOES_ON;
  const back = pos.pliesFromNull[sp];
  let run = 0;
  for (let k = sp; run * 2 < back && k >= 0 && pos.checked[k]; k -= 2) run++;
  if (run <= 6) return GAME_GOES_ON;
  assignIds(pos);
  const streak = work.checkStreak,
    rewind = work.rewind;
  streak.fill(0);
  let distinct = 0,
    alive = 0xffff,
    maxStreak = 0;
  const c = pos.side ^ 1;
  for (let i = 0; i < run; i++) {
    const ids = attackerIds(pos, c, true, 0);
    for (let id = 0; id < 16; id++) {
      if (!(ids & (1 << id))) {
        alive &= ~(1 << id);
        continue;
      }
      if (streak[id] === 0) distinct++;
      if (alive & (1 << id)) {
        streak[id]++;
        if (streak[id] > maxStreak) maxStreak = streak[id];
      }
    }
    if (i + 1 < run) {
      rewind.back(pos);
      rewind.back(pos);
    }
  }
  rewind.forwardAll(pos);
  const limit = 6 * (distinct > 3 ? 3 : distinct);
  if (maxStreak > 6 || run > limit) return verdict(WIN, R_CHECK_LIMIT);
  return GAME_GOES_ON;
}

// ---- Insufficient material -----------------------------------------------------------------

/**
 * Pikafish's insufficient-material draws (ComputerRule), when neither side has a
 * pawn: no rook/knight/cannon at all; or a single cannon whose side has no
 * advisor, against at most one advisor (or with no bishop of its own against two
 * advisors); or one cannon each and no advisors. Some of these are draws only if
 * no move gives mate at once. Other rule sets only know the first case.
 */
function insufficientMaterial(pos: Position, full: boolean, work: RuleWork): number {
  const pc = pos.pieceCount;
  if (pc[PAWN] + pc[8 | PAWN] !== 0) return GAME_GOES_ON;
  const mmR = pos.majorMaterial[RED],
    mmB = pos.majorMaterial[BLACK];
  const mm = mmR + mmB;
  let level = 0; // 0 none, 1 direct draw, 2 draw unless a move mates
  if (mm === 0) level = 1;
  else if (full) {
    if (mm === CANNON_VALUE) {
      const cs = mmR === CANNON_VALUE ? RED : BLACK;
      const os = cs ^ 1;
      const advC = pc[(cs << 3) | ADVISOR],
        advO = pc[(os << 3) | ADVISOR],
        bisC = pc[(cs << 3) | BISHOP];
      if (advC === 0) {
        if (advO === 0) level = 1;
        else if (advO === 1) level = bisC === 0 ? 1 : 2;
        else if (bisC === 0) level = 2;
      }
    }
    if (level === 0 && mmR === CANNON_VALUE && mmB === CANNON_VALUE && pc[ADVISOR] + pc[8 | ADVISOR] === 0) {
      level = pc[BISHOP] + pc[8 | BISHOP] === 0 ? 1 : 2;
    }
  }
  if (level === 0) return GAME_GOES_ON;
  if (level === 2) {
    const moves = work.moves;
    const base = MAX_MOVES * 2;
    const end = generate(pos, GEN_LEGAL, moves, base);
    if (end === base) return verdict(LOSS, pos.checked[pos.sp] ? R_CHECKMATE : R_STALEMATE);
    for (let i = base; i < end; i++) {
      const m = moves[i];
      pos.doMove(m);
      const mate = !hasLegal(pos, 3, work);
      pos.undoMove(m);
      if (mate) return GAME_GOES_ON;
    }
  }
  return verdict(DRAW, R_MATERIAL);
}

// ---- The judgement ------------------------------------------------------------------------

/** The rules' verdict on the current position, `ply` plies from the search root (0: a root or the whole game). */
function judgePosition(pos: Position, ply: number, cfg: RuleConfig, work: RuleWork): number {
  work.cycle.length = 0;
  const rule = cfg.repetitionRule;
  let v: number;
  if (rule === 'ComputerRule') v = computerRepetition(pos, ply, cfg, work);
  else {
    if (rule === 'SkyRule' && (v = skyCheckLimit(pos, work)) !== GAME_GOES_ON) return v;
    v = ruleRepetition(pos, ply, cfg, work);
  }
  if (outcomeOf(v) !== GOES_ON) return v;
  const provisional = v;
  const max = cfg.rule60MaxPly;
  if (max > 0 && pos.rule60[pos.sp] >= max) {
    if (hasLegal(pos, 2, work)) return verdict(DRAW, R_RULE60);
    return verdict(LOSS, pos.checked[pos.sp] ? R_CHECKMATE : R_STALEMATE);
  }
  const material = insufficientMaterial(pos, rule === 'ComputerRule', work);
  return material !== GAME_GOES_ON ? material : provisional;
}

/** Color that a draw counts as a win for under the DrawRule, or -1. */
function drawWinner(cfg: RuleConfig, repetition: boolean): number {
  switch (cfg.drawRule) {
    case 'DrawAsBlackWin':
      return BLACK;
    case 'DrawAsRedWin':
      return RED;
    case 'DrawRepAsBlackWin':
      return repetition ? BLACK : -1;
    case 'DrawRepAsRedWin':
      return repetition ? RED : -1;
    default:
      return -1;
  }
}

/**
 * What `ruleJudge` found, for its caller to read. The caller owns the record and
 * hands the same one to every call (the search keeps one per thread), so that the
 * judgement at every node allocates nothing; the record also holds the
 * judgement's working memory.
 */
export class RuleVerdict {
  /** The score for the side to move (what `ruleJudge` returns): VALUE_NONE while the game goes on. */
  score = VALUE_NONE;
  /** The result for the side to move, DrawRule applied: 'none' while the game goes on. */
  result: 'none' | 'win' | 'loss' | 'draw' = 'none';
  /** Why; 'none' while the game goes on (with a provisional verdict: its reason). */
  code: ReasonCode = 'none';
  /** True when DrawRule turned a draw into this win or loss. */
  byDrawRule = false;
  /**
   * ComputerRule: +1 / -1 when a two-fold repetition found inside the search
   * would win / lose for the side to move but is not final yet (the game goes
   * on); 0 otherwise. Pikafish then raises alpha to just below a draw (+1) or
   * lowers beta to just above it (-1).
   */
  provisional = 0;
  /** Plies of the repetition cycle the verdict rests on; 0 when none. */
  cycleLength = 0;
  /** @internal */
  readonly work = new RuleWork();

  /**
   * The cycle's moves as the rule set classified them (index 0 the latest move):
   * filled when the verdict rests on a cycle that AsianRule, YitianRule,
   * ChineseRule or SkyRule classifies move by move; empty (length 0) otherwise.
   */
  get cycle(): CycleFacts {
    return this.work.cycle;
  }
}

/**
 * In-search judgement (Pikafish's rule_judge): VALUE_NONE when the game goes on,
 * else the score for the side to move: mateIn(ply)/matedIn(ply) for wins and
 * losses by rule, VALUE_DRAW for draws, with the DrawRule conversions applied.
 * `ply` is the distance from the search root; a repetition strictly after the
 * root is judged at its first recurrence. Fills `out` with the verdict (with
 * ComputerRule, `out.provisional` tells the sign of a two-fold win or loss that
 * is not final yet). Allocates nothing.
 */
export function ruleJudge(pos: Position, ply: number, cfg: RuleConfig, out: RuleVerdict): number {
  const v = judgePosition(pos, ply, cfg, out.work);
  const outcome = outcomeOf(v),
    reason = reasonOf(v);
  out.code = REASON_CODES[reason];
  out.cycleLength = v >> CYCLE_SHIFT;
  out.provisional = v & PROVISIONAL ? ((v & 3) === WIN ? 1 : -1) : 0;
  out.byDrawRule = false;
  let score: number;
  if (outcome === GOES_ON) {
    out.result = 'none';
    score = VALUE_NONE;
  } else if (outcome === WIN) {
    out.result = 'win';
    score = mateIn(ply);
  } else if (outcome === LOSS) {
    out.result = 'loss';
    score = matedIn(ply);
  } else {
    const w = drawWinner(cfg, reason === R_REPETITION);
    out.result = w < 0 ? 'draw' : w === pos.side ? 'win' : 'loss';
    out.byDrawRule = w >= 0;
    score = w < 0 ? VALUE_DRAW : w === pos.side ? mateIn(ply) : matedIn(ply);
  }
  out.score = score;
  return score;
}

export interface Judgement {
  result: 'none' | 'draw' | 'red' | 'black';
  /** Why (switch on this); 'none' when the game goes on. */
  code: ReasonCode;
  /** True when DrawRule turned a draw into this win. */
  byDrawRule: boolean;
  /** The reason in words (empty when the game goes on), for display. */
  reason: string;
}

const NO_JUDGEMENT: Judgement = Object.freeze({ result: 'none', code: 'none', byDrawRule: false, reason: '' });

/**
 * Whole-game judgement of the game so far (the history kept in `pos`): mate and
 * stalemate (both lose), then the rule outcome of the current position as at a
 * search root (ComputerRule judges repetitions at the 3rd occurrence, the other
 * rule sets at the 2nd), with the DrawRule applied.
 */
export function judge(pos: Position, cfg: RuleConfig): Judgement {
  return judgeWith(pos, cfg, new RuleWork());
}

function judgeWith(pos: Position, cfg: RuleConfig, work: RuleWork): Judgement {
  const stm = pos.side;
  const win = (c: number, r: number, byDrawRule = false): Judgement => ({
    result: c === RED ? 'red' : 'black',
    code: REASON_CODES[r],
    byDrawRule,
    reason: byDrawRule
      ? `${REASON_TEXTS[r]}, counted as a ${c === RED ? 'red' : 'black'} win by DrawRule`
      : REASON_TEXTS[r],
  });
  if (!hasLegal(pos, 0, work)) return win(stm ^ 1, pos.checked[pos.sp] ? R_CHECKMATE : R_STALEMATE);
  const v = judgePosition(pos, 0, cfg, work);
  const outcome = outcomeOf(v),
    r = reasonOf(v);
  if (outcome === GOES_ON) return { ...NO_JUDGEMENT };
  // TianTian does not adjudicate a cycle nobody is to blame for: the game goes on
  // (and ends by the 60-move rule unless someone deviates).
  if (cfg.repetitionRule === 'SkyRule' && outcome === DRAW && r === R_REPETITION) return { ...NO_JUDGEMENT };
  if (outcome === WIN) return win(stm, r);
  if (outcome === LOSS) return win(stm ^ 1, r);
  const w = drawWinner(cfg, r === R_REPETITION);
  if (w >= 0) return win(w, r, true);
  return { result: 'draw', code: REASON_CODES[r], byDrawRule: false, reason: REASON_TEXTS[r] };
}

export function formatJudgement(j: Judgement): string {
  if (j.result === 'none') return 'Judgement: none';
  if (j.result === 'draw') return `Judgement: draw (${j.reason})`;
  return `Judgement: ${j.result === 'red' ? 'red' : 'black'} wins (${j.reason})`;
}

/**
 * Plays a game from `fen` (UCI moves) and returns the first judgement that ends it
 * (with the number of plies played when it was given), or `none` after the last
 * move. A refused FEN or move is the error (`fen-*`, `move-syntax`,
 * `move-illegal`; the message names the ply).
 */
export function judgeMoves(
  fen: string,
  moves: readonly string[],
  cfg: RuleConfig,
): Result<{ judgement: Judgement; ply: number }, FenErrorCode | MoveErrorCode> {
  const start = Position.fromFen(fen);
  if (!start.ok) return start;
  const pos = start.value;
  pos.reserve(moves.length + 1);
  const list = new Int32Array(MAX_MOVES);
  const work = new RuleWork();
  for (let i = 0; i < moves.length; i++) {
    const m = parseLegalMove(pos, moves[i], list);
    if (!m.ok) return err(m.error.code, `ply ${i + 1}: ${m.error.message}`);
    pos.doMove(m.value);
    const j = judgeWith(pos, cfg, work);
    if (j.result !== 'none') return ok({ judgement: j, ply: i + 1 });
  }
  return ok({ judgement: { ...NO_JUDGEMENT }, ply: moves.length });
}

// ---- Cycle analysis (the referee's account of a repetition) ----------------------------

/** What a move of a cycle does in the eyes of the rule set: checks, threatens mate (杀), chases (捉), or none of these. */
export type MoveKind = 'check' | 'mate-threat' | 'chase' | 'idle';

/** A piece (its code, `color << 3 | type`) and where it stands. */
export interface PieceOnSquare {
  piece: number;
  square: number;
}

/** One move of a cycle. */
export interface CycleMove {
  move: Move;
  /** Who played it. */
  side: Color;
  kind: MoveKind;
  /** The move answered a check. */
  answersCheck: boolean;
  /** For a chase: the enemy pieces it newly threatens to win, where they stand after the move. */
  targets: PieceOnSquare[];
  /**
   * For a chase: the mover's pieces that would take them (one per target, in the
   * same order); for a check: the checking pieces. Where they stand after the move.
   */
  by: PieceOnSquare[];
  /** For a chase: per target, true when a check of the `by` piece wins it (whatever the answer), not a capture by it. */
  byCheck: boolean[];
  /** For a chase: the piece whose check wins material whatever the answer, or null. */
  winsByCheck: PieceOnSquare | null;
}

/** A repetition cycle: the moves between two occurrences of the current position, and what the rule set gives. */
export interface CycleAnalysis {
  /** Plies in the cycle. */
  length: number;
  /** Its moves, oldest first. */
  moves: CycleMove[];
  /** The rule set's verdict on this cycle: who wins if it is played on ('none': not adjudicated). */
  result: 'red' | 'black' | 'draw' | 'none';
  /** Why ('repetition' for a draw). */
  code: ReasonCode;
}

function piecesOf(pos: Position, color: number, ids: number): PieceOnSquare[] {
  const out: PieceOnSquare[] = [];
  for (let s = 0; s < 90; s++) {
    const p = pos.board[s];
    if (p && p >> 3 === color && ids & (1 << idBoard[s])) out.push({ piece: p, square: s });
  }
  return out;
}

/**
 * The plies since the latest earlier occurrence of the current position in the
 * reversible part of the game (the shortest cycle that ends here), or 0 when it
 * has not occurred before.
 */
export function repetitionLength(pos: Position): number {
  const end = scanLength(pos);
  const sp = pos.sp;
  for (let i = 4; i <= end; i += 2)
    if (pos.keyLo[sp - i] === pos.keyLo[sp] && pos.keyHi[sp - i] === pos.keyHi[sp]) return i;
  return 0;
}

/**
 * The shortest repetition cycle that ends at the current position (the moves
 * since its latest earlier occurrence in the reversible part of the game), each
 * move classified as the rule set sees it (ChineseRule: the referee's tactical
 * detector, docs/RULES.md), and the verdict the rule set gives on it whatever
 * the number of occurrences; null when the position has not occurred before.
 * The position is left as it was.
 */
export function analyseCycle(pos: Position, cfg: RuleConfig): CycleAnalysis | null {
  const d = repetitionLength(pos);
  if (d === 0 || d > MAX_CYCLE) return null;
  const work = new RuleWork();
  const sp = pos.sp;
  let checkThem = true,
    checkUs = true;
  for (let k = 0; k < d; k += 2) {
    checkThem = checkThem && pos.checked[sp - k] === 1;
    checkUs = checkUs && pos.checked[sp - k - 1] === 1;
  }
  const rule = cfg.repetitionRule;
  let v: number;
  if (rule === 'NoJudgement') v = verdict(GOES_ON, R_REPETITION);
  else if (rule === 'ComputerRule') {
    if (checkThem && checkUs) v = REPETITION_DRAW;
    else if (checkThem || checkUs) v = verdict(checkUs ? LOSS : WIN, R_PERPETUAL_CHECK);
    else v = computerRuleChases(pos, d, work.rewind);
  } else v = judgeCycle(pos, d, checkUs, checkThem, cfg, 0, work);
  const outcome = outcomeOf(v);
  const facts = work.cycle;
  if (rule === 'ChineseRule') classifyChineseCycle(pos, d, cfg.mateThreatDepth, true, work, true);
  else classifyCycle(pos, d, true, facts, work.rewind);
  // idBoard now holds the ids of the cycle's first position: replay the cycle.
  const moves: Move[] = [];
  for (let i = 0; i < d; i++) moves.push(pos.undoLast());
  const out: CycleMove[] = [];
  for (let k = d - 1; k >= 0; k--) {
    const m = moves[k];
    const i = k; // facts index: 0 is the latest move
    pos.redoLast(m);
    moveId(m >> 7, m & 127);
    const side = facts.side[i] as Color;
    const chased = facts.chased[i];
    const kind: MoveKind = facts.check[i] ? 'check' : facts.mateThreat[i] ? 'mate-threat' : chased ? 'chase' : 'idle';
    const targets = kind === 'chase' ? piecesOf(pos, side ^ 1, chased) : [];
    let by: PieceOnSquare[] = [];
    const byCheck = targets.map(() => false);
    let winsByCheck: PieceOnSquare | null = null;
    if (kind === 'chase' && chased & CHECK_WINS) {
      // A check that wins material: the checker, and a piece it wins when one is known.
      const checker = facts.checkWin[2 * i],
        won = facts.checkWin[2 * i + 1];
      winsByCheck = piecesOf(pos, side, 1 << checker)[0] ?? null;
      const wonPieces = won >= 0 ? piecesOf(pos, side ^ 1, 1 << won) : [];
      if (wonPieces.length && !targets.some((t) => t.square === wonPieces[0].square)) {
        targets.push(wonPieces[0]);
        byCheck.push(true);
        facts.chasedBy[i * 16 + won] = checker;
      }
    }
    if (kind === 'check') by = piecesOf(pos, side, facts.attackers[i]);
    else if (kind === 'chase') {
      for (const t of targets) {
        const id = rule === 'ChineseRule' ? facts.chasedBy[i * 16 + idBoard[t.square]] : -1;
        const who =
          id >= 0
            ? piecesOf(pos, side, 1 << id)
            : piecesOf(pos, side, facts.attackers[i])
                .filter((a) => pos.attacksFrom(a.square, t.square))
                .sort((a, b) => (b.square === (m & 127) ? 1 : 0) - (a.square === (m & 127) ? 1 : 0));
        if (who.length) by.push(who[0]);
      }
    }
    out.push({ move: m, side, kind, answersCheck: facts.answersCheck[i] === 1, targets, by, byCheck, winsByCheck });
  }
  const stm = pos.side;
  let result: CycleAnalysis['result'] =
    outcome === WIN ? (stm === RED ? 'red' : 'black') : outcome === LOSS ? (stm === RED ? 'black' : 'red') : 'draw';
  if (outcome === GOES_ON || (rule === 'SkyRule' && outcome === DRAW)) result = 'none';
  return { length: d, moves: out, result, code: REASON_CODES[reasonOf(v)] };
}
