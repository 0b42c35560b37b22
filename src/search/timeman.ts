// Time management: how long to think about one move (Pikafish's timeman.cpp).
//
// From the clock (wtime/btime, winc/binc, movestogo) and Move Overhead we
// derive an optimum time (the target, later scaled by the search according to
// best-move stability, falling evaluation and effort) and a maximum time (a
// hard stop). In "nodes as time" mode (option nodestime = N nodes per ms) the
// clock is converted to nodes once per game and then consumed by searched nodes,
// so elapsed() counts nodes instead of milliseconds.

import type { SearchLimits } from './types.js';

export interface TimeOptions {
  moveOverhead: number;
  nodestime: number;
  /** The Ponder option: the opponent's thinking time is used too, so aim 25% higher. */
  ponder?: boolean;
}

export class TimeManager {
  private startTime = 0;
  private optimumTime = 0;
  private maximumTime = 0;
  /** Remaining nodes in 'nodes as time' mode; -1 until the first search of a game. */
  private availableNodes = -1;
  useNodesTime = false;
  /** Nodes per ms in 'nodes as time' mode (0 otherwise). */
  npmsec = 0;
  /** Increment of the side to move converted to the time unit in use (ms or nodes). */
  incrementUnits = 0;
  /** Clock in use (performance.now or Date.now, matching limits.startTime). */
  private clock: () => number = now;
  /** Pikafish's originalTimeAdjust, computed once per game. */
  originalTimeAdjust = -1;

  /** Forget per-game state (ucinewgame). */
  clear(): void {
    this.availableNodes = -1;
    this.originalTimeAdjust = -1;
  }

  optimum(): number {
    return this.optimumTime;
  }
  maximum(): number {
    return this.maximumTime;
  }

  /** Milliseconds since the start (wall clock), whatever the mode. */
  elapsedTime(): number {
    return this.clock() - this.startTime;
  }

  /** Elapsed time in the unit budgets are expressed in: ms, or nodes in nodes-as-time mode. */
  elapsed(nodes: number): number {
    return this.useNodesTime ? nodes : this.clock() - this.startTime;
  }

  /** Restarts the clock (used at ponderhit: time counts from then). */
  restart(): void {
    this.startTime = this.clock();
  }

  /** Spends searched nodes in nodes-as-time mode (call at the end of each search). */
  advanceNodesTime(nodes: number): void {
    if (this.useNodesTime) this.availableNodes = Math.max(0, this.availableNodes - nodes);
  }

  /**
   * Computes the budgets for a search. `us` = side to move (0 red), `ply` = game ply.
   * Returns whether time management is in use (the side to move has a clock).
   */
  init(limits: SearchLimits, us: number, ply: number, opts: TimeOptions): boolean {
    this.clock = clockFor(limits.startTime);
    this.startTime = limits.startTime;
    const npmsec = Math.max(0, Math.floor(opts.nodestime || 0));
    this.useNodesTime = npmsec !== 0;
    this.npmsec = npmsec;
    let time = (us === 0 ? limits.wtime : limits.btime) ?? 0;
    let inc = (us === 0 ? limits.winc : limits.binc) ?? 0;
    this.optimumTime = this.maximumTime = 0;
    this.incrementUnits = inc;
    if (!(time > 0)) return false;
    let moveOverhead = Math.max(0, opts.moveOverhead || 0);

    if (this.useNodesTime) {
      if (this.availableNodes === -1) this.availableNodes = npmsec * time; // once per game
      time = this.availableNodes;
      inc *= npmsec;
      moveOverhead *= npmsec;
      this.incrementUnits = inc;
    }
    const scaleFactor = this.useNodesTime ? npmsec : 1;
    const scaledTime = time / scaleFactor;

    const movestogo = limits.movestogo ?? 0;
    let mtg = movestogo ? Math.min(movestogo, 50) : 50;
    // With less than one second, gradually reduce the horizon.
    if (scaledTime < 1000) mtg = Math.floor(scaledTime * 0.05);

    const timeLeft = Math.max(1, time + inc * (mtg - 1) - moveOverhead * (2 + mtg));
    let optScale: number, maxScale: number;
    if (!movestogo) {
      // x basetime (+ z increment)
      if (this.originalTimeAdjust < 0) this.originalTimeAdjust = 0.3356 * Math.log10(timeLeft) - 0.4903;
      const logTimeInSec = Math.log10(scaledTime / 1000);
      const optConstant = Math.min(0.0034013 + 0.00020657 * logTimeInSec, 0.004536);
      const maxConstant = Math.max(3.7803 + 2.8003 * logTimeInSec, 2.547);
      optScale =
        Math.min(0.017244 + Math.pow(ply + 2.71111, 0.43433) * optConstant, (0.20577 * time) / timeLeft) *
        this.originalTimeAdjust;
      maxScale = Math.min(7.002, maxConstant + ply / 13.184);
    } else {
      // x moves in y seconds (+ z increment)
      optScale = Math.min((0.88 + ply / 116.4) / mtg, (0.88 * time) / timeLeft);
      maxScale = 1.3 + 0.11 * mtg;
    }
    let optimum = Math.floor(Math.max(1, optScale * timeLeft));
    let maximum = Math.floor(Math.max(optimum, Math.min(0.8237 * time - moveOverhead, maxScale * optimum)));
    if (opts.ponder) optimum += Math.floor(optimum / 4);
    // Safety net (not in Pikafish): never plan beyond the clock minus the overhead.
    const hardCap = Math.max(1, Math.floor(time - moveOverhead));
    if (maximum > hardCap) maximum = hardCap;
    if (optimum > maximum) optimum = maximum;
    this.optimumTime = optimum;
    this.maximumTime = maximum;
    return true;
  }
}

function now(): number {
  return performance.now();
}

/** limits.startTime may come from Date.now() or performance.now(); use the matching clock. */
export function clockFor(startTime: number): () => number {
  return startTime > 1e11 ? Date.now : now;
}
