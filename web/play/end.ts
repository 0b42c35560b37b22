// How a game against Kirin ends, and the words for it: the rules core's
// judgement (mate, stalemate, the chosen Repetition Rule's verdicts, the
// 60-move rule, material), a flag, a resignation or an agreed draw, as the
// message keys of messages.ts (红胜 / 黑胜 / 和棋 and why). Pure.

import {
  BLACK,
  RED,
  judge,
  type Color,
  type GameResult,
  type Judgement,
  type Position,
  type ReasonCode,
  type RuleConfig,
} from '../../src/browser/index.js';
import type { Translate } from './host.js';

/** Why a game ended: the rules core's reasons, and the players' own (flag, resignation, agreement). */
export type EndReason =
  | Exclude<ReasonCode, 'none'>
  /** The side to move ran out of time: it loses. */
  | 'flag'
  /** A side ran out of time, but the other has nothing left to attack with: a draw. */
  | 'flag-no-material'
  | 'resign'
  | 'agreement';

export interface GameEnd {
  readonly result: 'red' | 'black' | 'draw';
  readonly reason: EndReason;
  /**
   * The side the reason is about: the loser (mated, stalemated, flagged, resigned,
   * perpetual checker ...), the side that flagged in a draw on time; null for a
   * draw nobody caused (repetition, 60-move rule, material, agreement).
   */
  readonly side: Color | null;
  /** True when the engine's DrawRule turned a draw into this win. */
  readonly byDrawRule: boolean;
}

/** A judgement of the rules core as a game end, or null when the game goes on. */
function endFromJudgement(j: Judgement): GameEnd | null {
  if (j.result === 'none' || j.code === 'none') return null;
  if (j.result === 'draw') return { result: 'draw', reason: j.code, side: null, byDrawRule: false };
  const winner = j.result === 'red' ? RED : BLACK;
  // A draw counted as a win by DrawRule is nobody's fault; a rule verdict is the loser's.
  return {
    result: j.result,
    reason: j.code,
    side: j.byDrawRule ? null : ((winner ^ 1) as Color),
    byDrawRule: j.byDrawRule,
  };
}

/** The game's end after the last move under `rules`, or null when it goes on. */
export function judgeEnd(pos: Position, rules: RuleConfig): GameEnd | null {
  return endFromJudgement(judge(pos, rules));
}

/** Piece types that can attack: rook 1, cannon 3, pawn 4, knight 5 (advisors, bishops and the king cannot cross). */
const ATTACKERS = [false, true, false, true, true, true, false, false];

/** True when `side` has a rook, a knight, a cannon or a pawn: something that can attack the other king. */
export function hasAttackers(pos: Position, side: Color): boolean {
  for (let sq = 0; sq < 90; sq++) {
    const pc = pos.pieceOn(sq);
    if (pc !== 0 && pc >> 3 === side && ATTACKERS[pc & 7]) return true;
  }
  return false;
}

/**
 * `flagged` ran out of time: it loses, unless the other side has no attacking
 * piece left (only its king, advisors and bishops), which could never win: then
 * the game is drawn.
 */
export function flagEnd(pos: Position, flagged: Color): GameEnd {
  const other = (flagged ^ 1) as Color;
  if (!hasAttackers(pos, other))
    return { result: 'draw', reason: 'flag-no-material', side: flagged, byDrawRule: false };
  return { result: other === RED ? 'red' : 'black', reason: 'flag', side: flagged, byDrawRule: false };
}

/** `side` resigned. */
export function resignEnd(side: Color): GameEnd {
  return { result: side === RED ? 'black' : 'red', reason: 'resign', side, byDrawRule: false };
}

/** A draw offered and accepted. */
export const AGREED_DRAW: GameEnd = Object.freeze({
  result: 'draw',
  reason: 'agreement',
  side: null,
  byDrawRule: false,
});

/** The PGN result of an end. */
export function pgnResult(end: GameEnd): GameResult {
  return end.result === 'red' ? '1-0' : end.result === 'black' ? '0-1' : '1/2-1/2';
}

/** PGN's Termination tag: 'time forfeit' for a flag, 'rules infraction' for a rule verdict, else 'normal'. */
export function pgnTermination(end: GameEnd): string {
  if (end.reason === 'flag' || end.reason === 'flag-no-material') return 'time forfeit';
  if (RULE_VERDICTS.has(end.reason) && end.side !== null) return 'rules infraction';
  return 'normal';
}

/** The verdicts of the Repetition Rules (a cycle or a run of checks), as against the board's own ends. */
const RULE_VERDICTS: ReadonlySet<EndReason> = new Set([
  'perpetual-check',
  'perpetual-chase',
  'perpetual-mate-threat',
  'forbidden-cycle',
  'check-limit',
]);

/** The message key of the result: play.result.redWins, play.result.blackWins, play.result.draw. */
function resultKey(end: GameEnd): string {
  return end.result === 'red'
    ? 'play.result.redWins'
    : end.result === 'black'
      ? 'play.result.blackWins'
      : 'play.result.draw';
}

/** The message key of the reason: play.reason.<reason> (its {side} and {other} are side names). */
function reasonKey(end: GameEnd): string {
  return `play.reason.${end.reason}`;
}

/** The side's name in the player's language (红方 / 黑方). */
export function sideName(side: Color, t: Translate): string {
  return t(side === RED ? 'play.red' : 'play.black');
}

/**
 * The end in the players' words: `红胜：黑方超时判负`, `和棋：双方议和`,
 * `Red wins: Black lost on time`; a draw that DrawRule counted as a win says so.
 */
export function endWords(end: GameEnd, t: Translate): string {
  const side = end.side ?? (end.result === 'black' ? BLACK : RED);
  const reason = t(reasonKey(end), { side: sideName(side, t), other: sideName((side ^ 1) as Color, t) });
  const words = t('play.end', { result: t(resultKey(end)), reason });
  return end.byDrawRule ? `${words} ${t('play.reason.byDrawRule')}` : words;
}

/**
 * How a game played against Kirin ended, read back from its record (a game
 * opened again, from the library or after a reload): the rules core's verdict
 * on its last position `last` under `rules` when there is one; else its Result
 * and Termination as the play room writes them: 'time forfeit' is the flag of
 * the side to move (a draw when the other has nothing to attack with), a
 * decisive 'normal' game the loser's resignation, a drawn one a draw agreed.
 * Null for a game without a result or a Termination (not the play room's).
 */
export function endOfRecord(
  headers: Readonly<Record<string, string>>,
  result: GameResult,
  last: Position,
  rules: RuleConfig,
): GameEnd | null {
  const termination = headers.Termination;
  if (result === '*' || termination === undefined) return null;
  const judged = judgeEnd(last, rules);
  if (judged && pgnResult(judged) === result) return judged;
  if (termination === 'time forfeit') {
    const flag = flagEnd(last, last.side as Color);
    return pgnResult(flag) === result ? flag : null;
  }
  if (termination !== 'normal') return null;
  if (result === '1/2-1/2') return AGREED_DRAW;
  return resignEnd(result === '1-0' ? BLACK : RED);
}
