// One game between two UCI engines, refereed by Kirin's rules core: the
// engines get `position ... moves ...` and `go` with their clocks; every
// answer is checked (legal move, in time, engine alive), and the game ends
// by `judge` (mate, stalemate, repetition rules, 60-move rule), by forfeit
// (time, illegal move, crash, no answer), by optional score adjudication,
// or by the ply cap.

import {
  err,
  isBoardReason,
  judge,
  moveToUci,
  ok,
  parseLegalMove,
  Position,
  RED,
  type Color,
  type Result,
  type RuleConfig,
} from '../../src/dev.js';
import { checkCommandFields, shownText } from '../../src/core/command-text.js';
import type { GoResult, UciEngine } from './uci-engine.js';
import { applyMoves, type Opening } from './openings.js';
import type { MoveThinking } from './thinking.js';

/**
 * Limits for one engine. A clock (baseMs > 0 or incMs > 0) sends wtime/btime/winc/binc;
 * movetime, nodes and depth are added to `go` when set. With none of them the
 * engine would think forever, so at least one must be given.
 */
export interface TimeControl {
  /** Clock at the start (and added again every `movesPerPeriod` moves when that is set), ms. 0 = no clock. */
  baseMs: number;
  incMs: number;
  /** Moves per period (the "40" in 40/60+0), 0 = the whole game. */
  movesPerPeriod: number;
  movetimeMs: number;
  nodes: number;
  depth: number;
}

const NO_LIMITS: TimeControl = Object.freeze({
  baseMs: 0,
  incMs: 0,
  movesPerPeriod: 0,
  movetimeMs: 0,
  nodes: 0,
  depth: 0,
}) as TimeControl;

function hasClock(tc: TimeControl): boolean {
  return tc.baseMs > 0 || tc.incMs > 0;
}

/**
 * Parses a time control:
 *   "10+0.1"   10 s plus 0.1 s per move        "40/60+0.5"  60 s per 40 moves, +0.5 s
 *   "60"       60 s for the game                "1:30+1"     minutes:seconds
 *   "movetime=200"  ms per move    "nodes=20000"    "depth=6"
 * Several may be joined with commas ("10+0.1,nodes=50000"). Returns an error string on bad input.
 */
export type TimeControlErrorCode = 'tc-empty' | 'tc-syntax' | 'tc-value' | 'tc-no-time' | 'tc-no-limit';

export function parseTimeControl(text: string): Result<TimeControl, TimeControlErrorCode> {
  const tc: TimeControl = { ...NO_LIMITS };
  const parts = text
    .trim()
    .split(',')
    .map((p) => p.trim())
    .filter((p) => p);
  if (parts.length === 0) return err('tc-empty', `empty time control`);
  for (const part of parts) {
    const kv = /^(movetime|st|nodes|depth)=(\d+(?:\.\d+)?)$/i.exec(part);
    if (kv) {
      const v = Number(kv[2]);
      const key = kv[1].toLowerCase();
      if (key === 'movetime') tc.movetimeMs = Math.round(v);
      else if (key === 'st') tc.movetimeMs = Math.round(v * 1000);
      else if (key === 'nodes') tc.nodes = Math.round(v);
      else tc.depth = Math.round(v);
      if (!(v > 0)) return err('tc-value', `time control "${part}": the value must be positive`);
      continue;
    }
    const m = /^(?:(\d+)\/)?(?:(\d+):)?(\d+(?:\.\d+)?)(?:\+(\d+(?:\.\d+)?))?$/.exec(part);
    if (!m)
      return err(
        'tc-syntax',
        `bad time control "${part}" (examples: 10+0.1, 40/60, 1:30+1, movetime=100, nodes=20000, depth=6)`,
      );
    tc.movesPerPeriod = m[1] ? Number(m[1]) : 0;
    tc.baseMs = Math.round(((m[2] ? Number(m[2]) * 60 : 0) + Number(m[3])) * 1000);
    tc.incMs = m[4] ? Math.round(Number(m[4]) * 1000) : 0;
    if (tc.baseMs <= 0 && tc.incMs <= 0) return err('tc-no-time', `time control "${part}" gives no time`);
  }
  if (!hasClock(tc) && !tc.movetimeMs && !tc.nodes && !tc.depth)
    return err('tc-no-limit', `time control "${text}" sets no limit`);
  return ok(tc);
}

export function formatTimeControl(tc: TimeControl): string {
  const parts: string[] = [];
  if (hasClock(tc))
    parts.push(`${tc.movesPerPeriod ? tc.movesPerPeriod + '/' : ''}${tc.baseMs / 1000}+${tc.incMs / 1000}`);
  if (tc.movetimeMs) parts.push(`movetime=${tc.movetimeMs}`);
  if (tc.nodes) parts.push(`nodes=${tc.nodes}`);
  if (tc.depth) parts.push(`depth=${tc.depth}`);
  return parts.join(',');
}

/** Score adjudication (off when movecount is 0). Scores are the engines' own, in centipawns. */
export interface Adjudication {
  /** Resign when the side's engine reports <= -resignScore and its opponent >= +resignScore for resignMoves moves in a row each. */
  resignMoves: number;
  resignScore: number;
  /** Draw when, from move drawMoveNumber on, both engines report |score| <= drawScore for drawMoves moves in a row each. */
  drawMoveNumber: number;
  drawMoves: number;
  drawScore: number;
}

export const NO_ADJUDICATION: Adjudication = Object.freeze({
  resignMoves: 0,
  resignScore: 0,
  drawMoveNumber: 0,
  drawMoves: 0,
  drawScore: 0,
}) as Adjudication;

export interface GameConfig {
  opening: Opening;
  /** Engines indexed by color: [red, black]. */
  engines: [UciEngine, UciEngine];
  /** Limits indexed by color: [red, black]. */
  tc: [TimeControl, TimeControl];
  rules: RuleConfig;
  /** A move that exceeds the clock by more than this many ms loses on time. */
  timeMarginMs: number;
  /** For searches without a clock or movetime (nodes/depth only): the most an answer may take, ms. */
  moveTimeoutMs: number;
  /** Draw after this many plies of the game (0 = no cap). */
  maxPlies: number;
  /**
   * A repetition verdict of the rules core (draw, perpetual check or chase) is
   * applied once the position has occurred this many times (default 3, as GUIs
   * and cutechess do; 2 = at the first repetition, as \`judge\` alone does).
   * Mate, stalemate and the 60-move rule always apply at once.
   */
  repetitions?: number;
  adjudication: Adjudication;
  /** Checked between moves; when it returns true the game is abandoned (result 'aborted'). */
  aborted?: () => boolean;
}

export type GameResult = 'red' | 'black' | 'draw' | 'aborted';

/** How the game ended: by the rules, a forfeit by one engine, an adjudication, or an abort. */
export type Termination = 'rules' | 'time' | 'illegal' | 'crash' | 'adjudication' | 'maxplies' | 'aborted';

export interface GameRecord {
  result: GameResult;
  /** e.g. "checkmate", "Fairy-Stockfish lost on time (1234 ms used, 1100 ms left)". */
  reason: string;
  termination: Termination;
  /** Color of the engine that forfeited (time / illegal / crash), else null. */
  forfeit: Color | null;
  /** Game moves after the opening (UCI). */
  moves: string[];
  /** For each of `moves`: the time it took, the depth, the mover's clock after it. */
  thinking: MoveThinking[];
  redName: string;
  blackName: string;
  durationMs: number;
  /** Final position as FEN. */
  finalFen: string;
}

export function resultString(r: GameResult): string {
  return r === 'red' ? '1-0' : r === 'black' ? '0-1' : r === 'draw' ? '1/2-1/2' : '*';
}

export function goCommand(tcs: [TimeControl, TimeControl], clocks: number[], movesToGo: number[], side: Color): string {
  const tc = tcs[side];
  let s = 'go';
  if (hasClock(tc)) {
    s += ` wtime ${Math.max(0, Math.round(clocks[0]))} btime ${Math.max(0, Math.round(clocks[1]))}`;
    s += ` winc ${tcs[0].incMs} binc ${tcs[1].incMs}`;
    if (tc.movesPerPeriod) s += ` movestogo ${movesToGo[side]}`;
  }
  if (tc.movetimeMs) s += ` movetime ${tc.movetimeMs}`;
  if (tc.nodes) s += ` nodes ${tc.nodes}`;
  if (tc.depth) s += ` depth ${tc.depth}`;
  return s;
}

/** An opening fit to be sent in a `position` command: no control character in its FEN or moves. */
export function checkOpeningText(o: Opening): Result<null, 'command-text'> {
  const r = checkCommandFields([['FEN', o.fen ?? ''], ...o.moves.map((m, i) => [`move ${i + 1}`, m] as const)]);
  return r.ok ? r : err('command-text', `opening ${shownText(o.name)}: ${r.error.message}`);
}

const colorName = (c: number): string => (c === RED ? 'red' : 'black');

/** Plays one game. Engines must be started; they get `ucinewgame` first. */
export async function playGame(
  cfg: GameConfig,
): Promise<Result<GameRecord, 'opening-fen' | 'opening-move' | 'command-text'>> {
  const t0 = Date.now();
  const [redEng, blackEng] = cfg.engines;
  // The opening goes to the engines as text: no control character in it (the FEN parser reads past a line break).
  const text = checkOpeningText(cfg.opening);
  if (!text.ok) return text;
  const start = cfg.opening.fen === null ? ok(new Position()) : Position.fromFen(cfg.opening.fen);
  if (!start.ok) return err('opening-fen', `opening ${cfg.opening.name}: ${start.error.message}`);
  const pos: Position = start.value;
  // How often each position (key incl. side to move) has occurred in the game, opening included.
  const seen = new Map<string, number>();
  const note = (): number => {
    const k = pos.keyHex();
    const c = (seen.get(k) ?? 0) + 1;
    seen.set(k, c);
    return c;
  };
  note();
  for (const text of cfg.opening.moves) {
    const played = applyMoves(pos, [text]);
    if (!played.ok) return err('opening-move', `opening ${cfg.opening.name}: ${played.error.message}`);
    note();
  }
  // The game itself, from the opening's position.
  const play = async (): Promise<GameRecord> => {
    const repetitions = Math.max(2, cfg.repetitions ?? 3);
    const openingMoves = cfg.opening.moves;
    const moves: string[] = [];
    const thinking: MoveThinking[] = [];
    const base = cfg.opening.fen === null ? 'position startpos' : `position fen ${cfg.opening.fen}`;
    const clocks = [cfg.tc[0].baseMs, cfg.tc[1].baseMs];
    const movesToGo = [cfg.tc[0].movesPerPeriod, cfg.tc[1].movesPerPeriod];
    // Scores reported by each color's engine for its last moves (own point of view).
    const scores: number[][] = [[], []];

    const record = (
      result: GameResult,
      reason: string,
      termination: Termination,
      forfeit: Color | null = null,
    ): GameRecord => ({
      result,
      reason,
      termination,
      forfeit,
      moves,
      thinking,
      redName: redEng.name,
      blackName: blackEng.name,
      durationMs: Date.now() - t0,
      finalFen: pos.fen(),
    });
    const forfeitBy = (side: Color, reason: string, termination: Termination): GameRecord =>
      record(side === RED ? 'black' : 'red', reason, termination, side);

    for (const [c, eng] of [
      [0, redEng],
      [1, blackEng],
    ] as Array<[Color, UciEngine]>) {
      const r = await eng.newGame();
      if (r !== true) {
        eng.kill();
        return forfeitBy(
          c,
          r === false
            ? `${eng.name} (${colorName(c)}) did not answer isready`
            : `${eng.name} (${colorName(c)}) crashed: ${r}`,
          'crash',
        );
      }
    }

    for (;;) {
      const j = judge(pos, cfg.rules);
      if (j.result !== 'none') {
        const occurrences = seen.get(pos.keyHex()) ?? 1;
        const byRepetition = occurrences >= 2 && !isBoardReason(j.code);
        if (!byRepetition || occurrences >= repetitions) return record(j.result, j.reason, 'rules');
      }
      if (cfg.maxPlies > 0 && moves.length >= cfg.maxPlies)
        return record('draw', `game reached ${cfg.maxPlies} plies`, 'maxplies');
      if (cfg.aborted?.()) return record('aborted', 'match stopped', 'aborted');

      const side = pos.side;
      const eng = side === RED ? redEng : blackEng;
      const tc = cfg.tc[side];
      const all = openingMoves.concat(moves);
      const positionCmd = all.length ? `${base} moves ${all.join(' ')}` : base;
      const goCmd = goCommand(cfg.tc, clocks, movesToGo, side);
      // Hard limit on the wait: the clock (or movetime) plus the margin, else the move timeout.
      let limit = cfg.moveTimeoutMs;
      if (hasClock(tc)) limit = Math.min(limit, clocks[side] + cfg.timeMarginMs);
      if (tc.movetimeMs) limit = Math.min(limit, tc.movetimeMs + cfg.timeMarginMs);
      const res: GoResult = await eng.go(positionCmd, goCmd, limit + 1);

      if (res.kind === 'crash')
        return forfeitBy(side, `${eng.name} (${colorName(side)}) crashed: ${res.message}`, 'crash');
      if (res.kind === 'timeout') {
        const what =
          hasClock(tc) || tc.movetimeMs
            ? `${eng.name} (${colorName(side)}) lost on time (no move after ${Math.round(res.elapsedMs)} ms)`
            : `${eng.name} (${colorName(side)}) did not answer within ${cfg.moveTimeoutMs} ms`;
        // Let the engine finish its search so it can play the next game; the match restarts it if it cannot.
        if (!(await eng.stopSearch(1000))) eng.kill();
        return forfeitBy(side, what, 'time');
      }
      const used = res.elapsedMs;
      if (hasClock(tc)) {
        if (used > clocks[side] + cfg.timeMarginMs) {
          return forfeitBy(
            side,
            `${eng.name} (${colorName(side)}) lost on time (${Math.round(used)} ms used, ${Math.round(clocks[side])} ms left)`,
            'time',
          );
        }
        clocks[side] = clocks[side] - used + tc.incMs;
        if (tc.movesPerPeriod) {
          if (--movesToGo[side] === 0) {
            movesToGo[side] = tc.movesPerPeriod;
            clocks[side] += tc.baseMs;
          }
        }
      } else if (tc.movetimeMs && used > tc.movetimeMs + cfg.timeMarginMs) {
        return forfeitBy(
          side,
          `${eng.name} (${colorName(side)}) lost on time (${Math.round(used)} ms used, movetime ${tc.movetimeMs} ms)`,
          'time',
        );
      }

      // The engine's text must be the move exactly as UCI writes it (no other case or spacing).
      const m = parseLegalMove(pos, res.move);
      if (!m.ok || moveToUci(m.value) !== res.move) {
        return forfeitBy(
          side,
          `${eng.name} (${colorName(side)}) played an illegal move "${res.move}" in ${pos.fen()}`,
          'illegal',
        );
      }
      pos.doMove(m.value);
      note();
      moves.push(res.move);
      thinking.push({ usedMs: used, depth: res.score?.depth ?? 0, leftMs: hasClock(tc) ? clocks[side] : null });

      const adj = cfg.adjudication;
      if (res.score) {
        scores[side].push(res.score.value);
      } else {
        scores[side].length = 0; // a move without a score breaks any streak
      }
      if (adj.resignMoves > 0) {
        const mine = scores[side].slice(-adj.resignMoves);
        const theirs = scores[side ^ 1].slice(-adj.resignMoves);
        if (mine.length === adj.resignMoves && theirs.length === adj.resignMoves) {
          if (mine.every((v) => v <= -adj.resignScore) && theirs.every((v) => v >= adj.resignScore)) {
            return record(
              side === RED ? 'black' : 'red',
              `${colorName(side)} resigns (both engines agree on a score beyond ${adj.resignScore} cp)`,
              'adjudication',
            );
          }
          if (mine.every((v) => v >= adj.resignScore) && theirs.every((v) => v <= -adj.resignScore)) {
            return record(
              side === RED ? 'red' : 'black',
              `${colorName(side ^ 1)} resigns (both engines agree on a score beyond ${adj.resignScore} cp)`,
              'adjudication',
            );
          }
        }
      }
      if (adj.drawMoves > 0 && (moves.length + 1) >> 1 >= adj.drawMoveNumber) {
        const a = scores[0].slice(-adj.drawMoves),
          b = scores[1].slice(-adj.drawMoves);
        if (
          a.length === adj.drawMoves &&
          b.length === adj.drawMoves &&
          a.concat(b).every((v) => Math.abs(v) <= adj.drawScore)
        ) {
          return record(
            'draw',
            `draw by adjudication (|score| <= ${adj.drawScore} cp for ${adj.drawMoves} moves)`,
            'adjudication',
          );
        }
      }
    }
  };
  return ok(await play());
}
