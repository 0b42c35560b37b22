// A chess clock for two sides with a Fischer increment. Time is read from an
// injected `now()` (milliseconds), so a test drives it with a number it moves
// by hand; the page gives it Date.now (the clock the engine's `go` startTime
// uses: the search thread's performance.now() has another origin). Pure: no
// timers, no DOM; the panel reads it on each frame.

import { BLACK, RED, type Color } from '../../src/browser/index.js';

export class GameClock {
  /** Each side's time when its clock last stopped (or at the start), in ms. */
  private readonly left: [number, number];
  /** The side whose clock runs, or null (not started, paused or stopped). */
  private runningSide: Color | null = null;
  /** The side to move while paused (resume starts its clock again). */
  private pausedSide: Color | null = null;
  /** now() when the running side's clock last started. */
  private since = 0;

  constructor(
    readonly baseMs: number,
    readonly incrementMs: number,
    private readonly now: () => number = Date.now,
  ) {
    this.left = [baseMs, baseMs];
  }

  /** The time `side` has left now, in ms (below 0 once it has flagged; never rounded). */
  remaining(side: Color): number {
    const t = this.left[side];
    return this.runningSide === side ? t - (this.now() - this.since) : t;
  }

  /**
   * The time `side` had when the running side's clock last started: what a
   * UCI GUI sends as wtime/btime with that moment as the search's start time.
   */
  remainingAtTurnStart(side: Color): number {
    return this.left[side];
  }

  /** now() when the running side's clock started (the search's start time). */
  turnStart(): number {
    return this.since;
  }

  /** The side whose clock runs (null: not started, paused or stopped). */
  running(): Color | null {
    return this.runningSide;
  }

  /** True while paused (resume goes on with the same side). */
  paused(): boolean {
    return this.pausedSide !== null;
  }

  /** Starts `side`'s clock now, the other's stopped, no increment: the game's first clock, or the turn after a takeback. */
  start(side: Color): void {
    this.settle();
    this.pausedSide = null;
    this.runningSide = side;
    this.since = this.now();
  }

  /**
   * The running side has moved: its clock stops, it gets the increment, and
   * the other side's clock starts. Returns the time the move took (ms). Does
   * nothing (returns 0) when no clock runs.
   */
  press(): number {
    const side = this.runningSide;
    if (side === null) return 0;
    const used = this.now() - this.since;
    this.settle();
    this.left[side] += this.incrementMs;
    this.runningSide = (side ^ 1) as Color;
    this.since = this.now();
    return used;
  }

  /** Stops the running clock, keeping whose turn it is for resume(). */
  pause(): void {
    if (this.runningSide === null) return;
    const side = this.runningSide;
    this.settle();
    this.pausedSide = side;
  }

  /** Starts the paused side's clock again. */
  resume(): void {
    if (this.pausedSide === null) return;
    this.start(this.pausedSide);
  }

  /** Stops both clocks for good (the game is over); the times stay readable. */
  stop(): void {
    this.settle();
    this.pausedSide = null;
  }

  /** The side whose time is out (the running one, or a stopped one at 0 or below), or null. */
  flagged(): Color | null {
    if (this.runningSide !== null && this.remaining(this.runningSide) <= 0) return this.runningSide;
    for (const side of [RED, BLACK] as const) if (this.left[side] <= 0) return side;
    return null;
  }

  /** Books the running side's time since its clock started and stops it. */
  private settle(): void {
    const side = this.runningSide;
    if (side === null) return;
    this.left[side] -= this.now() - this.since;
    this.runningSide = null;
  }
}
