// The page's core, shared by its rooms: the game on the board and where in it
// the position shown is, the engine, the player's display choices (notation,
// language), and one subscription for everything that changes. A room gets
// the PageContext when it is mounted and keeps its own state in its own
// closure; no room reaches into another's.
//
// Mounting a room (what web/app.ts does for each):
//
//   export function mountMyRoom(ctx: PageContext, el: HTMLElement): void {
//     const render = (): void => { el.textContent = ctx.t('myroom.title'); ... };
//     ctx.onChange(render);               // every change: redraw
//     render();
//   }
//
// - ctx.game, ctx.path, ctx.pos: the game record (the library's Game: a tree of
//   MoveNodes), the moves from its start to the position shown, that position.
// - ctx.goTo(path), ctx.setGame(game, ply?), ctx.playMove(move),
//   ctx.playLine(moves): change them (the engine follows: analysis restarts,
//   or Kirin plays its move). ctx.edited(kind) after editing ctx.game in place.
// - ctx.onChange(listener): called after every change with what changed
//   ('position': the position shown or the game; searches restart; 'game': the
//   record changed without a new position (a comment); 'view': display only:
//   flip, notation, language). Returns the function that unsubscribes.
// - ctx.t(key, params): a message in the player's language (web/i18n/; a room's
//   messages are in its messages.ts and listed in web/i18n/rooms.ts);
//   ctx.moveStyle(): the notation for formatMove/formatLine/writePgn.
// - ctx.engine: the library's Engine (one search thread), ctx.canSearch.
// - ctx.block(name, on): a room that must keep the board still (a review
//   running, Kirin thinking) says so; ctx.canMove() is what the board asks.
// - ctx.mode: 'analysis' (the board is the player's: either side moves, and
//   Kirin searches the position shown while ctx.analysing), 'play' (a game
//   against Kirin runs: web/play/ owns the engine, the player moves
//   ctx.humanSide when the game's gate lets them: ctx.setGate) or 'practice'
//   (a puzzle is on the board: web/practice/'s gate takes the player's moves
//   and plays Kirin's defence; no analysis). One mode at a time: the room that
//   sets a mode sets its gate, and a room whose mode is left stops.
// - ctx.offerMove(move): the player's move on the board; a game's gate may
//   refuse it (not the player's turn, the flag fell), else it is played.
// - ctx.showTab(id): brings a panel's tab to the front (#tab-moves,
//   #tab-review, #tab-play, #tab-library, #tab-explorer, #tab-settings).

import {
  NOTATIONS,
  RED,
  judge,
  newGame,
  addMove,
  type Engine,
  type Game,
  type Judgement,
  type Move,
  type MoveNode,
  type MoveStyle,
  type MoveTree,
  type Notation,
  type Position,
} from '../src/browser/index.js';
import { lineThrough, positionAfter, treeAt } from './game/tree.js';
import type { Language } from './i18n/catalog.js';
import type { Params, Translate } from './i18n/i18n.js';

/** What changed: see the comment at the top. @public */
export type ChangeKind = 'position' | 'game' | 'view';

/** @public */
export interface Change {
  kind: ChangeKind;
  /** The path shown before the change (for a 'position' change: a move forward, a jump, a new game). */
  before: readonly MoveNode[];
}

/** @public */
export type Mode = 'analysis' | 'play' | 'practice';

/** What a game against Kirin says about the player's moves (web/play/): whether one may be made now, and whether it is taken. */
export interface MoveGate {
  canMove(): boolean;
  /** The player's move: true when the game takes it (then the page plays it on the board), false to refuse it. */
  accept(move: Move): boolean;
}

export interface PageContext {
  readonly engine: Engine;
  /** This browser can search (cross-origin isolated, SharedArrayBuffer). */
  readonly canSearch: boolean;
  readonly game: Game;
  readonly path: readonly MoveNode[];
  readonly pos: Position;
  readonly flipped: boolean;
  readonly mode: Mode;
  /** Analysis is on: Kirin searches the position shown (in 'analysis' mode). */
  readonly analysing: boolean;
  /** The side the player plays against Kirin (RED or BLACK). */
  readonly humanSide: 0 | 1;
  readonly notation: Notation;
  readonly language: Language;
  t(key: string, params?: Params): string;
  moveStyle(): MoveStyle;
  /** The tree the next move hangs from (the last move of the path, or the game). */
  here(): MoveTree;
  /** The line through the position shown: the path, then the first moves after it. */
  currentLine(): MoveNode[];
  /** The rules' judgement of the position shown (the Repetition Rule chosen). */
  judgement(): Judgement;
  goTo(path: readonly MoveNode[]): void;
  setGame(game: Game, ply?: number): void;
  playMove(move: Move): MoveNode;
  /** The player's move on the board: played unless the game's gate refuses it; true when played. */
  offerMove(move: Move): boolean;
  playLine(moves: readonly Move[]): void;
  edited(kind: ChangeKind): void;
  setFlipped(flipped: boolean): void;
  setMode(mode: Mode): void;
  setAnalysing(on: boolean): void;
  /** The gate of a game against Kirin (null: none; the board is the player's). */
  setGate(gate: MoveGate | null): void;
  setHumanSide(side: 0 | 1): void;
  setNotation(n: Notation): void;
  setLanguage(lang: Language, t: Translate): void;
  block(name: string, on: boolean): void;
  canMove(): boolean;
  onChange(listener: (change: Change) => void): () => void;
  showTab(id: string): void;
}

/** True for a notation the library writes (a choice read back from storage is checked with it). */
export function isNotation(s: string | null): s is Notation {
  return (NOTATIONS as readonly string[]).includes(s ?? '');
}

/** The page's core. `showTab` is the shell's (web/shell/tabs.ts). */
export function createPage(opts: {
  engine: Engine;
  canSearch: boolean;
  notation: Notation;
  language: Language;
  t: Translate;
  showTab: (id: string) => void;
}): PageContext {
  let game: Game = newGame();
  let path: MoveNode[] = [];
  let pos: Position = positionAfter(game.fen, path);
  let flipped = false;
  let mode: Mode = 'analysis';
  let analysing = false;
  let gate: MoveGate | null = null;
  let humanSide: 0 | 1 = RED;
  let notation = opts.notation;
  let language = opts.language;
  let t = opts.t;
  const blockers = new Set<string>();
  const listeners = new Set<(c: Change) => void>();

  const emit = (kind: ChangeKind, before: readonly MoveNode[] = path): void => {
    for (const l of [...listeners]) l({ kind, before });
  };

  const ctx: PageContext = {
    engine: opts.engine,
    canSearch: opts.canSearch,
    get game() {
      return game;
    },
    get path() {
      return path;
    },
    get pos() {
      return pos;
    },
    get flipped() {
      return flipped;
    },
    get mode() {
      return mode;
    },
    get analysing() {
      return analysing;
    },
    get humanSide() {
      return humanSide;
    },
    get notation() {
      return notation;
    },
    get language() {
      return language;
    },
    t: (key, params) => t(key, params),
    moveStyle: () => ({ notation, traditional: language === 'zh-Hant' }),
    here: () => treeAt(game, path),
    currentLine: () => lineThrough(game, path),
    judgement: () => judge(pos, opts.engine.ruleConfig()),
    goTo(p) {
      const before = path;
      path = [...p];
      pos = positionAfter(game.fen, path);
      emit('position', before);
    },
    setGame(g, ply = 0) {
      game = g;
      const line: MoveNode[] = [];
      for (let n = g.children[0]; n !== undefined && line.length < ply; n = n.children[0]) line.push(n);
      ctx.goTo(line);
    },
    playMove(move) {
      const parent = treeAt(game, path);
      const node = addMove(parent, move);
      if (mode === 'play') {
        // Against Kirin a move where the game went on differently starts a new main line (the old one stays as a variation).
        const i = parent.children.indexOf(node);
        if (i > 0) {
          parent.children.splice(i, 1);
          parent.children.unshift(node);
        }
      }
      ctx.goTo([...path, node]);
      return node;
    },
    offerMove(move) {
      if (!ctx.canMove() || (gate !== null && !gate.accept(move))) return false;
      ctx.playMove(move);
      return true;
    },
    playLine(moves) {
      const p = pos.clone();
      p.reserve(moves.length + 1);
      let tree = treeAt(game, path);
      const added = [...path];
      for (const m of moves) {
        if (!(p.pseudoLegal(m) && p.legal(m))) break;
        const node = addMove(tree, m);
        added.push(node);
        p.doMove(m);
        tree = node;
      }
      ctx.goTo(added);
    },
    edited(kind) {
      if (kind === 'position') pos = positionAfter(game.fen, path);
      emit(kind);
    },
    setFlipped(f) {
      flipped = f;
      emit('view');
    },
    setMode(m) {
      mode = m;
      emit('position');
    },
    setAnalysing(on) {
      analysing = on;
      emit('position');
    },
    setGate(g) {
      gate = g;
    },
    setHumanSide(side) {
      humanSide = side;
    },
    setNotation(n) {
      notation = n;
      emit('view');
    },
    setLanguage(lang, translate) {
      language = lang;
      t = translate;
      emit('view');
    },
    block(name, on) {
      if (on) blockers.add(name);
      else blockers.delete(name);
    },
    canMove() {
      if (blockers.size > 0 || ctx.judgement().result !== 'none') return false;
      if (mode === 'analysis') return true;
      if (mode === 'practice') return gate !== null && gate.canMove();
      // In a game: the player's side, at the game's last move (not while looking back), when the game lets them.
      return pos.side === humanSide && treeAt(game, path).children.length === 0 && gate !== null && gate.canMove();
    },
    onChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    showTab: (id) => opts.showTab(id),
  };
  return ctx;
}
