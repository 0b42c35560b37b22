// Test support shared by the test files:
// deterministic random numbers, position builders, random positions, FEN
// transformations, a naive movement-rule oracle and small search helpers.
// Not part of the engine or its public API.

import assert from 'node:assert/strict';
import { resolve } from 'node:path';

import { formatBoard, isValidSquareFor } from '../../src/core/fen.js';
import { legalMoves } from '../../src/core/movegen.js';
import { Position } from '../../src/core/position.js';
import {
  ADVISOR,
  BISHOP,
  BLACK,
  CANNON,
  KING,
  KNIGHT,
  PAWN,
  PIECE_CHARS,
  RED,
  ROOK,
  parseSquare,
  type Move,
} from '../../src/core/types.js';
import { mulberry32 } from '../../src/core/prng.js';
import type { Result } from '../../src/core/result.js';
import { parseUciMove } from '../../src/core/ucimove.js';
import { repoRoot } from '../../toolkit/files.js';
import type { SearchIO } from '../../src/search/search.js';
import { DEFAULT_SEARCH_OPTIONS, type SearchInfo, type SearchOptions } from '../../src/search/types.js';

// ---- deterministic random numbers ------------------------------------------------------

// The generators live in src/core/prng.ts (mulberry32 for random positions and games).

// ---- moves, files and positions -------------------------------------------------------

/** The value of a Result that must be ok (the test fails with its message otherwise). */
export function unwrap<T>(r: Result<T>): T {
  if (!r.ok) assert.fail(`${r.error.code}: ${r.error.message}`);
  return r.value;
}

/** The move of a UCI text such as "h2e2" (no legality check). */
export function uciMove(text: string): Move {
  const m = parseUciMove(text);
  if (!m.ok) throw new Error(m.error.message);
  return m.value;
}

/** The position after playing space-separated UCI moves from `fen`; every move must be legal. */
export function play(fen: string, moves: string): Position {
  const pos = new Position(fen);
  for (const t of moves.split(' ').filter(Boolean)) {
    const m = uciMove(t);
    assert.ok(pos.pseudoLegal(m) && pos.legal(m), `illegal ${t}`);
    pos.doMove(m);
  }
  return pos;
}

/** Path of the perft reference table inside the repository (test/data/perft.tsv, measured with native Pikafish). */
export function perftTablePath(): string {
  return testDataPath('perft.tsv');
}

/** A file of test/data. */
export function testDataPath(name: string): string {
  return resolve(repoRoot(), 'test', 'data', name);
}

/** The data lines of a tab-separated table: header first, `#` comment lines and blank lines left out. */
export function tableLines(text: string): string[] {
  return text
    .split('\n')
    .map((l) => l.replace(/\r$/, ''))
    .filter((l) => l.trim() !== '' && !l.startsWith('#'));
}

/** FEN of a board given as a 90-entry piece-code array (no counters: "- - 0 1"). */
function boardFen(board: ArrayLike<number>, side: 'w' | 'b'): string {
  return `${formatBoard(board)} ${side} - - 0 1`;
}

/** A position from a readable list such as "K e0 k e9 R a3" (letters as in FEN). */
export function setup(spec: string, side: 'w' | 'b' = 'w'): Position {
  const board = new Array<number>(90).fill(0);
  const tokens = spec.trim().split(/\s+/);
  for (let i = 0; i < tokens.length; i += 2) {
    const pc = PIECE_CHARS.indexOf(tokens[i]);
    const sq = parseSquare(tokens[i + 1]);
    assert.ok(pc > 0 && sq >= 0, `bad setup token ${tokens[i]} ${tokens[i + 1]}`);
    assert.equal(board[sq], 0, `square ${tokens[i + 1]} used twice`);
    board[sq] = pc;
  }
  const pos = new Position(null);
  const r = pos.setFen(boardFen(board, side));
  assert.ok(r.ok, `setup "${spec}" rejected: ${r.ok ? '' : r.error.message}`);
  return pos;
}

// ---- FEN transformations --------------------------------------------------------------

function swapCase(ch: string): string {
  const lo = ch.toLowerCase();
  return ch === lo ? ch.toUpperCase() : lo;
}

/**
 * The color-flipped mirror of a FEN: ranks reversed, red and black swapped and
 * the other side to move (so the evaluation from the side to move is unchanged).
 */
export function mirrorFen(fen: string): string {
  const parts = fen.trim().split(/\s+/);
  const ranks = parts[0]
    .split('/')
    .reverse()
    .map((r) => r.replace(/[a-zA-Z]/g, swapCase));
  parts[0] = ranks.join('/');
  parts[1] = parts[1] === 'b' ? 'w' : 'b';
  return parts.join(' ');
}

/** The FEN with files mirrored left to right (same colors, same side to move). */
export function flipFilesFen(fen: string): string {
  const parts = fen.trim().split(/\s+/);
  parts[0] = parts[0]
    .split('/')
    .map((r) =>
      r
        .replace(/\d/g, (d) => '1'.repeat(Number(d)))
        .split('')
        .reverse()
        .join('')
        .replace(/1+/g, (ones) => String(ones.length)),
    )
    .join('/');
  return parts.join(' ');
}

// ---- random positions -----------------------------------------------------------------

/** Most pieces of each type (indexed by piece type) that randomPlacement puts on the board. */
const MAX_OF = [0, 2, 2, 2, 5, 2, 2, 1];

/**
 * A random legal-looking placement (every piece on a square it may stand on),
 * retried until the FEN is accepted. With `varyDensity` one extra number drawn
 * first scales how many pieces of each type are placed.
 */
export function randomPlacement(rnd: () => number, varyDensity = false): Position {
  for (;;) {
    const board = new Array<number>(90).fill(0);
    const scale = varyDensity ? 0.3 + rnd() : 1;
    for (const c of [RED, BLACK]) {
      for (let t = ROOK; t <= KING; t++) {
        const pc = (c << 3) | t;
        const n = t === KING ? 1 : Math.floor(rnd() * (MAX_OF[t] + 1) * scale);
        for (let i = 0; i < Math.min(n, MAX_OF[t]); i++) {
          for (let tries = 0; tries < 200; tries++) {
            const s = Math.floor(rnd() * 90);
            if (!board[s] && isValidSquareFor(pc, s)) {
              board[s] = pc;
              break;
            }
          }
        }
      }
    }
    const pos = new Position(null);
    if (pos.setFen(boardFen(board, rnd() < 0.5 ? 'w' : 'b')).ok) return pos;
  }
}

/**
 * Positions along `games` random legal games of up to `plies` plies from the
 * start, a copy after every `every` plies. With `captureBias` > 0 a capture is
 * played with that probability when one exists (so material thins out); with 0
 * the moves are uniform and no number is drawn for the choice.
 */
export function gamePositions(
  rnd: () => number,
  games: number,
  plies: number,
  every: number,
  captureBias = 0,
): Position[] {
  const out: Position[] = [];
  for (let g = 0; g < games; g++) {
    const pos = new Position();
    for (let ply = 0; ply < plies; ply++) {
      const moves = legalMoves(pos);
      if (moves.length === 0) break;
      let pool = moves;
      if (captureBias > 0) {
        const caps = moves.filter((m) => pos.isCapture(m));
        if (caps.length && rnd() < captureBias) pool = caps;
      }
      pos.doMove(pool[Math.floor(rnd() * pool.length)]);
      if (ply % every === every - 1) out.push(pos.clone());
    }
  }
  return out;
}

// randomFens lives with the tools that measure on random positions (lab/eval/random-fens.ts).
export { randomFens } from '../../lab/eval/random-fens.js';

/** Positions reached by random legal games (mulberry32) from the start position, some in check, none without moves. */
export function randomPositions(count: number, seed: number, maxPlies = 60): Position[] {
  const rnd = mulberry32(seed);
  const out: Position[] = [];
  while (out.length < count) {
    const pos = new Position();
    const plies = 4 + Math.floor(rnd() * maxPlies);
    for (let i = 0; i < plies; i++) {
      const ms = legalMoves(pos);
      if (!ms.length) break;
      // Prefer captures now and then so material comes off the board.
      const caps = ms.filter((m) => pos.isCapture(m));
      const pick =
        caps.length && rnd() < 0.4 ? caps[Math.floor(rnd() * caps.length)] : ms[Math.floor(rnd() * ms.length)];
      pos.doMove(pick);
    }
    if (legalMoves(pos).length) out.push(pos);
  }
  return out;
}

/** Positions in check, collected along random games (mulberry32). */
export function randomCheckPositions(count: number, seed: number): Position[] {
  const rnd = mulberry32(seed);
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
      const pick =
        checks.length && r < 0.5
          ? checks[Math.floor(rnd() * checks.length)]
          : caps.length && r < 0.8
            ? caps[Math.floor(rnd() * caps.length)]
            : ms[Math.floor(rnd() * ms.length)];
      pos.doMove(pick);
      if (pos.inCheck() && legalMoves(pos).length && rnd() < 0.5) {
        out.push(pos.clone());
        if (out.length >= count) break;
      }
    }
  }
  return out;
}

// ---- a naive, independent movement-rule oracle (boards are 90-entry piece arrays) -----

/** File (0-8) of a square. */
export const F = (s: number): number => s % 9;
/** Rank (0-9) of a square. */
const R = (s: number): number => Math.floor(s / 9);

/** Is square s inside the palace of `color`? */
function inPalace(color: number, s: number): boolean {
  const f = F(s),
    r = R(s);
  return f >= 3 && f <= 5 && (color === RED ? r <= 2 : r >= 7);
}

/** Pieces strictly between two squares on one rank or file, or -1 when not aligned. */
export function piecesBetween(board: ArrayLike<number>, a: number, b: number): number {
  let step: number;
  if (R(a) === R(b)) step = a < b ? 1 : -1;
  else if (F(a) === F(b)) step = a < b ? 9 : -9;
  else return -1;
  let n = 0;
  for (let s = a + step; s !== b; s += step) if (board[s]) n++;
  return n;
}

/**
 * Can the piece on `from` move to (or capture on) `to`, by the movement rules
 * alone? A cannon needs a screen exactly when `to` is occupied; kings reach
 * adjacent palace squares only (facing kings are not considered).
 */
export function naiveReach(board: ArrayLike<number>, from: number, to: number): boolean {
  const pc = board[from];
  const c = pc >> 3,
    t = pc & 7;
  const df = F(to) - F(from),
    dr = R(to) - R(from);
  const adf = Math.abs(df),
    adr = Math.abs(dr);
  switch (t) {
    case ROOK:
      return piecesBetween(board, from, to) === 0;
    case CANNON:
      return piecesBetween(board, from, to) === (board[to] ? 1 : 0);
    case KNIGHT:
      if (adf === 1 && adr === 2) return board[from + Math.sign(dr) * 9] === 0;
      if (adf === 2 && adr === 1) return board[from + Math.sign(df)] === 0;
      return false;
    case BISHOP:
      return adf === 2 && adr === 2 && board[from + df / 2 + (dr / 2) * 9] === 0 && R(from) >= 5 === R(to) >= 5;
    case ADVISOR:
      return adf === 1 && adr === 1 && inPalace(c, to);
    case KING:
      return adf + adr === 1 && inPalace(c, to);
    case PAWN: {
      const fwd = c === RED ? 1 : -1;
      const crossed = c === RED ? R(from) >= 5 : R(from) <= 4;
      return (df === 0 && dr === fwd) || (dr === 0 && adf === 1 && crossed);
    }
  }
  return false;
}

// ---- assertions -----------------------------------------------------------------------

/** Asserts |a - b| <= tol. */
export function assertClose(a: number, b: number, tol: number, msg?: string): void {
  assert.ok(Math.abs(a - b) <= tol, `${msg ?? ''} ${a} != ${b} (tol ${tol})`);
}

// ---- search -----------------------------------------------------------------------------

/** Search options as the UCI defaults set them (pinned by src/engine/engine.test.ts), with `over` applied. */
export function defaultOptions(over: Partial<SearchOptions> = {}): SearchOptions {
  return { ...DEFAULT_SEARCH_OPTIONS, ...over };
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

/** The whole state stack 0..sp of a position, as one string. */
export function stateStack(pos: Position): string {
  const n = pos.sp + 1;
  const arrs = [
    pos.keyLo,
    pos.keyHi,
    pos.pawnKey,
    pos.minorKey,
    pos.nonPawnKeyRed,
    pos.nonPawnKeyBlack,
    pos.captured,
    pos.moveAt,
    pos.checked,
    pos.rule60,
    pos.check10Red,
    pos.check10Black,
    pos.pliesFromNull,
  ];
  return JSON.stringify(arrs.map((a) => Array.from(a.subarray(0, n))));
}

/**
 * Everything a Position holds for its current ply and the plies before it, as one
 * string: two positions with equal strings behave the same (the lists in their
 * order, the key filter as a hash of its counts). For tests that a function leaves
 * a position as it found it.
 */
export function positionState(pos: Position): string {
  let filter = 0;
  for (let i = 0; i < pos.keyFilter.length; i++) filter = (Math.imul(filter, 31) + pos.keyFilter[i] * (i + 1)) | 0;
  return [
    pos.fen(),
    pos.sp,
    pos.gamePly,
    pos.side,
    Array.from(pos.board).join(','),
    Array.from(pos.rankOcc).join(','),
    Array.from(pos.fileOcc).join(','),
    // The lists as far as they hold pieces (slots past the count and the index of
    // an empty square keep whatever they last held, and nothing reads them).
    Array.from(pos.listSq.subarray(0, pos.listCount[0])).join(','),
    Array.from(pos.listSq.subarray(16, 16 + pos.listCount[1])).join(','),
    Array.from(pos.listIndex)
      .map((i, s) => (pos.board[s] !== 0 ? i : '.'))
      .join(','),
    Array.from(pos.pieceCount).join(','),
    Array.from(pos.pieceBits).join(','),
    Array.from(pos.kingSq).join(','),
    Array.from(pos.majorMaterial).join(','),
    stateStack(pos),
    Array.from(pos.capturedIndex.subarray(0, pos.sp + 1)).join(','),
    filter,
  ].join('\n');
}

/** An incremental evaluator (Pikafish's or Kirin's network) as the accumulator tests drive it. */
interface IncrementalEvaluator {
  readonly stats: { reused: number; parents: number };
  compute(pos: Position): void;
  matchesRefresh(pos: Position): boolean;
}

/**
 * Evaluates `pos` incrementally and checks what every update must keep: the
 * position left exactly as it was, accumulators equal to a full refresh, the
 * caller's `check` of the output (run before anything else is evaluated) and,
 * when the parent was computed on the way, that evaluating the parent is then a
 * reuse equal to a refresh.
 */
export function computeAndCheck(ev: IncrementalEvaluator, pos: Position, check: () => void): void {
  const state = positionState(pos),
    parents = ev.stats.parents;
  ev.compute(pos);
  assert.equal(positionState(pos), state, 'the evaluation leaves the position as it was');
  assert.ok(ev.matchesRefresh(pos), `accumulators differ from a refresh after ${pos.fen()}`);
  check();
  if (ev.stats.parents === parents) return;
  const m = pos.undoLast();
  try {
    const reused = ev.stats.reused;
    ev.compute(pos);
    assert.equal(ev.stats.reused, reused + 1, `the parent of the last move was computed, ${pos.fen()}`);
    assert.ok(ev.matchesRefresh(pos), `the parent's accumulators equal a refresh, ${pos.fen()}`);
  } finally {
    pos.redoLast(m);
  }
}
