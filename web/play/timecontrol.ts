// Time controls of a game against Kirin: a clock (minutes for the game plus
// seconds added after each move, as players write them: 10+5) or a fixed time
// per move (the page's older way to play, no clock). Pure: no DOM, no engine.

import { err, ok, type Result } from '../../src/browser/index.js';

/** A game on the clock: base time and Fischer increment, in milliseconds. */
export interface ClockControl {
  readonly kind: 'clock';
  readonly baseMs: number;
  readonly incrementMs: number;
}

/** Kirin thinks a fixed time per move; nobody has a clock. */
interface MoveTimeControl {
  readonly kind: 'movetime';
  readonly moveMs: number;
}

export type TimeControl = ClockControl | MoveTimeControl;

export type TimeControlErrorCode = 'tc-syntax' | 'tc-range';

/** The longest game base (3 hours), the largest increment (1 minute) and time per move (1 minute) accepted. */
const MAX_BASE_MINUTES = 180;
const MAX_INCREMENT_S = 60;
const MAX_MOVE_S = 60;

/** A clock control of `minutes` + `incrementSeconds`. */
export function clockControl(minutes: number, incrementSeconds: number): ClockControl {
  return { kind: 'clock', baseMs: Math.round(minutes * 60_000), incrementMs: Math.round(incrementSeconds * 1000) };
}

/**
 * The presets the panel offers, the controls players of pychess.org, lichess
 * and the Chinese sites use most: bullet 1+0, blitz 3+2 and 5+3, rapid 10+5
 * and 15+10, and a long 30+0.
 */
export const PRESETS: readonly ClockControl[] = [
  clockControl(1, 0),
  clockControl(3, 2),
  clockControl(5, 3),
  clockControl(10, 5),
  clockControl(15, 10),
  clockControl(30, 0),
];

/** Numbers as players type them: digits with an optional decimal part (full-width digits too). */
function readNumber(text: string): number | null {
  const t = text.replace(/[０-９．]/g, (c) => String.fromCharCode(c.charCodeAt(0) - 0xfee0)).trim();
  return /^\d+(\.\d+)?$/.test(t) ? Number(t) : null;
}

/**
 * A time control as typed: `M+S` (minutes for the game, seconds added after
 * each move: `10+5`, `0.5+1`), `M` alone (no increment), or `Ns` for N seconds
 * a move without a clock (`3s`). The base is 0 to 180 minutes, the increment 0
 * to 60 seconds and not both 0; a time per move 0.1 to 60 seconds. A full-width
 * plus (＋) and digits are read too.
 */
export function parseTimeControl(text: string): Result<TimeControl, TimeControlErrorCode> {
  const t = text.trim().replace(/＋/g, '+').replace(/\s+/g, '');
  const syntax = () =>
    err(
      'tc-syntax' as const,
      `time control "${text}": write minutes + increment in seconds (10+5), minutes alone (10) or seconds a move (3s)`,
    );
  const perMove = /^(.+?)s$/i.exec(t);
  if (perMove) {
    const s = readNumber(perMove[1]);
    if (s === null) return syntax();
    if (s < 0.1 || s > MAX_MOVE_S)
      return err('tc-range', `time control "${text}": a time per move must be 0.1 to ${MAX_MOVE_S} seconds`);
    return ok({ kind: 'movetime', moveMs: Math.round(s * 1000) });
  }
  const parts = t.split('+');
  if (parts.length > 2) return syntax();
  const minutes = readNumber(parts[0]);
  const increment = parts.length === 2 ? readNumber(parts[1]) : 0;
  if (minutes === null || increment === null) return syntax();
  if (minutes === 0 || minutes > MAX_BASE_MINUTES || increment > MAX_INCREMENT_S)
    return err(
      'tc-range',
      `time control "${text}": the base must be more than 0 and at most ${MAX_BASE_MINUTES} minutes, the ` +
        `increment 0 to ${MAX_INCREMENT_S} seconds`,
    );
  return ok(clockControl(minutes, increment));
}

/** Minutes or seconds without a needless decimal part. */
function number(n: number): string {
  return String(Math.round(n * 1000) / 1000);
}

/** The control as `parseTimeControl` reads it back: `10+5`, `0.5+1`, `3s`. */
export function formatTimeControl(tc: TimeControl): string {
  if (tc.kind === 'movetime') return `${number(tc.moveMs / 1000)}s`;
  return `${number(tc.baseMs / 60_000)}+${number(tc.incrementMs / 1000)}`;
}

/** PGN's TimeControl tag: seconds + increment (`600+5`), or `-` for no clock. */
export function pgnTimeControl(tc: TimeControl): string {
  if (tc.kind === 'movetime') return '-';
  return `${number(tc.baseMs / 1000)}+${number(tc.incrementMs / 1000)}`;
}

/** A clock's time as players read it: 9:58, 1:05:00 above an hour, 0:09.4 under ten seconds; 0:00 when out. */
export function formatClock(ms: number): string {
  const t = Math.max(0, ms);
  if (t < 10_000) {
    const tenths = Math.floor(t / 100);
    return `0:0${Math.floor(tenths / 10)}.${tenths % 10}`;
  }
  const s = Math.floor(t / 1000);
  const two = (n: number): string => String(n).padStart(2, '0');
  if (s >= 3600) return `${Math.floor(s / 3600)}:${two(Math.floor(s / 60) % 60)}:${two(s % 60)}`;
  return `${Math.floor(s / 60)}:${two(s % 60)}`;
}
