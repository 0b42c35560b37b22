// The arguments of the UCI `go` command, parsed strictly.
//
// A `go` either parses completely or is refused: a malformed or unknown token
// means the GUI and the engine disagree about what was asked, and guessing (for
// example ignoring a broken `depth` and searching without a limit) can leave a
// GUI waiting forever for a `bestmove`. So any bad token gives an error naming it
// and the caller starts no search.
//
// Values are decimal integers. The ranges, and what happens outside them:
//   wtime btime        any integer; below 1 counts as 1 ms (GUIs send 0 or a
//                      negative clock when the flag is about to fall: move at once)
//   winc binc          >= 0 (a negative increment counts as 0)
//   movestogo          >= 0 (0 = the rest of the game, as if not given)
//   depth              1..245 (MAX_PLY - 1); more is clamped to 245
//   mate               1..123; more is clamped to 123 (a mate needs 2N-1 plies)
//   nodes              >= 1; more than 2^53 - 1 is clamped to 2^53 - 1
//   movetime           >= 1 ms
//   perft              1..20 (more is refused: it would run for days)
// Times above MAX_TIME_MS (about 24.8 days) are clamped to it. A repeated
// parameter takes its last value (as in Stockfish). `searchmoves` takes the rest
// of the line and needs at least one move; the caller checks the moves are legal.

import { err, ok, type Result } from '../core/result.js';
import { MAX_PLY } from '../core/types.js';
import type { SearchLimits } from '../search/types.js';

export const MAX_GO_DEPTH = MAX_PLY - 1;
export const MAX_GO_MATE = Math.floor(MAX_PLY / 2);
export const MAX_TIME_MS = 2 ** 31 - 1;
const MAX_PERFT_DEPTH = 20;

export type GoErrorCode = 'unknown-token' | 'missing-value' | 'not-an-integer' | 'out-of-range' | 'no-searchmoves';

export interface ParsedGo {
  limits: SearchLimits;
  /** `go perft N`: the depth (the other limits are not used); 0 when not a perft. */
  perft: number;
  /** The move texts after `searchmoves` (resolved against the position by the caller); null when absent. */
  searchmoves: string[] | null;
  /** Values that were clamped into range, as readable notes (not errors). */
  notes: string[];
}

type Numeric = 'wtime' | 'btime' | 'winc' | 'binc' | 'movestogo' | 'depth' | 'nodes' | 'mate' | 'movetime' | 'perft';

/** Per parameter: the smallest value accepted (or clamped up to, see `clampLow`) and the largest (clamped down to). */
const RANGES: Record<Numeric, { min: number; max: number; clampLow?: number; refuseAbove?: boolean }> = {
  wtime: { min: -Infinity, max: MAX_TIME_MS, clampLow: 1 },
  btime: { min: -Infinity, max: MAX_TIME_MS, clampLow: 1 },
  winc: { min: -Infinity, max: MAX_TIME_MS, clampLow: 0 },
  binc: { min: -Infinity, max: MAX_TIME_MS, clampLow: 0 },
  movestogo: { min: 0, max: MAX_TIME_MS },
  depth: { min: 1, max: MAX_GO_DEPTH },
  mate: { min: 1, max: MAX_GO_MATE },
  nodes: { min: 1, max: Number.MAX_SAFE_INTEGER },
  movetime: { min: 1, max: MAX_TIME_MS },
  perft: { min: 1, max: MAX_PERFT_DEPTH, refuseAbove: true },
};

function isNumeric(t: string): t is Numeric {
  return Object.prototype.hasOwnProperty.call(RANGES, t);
}

/** Shortens a token for an error message (a GUI may send anything, including very long lines). */
function show(t: string): string {
  const s = t.length > 40 ? `${t.slice(0, 40)}...` : t;
  return s.replace(/[^\x20-\x7e]/g, '?');
}

/** Parses the tokens after `go`. `startTime` is when the command was read. */
export function parseGo(tokens: readonly string[], startTime: number): Result<ParsedGo, GoErrorCode> {
  const limits: SearchLimits = { startTime };
  const notes: string[] = [];
  let perft = 0;
  let searchmoves: string[] | null = null;
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    if (t === 'searchmoves') {
      searchmoves = tokens.slice(i + 1);
      if (searchmoves.length === 0) return err('no-searchmoves', `'go searchmoves' needs at least one move; no search`);
      break;
    }
    if (t === 'infinite') {
      limits.infinite = true;
      continue;
    }
    if (t === 'ponder') {
      limits.ponder = true;
      continue;
    }
    if (!isNumeric(t)) return err('unknown-token', `unknown 'go' parameter '${show(t)}'; no search`);
    const v = tokens[i + 1];
    if (v === undefined) return err('missing-value', `'go ${t}' needs an integer value; no search`);
    i++;
    if (!/^[+-]?\d+$/.test(v))
      return err('not-an-integer', `'go ${t}' needs an integer value, got '${show(v)}'; no search`);
    const range = RANGES[t];
    // Digit strings beyond 2^53 lose precision but keep their order, which is all the clamping needs.
    let n = Number(v);
    if (n < range.min) {
      return err('out-of-range', `'go ${t} ${show(v)}' is out of range: the least value is ${range.min}; no search`);
    }
    if (range.clampLow !== undefined && n < range.clampLow) n = range.clampLow;
    if (n > range.max && range.refuseAbove) {
      return err('out-of-range', `'go ${t} ${show(v)}' is out of range: the largest value is ${range.max}; no search`);
    }
    if (n > range.max) {
      notes.push(`go ${t} ${show(v)} is above the maximum ${range.max}; using ${range.max}`);
      n = range.max;
    }
    if (t === 'perft') perft = n;
    else if (t === 'movestogo') {
      if (n === 0) delete limits.movestogo;
      else limits.movestogo = n;
    } else limits[t] = n;
  }
  return ok({ limits, perft, searchmoves, notes });
}
