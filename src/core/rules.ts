// Game-end judgement: repetition rule sets, the 60-move rule, insufficient
// material and DrawRule.
//
// One module serves the search (`ruleJudge`, called at every node, allocation
// free), the match runner and the library API (`judge`, the whole game so far).
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

// ---- Internal outcome: who wins, why --------------------------------------------------

/** Outcome codes, relative to the side to move. */
const O_NONE = 0;
const O_WIN = 1;
const O_LOSS = 2;
const O_DRAW = 3;

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

let outReason = R_NONE;
/** Provisional score of a two-fold repetition that ComputerRule does not settle yet (see ruleJudgeHint). */
let hint = VALUE_NONE;

function setOut(o: number, reason: number): number {
  outReason = reason;
  return o;
}

// ---- Scratch (module-level so that nothing allocates per call) ------------------------

const MOVE_LEVELS = 24;
const moveBuf = new Int32Array(MAX_MOVES * MOVE_LEVELS);
const undone = new Int32Array(2048);
let undoneCount = 0;

function undoOne(pos: Position): void {
  const m = pos.moveAt[pos.sp];
  undone[undoneCount++] = m;
  const from = m >> 7,
    to = m & 127;
  idBoard[from] = idBoard[to];
  pos.undoMove(m);
}

function redoAll(pos: Position): void {
  while (undoneCount > 0) pos.doMove(undone[--undoneCount]);
}

function hasLegal(pos: Position, level: number): boolean {
  const base = level * MAX_MOVES;
  return generate(pos, GEN_LEGAL, moveBuf, base) > base;
}

// ---- ComputerRule: Pikafish's detect_chases --------------------------------------------

/**
 * Chase judgement of the cycle of length d ending at the current state, exactly as
 * Pikafish: any position of the cycle with the side to move in check makes it a
 * draw; otherwise each side's chase set is the intersection over its moves of the
 * pieces newly chased by that move; exactly one side with a non-empty set loses.
 * Returns O_WIN/O_LOSS/O_DRAW for the side to move.
 */
function computerChases(pos: Position, d: number): number {
  assignIds(pos);
  const us = pos.side;
  let chaseUs = 0xffff,
    chaseThem = 0xffff;
  let check = false;
  undoneCount = 0;
  for (let i = 0; i < d; i++) {
    if (pos.checked[pos.sp]) {
      check = true;
      break;
    }
    const mover = pos.side ^ 1;
    const moverChase = mover === us ? chaseUs : chaseThem;
    if (moverChase === 0) {
      if ((mover === us ? chaseThem : chaseUs) === 0) break;
      undoOne(pos);
    } else {
      const after = chasedMask(pos, mover as 0 | 1);
      undoOne(pos);
      const diff = after & ~chasedMask(pos, mover as 0 | 1);
      if (mover === us) chaseUs &= diff;
      else chaseThem &= diff;
    }
  }
  redoAll(pos);
  if (check) return setOut(O_DRAW, R_REPETITION);
  const a = chaseUs !== 0,
    b = chaseThem !== 0;
  if (a === b) return setOut(O_DRAW, R_REPETITION);
  return setOut(a ? O_LOSS : O_WIN, R_PERPETUAL_CHASE);
}

// ---- Other rule sets: per-move classification of a cycle --------------------------------

// One record per move of the cycle, index 0 = the most recent move.
const MAX_CYCLE = 1024;
const recMover = new Uint8Array(MAX_CYCLE);
/** The move gives check. */
const recCheck = new Uint8Array(MAX_CYCLE);
/** The mover was in check before the move (an evasion). */
const recForced = new Uint8Array(MAX_CYCLE);
/** The move threatens mate (ChineseRule with Mate Threat Depth > 0). */
const recThreat = new Uint8Array(MAX_CYCLE);
/** Ids of the enemy pieces newly chased by the move. */
const recFresh = new Int32Array(MAX_CYCLE);
/**
 * ChineseRule: which of the move's new chases (recFresh bits) are joint attacks,
 * won only by two or more pieces together - the book's 联合捉 (threat.ts).
 */
const recJoint = new Int32Array(MAX_CYCLE);
/** Ids of the mover's pieces that deliver the check or the new chases. */
const recAttackers = new Int32Array(MAX_CYCLE);
let recCount = 0;

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
 * Records, for each move of the cycle of length d ending at the current state,
 * whether it checks, answers a check,
 * which enemy pieces it newly chases and which pieces deliver the attack.
 */
function classifyCycle(pos: Position, d: number, wantAttackers: boolean): void {
  assignIds(pos);
  undoneCount = 0;
  recCount = d < MAX_CYCLE ? d : MAX_CYCLE;
  for (let i = 0; i < recCount; i++) {
    const mover = (pos.side ^ 1) as 0 | 1;
    const check = pos.checked[pos.sp] === 1;
    recMover[i] = mover;
    recCheck[i] = check ? 1 : 0;
    recForced[i] = pos.checked[pos.sp - 1];
    recThreat[i] = 0;
    const after = chasedMask(pos, mover);
    const attackersAfter = wantAttackers ? attackerIds(pos, mover, check, after) : 0;
    undoOne(pos);
    const fresh = after & ~chasedMask(pos, mover);
    recFresh[i] = fresh;
    // Attackers of the targets that are really new (attackersAfter covers all chased ones).
    recAttackers[i] = attackersAfter;
    if (wantAttackers && fresh !== after) {
      // Narrow to the pieces attacking the new targets or the king: redo the move to look again.
      redoOne(pos);
      recAttackers[i] = attackerIds(pos, mover, check, fresh);
      undoOne(pos);
    }
  }
  redoAll(pos);
}

function redoOne(pos: Position): void {
  const m = undone[--undoneCount];
  pos.doMove(m);
  idBoard[m & 127] = idBoard[m >> 7];
}

/** Nodes the referee's tactical searches may spend per question (threat.ts). */
const THREAT_NODES = 20000;
const pairsAfter = new Int32Array(16);
const byAfter = new Int8Array(16);
const checkTargetAfter = new Int8Array(16);
/** With `record` (analyseCycle): per move and target id, the id of the mover's piece that would take it. */
const recBy = new Int8Array(MAX_CYCLE * 16);
/** With `record`: per move, the checking piece and a piece its check wins (threat.ts, CHECK_WINS), or -1. */
const recCheckWin = new Int8Array(MAX_CYCLE * 2);
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
 * check left en prise (参考图47 against 参考图22).
 */
function classifyChinese(pos: Position, d: number, mateDepth: number, full: boolean, record = false): void {
  assignIds(pos);
  undoneCount = 0;
  recCount = d < MAX_CYCLE ? d : MAX_CYCLE;
  for (let i = 0; i < recCount; i++) {
    const mover = (pos.side ^ 1) as 0 | 1;
    const check = pos.checked[pos.sp] === 1;
    const forced = pos.checked[pos.sp - 1] === 1;
    const kingAnswer = forced && (pos.board[pos.moveAt[pos.sp] & 127] & 7) === KING;
    recMover[i] = mover;
    recCheck[i] = check ? 1 : 0;
    recForced[i] = forced ? 1 : 0;
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
          byAfter.set(threatBy);
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
    if (record) recAttackers[i] = check ? attackerIds(pos, mover, true, 0) : 0;
    undoOne(pos);
    const before = check ? 0 : full ? threatTargets(pos, THREAT_NODES) : chasedMask(pos, mover);
    // A check that wins material is new when its checker's check did not win before.
    const newCheckers = checkersAfter & ~(full && !check ? checkWins.by : 0);
    let fresh = (after & ~before & ~CHECK_WINS) | (newCheckers ? CHECK_WINS : 0);
    let joint = (fresh & jointAfter & ~CHECK_WINS) | (newCheckers & jointCheckersAfter ? CHECK_WINS : 0);
    if (record) {
      const by = 31 - Math.clz32(newCheckers & -newCheckers);
      recCheckWin[2 * i] = newCheckers ? by : -1;
      recCheckWin[2 * i + 1] = newCheckers ? checkTargetAfter[by] : -1;
    }
    if (record) for (let t = 0; t < 16; t++) recBy[i * 16 + t] = fresh & (1 << t) ? byAfter[t] : -1;
    if (full && after !== 0 && !pos.checked[pos.sp]) {
      // A piece that newly joins the attack on a piece that can be won chases it.
      attackPairs(pos, -1);
      for (let id = 0; id < 16; id++) {
        const joined = pairsAfter[id] & ~pairs[id] & ~fresh;
        fresh |= joined;
        joint |= joined & jointAfter;
        if (record) for (let t = 0; t < 16; t++) if (joined & (1 << t)) recBy[i * 16 + t] = id;
      }
    }
    recThreat[i] = threat && !kingAnswer ? 1 : 0;
    recFresh[i] = forced ? (full && !kingAnswer ? answerThreats : 0) : fresh;
    recJoint[i] = forced ? answerThreats & jointAfter : joint;
  }
  redoAll(pos);
}

/**
 * ChineseRule, when both sides attack on every move: does color c chase on every
 * move (no checks or mate threats) with single pieces only, no joint attack
 * among its chases; does it make a joint attack (联合捉, recJoint) on some move?
 * The book rules against the side whose chases are all single when the other
 * side's attacks include joint ones (参考图14, 34, 36, 39, 40, 41); where neither
 * side attacks jointly, or both do, a draw (图3, 参考图42, 44, 45, 46).
 */
function chineseSingleChases(c: number): boolean {
  let moves = 0;
  for (let i = 0; i < recCount; i++) {
    if (recMover[i] !== c) continue;
    if (recCheck[i] || recThreat[i] || recJoint[i]) return false;
    moves++;
  }
  return moves > 0;
}

function chineseJoint(c: number): boolean {
  for (let i = 0; i < recCount; i++) if (recMover[i] === c && !recCheck[i] && !recThreat[i] && recJoint[i]) return true;
  return false;
}

/** Result of a cycle from per-side violation levels (higher level loses; equal levels draw). */
function byLevels(levUs: number, levThem: number, reasonUs: number, reasonThem: number): number {
  if (levUs === levThem) return setOut(O_DRAW, R_REPETITION);
  return levUs > levThem ? setOut(O_LOSS, reasonUs) : setOut(O_WIN, reasonThem);
}

/**
 * AsianRule / YitianRule: is color c perpetually chasing one and the same piece?
 * Every one of its moves in the cycle must newly chase that piece. A side that
 * gives check anywhere in the cycle is not chasing: the AXF rules (rule 12,
 * diagram 13; rule 18, diagrams 37-38) rule "one check, one chase" and "several
 * checks, one chase" allowed moves.
 */
function asianChase(c: number): boolean {
  let and = 0xffff,
    moves = 0;
  for (let i = 0; i < recCount; i++) {
    if (recMover[i] !== c) continue;
    if (recCheck[i]) return false;
    moves++;
    and &= recFresh[i];
  }
  return moves > 0 && and !== 0;
}

/**
 * ChineseRule level of color c: 1 when every move checks, threatens mate or
 * newly chases some piece (chases of different pieces count alike) and not every
 * move is a check; 0 otherwise. Sets `whyC` to the kind of offence.
 */
let whyC = R_FORBIDDEN;
function chineseLevel(c: number): number {
  let moves = 0,
    checks = 0,
    chases = 0,
    threats = 0;
  for (let i = 0; i < recCount; i++) {
    if (recMover[i] !== c) continue;
    moves++;
    if (recCheck[i]) checks++;
    else if (recThreat[i]) threats++;
    else if (recFresh[i]) chases++;
    else return 0;
  }
  if (moves === 0 || checks === moves) return 0;
  whyC = checks === 0 && threats === 0 ? R_PERPETUAL_CHASE : checks === 0 && chases === 0 ? R_MATE_THREAT : R_FORBIDDEN;
  return 1;
}

/**
 * SkyRule (TianTian) level of color c (see docs/RULES.md): 4 perpetual check;
 * 3 one piece checking and chasing in turn; 2 chasing one and the same piece on
 * every move; 1 several pieces checking and chasing in turn, or chasing different
 * pieces while the opponent gives checks; 0 otherwise. A move answering a check
 * is left out of the mover's record (it is neither an attack nor an idle move).
 */
function skyLevel(c: number): number {
  let moves = 0,
    checks = 0,
    counted = 0,
    attacks = 0,
    chaseAnd = 0xffff,
    pieceAnd = -1;
  let oppChecks = 0;
  for (let i = 0; i < recCount; i++) {
    if (recMover[i] !== c) {
      if (recCheck[i]) oppChecks++;
      continue;
    }
    moves++;
    if (recCheck[i]) checks++;
    if (recForced[i] && !recCheck[i]) continue;
    counted++;
    if (recCheck[i] || recFresh[i]) {
      attacks++;
      pieceAnd &= recAttackers[i];
    }
    if (!recCheck[i]) chaseAnd &= recFresh[i];
  }
  if (moves === 0) return 0;
  if (checks === moves) return 4;
  if (counted === 0 || attacks !== counted) return 0;
  if (checks > 0) return checks < counted ? (pieceAnd !== 0 ? 3 : 1) : 0;
  if (chaseAnd !== 0) return 2;
  return oppChecks > 0 ? 1 : 0;
}

/**
 * SkyRule: how many moves in a row color c has attacked (checked or newly
 * chased), counted back from its latest move through the reversible history
 * beyond the cycle; a move answering a check neither counts nor breaks the run.
 * Reads the records of a `classifyCycle` over that history.
 */
function skyRun(c: number): number {
  let run = 0;
  for (let i = 0; i < recCount; i++) {
    if (recMover[i] !== c) continue;
    if (recCheck[i] || recFresh[i]) run++;
    else if (!recForced[i]) break;
  }
  return run;
}

function skyReason(level: number): number {
  return level === 4 ? R_PERPETUAL_CHECK : level === 2 ? R_PERPETUAL_CHASE : R_FORBIDDEN;
}

function judgeCycle(
  pos: Position,
  d: number,
  checkUs: boolean,
  checkThem: boolean,
  cfg: RuleConfig,
  ply: number,
): number {
  const rule = cfg.repetitionRule;
  const us = pos.side,
    them = us ^ 1;
  if (rule === 'SkyRule') {
    classifyCycle(pos, d, true);
    const lu = skyLevel(us),
      lt = skyLevel(them);
    if (lu > 0 && lt > 0) {
      // Both sides break the rules: the platform's counters reach their limit
      // first for the side whose attacks started earlier.
      const h = scanLength(pos);
      if (h > d) {
        classifyCycle(pos, h < MAX_CYCLE ? h : MAX_CYCLE, false);
        const ru = skyRun(us),
          rt = skyRun(them);
        if (ru !== rt) return ru > rt ? setOut(O_LOSS, skyReason(lu)) : setOut(O_WIN, skyReason(lt));
      }
    }
    return byLevels(lu, lt, skyReason(lu), skyReason(lt));
  }
  // Perpetual check is the most serious offence under every other rule set.
  if (checkUs || checkThem) {
    if (checkUs && checkThem) return setOut(O_DRAW, R_REPETITION);
    return setOut(checkUs ? O_LOSS : O_WIN, R_PERPETUAL_CHECK);
  }
  if (rule === 'AllowChase') return setOut(O_DRAW, R_REPETITION);
  if (rule === 'ChineseRule') {
    classifyChinese(pos, d, cfg.mateThreatDepth, ply === 0);
    const lu = chineseLevel(us),
      wu = whyC;
    const lt = chineseLevel(them),
      wt = whyC;
    if (lu === 1 && lt === 1) {
      // Both sides attack on every move: chases by a piece alone on every move
      // lose against joint attacks.
      if (chineseSingleChases(us) && chineseJoint(them)) return setOut(O_LOSS, R_PERPETUAL_CHASE);
      if (chineseSingleChases(them) && chineseJoint(us)) return setOut(O_WIN, R_PERPETUAL_CHASE);
    }
    return byLevels(lu, lt, wu, wt);
  }
  // AsianRule, YitianRule.
  classifyCycle(pos, d, false);
  const chUs = asianChase(us),
    chThem = asianChase(them);
  if (chUs === chThem) return setOut(O_DRAW, R_REPETITION);
  return setOut(chUs ? O_LOSS : O_WIN, R_PERPETUAL_CHASE);
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

/** Pikafish's rule_judge repetition part (ComputerRule), including the two-fold hint. */
function computerRepetition(pos: Position, ply: number, cfg: RuleConfig): number {
  const end = scanLength(pos);
  const sp = pos.sp;
  const filter = pos.keyFilter;
  const lo = pos.keyLo[sp],
    hi = pos.keyHi[sp];
  if (end < 4 || filter[lo & KEY_FILTER_MASK] === 0) return O_NONE;
  const checked = pos.checked;
  let cnt = 0;
  let checkThem = checked[sp] === 1 && checked[sp - 2] === 1;
  let checkUs = checked[sp - 1] === 1 && checked[sp - 3] === 1;
  let pending = O_NONE,
    pendingReason = R_NONE;
  for (let i = 4; i <= end; i += 2) {
    const s = sp - i;
    checkThem = checkThem && checked[s] === 1;
    if (pos.keyLo[s] === lo && pos.keyHi[s] === hi && (++cnt === 2 || ply > i)) {
      let o: number;
      if (!checkThem && !checkUs) o = computerChases(pos, i);
      else if (!checkUs) o = setOut(O_WIN, R_PERPETUAL_CHECK);
      else if (!checkThem) o = setOut(O_LOSS, R_PERPETUAL_CHECK);
      else o = setOut(O_DRAW, R_REPETITION);
      if (o === O_DRAW || cnt === 2) return o;
      // A two-fold win or loss inside the search: final only when the cycle cannot
      // turn into a three-fold repetition with another verdict.
      pending = o;
      pendingReason = outReason;
      if (filter[lo & KEY_FILTER_MASK] <= 1) {
        const max = cfg.rule60MaxPly;
        if (
          (max === 0 || pos.rule60[sp] < max) &&
          pos.keyLo[sp - 1] === pos.keyLo[s - 1] &&
          pos.keyHi[sp - 1] === pos.keyHi[s - 1]
        ) {
          let prev = sp - 1;
          while (--prev !== s) if (filter[pos.keyLo[prev] & KEY_FILTER_MASK] > 1) break;
          if (prev === s) return setOut(o, pendingReason);
        }
        break;
      }
    }
    if (i + 1 <= end) checkUs = checkUs && checked[s - 1] === 1;
  }
  if (pending !== O_NONE) hint = pending === O_WIN ? 1 : -1;
  return O_NONE;
}

/** Repetition judgement for the rule sets judged at the 2nd occurrence (or the 3rd for YitianRule). */
function ruleRepetition(pos: Position, ply: number, cfg: RuleConfig): number {
  const end = scanLength(pos);
  const sp = pos.sp;
  const lo = pos.keyLo[sp],
    hi = pos.keyHi[sp];
  if (end < 4 || pos.keyFilter[lo & KEY_FILTER_MASK] === 0) return O_NONE;
  const rule = cfg.repetitionRule;
  const folds = rule === 'YitianRule' ? 2 : 1;
  const checked = pos.checked;
  let cnt = 0;
  let checkThem = checked[sp] === 1 && checked[sp - 2] === 1;
  let checkUs = checked[sp - 1] === 1 && checked[sp - 3] === 1;
  for (let i = 4; i <= end; i += 2) {
    const s = sp - i;
    checkThem = checkThem && checked[s] === 1;
    if (pos.keyLo[s] === lo && pos.keyHi[s] === hi && (++cnt >= folds || ply > i)) {
      if (rule === 'NoJudgement') {
        // Cycles are not judged: the game goes on. Inside the search (ply > 0) a
        // repetition cannot gain anything, so it is scored as a draw.
        return ply > 0 ? setOut(O_DRAW, R_REPETITION) : O_NONE;
      }
      return judgeCycle(pos, i, checkUs, checkThem, cfg, ply);
    }
    if (i + 1 <= end) checkUs = checkUs && checked[s - 1] === 1;
  }
  return O_NONE;
}

// ---- SkyRule check limit -------------------------------------------------------------

const streak = new Int32Array(16);

/**
 * TianTian's limit on consecutive checks: one piece may give at most 6 checks in a
 * row, two pieces 12, three or more 18. The run is the side's unbroken series of
 * checking moves up to now; a piece's streak is the number of the latest checks of
 * the run it took part in (as checker, discovered checks included). Returns O_WIN
 * for the side to move when the side that just moved went over a limit.
 */
function skyCheckLimit(pos: Position): number {
  const sp = pos.sp;
  if (!pos.checked[sp]) return O_NONE;
  const back = pos.pliesFromNull[sp];
  let run = 0;
  for (let k = sp; run * 2 < back && k >= 0 && pos.checked[k]; k -= 2) run++;
  if (run <= 6) return O_NONE;
  assignIds(pos);
  streak.fill(0);
  let distinct = 0,
    alive = 0xffff,
    maxStreak = 0;
  undoneCount = 0;
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
      undoOne(pos);
      undoOne(pos);
    }
  }
  redoAll(pos);
  const limit = 6 * (distinct > 3 ? 3 : distinct);
  if (maxStreak > 6 || run > limit) return setOut(O_WIN, R_CHECK_LIMIT);
  return O_NONE;
}

// ---- Insufficient material -----------------------------------------------------------------

/**
 * Pikafish's insufficient-material draws (ComputerRule), when neither side has a
 * pawn: no rook/knight/cannon at all; or a single cannon whose side has no
 * advisor, against at most one advisor (or with no bishop of its own against two
 * advisors); or one cannon each and no advisors. Some of these are draws only if
 * no move gives mate at once (then O_NONE). Other rule sets only know the first case.
 */
function insufficientMaterial(pos: Position, full: boolean): number {
  const pc = pos.pieceCount;
  if (pc[PAWN] + pc[8 | PAWN] !== 0) return O_NONE;
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
  if (level === 0) return O_NONE;
  if (level === 2) {
    const base = MAX_MOVES * 2;
    const end = generate(pos, GEN_LEGAL, moveBuf, base);
    if (end === base) return setOut(O_LOSS, pos.checked[pos.sp] ? R_CHECKMATE : R_STALEMATE);
    for (let i = base; i < end; i++) {
      const m = moveBuf[i];
      pos.doMove(m);
      const mate = !hasLegal(pos, 3);
      pos.undoMove(m);
      if (mate) return O_NONE;
    }
  }
  return setOut(O_DRAW, R_MATERIAL);
}

// ---- The judgement ------------------------------------------------------------------------

function outcome(pos: Position, ply: number, cfg: RuleConfig): number {
  hint = VALUE_NONE;
  const rule = cfg.repetitionRule;
  let o: number;
  if (rule === 'ComputerRule') o = computerRepetition(pos, ply, cfg);
  else {
    if (rule === 'SkyRule' && (o = skyCheckLimit(pos)) !== O_NONE) return o;
    o = ruleRepetition(pos, ply, cfg);
  }
  if (o !== O_NONE) return o;
  const max = cfg.rule60MaxPly;
  if (max > 0 && pos.rule60[pos.sp] >= max) {
    if (hasLegal(pos, 2)) return setOut(O_DRAW, R_RULE60);
    return setOut(O_LOSS, pos.checked[pos.sp] ? R_CHECKMATE : R_STALEMATE);
  }
  return insufficientMaterial(pos, rule === 'ComputerRule');
}

function isRepetitionDraw(): boolean {
  return outReason === R_REPETITION;
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
 * In-search judgement (Pikafish's rule_judge): VALUE_NONE when the game goes on,
 * else the score for the side to move: mateIn(ply)/matedIn(ply) for wins and
 * losses by rule, VALUE_DRAW for draws, with the DrawRule conversions applied.
 * `ply` is the distance from the search root; a repetition strictly after the
 * root is judged at its first recurrence. Allocates nothing.
 *
 * With ComputerRule a two-fold win or loss that may still turn into a different
 * three-fold verdict is not returned; `ruleJudgeHint()` then tells its sign so
 * that the search can bound its window as Pikafish does.
 */
export function ruleJudge(pos: Position, ply: number, cfg: RuleConfig): number {
  const o = outcome(pos, ply, cfg);
  if (o === O_NONE) return VALUE_NONE;
  if (o === O_WIN) return mateIn(ply);
  if (o === O_LOSS) return matedIn(ply);
  const w = drawWinner(cfg, isRepetitionDraw());
  if (w < 0) return VALUE_DRAW;
  return w === pos.side ? mateIn(ply) : matedIn(ply);
}

/**
 * After a `ruleJudge` call that returned VALUE_NONE: VALUE_NONE, or +1 / -1 when
 * ComputerRule found a two-fold repetition that would win / lose for the side to
 * move but is not final yet. Pikafish then raises alpha to just below a draw
 * (+1) or lowers beta to just above it (-1).
 */
export function ruleJudgeHint(): number {
  return hint;
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
  const stm = pos.side;
  const win = (c: number, r: number, byDrawRule = false): Judgement => ({
    result: c === RED ? 'red' : 'black',
    code: REASON_CODES[r],
    byDrawRule,
    reason: byDrawRule
      ? `${REASON_TEXTS[r]}, counted as a ${c === RED ? 'red' : 'black'} win by DrawRule`
      : REASON_TEXTS[r],
  });
  if (!hasLegal(pos, 0)) return win(stm ^ 1, pos.checked[pos.sp] ? R_CHECKMATE : R_STALEMATE);
  const o = outcome(pos, 0, cfg);
  if (o === O_NONE) return { ...NO_JUDGEMENT };
  // TianTian does not adjudicate a cycle nobody is to blame for: the game goes on
  // (and ends by the 60-move rule unless someone deviates).
  if (cfg.repetitionRule === 'SkyRule' && o === O_DRAW && outReason === R_REPETITION) return { ...NO_JUDGEMENT };
  const r = outReason;
  if (o === O_WIN) return win(stm, r);
  if (o === O_LOSS) return win(stm ^ 1, r);
  const w = drawWinner(cfg, isRepetitionDraw());
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
  for (let i = 0; i < moves.length; i++) {
    const m = parseLegalMove(pos, moves[i], list);
    if (!m.ok) return err(m.error.code, `ply ${i + 1}: ${m.error.message}`);
    pos.doMove(m.value);
    const j = judge(pos, cfg);
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
  const sp = pos.sp;
  let checkThem = true,
    checkUs = true;
  for (let k = 0; k < d; k += 2) {
    checkThem = checkThem && pos.checked[sp - k] === 1;
    checkUs = checkUs && pos.checked[sp - k - 1] === 1;
  }
  const rule = cfg.repetitionRule;
  let o: number;
  if (rule === 'NoJudgement') o = setOut(O_NONE, R_REPETITION);
  else if (rule === 'ComputerRule') {
    if (checkThem && checkUs) o = setOut(O_DRAW, R_REPETITION);
    else if (checkThem || checkUs) o = setOut(checkUs ? O_LOSS : O_WIN, R_PERPETUAL_CHECK);
    else o = computerChases(pos, d);
  } else o = judgeCycle(pos, d, checkUs, checkThem, cfg, 0);
  const reason = outReason;
  if (rule === 'ChineseRule') classifyChinese(pos, d, cfg.mateThreatDepth, true, true);
  else classifyCycle(pos, d, true);
  // idBoard now holds the ids of the cycle's first position: replay the cycle.
  const moves: Move[] = [];
  for (let i = 0; i < d; i++) moves.push(pos.undoLast());
  const out: CycleMove[] = [];
  for (let k = d - 1; k >= 0; k--) {
    const m = moves[k];
    const i = k; // record index: 0 is the latest move
    pos.redoLast(m);
    moveId(m >> 7, m & 127);
    const side = recMover[i] as Color;
    const kind: MoveKind = recCheck[i] ? 'check' : recThreat[i] ? 'mate-threat' : recFresh[i] ? 'chase' : 'idle';
    const targets = kind === 'chase' ? piecesOf(pos, side ^ 1, recFresh[i]) : [];
    let by: PieceOnSquare[] = [];
    const byCheck = targets.map(() => false);
    let winsByCheck: PieceOnSquare | null = null;
    if (kind === 'chase' && recFresh[i] & CHECK_WINS) {
      // A check that wins material: the checker, and a piece it wins when one is known.
      winsByCheck = piecesOf(pos, side, 1 << recCheckWin[2 * i])[0] ?? null;
      const won = recCheckWin[2 * i + 1] >= 0 ? piecesOf(pos, side ^ 1, 1 << recCheckWin[2 * i + 1]) : [];
      if (won.length && !targets.some((t) => t.square === won[0].square)) {
        targets.push(won[0]);
        byCheck.push(true);
        recBy[i * 16 + recCheckWin[2 * i + 1]] = recCheckWin[2 * i];
      }
    }
    if (kind === 'check') by = piecesOf(pos, side, recAttackers[i]);
    else if (kind === 'chase') {
      for (const t of targets) {
        const id = rule === 'ChineseRule' ? recBy[i * 16 + idBoard[t.square]] : -1;
        const who =
          id >= 0
            ? piecesOf(pos, side, 1 << id)
            : piecesOf(pos, side, recAttackers[i])
                .filter((a) => pos.attacksFrom(a.square, t.square))
                .sort((a, b) => (b.square === (m & 127) ? 1 : 0) - (a.square === (m & 127) ? 1 : 0));
        if (who.length) by.push(who[0]);
      }
    }
    out.push({ move: m, side, kind, answersCheck: recForced[i] === 1, targets, by, byCheck, winsByCheck });
  }
  const stm = pos.side;
  let result: CycleAnalysis['result'] =
    o === O_WIN ? (stm === RED ? 'red' : 'black') : o === O_LOSS ? (stm === RED ? 'black' : 'red') : 'draw';
  if (o === O_NONE || (rule === 'SkyRule' && o === O_DRAW)) result = 'none';
  return { length: d, moves: out, result, code: REASON_CODES[reason] };
}
