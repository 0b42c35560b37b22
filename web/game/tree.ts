// The game tree and its edits: where the position shown sits in the game (a
// path of moves from the start), and the edits a player makes while studying
// it: delete a move and what follows, promote a variation to the main line,
// write a comment. Plain functions on the library's Game (docs/NOTATION.md):
// no DOM, no state of their own, so that web/game/tree.test.ts checks them.

import { Position, moveToUci, type Game, type MoveNode, type MoveTree } from '../../src/browser/index.js';

/** The tree the next move hangs from: the last move of `path`, or the game. */
export function treeAt(game: Game, path: readonly MoveNode[]): MoveTree {
  return path.length > 0 ? path[path.length - 1] : game;
}

/** The position after `path` (moves from the game's start); the standard start when the game's FEN is bad. */
export function positionAfter(fen: string, path: readonly MoveNode[]): Position {
  const r = Position.fromFen(fen);
  const p = r.ok ? r.value : new Position();
  p.reserve(path.length + 1);
  for (const n of path) p.doMove(n.move);
  return p;
}

/** The line through the end of `path`: `path`, then the first moves after it to the end. */
export function lineThrough(game: Game, path: readonly MoveNode[]): MoveNode[] {
  const line = [...path];
  for (let t = treeAt(game, path).children[0]; t !== undefined; t = t.children[0]) line.push(t);
  return line;
}

/** The game's main line as nodes. */
export function mainLineNodes(game: Game): MoveNode[] {
  return lineThrough(game, []);
}

/** True when `path` follows the main line all the way (the empty path does). */
export function onMainLine(game: Game, path: readonly MoveNode[]): boolean {
  let tree: MoveTree = game;
  for (const n of path) {
    if (tree.children[0] !== n) return false;
    tree = n;
  }
  return true;
}

/** The tree each node of `game` hangs from. */
export function parentsOf(game: Game): Map<MoveNode, MoveTree> {
  const parents = new Map<MoveNode, MoveTree>();
  const walk = (t: MoveTree): void => {
    for (const c of t.children) {
      parents.set(c, t);
      walk(c);
    }
  };
  walk(game);
  return parents;
}

/** The moves from the game's start to `node` (empty for null); `parents` from parentsOf. */
export function pathTo(node: MoveNode | null, parents: ReadonlyMap<MoveNode, MoveTree>): MoveNode[] {
  const path: MoveNode[] = [];
  for (let n: MoveTree | undefined = node ?? undefined; n !== undefined && 'move' in n; n = parents.get(n as MoveNode))
    path.push(n as MoveNode);
  return path.reverse();
}

/** Why an edit could not be made. */
type EditError = 'no-move' | 'not-in-game';

/** The result of an edit: the path to show afterwards, or why nothing changed. */
export type EditResult = { ok: true; path: MoveNode[] } | { ok: false; error: EditError };

/** Checks that `path` is a path of `game` (each move a child of the one before). */
function isPath(game: Game, path: readonly MoveNode[]): boolean {
  let tree: MoveTree = game;
  for (const n of path) {
    if (!tree.children.includes(n)) return false;
    tree = n;
  }
  return true;
}

/**
 * Deletes the last move of `path` and every move after it (its variations
 * too). The position shown afterwards is the one before the deleted move.
 */
export function deleteMove(game: Game, path: readonly MoveNode[]): EditResult {
  if (path.length === 0) return { ok: false, error: 'no-move' };
  if (!isPath(game, path)) return { ok: false, error: 'not-in-game' };
  const parent = treeAt(game, path.slice(0, -1));
  const node = path[path.length - 1];
  parent.children = parent.children.filter((c) => c !== node);
  return { ok: true, path: path.slice(0, -1) };
}

/**
 * Promotes the variation the last move of `path` lies in to the main line: at
 * every branch on the way where `path` takes an alternative, that alternative
 * becomes the first child (the move it displaces stays, as the first
 * variation). The path stays the same moves; afterwards it lies on the main
 * line. `no-move` when it already does.
 */
export function promoteVariation(game: Game, path: readonly MoveNode[]): EditResult {
  if (!isPath(game, path)) return { ok: false, error: 'not-in-game' };
  if (onMainLine(game, path)) return { ok: false, error: 'no-move' };
  let tree: MoveTree = game;
  for (const n of path) {
    const i = tree.children.indexOf(n);
    if (i > 0) {
      tree.children.splice(i, 1);
      tree.children.unshift(n);
    }
    tree = n;
  }
  return { ok: true, path: [...path] };
}

/**
 * Moves the last move of `path` one place up among its parent's moves (the
 * variation it starts becomes the line before it; at the top, the main line).
 * `no-move` when it is already first.
 */
export function raiseVariation(game: Game, path: readonly MoveNode[]): EditResult {
  if (path.length === 0) return { ok: false, error: 'no-move' };
  if (!isPath(game, path)) return { ok: false, error: 'not-in-game' };
  const parent = treeAt(game, path.slice(0, -1));
  const node = path[path.length - 1];
  const i = parent.children.indexOf(node);
  if (i === 0) return { ok: false, error: 'no-move' };
  parent.children[i] = parent.children[i - 1];
  parent.children[i - 1] = node;
  return { ok: true, path: [...path] };
}

/**
 * Sets the comment after the last move of `path` (the game's opening comment
 * for the empty path). Line breaks become spaces and the text is trimmed; PGN
 * writes a comment in braces, so a closing brace, which would end it, becomes
 * a parenthesis.
 */
export function setComment(game: Game, path: readonly MoveNode[], text: string): EditResult {
  if (!isPath(game, path)) return { ok: false, error: 'not-in-game' };
  const clean = text.replace(/\s+/g, ' ').replace(/}/g, ')').trim();
  const target: Game | MoveNode = path.length > 0 ? path[path.length - 1] : game;
  target.comment = clean;
  return { ok: true, path: [...path] };
}

/** The comment after the last move of `path` (the game's opening comment for the empty path). */
export function commentAt(game: Game, path: readonly MoveNode[]): string {
  return path.length > 0 ? path[path.length - 1].comment : game.comment;
}

/**
 * The path through `game` of `moves` (UCI) from the start position `fen`:
 * each move a move of the game at that point, on any line. Null when the game
 * starts from another position or does not hold the moves (the page then
 * opens the moves as a game of their own: an address naming another game).
 */
export function pathOfLine(game: Game, fen: string, moves: readonly string[]): MoveNode[] | null {
  const start = Position.fromFen(fen);
  const own = Position.fromFen(game.fen);
  if (!start.ok || !own.ok || start.value.fen() !== own.value.fen()) return null;
  const path: MoveNode[] = [];
  let tree: MoveTree = game;
  for (const uci of moves) {
    const next = tree.children.find((n) => moveToUci(n.move) === uci);
    if (next === undefined) return null;
    path.push(next);
    tree = next;
  }
  return path;
}

/** How many moves of `path`, from its start, follow the game's main line. */
export function mainLinePlies(game: Game, path: readonly MoveNode[]): number {
  let tree: MoveTree = game;
  let n = 0;
  for (const node of path) {
    if (tree.children[0] !== node) break;
    n++;
    tree = node;
  }
  return n;
}
