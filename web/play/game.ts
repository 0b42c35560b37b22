// A game against Kirin as a model: the moves, whose turn it is, the clocks,
// and how the game ends (the rules core's judgement under the page's rules, a
// flag, a resignation, an agreed draw). Pure: time comes from an injected
// now(), the engine is the panel's business (goLimits says what to ask it).
//
// Clocks: the game's first move (Red's, from the standard start) is free, as on
// lichess and pychess.org: the clocks start when it is played, the other
// side's first. After that every move presses the clock and earns the
// increment. A side whose time is out loses, unless the
// other side has no attacking piece left (end.ts: then a draw). A takeback
// gives the turn back to the player without touching the times.

import {
  BLACK,
  Position,
  RED,
  addMove,
  legalMoves,
  moveToUci,
  newGame,
  ok,
  err,
  type Color,
  type Game,
  type Move,
  type MoveNode,
  type Result,
  type RuleConfig,
  type SearchLimits,
} from '../../src/browser/index.js';
import { GameClock } from './clock.js';
import { kirinAcceptsDraw, drawFacts } from './draw.js';
import { AGREED_DRAW, flagEnd, judgeEnd, pgnResult, pgnTermination, resignEnd, type GameEnd } from './end.js';
import { pgnTimeControl, type TimeControl } from './timecontrol.js';

export interface PlaySetup {
  /** The start position (FEN); the panel checks it first (Position.fromFen). */
  readonly startFen: string;
  /** The player's side; Kirin plays the other. */
  readonly human: Color;
  readonly control: TimeControl;
  /** The rules the game is judged by. */
  readonly rules: RuleConfig;
  /** The clock's time source in ms (default Date.now: the engine's startTime uses it too). */
  readonly now?: () => number;
}

export type MoveRefusal = 'game-over' | 'not-your-turn' | 'illegal';

export class PlayGame {
  readonly startFen: string;
  readonly human: Color;
  readonly control: TimeControl;
  readonly rules: RuleConfig;
  /** The clocks (null for a time per move). */
  readonly clock: GameClock | null;
  private readonly now: () => number;
  private readonly pos: Position;
  private readonly played: Move[] = [];
  private ended: GameEnd | null = null;

  /** Throws on a FEN the rules core refuses: the caller checks it first. */
  constructor(setup: PlaySetup) {
    const start = Position.fromFen(setup.startFen);
    if (!start.ok) throw new Error(start.error.message);
    this.pos = start.value;
    this.startFen = setup.startFen;
    this.human = setup.human;
    this.control = setup.control;
    this.rules = setup.rules;
    this.now = setup.now ?? Date.now;
    this.clock =
      setup.control.kind === 'clock' ? new GameClock(setup.control.baseMs, setup.control.incrementMs, this.now) : null;
    // A start position that is already over (mate, stalemate) ends the game at once.
    this.ended = judgeEnd(this.pos, this.rules);
  }

  /** The moves played so far. */
  get moves(): readonly Move[] {
    return this.played;
  }

  /** A copy of the position now, with the game's history. */
  position(): Position {
    return this.pos.clone();
  }

  /** The side to move. */
  turn(): Color {
    return this.pos.sideToMove;
  }

  /** True when Kirin is to move in a game that goes on. */
  kirinToMove(): boolean {
    return this.ended === null && this.turn() !== this.human;
  }

  /** True when the player is to move in a game that goes on. */
  playerToMove(): boolean {
    return this.ended === null && this.turn() === this.human;
  }

  /** How the game ended, or null while it goes on. */
  get end(): GameEnd | null {
    return this.ended;
  }

  /**
   * Plays `move` for the side to move (`by`, when given, must be that side).
   * A side whose time is out cannot move: the game ends on time instead and
   * the move is refused with 'game-over'. Otherwise the move is played, the
   * clock pressed, and the game judged: the value is how it ended, or null.
   */
  play(move: Move, by?: Color): Result<GameEnd | null, MoveRefusal> {
    if (this.tick() !== null) return err('game-over', 'the game is over');
    if (by !== undefined && by !== this.turn()) return err('not-your-turn', 'it is not your turn');
    if (!legalMoves(this.pos).includes(move))
      return err('illegal', `${moveToUci(move)} is not a legal move in ${this.pos.fen()}`);
    this.pos.doMove(move);
    this.played.push(move);
    if (this.clock) {
      // The game's first move starts the clocks (the other side's runs); every later move presses them.
      if (this.clock.running() === null) this.clock.start(this.turn());
      else this.clock.press();
    }
    this.ended = judgeEnd(this.pos, this.rules);
    if (this.ended) this.clock?.stop();
    return ok(this.ended);
  }

  /** Checks the flag: ends the game when the side to move has run out of time. Returns the end, or null. */
  tick(): GameEnd | null {
    if (this.ended) return this.ended;
    const flagged = this.clock?.flagged() ?? null;
    if (flagged === null) return null;
    this.clock!.stop();
    this.ended = flagEnd(this.pos, flagged);
    return this.ended;
  }

  /** `side` resigns (the player, by default). Returns how the game ended (an earlier end stays). */
  resign(side: Color = this.human): GameEnd {
    if (this.tick() !== null) return this.ended!;
    this.finish(resignEnd(side));
    return this.ended!;
  }

  /**
   * The player offers a draw; Kirin answers by draw.ts's rule from its last
   * score for itself (centipawns, null when it has none). True when it accepts
   * (the game is then drawn by agreement).
   */
  offerDraw(kirinCp: number | null): boolean {
    if (this.tick() !== null) return false;
    if (!kirinAcceptsDraw(drawFacts(this.pos, this.played.length, kirinCp))) return false;
    this.finish(AGREED_DRAW);
    return true;
  }

  /**
   * Takes back to the player's last turn: Kirin's reply and the player's move
   * (two plies), or the player's move alone while Kirin is to move. Returns the
   * plies taken back (0 when there is nothing of the player's to take back).
   * The times stay as they are; the player's clock runs again (the clocks stop
   * when the game goes back to its first position, as before the game's first move).
   */
  takeBack(): number {
    if (this.ended) return 0;
    let n = 0;
    if (this.turn() !== this.human && this.played.length > 0) n = 1;
    else if (this.turn() === this.human && this.played.length >= 2) n = 2;
    for (let i = 0; i < n; i++) this.pos.undoMove(this.played.pop()!);
    if (n > 0 && this.clock) {
      if (this.played.length === 0) this.clock.stop();
      else this.clock.start(this.turn());
    }
    return n;
  }

  /**
   * The limits of Kirin's search now, as a UCI GUI sends them: both clocks at
   * the moment Kirin's clock started, the increments and that moment as the
   * start time (the search counts the time already gone); the time per move
   * otherwise. Before the clocks start (Kirin's first move of the game) the
   * full times from now.
   */
  goLimits(): SearchLimits {
    const c = this.control;
    if (c.kind === 'movetime' || !this.clock)
      return { movetime: c.kind === 'movetime' ? c.moveMs : 1000, startTime: this.now() };
    const running = this.clock.running() !== null;
    return {
      wtime: Math.max(1, Math.round(this.clock.remainingAtTurnStart(RED))),
      btime: Math.max(1, Math.round(this.clock.remainingAtTurnStart(BLACK))),
      winc: c.incrementMs,
      binc: c.incrementMs,
      startTime: running ? this.clock.turnStart() : this.now(),
    };
  }

  private finish(end: GameEnd): void {
    this.ended = end;
    this.clock?.stop();
  }

  /**
   * The game as a record: headers (Event, Date, Red, Black, TimeControl,
   * Result, Termination), the moves, and `words` (the end in the player's
   * words) as the last move's comment (the game's comment when no move was
   * played).
   */
  record(names: { red: string; black: string; event: string; date: Date }, words = ''): Game {
    const g = newGame(this.startFen);
    const two = (n: number): string => String(n).padStart(2, '0');
    const d = names.date;
    g.headers = {
      Event: names.event,
      Date: `${d.getFullYear()}.${two(d.getMonth() + 1)}.${two(d.getDate())}`,
      Red: names.red,
      Black: names.black,
      TimeControl: pgnTimeControl(this.control),
    };
    if (this.ended) {
      g.result = pgnResult(this.ended);
      g.headers.Result = g.result;
      g.headers.Termination = pgnTermination(this.ended);
    }
    let last: MoveNode | null = null;
    for (const m of this.played) last = addMove(last ?? g, m);
    if (words !== '') {
      if (last) last.comment = words;
      else g.comment = words;
    }
    return g;
  }
}
