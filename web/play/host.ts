// What the play panel needs from the page (the shell): the engine, the board,
// the player's language and a few hooks. The shell implements PlayHost and
// mounts the panel with mountPlayPanel (panel.ts).

import type { Color, Engine, Game, Move, RuleConfig } from '../../src/browser/index.js';
import type { GameEnd } from './end.js';

/** A message in the player's language: the key's text with its `{name}` placeholders filled. */
export type Translate = (key: string, params?: Readonly<Record<string, string | number>>) => string;

/** The moments the panel would have the page make a sound: a game starts, ends, or the player's time runs low (10 s). */
type PlaySound = 'start' | 'end' | 'low-time';

/** The Repetition Rules offered before a game: see PlayHost.repetitionRules. */
interface RuleChoice {
  readonly rules: readonly (readonly [value: string, name: string])[];
  readonly chosen: string;
  choose(rule: string): void;
}

export interface PlayHost {
  /**
   * The page's engine. While a game runs (PlayPanel.active()) the panel plays
   * Kirin's side with it and sets its strength, book and time options; the
   * shell must not analyse meanwhile. When the game ends or is abandoned the
   * panel puts the options it changed back.
   */
  readonly engine: Engine;
  /** Message texts in the player's language (the panel's keys are in messages.ts). */
  t: Translate;
  /** The rules the game is judged by: the page's Repetition Rule (e.g. `() => engine.ruleConfig()`). */
  ruleConfig(): RuleConfig;
  /**
   * The Repetition Rules the player may choose from before a game (each a
   * value and its name), the one in force, and how to choose one (the page
   * sets the engine's option); absent: the panel offers no choice.
   */
  repetitionRules?(): RuleChoice;
  /**
   * The position shown on the board, offered as the start of a game ("from the
   * position shown"); absent or null: games start from the standard position.
   */
  shownFen?(): string | null;
  /**
   * A new game begins: the board shows `fen` with the player's side (`human`)
   * at the bottom, and from now on passes the player's moves to
   * PlayPanel.playerMove before showing them.
   */
  startGame(fen: string, human: Color): void;
  /** Kirin played `move` (`book`: from its opening book): the board shows it as the game's next move (with its sound). */
  showMove(move: Move, book: boolean): void;
  /** The last `plies` moves are taken back: the board goes back that many moves and drops them. */
  takeBack(plies: number): void;
  /**
   * The game is over: its record (headers with the players, the time control,
   * Result and Termination; the moves; the result and its reason in the
   * player's words as the last move's comment) and how it ended. The shell
   * saves it (the library room) and may open it for review at once.
   */
  gameOver(game: Game, end: GameEnd): void;
  /** The player pressed "review the game" after it ended. */
  review(game: Game): void;
  /** Plays a sound for the moment, when the page has sounds (the panel never plays any itself). */
  sound?(event: PlaySound): void;
}
