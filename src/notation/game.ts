// A game record: its tags, start position, result, and the tree of moves with
// comments, annotation glyphs and variations. PGN and XQF files read into it
// (pgn.ts, xqf.ts) and PGN is written from it. Plain data: a program may build
// or edit one directly (newGame, addMove).

import { START_FEN } from '../core/fen.js';
import type { Position } from '../core/position.js';
import { RED, type Move } from '../core/types.js';

/** Why a game in a file was refused. */
export type GameErrorCode = 'game-fen' | 'game-move' | 'game-syntax' | 'xqf-format' | 'xqf-version' | 'xqf-truncated';

/** A game's result: Red won, Black won, drawn, or unknown / unfinished. */
export type GameResult = '1-0' | '0-1' | '1/2-1/2' | '*';

/** Where moves hang: a game (its first moves) or a move (the moves after it). */
export interface MoveTree {
  /** The moves that can follow: [0] is the main line, the others its alternatives (variations). */
  children: MoveNode[];
}

/** A move in a game, with what was written about it and the moves after it. */
export interface MoveNode extends MoveTree {
  /** The move, from the position its parent leaves. */
  move: Move;
  /** Comment written before the move (PGN allows one where a variation starts); '' when none. */
  commentBefore: string;
  /** Comment written after the move; '' when none. */
  comment: string;
  /** Numeric annotation glyphs, PGN's $n ($1 good move !, $2 mistake ?, $3 !!, $4 ??, $5 !?, $6 ?!). */
  nags: number[];
}

/** A game record. */
export interface Game extends MoveTree {
  /**
   * The tags as the file gives them, in its order (Event, Site, Date, Round,
   * Red, Black, ...). `fen` and `result` below are the game's start position
   * and result; the FEN and Result tags here are as written in the file.
   */
  headers: Record<string, string>;
  /** The start position (the FEN tag's, or the standard start). */
  fen: string;
  /** The result (the movetext's final result, else the Result tag's). */
  result: GameResult;
  /** Comment before the first move; '' when none. */
  comment: string;
  /**
   * What the reader left out of the file's game, each in words naming the game,
   * the variation and the move: a variation with a move that is not legal
   * (the rest of the game is kept). Absent when nothing was left out.
   */
  warnings?: string[];
}

/** A game without moves from `fen` (the standard start by default). */
export function newGame(fen: string = START_FEN): Game {
  return { headers: {}, fen, result: '*', comment: '', children: [] };
}

/**
 * The node for `move` after `parent`: the existing one when the move is
 * already there, else a new one added as the last alternative (the main line
 * when it is the first).
 */
export function addMove(parent: MoveTree, move: Move): MoveNode {
  const found = parent.children.find((c) => c.move === move);
  if (found) return found;
  const node: MoveNode = { move, commentBefore: '', comment: '', nags: [], children: [] };
  parent.children.push(node);
  return node;
}

/** The main line's moves (first children all the way down). */
export function mainLine(tree: MoveTree): Move[] {
  const out: Move[] = [];
  for (let t = tree.children[0]; t !== undefined; t = t.children[0]) out.push(t.move);
  return out;
}

/** The result a text gives: 1-0, 0-1, 1/2-1/2, * and their common variants (红胜, 黑胜, 和棋, ½-½); null for anything else. */
export function readResult(text: string): GameResult | null {
  const t = text.trim();
  if (t === '1-0' || t === '红胜' || t === '紅勝' || t === '红先胜' || t === '紅先勝') return '1-0';
  if (t === '0-1' || t === '黑胜' || t === '黑勝' || t === '红先负' || t === '紅先負') return '0-1';
  if (t === '1/2-1/2' || t === '½-½' || t === '和棋' || t === '和' || t === '红先和' || t === '紅先和')
    return '1/2-1/2';
  if (t === '*' || t === '未知') return '*';
  return null;
}

/** "move 12 (Black)": the move about to be played in `pos`, for messages. */
export function moveName(pos: Position): string {
  return `move ${1 + (pos.plies >> 1)} (${pos.sideToMove === RED ? 'Red' : 'Black'})`;
}
