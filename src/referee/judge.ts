// The referee: a game's repetition cycles judged as a rule book judges them.
//
// `judgeGame(game, { rule })` replays the main line of a game record and, for
// every stretch of play that repeats a position, accounts for the cycle the way
// an arbiter does: what each move of each side is (a check, a mate threat, a
// chase of which piece by which, an idle move, an answer to a check), which side
// must change, and the result the rules give if the cycle is played on; then
// where the rules end the game. ChineseRule uses the tactical referee of
// src/core/threat.ts (docs/RULES.md). Every verdict comes three ways: as data,
// as English text, and as message keys with parameters that a page translates
// (the keys and their parameters are listed in docs/LIBRARY.md, "The referee").

import { Position } from '../core/position.js';
import { err, ok, type Result } from '../core/result.js';
import {
  DEFAULT_RULES,
  analyseCycle,
  judge,
  repetitionLength,
  reasonText,
  ruleConfigFrom,
  type CycleMove,
  type DrawRule,
  type MoveKind,
  type PieceOnSquare,
  type ReasonCode,
  type RepetitionRule,
} from '../core/rules.js';
import { type FenErrorCode } from '../core/fen.js';
import { RED, moveToUci, squareName } from '../core/types.js';
import { mainLine, type Game } from '../notation/game.js';
import { formatMove, type Notation } from '../notation/move.js';

/**
 * ChineseRule: the depth in moves of the mate threats (杀) the referee judges
 * unless told otherwise, the one the rule book's figures are judged at
 * (docs/RULES.md). The page sets the engine's Mate Threat Depth to it.
 */
export const REFEREE_MATE_THREAT_DEPTH = 4;

/** How `judgeGame` judges. */
export interface JudgeOptions {
  /** The rule set (default AsianRule, the engine's default). */
  readonly rule?: RepetitionRule;
  /** ChineseRule: mate threats within this many moves (default 4, the referee's; 0: not judged). */
  readonly mateThreatDepth?: number;
  /** Draws counted as wins (default None). */
  readonly drawRule?: DrawRule;
  /** The 60-move rule in plies (default 120; 0: off). */
  readonly rule60MaxPly?: number;
  /** The notation of the moves in the words (default 'chinese'). */
  readonly notation?: Notation;
}

export type SideName = 'red' | 'black';
export type PieceName = 'rook' | 'knight' | 'cannon' | 'advisor' | 'bishop' | 'pawn' | 'king';

/** A piece and where it stands. */
export interface PlacedPiece {
  side: SideName;
  piece: PieceName;
  /** 'a0'..'i9' (files a-i from Red's left, ranks 0-9 from Red's side). */
  square: string;
}

/** A move of a cycle as the rules see it. */
export interface JudgedMove {
  /** The ply of the game it is (1 = the first move). */
  ply: number;
  side: SideName;
  /** UCI. */
  move: string;
  /** In the notation asked for. */
  text: string;
  kind: MoveKind;
  /** It answered a check. */
  answersCheck: boolean;
  /** For a chase: the pieces it newly threatens to win. */
  targets: PlacedPiece[];
  /** For a chase: the piece that would take each target (same order); for a check: the checking pieces. */
  by: PlacedPiece[];
  /** For a chase: per target, true when a check of its `by` piece wins it whatever the answer. */
  byCheck: boolean[];
  /** For a chase: the piece whose check wins material whatever the answer, or null. */
  winsByCheck: PlacedPiece | null;
}

/** One side's moves in a cycle. */
export interface SideAccount {
  moves: number;
  checks: number;
  mateThreats: number;
  chases: number;
  idle: number;
  /** Every move of the side checks, threatens mate or chases. */
  attacksEveryMove: boolean;
}

/**
 * What a cycle comes to. A win for one side: the other's offence
 * (`perpetual-check`, `perpetual-chase`, `perpetual-mate-threat`,
 * `forbidden-cycle`); a draw: `both-attack` (both sides attack on every move),
 * `allowed` (the cycle breaks no rule); `not-judged` (the rule set lets the game
 * go on).
 */
export type VerdictCode =
  | 'perpetual-check'
  | 'perpetual-chase'
  | 'perpetual-mate-threat'
  | 'forbidden-cycle'
  | 'both-attack'
  | 'allowed'
  | 'not-judged';

/** A sentence of a verdict for a page to translate: a stable key and its parameters. */
export interface Message {
  key: string;
  params: Record<string, string | number>;
}

/** A repetition cycle and the ruling on it. */
export interface CycleVerdict {
  /** The ply after which the repeated position first stood (0: the start). */
  from: number;
  /** The ply after which it stands again. */
  to: number;
  moves: JudgedMove[];
  red: SideAccount;
  black: SideAccount;
  code: VerdictCode;
  /** The side that must play something else (its repetition loses), or null. */
  mustChange: SideName | null;
  /** The result if the cycle is played on ('none': the game goes on). */
  result: SideName | 'draw' | 'none';
  /** The rule set's reason for the result. */
  reason: ReasonCode;
  /** The verdict in English. */
  text: string;
  /** The same, sentence by sentence, for translation. */
  messages: Message[];
}

/** Where the rules end the game. */
export interface GameEnd {
  /** The ply after which the game is over. */
  ply: number;
  result: SideName | 'draw';
  reason: ReasonCode;
  text: string;
  messages: Message[];
}

/** A game as the rules judge it. */
export interface GameVerdict {
  rule: RepetitionRule;
  /** Every stretch of repetition, in order. */
  cycles: CycleVerdict[];
  /** Where the rules end the game, or null when they let it run to its last move. */
  end: GameEnd | null;
  /** The whole account in English, cycles and end. */
  text: string;
}

const PIECE_NAMES: readonly PieceName[] = ['rook', 'rook', 'advisor', 'cannon', 'pawn', 'knight', 'bishop', 'king'];

function sideName(c: number): SideName {
  return c === RED ? 'red' : 'black';
}

function placed(p: PieceOnSquare): PlacedPiece {
  return { side: sideName(p.piece >> 3), piece: PIECE_NAMES[p.piece & 7], square: squareName(p.square) };
}

function cap(text: string): string {
  return text[0].toUpperCase() + text.slice(1);
}

function times(n: number): string {
  return n === 1 ? 'once' : n === 2 ? 'twice' : `${n} times`;
}

function account(moves: readonly JudgedMove[], side: SideName): SideAccount {
  const own = moves.filter((m) => m.side === side);
  const count = (k: MoveKind): number => own.filter((m) => m.kind === k).length;
  const idle = count('idle');
  return {
    moves: own.length,
    checks: count('check'),
    mateThreats: count('mate-threat'),
    chases: count('chase'),
    idle,
    attacksEveryMove: own.length > 0 && idle === 0,
  };
}

// ---- Words -------------------------------------------------------------------------------

function pieceWords(p: PlacedPiece): string {
  return `the ${p.side} ${p.piece} on ${p.square}`;
}

function moveSentence(m: JudgedMove): { text: string; message: Message } {
  const who = `${cap(m.side)} ${m.text}`;
  const params: Record<string, string | number> = { side: m.side, move: m.move, text: m.text, ply: m.ply };
  switch (m.kind) {
    case 'check': {
      const with_ = m.by.map((p) => `${p.piece} on ${p.square}`).join(' and ');
      params.by = m.by.map((p) => p.piece).join(',');
      params.bySquares = m.by.map((p) => p.square).join(',');
      return { text: `${who} checks${with_ ? ` (${with_})` : ''}.`, message: { key: 'move.check', params } };
    }
    case 'mate-threat':
      return { text: `${who} threatens mate.`, message: { key: 'move.mate-threat', params } };
    case 'chase': {
      const parts = m.targets.map((t, i) => {
        const b = m.by[i];
        if (!b) return pieceWords(t);
        return m.byCheck[i]
          ? `${pieceWords(t)} (a check with the ${b.piece} on ${b.square} wins it)`
          : `${pieceWords(t)} with the ${b.piece} on ${b.square}`;
      });
      params.targets = m.targets.map((t) => t.piece).join(',');
      params.targetSquares = m.targets.map((t) => t.square).join(',');
      params.by = m.by.map((p) => p.piece).join(',');
      params.bySquares = m.by.map((p) => p.square).join(',');
      params.byCheck = m.byCheck.map((c) => (c ? 1 : 0)).join(',');
      if (parts.length === 0 && m.winsByCheck) {
        // A check wins material, whichever piece the answer leaves.
        const c = m.winsByCheck;
        return {
          text: `${who} chases: a check with the ${c.piece} on ${c.square} wins material.`,
          message: { key: 'move.chase-by-check', params: { ...params, checker: c.piece, checkerSquare: c.square } },
        };
      }
      return { text: `${who} chases ${parts.join(', and ')}.`, message: { key: 'move.chase', params } };
    }
    default:
      return m.answersCheck
        ? { text: `${who} answers the check (idle).`, message: { key: 'move.answer-check', params } }
        : { text: `${who} is idle.`, message: { key: 'move.idle', params } };
  }
}

function sideSentence(side: SideName, a: SideAccount): { text: string; message: Message } {
  const parts: string[] = [];
  const every = (verb: string): string => `${verb} on every move`;
  if (a.checks === a.moves) parts.push(every('checks'));
  else if (a.chases === a.moves) parts.push(every('chases'));
  else if (a.mateThreats === a.moves) parts.push(every('threatens mate'));
  else if (a.idle === a.moves) parts.push('makes only idle moves');
  else {
    if (a.checks) parts.push(`checks ${times(a.checks)}`);
    if (a.mateThreats) parts.push(`threatens mate ${times(a.mateThreats)}`);
    if (a.chases) parts.push(`chases ${times(a.chases)}`);
    if (a.idle) parts.push(`idles ${times(a.idle)}`);
  }
  const list = parts.length > 1 ? `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]}` : parts[0];
  return {
    text: `${cap(side)} ${list}.`,
    message: {
      key: 'side.summary',
      params: {
        side,
        moves: a.moves,
        checks: a.checks,
        mateThreats: a.mateThreats,
        chases: a.chases,
        idle: a.idle,
      },
    },
  };
}

const OFFENCE: Record<string, string> = {
  'perpetual-check': 'a perpetual check loses',
  'perpetual-chase': 'a perpetual chase loses',
  'perpetual-mate-threat': 'perpetual mate threats lose',
  'forbidden-cycle': 'checking, chasing or threatening mate on every move is forbidden',
};

function verdictSentence(v: Pick<CycleVerdict, 'code' | 'mustChange' | 'result'>): { text: string; message: Message } {
  if (v.mustChange) {
    const winner = v.result as SideName;
    return {
      text: `${cap(v.mustChange)} must change: ${OFFENCE[v.code]}; ${winner} wins if ${cap(v.mustChange)} repeats.`,
      message: { key: 'verdict.must-change', params: { side: v.mustChange, winner, offence: v.code } },
    };
  }
  switch (v.code) {
    case 'both-attack':
      return {
        text: 'Both sides attack on every move: neither must change, and repeating draws.',
        message: { key: 'verdict.both-attack', params: {} },
      };
    case 'not-judged':
      return {
        text: 'The rules do not judge this cycle: the game goes on.',
        message: { key: 'verdict.not-judged', params: {} },
      };
    default:
      return {
        text: 'The cycle breaks no rule: neither must change, and repeating draws.',
        message: { key: 'verdict.allowed', params: {} },
      };
  }
}

/** ChineseRule, both sides attacking on every move: why one of them must change (docs/RULES.md). */
function orderSentence(side: SideName): { text: string; message: Message } {
  const other = side === 'red' ? 'black' : 'red';
  return {
    text: `${cap(side)} chases on every move, each chase by a piece alone; ${cap(other)} attacks with pieces together (joint attacks): the chases by a piece alone are the offence.`,
    message: { key: 'verdict.single-against-joint', params: { side, other } },
  };
}

// ---- The judgement -------------------------------------------------------------------

function verdictCode(
  result: CycleVerdict['result'],
  reason: ReasonCode,
  red: SideAccount,
  black: SideAccount,
): VerdictCode {
  if (result === 'none') return 'not-judged';
  if (result === 'draw') return red.attacksEveryMove && black.attacksEveryMove ? 'both-attack' : 'allowed';
  switch (reason) {
    case 'perpetual-check':
    case 'perpetual-chase':
    case 'perpetual-mate-threat':
      return reason;
    default:
      return 'forbidden-cycle';
  }
}

function judgedMoves(pos: Position, cycle: readonly CycleMove[], firstPly: number, notation: Notation): JudgedMove[] {
  // Step back to the start of the cycle to name the moves, then forwards again.
  const taken = cycle.map(() => pos.undoLast()).reverse();
  const out = cycle.map((c, i) => {
    const named = formatMove(pos, c.move, { notation });
    pos.redoLast(taken[i]);
    return {
      ply: firstPly + i,
      side: sideName(c.side),
      move: moveToUci(c.move),
      text: named.ok ? named.value : moveToUci(c.move),
      kind: c.kind,
      answersCheck: c.answersCheck,
      targets: c.targets.map(placed),
      by: c.by.map(placed),
      byCheck: c.byCheck.slice(),
      winsByCheck: c.winsByCheck ? placed(c.winsByCheck) : null,
    };
  });
  return out;
}

function describeCycle(
  pos: Position,
  ply: number,
  rule: RepetitionRule,
  cfg: ReturnType<typeof ruleConfigFrom>,
  notation: Notation,
): CycleVerdict | null {
  const a = analyseCycle(pos, cfg);
  if (!a) return null;
  const moves = judgedMoves(pos, a.moves, ply - a.length + 1, notation);
  const red = account(moves, 'red'),
    black = account(moves, 'black');
  const result = a.result;
  const code = verdictCode(result, a.code, red, black);
  const mustChange = result === 'red' ? 'black' : result === 'black' ? 'red' : null;
  const from = ply - a.length;
  const header: Message = {
    key: 'cycle',
    params: { from, to: ply, length: a.length, fromMove: 1 + (from >> 1), toMove: (ply + 1) >> 1, rule },
  };
  const headerText = `Plies ${from + 1}-${ply} (moves ${1 + (from >> 1)}-${(ply + 1) >> 1}) repeat the position after ply ${from}, a cycle of ${a.length} plies under ${rule}:`;
  const sentences = [...moves.map(moveSentence), sideSentence('red', red), sideSentence('black', black)];
  if (
    rule === 'ChineseRule' &&
    mustChange &&
    code === 'perpetual-chase' &&
    red.attacksEveryMove &&
    black.attacksEveryMove
  )
    sentences.push(orderSentence(mustChange));
  sentences.push(verdictSentence({ code, mustChange, result }));
  return {
    from,
    to: ply,
    moves,
    red,
    black,
    code,
    mustChange,
    result,
    reason: a.code,
    text: [headerText, ...sentences.map((s) => `  ${s.text}`)].join('\n'),
    messages: [header, ...sentences.map((s) => s.message)],
  };
}

/**
 * Judges the main line of `game` under a rule set (docs/LIBRARY.md, "The
 * referee"): every stretch of repeated positions as a cycle with the kind of each
 * move and the ruling, and where the rules end the game. A game whose start
 * position or moves are not legal is refused (`fen-*`, `move-illegal`, the
 * message naming the ply).
 */
export function judgeGame(game: Game, options: JudgeOptions = {}): Result<GameVerdict, FenErrorCode | 'move-illegal'> {
  const rule = options.rule ?? DEFAULT_RULES.repetitionRule;
  const cfg = ruleConfigFrom({
    repetitionRule: rule,
    drawRule: options.drawRule ?? DEFAULT_RULES.drawRule,
    rule60MaxPly: options.rule60MaxPly ?? DEFAULT_RULES.rule60MaxPly,
    mateThreatDepth: options.mateThreatDepth ?? (rule === 'ChineseRule' ? REFEREE_MATE_THREAT_DEPTH : 0),
  });
  const notation = options.notation ?? 'chinese';
  const start = Position.fromFen(game.fen);
  if (!start.ok) return start;
  const pos = start.value;
  const line = mainLine(game);
  pos.reserve(line.length + 1);
  const cycles: CycleVerdict[] = [];
  let end: GameEnd | null = null;
  let repeating = false;
  for (let i = 0; i < line.length && end === null; i++) {
    const m = line[i];
    if (!(pos.pseudoLegal(m) && pos.legal(m)))
      return err('move-illegal', `ply ${i + 1}: ${moveToUci(m)} is not a legal move in ${pos.fen()}`);
    pos.doMove(m);
    const ply = i + 1;
    // A stretch of repetition is reported once, at its first repeated position.
    const repeats = repetitionLength(pos) > 0;
    if (repeats && !repeating) {
      const cycle = describeCycle(pos, ply, rule, cfg, notation);
      if (cycle) cycles.push(cycle);
    }
    repeating = repeats;
    const j = judge(pos, cfg);
    if (j.result !== 'none') {
      const result = j.result;
      const who = result === 'draw' ? 'a draw' : `${result} wins`;
      end = {
        ply,
        result,
        reason: j.code,
        text: `The rules end the game after ply ${ply}: ${who} (${j.reason || reasonText(j.code)}).`,
        messages: [{ key: 'end', params: { ply, result, reason: j.code } }],
      };
    }
  }
  const text = [
    ...cycles.map((c) => c.text),
    cycles.length === 0 ? 'No position repeats.' : '',
    end ? end.text : 'The rules let the game run to its last move.',
  ]
    .filter((t) => t !== '')
    .join('\n');
  return ok({ rule, cycles, end, text });
}
