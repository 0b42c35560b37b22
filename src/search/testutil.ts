// Helpers shared by the search tests (not used by the engine itself).

import { legalMoves } from '../core/movegen.js';
import { Position } from '../core/position.js';
import type { Move } from '../core/types.js';
import type { SearchIO } from './search.js';
import type { SearchInfo, SearchOptions } from './types.js';

export function defaultOptions(over: Partial<SearchOptions> = {}): SearchOptions {
  return {
    multiPV: 1, moveOverhead: 10, nodestime: 0, rule60MaxPly: 120, skillLevel: 20, limitStrength: false,
    elo: 3133, repetitionRule: 'AsianRule', drawRule: 'None', mateThreatDepth: 0, threads: 1, ponder: false, ...over,
  };
}

export interface RecordingIO extends SearchIO {
  infos: SearchInfo[];
}

/** An IO that records info lines; `onInfo` may react (e.g. raise the stop flag). */
export function recordingIO(onInfo?: (i: SearchInfo, signals: Int32Array) => void): RecordingIO {
  const signals = new Int32Array(new SharedArrayBuffer(8));
  const infos: SearchInfo[] = [];
  return {
    signals,
    infos,
    info(i) {
      infos.push(i);
      onInfo?.(i, signals);
    },
    text() {},
  };
}

/** Deterministic pseudo-random numbers for tests. */
export function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 4294967296;
  };
}

/** Positions reached by random legal games from the start position (some in check). */
export function randomPositions(count: number, seed: number, maxPlies = 60): Position[] {
  const rnd = lcg(seed);
  const out: Position[] = [];
  while (out.length < count) {
    const pos = new Position();
    const plies = 4 + Math.floor(rnd() * maxPlies);
    for (let i = 0; i < plies; i++) {
      const ms = legalMoves(pos);
      if (!ms.length) break;
      // Prefer captures now and then so material comes off the board.
      const caps = ms.filter((m) => pos.isCapture(m));
      const pick = caps.length && rnd() < 0.4 ? caps[Math.floor(rnd() * caps.length)] : ms[Math.floor(rnd() * ms.length)];
      pos.doMove(pick);
    }
    if (legalMoves(pos).length) out.push(pos);
  }
  return out;
}

/** Positions in check, collected along random games. */
export function randomCheckPositions(count: number, seed: number): Position[] {
  const rnd = lcg(seed);
  const out: Position[] = [];
  for (let game = 0; out.length < count && game < 10 * count; game++) {
    const pos = new Position();
    for (let i = 0; i < 120; i++) {
      const ms = legalMoves(pos);
      if (!ms.length) break;
      // Prefer checking moves so that evasions come up often.
      const checks = ms.filter((m) => pos.givesCheck(m));
      const caps = ms.filter((m) => pos.isCapture(m));
      const r = rnd();
      const pick = checks.length && r < 0.5 ? checks[Math.floor(rnd() * checks.length)]
        : caps.length && r < 0.8 ? caps[Math.floor(rnd() * caps.length)] : ms[Math.floor(rnd() * ms.length)];
      pos.doMove(pick);
      if (pos.inCheck() && legalMoves(pos).length && rnd() < 0.5) {
        out.push(pos.clone());
        if (out.length >= count) break;
      }
    }
  }
  return out;
}

/** The same position with colours swapped and the board turned (for symmetric tests). */
export function mirrorFen(fen: string): string {
  const [board, side, , , r60 = '0', full = '1'] = fen.split(' ');
  const ranks = board.split('/').reverse();
  const swapped = ranks.map((r) => r.replace(/[a-zA-Z]/g, (c) => (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase())));
  return `${swapped.join('/')} ${side === 'w' ? 'b' : 'w'} - - ${r60} ${full}`;
}

/** Exhaustive check: can the side to move force a win (no legal reply) within `n` of its moves? */
export function forcesMate(pos: Position, n: number): boolean {
  for (const m of legalMoves(pos)) {
    pos.doMove(m);
    const ok = allRepliesLose(pos, n - 1);
    pos.undoMove(m);
    if (ok) return true;
  }
  return false;
}

/** Does move `m` force a win within `n` moves (itself included)? */
export function moveForcesMate(pos: Position, m: Move, n: number): boolean {
  pos.doMove(m);
  const ok = allRepliesLose(pos, n - 1);
  pos.undoMove(m);
  return ok;
}

function allRepliesLose(pos: Position, n: number): boolean {
  const ms = legalMoves(pos);
  if (!ms.length) return true;
  if (n === 0) return false;
  for (const m of ms) {
    pos.doMove(m);
    const ok = forcesMate(pos, n);
    pos.undoMove(m);
    if (!ok) return false;
  }
  return true;
}
