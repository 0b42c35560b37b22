// The play room on the page: the panel (panel.ts) in the 对弈 tab, its
// PlayHost over the page's core (web/page.ts), and the two clocks above and
// below the board. A game starts on the page's board with the player's side
// at the bottom; the player's moves go to the game first (the page's move
// gate: refused when it is not their turn or their flag fell); Kirin's moves
// are played on the board with their sound and animation, its book moves
// marked in the move list (the game's moves are listed in the 对弈 tab too);
// the analysis waits while the game runs. When it
// ends the status line says the result in the players' words, the finished
// game (its record: players, time control, result and why) is the board's
// game, kept in the library, and reviewed at once in the 复盘 tab. Opening
// another game while one runs abandons it.

import { BLACK, REPETITION_RULES, newGame, type Color, type Game, type MoveNode } from '../../src/browser/index.js';
import type { Sounds } from '../board/sound.js';
import { mainLineNodes, pathTo, positionAfter } from '../game/tree.js';
import { renderMoveList, type RenderedList } from '../moves/list.js';
import type { MoveGate, PageContext } from '../page.js';
import { endOfRecord, endWords, sideName, type GameEnd } from './end.js';
import { mountPlayPanel, type PlayPanel } from './panel.js';

export interface PlayRoom {
  readonly panel: PlayPanel;
  /** The status line's words: whose turn in a game against Kirin, or how the game shown ended; null otherwise. */
  status(): string | null;
}

export interface PlayDeps {
  sounds: Sounds;
  /** Moves Kirin played from its opening book: the move list marks them. */
  bookMoves: Set<MoveNode>;
  /** The review room: a game that starts stops a review; a finished one is reviewed. */
  review: { start(): Promise<void>; cancel(): void; has(): boolean };
  /** Keeps a finished game in the library (as played). */
  keep(game: Game): void;
}

/** Mounts the play room: the panel into `root`, the board's clocks into `clocks` (above and below the board). */
export function mountPlay(
  ctx: PageContext,
  root: HTMLElement,
  clocks: { top: HTMLElement; bottom: HTMLElement },
  deps: PlayDeps,
): PlayRoom {
  const engine = ctx.engine;
  /** The game on the board while one runs against Kirin. */
  let playing: Game | null = null;
  /** The record of the last game played (shown with its clocks until another game is opened). */
  let finished: Game | null = null;
  /** How games played here, or opened again, ended (read from their record once). */
  const ends = new WeakMap<Game, GameEnd | null>();

  const endOf = (game: Game): GameEnd | null => {
    if (!ends.has(game)) {
      const line = mainLineNodes(game);
      ends.set(game, endOfRecord(game.headers, game.result, positionAfter(game.fen, line), engine.ruleConfig()));
    }
    return ends.get(game) ?? null;
  };

  const gate: MoveGate = {
    canMove: () => panel.playerToMove(),
    accept: (move) => panel.playerMove(move),
  };

  /** The game ended or another one was opened: the board is the player's again. */
  const release = (): void => {
    playing = null;
    ctx.setGate(null);
  };

  const panel = mountPlayPanel(root, {
    engine,
    t: (key, params) => ctx.t(key, params),
    ruleConfig: () => engine.ruleConfig(),
    repetitionRules: () => ({
      rules: REPETITION_RULES.map((r) => [r, ctx.t(`settings.rule.${r}`)] as const),
      chosen: engine.ruleConfig().repetitionRule,
      choose(rule) {
        engine.options.set('Repetition Rule', rule);
        ctx.edited('position'); // the judgement of the position shown, the settings' choice
      },
    }),
    shownFen: () => ctx.pos.fen(),
    startGame(fen: string, human: Color) {
      deps.review.cancel();
      deps.bookMoves.clear();
      const game = newGame(fen);
      finished = null;
      ctx.setGate(gate);
      ctx.setHumanSide(human);
      if (ctx.flipped !== (human === BLACK)) ctx.setFlipped(human === BLACK);
      ctx.setMode('play');
      ctx.setGame(game);
      // Only now: the changes above are this game's start, not another game opened.
      playing = game;
      ctx.edited('view');
    },
    showMove(move, book) {
      const game = playing;
      if (game === null || ctx.game !== game) return;
      // Back to the game's last move if the player was looking at an earlier one.
      const line = mainLineNodes(game);
      if (ctx.path.length !== line.length) ctx.goTo(line);
      const node = ctx.playMove(move);
      if (book) {
        deps.bookMoves.add(node);
        ctx.edited('game');
      }
    },
    takeBack(plies) {
      const game = playing;
      if (game === null || ctx.game !== game) return;
      const line = mainLineNodes(game);
      const keep = line.slice(0, Math.max(0, line.length - plies));
      (keep.length > 0 ? keep[keep.length - 1] : game).children = [];
      ctx.goTo(keep);
    },
    gameOver(record, end) {
      // Kirin's book moves, by their ply in the game, marked again in the record.
      const bookPlies = mainLineNodes(ctx.game).flatMap((n, i) => (deps.bookMoves.has(n) ? [i] : []));
      release();
      finished = record;
      ends.set(record, end);
      const line = mainLineNodes(record);
      ctx.setMode('analysis');
      ctx.setGame(record, line.length);
      for (const i of bookPlies) if (line[i]) deps.bookMoves.add(line[i]);
      ctx.edited('game');
      deps.keep(record);
      // The finished game goes straight to review.
      ctx.showTab('review');
      void deps.review.start();
    },
    review(record) {
      if (ctx.game !== record) {
        ctx.setMode('analysis');
        ctx.setGame(record, mainLineNodes(record).length);
      }
      ctx.showTab('review');
      if (!deps.review.has()) void deps.review.start();
    },
    sound(event) {
      if (event === 'start') deps.sounds.play('start');
      else if (event === 'low-time') deps.sounds.play('low-time');
      // A game ended by the rules has sounded with its last move already.
      else if (ctx.judgement().result === 'none') deps.sounds.play('end');
    },
  });

  /** The clocks beside the board: while a game on the clock runs, and after it while its record is shown. */
  const placeClocks = (): void => {
    const shown = (playing !== null && ctx.game === playing) || (finished !== null && ctx.game === finished);
    const timed = !panel.boardClocks.top.hidden || !panel.boardClocks.bottom.hidden;
    const on = shown && timed;
    clocks.top.hidden = !on;
    clocks.bottom.hidden = !on;
    document.body.dataset.clocks = on ? 'yes' : 'no';
    if (!on) return;
    // The panel's bottom clock is the player's: at the bottom unless the board was turned.
    const playerBelow = ctx.flipped === (ctx.humanSide === BLACK);
    const [top, bottom] = playerBelow
      ? [panel.boardClocks.top, panel.boardClocks.bottom]
      : [panel.boardClocks.bottom, panel.boardClocks.top];
    if (top.parentElement !== clocks.top) clocks.top.replaceChildren(top);
    if (bottom.parentElement !== clocks.bottom) clocks.bottom.replaceChildren(bottom);
  };

  // The game's moves in the 对弈 tab, between its status and its buttons (a click shows a move).
  const record = document.createElement('div');
  record.className = 'play-moves move-list';
  panel.element.querySelector('.play-actions')?.before(record);
  let listed: RenderedList = { nodes: [], parents: new Map() };
  const renderRecord = (): void => {
    const game = playing ?? finished;
    record.hidden = game === null || ctx.game !== game;
    if (record.hidden) return;
    listed = renderMoveList(record, game!, {
      style: ctx.moveStyle(),
      current: ctx.path.length > 0 ? ctx.path[ctx.path.length - 1] : null,
      mark: () => null,
      book: deps.bookMoves,
      words: {
        book: ctx.t('moves.book'),
        bookTitle: ctx.t('moves.book-title'),
        annotated: ctx.t('moves.annotated'),
        result: (r) => ctx.t(r === '1-0' ? 'game.result.red' : r === '0-1' ? 'game.result.black' : 'game.result.draw'),
      },
    });
    // The move shown in view, inside the list only (the page does not jump).
    const cur = record.querySelector<HTMLElement>('.move.current');
    const top = cur ? cur.offsetTop - record.offsetTop : 0;
    if (cur && (top < record.scrollTop || top + cur.offsetHeight > record.scrollTop + record.clientHeight))
      record.scrollTop = Math.max(0, top - record.clientHeight / 2);
  };
  record.addEventListener('click', (ev) => {
    const span = (ev.target as HTMLElement).closest<HTMLElement>('.move[data-node]');
    const node = span ? listed.nodes[Number(span.dataset.node)] : undefined;
    if (node) ctx.goTo(pathTo(node, listed.parents));
  });

  ctx.onChange((c) => {
    if (playing !== null && (ctx.game !== playing || ctx.mode !== 'play')) {
      // Another game opened (a file, the library, the address, the editor): this one is abandoned.
      release();
      panel.abandon();
      if (ctx.mode === 'play') queueMicrotask(() => ctx.setMode('analysis'));
    }
    if (c.kind === 'view' || !panel.active()) panel.refresh();
    placeClocks();
    renderRecord();
  });
  placeClocks();
  renderRecord();

  return {
    panel,
    status() {
      if (playing !== null && ctx.game === playing && panel.active()) {
        return panel.playerToMove()
          ? ctx.t('play.status.yourMove', { side: sideName(ctx.humanSide, ctx.t) })
          : ctx.t('play.status.thinking');
      }
      // A game that ended, at its end: the result and why, in the players' words.
      const line = mainLineNodes(ctx.game);
      if (ctx.path.length !== line.length || ctx.path.some((n, i) => n !== line[i])) return null;
      const end = endOf(ctx.game);
      return end === null ? null : endWords(end, ctx.t);
    },
  };
}
