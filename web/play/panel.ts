// The play room's panel: a game against Kirin on the clock. The player picks a
// time control (presets, a custom one, or a time per move), a side, the start
// (the standard position or the one shown) and Kirin's strength; then the
// clocks run, Kirin answers with the clock's times in its `go` (as a UCI GUI
// sends them), and the game ends with its result and reason in the player's
// words. Resign, draw offer (Kirin answers from its evaluation: draw.ts) and
// takeback while it runs; "review" hands the finished game to the page.
//
// The rules and the clocks are game.ts's; this file draws and listens. The
// board is the page's: it passes the player's moves in through playerMove().

import { BLACK, RED, START_FEN, materialCount, moveToUci, type Color, type Move } from '../../src/browser/index.js';
import { scoreCp } from './draw.js';
import { endWords, sideName, type GameEnd } from './end.js';
import { PlayGame } from './game.js';
import type { PlayHost } from './host.js';
import { PRESETS, formatClock, formatTimeControl, parseTimeControl, type TimeControl } from './timecontrol.js';

export interface PlayPanel {
  /** The panel (the root given to mountPlayPanel). */
  readonly element: HTMLElement;
  /**
   * Clocks for the page to place beside the board, kept up to date by the
   * panel: `top` is Kirin's, `bottom` the player's (the board shows the
   * player's side at the bottom). Not in the document until the page puts them
   * there; the panel shows both clocks itself too.
   */
  readonly boardClocks: { readonly top: HTMLElement; readonly bottom: HTMLElement };
  /** True while a game runs: the board passes the player's moves to playerMove, and the engine is the panel's. */
  active(): boolean;
  /** True when the player may move now (a game runs, it is the player's turn): the board's movable side. */
  playerToMove(): boolean;
  /**
   * The player played `move` on the board. True: accepted, the board shows it
   * (and Kirin answers through PlayHost.showMove). False: refused (not the
   * player's turn, the game is over, the flag fell): the board puts the piece back.
   */
  playerMove(move: Move): boolean;
  /** Writes every text again in the current language (after the page switched it). */
  refresh(): void;
  /** Ends the game in progress without a result (the page opened another game): Kirin stops, the clocks stop. */
  abandon(): void;
}

/** The player's time left at which the page is told to sound a warning (once a game). */
const LOW_TIME_MS = 10_000;
/** The browser's Move Overhead for Kirin's clock (ms): the page's main thread may be busy when the move arrives. */
const BROWSER_MOVE_OVERHEAD = 100;
/** The options the panel sets for a game, put back when it ends. */
const ENGINE_OPTIONS = ['Skill Level', 'UCI_LimitStrength', 'UCI_Elo', 'MultiPV', 'Move Overhead', 'OwnBook'] as const;

const STYLE = `
.kirin-play { display: flex; flex-direction: column; gap: .6em; }
.kirin-play .play-setup { display: flex; flex-wrap: wrap; gap: .4em .8em; align-items: center; }
.kirin-play .play-setup label { display: inline-flex; gap: .3em; align-items: center; }
.kirin-play .play-level { width: 5em; }
.kirin-play .play-tc-custom { width: 6em; }
.kirin-play .play-tc-permove { width: 4em; }
.kirin-play .play-error { color: var(--error, #b00020); }
.kirin-play .play-clocks { display: flex; gap: .6em; }
.kirin-play-clock { display: inline-flex; gap: .5em; align-items: baseline; padding: .2em .6em; border-radius: .3em;
  border: 1px solid var(--clock-border, #8886); font-variant-numeric: tabular-nums; }
.kirin-play-clock .play-clock-time { font-size: 1.4em; font-weight: 600; }
.kirin-play-clock[data-running="yes"] { background: var(--clock-running, #2e7d3222); border-color: var(--clock-running-border, #2e7d32); }
.kirin-play-clock[data-low="yes"] .play-clock-time { color: var(--clock-low, #c62828); }
.kirin-play-clock[hidden] { display: none; }
.kirin-play .play-actions { display: flex; gap: .5em; flex-wrap: wrap; }
.kirin-play .play-result { font-weight: 600; }
`;

function injectStyle(doc: Document): void {
  if (doc.getElementById('kirin-play-style')) return;
  const style = doc.createElement('style');
  style.id = 'kirin-play-style';
  style.textContent = STYLE;
  doc.head.appendChild(style);
}

/** Builds an element with a class and optional attributes. */
function el<K extends keyof HTMLElementTagNameMap>(
  doc: Document,
  tag: K,
  className: string,
  attrs: Record<string, string> = {},
): HTMLElementTagNameMap[K] {
  const e = doc.createElement(tag);
  e.className = className;
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  return e;
}

/** A clock element: the side's name and its time (data-side, data-ms, data-running, data-low for the page and tests). */
function clockElement(doc: Document, side: Color): HTMLElement {
  const c = el(doc, 'div', 'kirin-play-clock', { 'data-side': side === RED ? 'red' : 'black', role: 'timer' });
  c.append(el(doc, 'span', 'play-clock-name'), el(doc, 'span', 'play-clock-time'));
  return c;
}

/** Mounts the play panel into `root` (emptied first). */
export function mountPlayPanel(root: HTMLElement, host: PlayHost): PlayPanel {
  const doc = root.ownerDocument;
  injectStyle(doc);
  const t = host.t;
  const engine = host.engine;
  root.replaceChildren();
  root.classList.add('kirin-play');
  root.dataset.state = 'idle';

  // ---- Setup ----
  const setup = el(doc, 'div', 'play-setup');
  const tcLabel = el(doc, 'label', '');
  const tcText = el(doc, 'span', '');
  const tcSelect = el(doc, 'select', 'play-tc');
  const tcCustom = el(doc, 'input', 'play-tc-custom', { type: 'text', inputmode: 'decimal', value: '10+5' });
  const tcPerMove = el(doc, 'input', 'play-tc-permove', {
    type: 'number',
    min: '0.1',
    max: '60',
    step: '0.1',
    value: '3',
  });
  tcLabel.append(tcText, tcSelect, tcCustom, tcPerMove);
  const sideLabel = el(doc, 'label', '');
  const sideText = el(doc, 'span', '');
  const sideSelect = el(doc, 'select', 'play-side');
  sideLabel.append(sideText, sideSelect);
  const fromLabel = el(doc, 'label', '');
  const fromText = el(doc, 'span', '');
  const fromSelect = el(doc, 'select', 'play-from');
  fromLabel.append(fromText, fromSelect);
  fromLabel.hidden = host.shownFen === undefined;
  const ruleLabel = el(doc, 'label', '');
  const ruleText = el(doc, 'span', '');
  const ruleSelect = el(doc, 'select', 'play-rule');
  ruleLabel.append(ruleText, ruleSelect);
  ruleLabel.hidden = host.repetitionRules === undefined;
  const levelLabel = el(doc, 'label', '');
  const levelText = el(doc, 'span', '');
  const levelMode = el(doc, 'select', 'play-level-mode');
  const levelInput = el(doc, 'input', 'play-level', { type: 'number', min: '0', max: '20', value: '20' });
  levelLabel.append(levelText, levelMode, levelInput);
  const startButton = el(doc, 'button', 'play-start', { type: 'button' });
  const error = el(doc, 'div', 'play-error', { role: 'alert' });
  setup.append(tcLabel, sideLabel, fromLabel, levelLabel, ruleLabel, startButton, error);

  // ---- The game ----
  const clocks = el(doc, 'div', 'play-clocks');
  const panelClocks: Record<Color, HTMLElement> = { [RED]: clockElement(doc, RED), [BLACK]: clockElement(doc, BLACK) };
  clocks.append(panelClocks[BLACK], panelClocks[RED]);
  const status = el(doc, 'div', 'play-status', { 'aria-live': 'polite' });
  const actions = el(doc, 'div', 'play-actions');
  const resignButton = el(doc, 'button', 'play-resign', { type: 'button' });
  const drawButton = el(doc, 'button', 'play-draw', { type: 'button' });
  const takebackButton = el(doc, 'button', 'play-takeback', { type: 'button' });
  actions.append(resignButton, drawButton, takebackButton);
  const result = el(doc, 'div', 'play-result', { 'aria-live': 'assertive' });
  const resultText = el(doc, 'span', 'play-result-text');
  const reviewButton = el(doc, 'button', 'play-review', { type: 'button' });
  const againButton = el(doc, 'button', 'play-again', { type: 'button' });
  result.append(resultText, ' ', reviewButton, ' ', againButton);
  root.append(setup, clocks, status, actions, result);

  const boardClocks = { top: clockElement(doc, BLACK), bottom: clockElement(doc, RED) };

  // ---- State ----
  let game: PlayGame | null = null;
  /** Bumped when the game or the turn changes: a search answering for an older one is ignored. */
  let generation = 0;
  let thinking = false;
  /** Kirin's last search's score for itself (centipawns; null after a book move or before its first search). */
  let kirinCp: number | null = null;
  /** The plies played when the player last offered a draw (one offer per move). */
  let offeredAt = -1;
  let lowTimeSaid = false;
  let ticker: ReturnType<typeof setInterval> | null = null;
  let record: ReturnType<PlayGame['record']> | null = null;
  let saved: Map<string, string> | null = null;
  let resignArmed: ReturnType<typeof setTimeout> | null = null;
  let note = '';
  let control: TimeControl = PRESETS[3];

  function fillSelects(): void {
    const tc = tcSelect.value;
    tcSelect.replaceChildren();
    for (const p of PRESETS) tcSelect.add(new Option(formatTimeControl(p), formatTimeControl(p)));
    tcSelect.add(new Option(t('play.tc.custom'), 'custom'));
    tcSelect.add(new Option(t('play.tc.perMove'), 'movetime'));
    tcSelect.value = tc || formatTimeControl(PRESETS[3]);
    const side = sideSelect.value;
    sideSelect.replaceChildren(
      new Option(t('play.side.red'), 'red'),
      new Option(t('play.side.black'), 'black'),
      new Option(t('play.side.random'), 'random'),
    );
    sideSelect.value = side || 'red';
    const from = fromSelect.value;
    fromSelect.replaceChildren(new Option(t('play.from.start'), 'start'), new Option(t('play.from.shown'), 'shown'));
    fromSelect.value = from || 'start';
    const mode = levelMode.value;
    levelMode.replaceChildren(new Option(t('play.level.skill'), 'skill'), new Option(t('play.level.elo'), 'elo'));
    levelMode.value = mode || 'skill';
    const rules = host.repetitionRules?.();
    if (rules) {
      ruleSelect.replaceChildren(...rules.rules.map(([value, name]) => new Option(name, value)));
      ruleSelect.value = rules.chosen;
    }
  }

  function showTcInputs(): void {
    tcCustom.hidden = tcSelect.value !== 'custom';
    tcPerMove.hidden = tcSelect.value !== 'movetime';
    tcCustom.placeholder = t('play.tc.customHint');
    tcPerMove.title = t('play.tc.seconds');
  }

  /** The time control chosen, or an error shown and null. */
  function chosenControl(): TimeControl | null {
    const v = tcSelect.value;
    const text = v === 'custom' ? tcCustom.value : v === 'movetime' ? `${tcPerMove.value}s` : v;
    const r = parseTimeControl(text);
    if (!r.ok) {
      error.textContent = t(`play.error.${r.error.code}`, { text });
      return null;
    }
    return r.value;
  }

  /** Kirin's name with its strength, for the record. */
  function kirinName(): string {
    const n = levelInput.value;
    const level =
      levelMode.value === 'elo'
        ? t('play.levelElo', { n })
        : n === '20'
          ? t('play.levelFull')
          : t('play.levelSkill', { n });
    return t('play.kirin', { level });
  }

  /** Sets the engine for the game (strength, one line, the book, the browser's overhead); keeps what was set to put it back. */
  function configureEngine(): boolean {
    const o = engine.options;
    saved = new Map(ENGINE_OPTIONS.map((name) => [name, String(o.getString(name))]));
    const mode = levelMode.value;
    const value = levelInput.value.trim();
    const r =
      mode === 'elo'
        ? (o.set('UCI_LimitStrength', 'true'), o.set('UCI_Elo', value))
        : (o.set('UCI_LimitStrength', 'false'), o.set('Skill Level', value));
    if (!r.ok) {
      error.textContent = t('play.error.level', { message: r.error.message });
      restoreEngine();
      return false;
    }
    o.set('MultiPV', '1');
    o.set('OwnBook', 'true');
    o.set('Move Overhead', String(Math.max(BROWSER_MOVE_OVERHEAD, o.getNumber('Move Overhead'))));
    return true;
  }

  function restoreEngine(): void {
    if (!saved) return;
    for (const [name, value] of saved) if (value !== '') engine.options.set(name, value);
    saved = null;
  }

  function start(): void {
    error.textContent = '';
    const tc = chosenControl();
    if (!tc) return;
    const fen = fromSelect.value === 'shown' ? (host.shownFen?.() ?? START_FEN) : START_FEN;
    let human: Color = sideSelect.value === 'black' ? BLACK : RED;
    if (sideSelect.value === 'random') human = Math.random() < 0.5 ? RED : BLACK;
    let g: PlayGame;
    try {
      g = new PlayGame({ startFen: fen, human, control: tc, rules: host.ruleConfig() });
    } catch (e) {
      error.textContent = t('play.error.fen', { message: (e as Error).message });
      return;
    }
    if (!configureEngine()) return;
    generation++;
    if (engine.searching()) engine.stop();
    engine.newGame();
    control = tc;
    game = g;
    kirinCp = null;
    offeredAt = -1;
    lowTimeSaid = false;
    record = null;
    note = '';
    host.startGame(fen, human);
    host.sound?.('start');
    if (ticker === null) ticker = setInterval(tick, 100);
    if (g.end) return finish(g.end);
    render();
    void kirinTurn();
  }

  /** Kirin's move when it is to move: a search with the clock's limits, then the move on the board. */
  async function kirinTurn(): Promise<void> {
    const g = game;
    if (!g || !g.kirinToMove()) return;
    const gen = ++generation;
    thinking = true;
    render();
    try {
      if (engine.searching()) engine.stop();
      await engine.waitIdle();
      if (gen !== generation) return;
      const set = engine.setPosition(g.startFen, g.moves.map(moveToUci));
      if (!set.ok) throw new Error(set.error.message);
      // Once the clocks run, Kirin's time is ticking: the search starts now. Before, a search waits
      // for the warm-up to finish (the page has just opened); a book move needs none and comes at once.
      if (g.clock && g.clock.running() !== null) engine.abortWarmup();
      else if (engine.bookMoves().length === 0) await engine.ready();
      if (gen !== generation) return;
      const searched = g.position();
      const r = await engine.go(g.goLimits());
      if (gen !== generation || game !== g) return;
      thinking = false;
      if (r.bestMove === 0) return render();
      kirinCp = r.book ? kirinCp : scoreCp(r.score, materialCount(searched), engine.winRateModel());
      const played = g.play(r.bestMove);
      if (!played.ok) {
        // Kirin's flag fell while it thought: the game is over on time.
        if (g.end) finish(g.end);
        return;
      }
      host.showMove(r.bestMove, r.book === true);
      if (played.value) finish(played.value);
      else render();
    } catch (e) {
      if (gen !== generation) return;
      thinking = false;
      note = t('play.error.search', { message: (e as Error).message });
      render();
    }
  }

  function tick(): void {
    const g = game;
    if (!g) return;
    if (!g.end) {
      const end = g.tick();
      if (end) return finish(end);
      const mine = g.clock?.remaining(g.human);
      if (!lowTimeSaid && mine !== undefined && g.playerToMove() && mine < LOW_TIME_MS && control.kind === 'clock') {
        lowTimeSaid = true;
        host.sound?.('low-time');
      }
    }
    renderClocks();
  }

  /** The game is over: Kirin stops, the result is said, the record goes to the page. */
  function finish(end: GameEnd): void {
    const g = game;
    if (!g || record !== null) return;
    generation++;
    thinking = false;
    if (engine.searching()) engine.stop();
    restoreEngine();
    if (ticker !== null) clearInterval(ticker);
    ticker = null;
    const you = t('play.player');
    const words = endWords(end, t);
    record = g.record(
      {
        red: g.human === RED ? you : kirinName(),
        black: g.human === BLACK ? you : kirinName(),
        event: t('play.event'),
        date: new Date(),
      },
      words,
    );
    host.sound?.('end');
    render();
    host.gameOver(record, end);
  }

  function resign(): void {
    if (!game || game.end) return;
    if (resignArmed === null) {
      // The first press asks again on the button itself (no dialog); the second within 3 s resigns.
      resignArmed = setTimeout(() => {
        resignArmed = null;
        render();
      }, 3000);
      render();
      return;
    }
    clearTimeout(resignArmed);
    resignArmed = null;
    finish(game.resign());
  }

  function offerDraw(): void {
    const g = game;
    if (!g || g.end) return;
    if (offeredAt === g.moves.length) {
      note = t('play.draw.wait');
      return render();
    }
    offeredAt = g.moves.length;
    if (g.offerDraw(kirinCp)) finish(g.end!);
    else {
      note = t('play.draw.declined');
      render();
    }
  }

  function takeBack(): void {
    const g = game;
    if (!g || g.end) return;
    if (thinking) {
      generation++;
      thinking = false;
      if (engine.searching()) engine.stop();
    }
    const n = g.takeBack();
    note = n === 0 ? t('play.takeback.none') : '';
    if (n > 0) host.takeBack(n);
    render();
    void kirinTurn();
  }

  // ---- Drawing ----
  function renderClock(c: HTMLElement, side: Color): void {
    const g = game;
    const clock = g?.clock ?? null;
    c.hidden = g !== null && clock === null;
    const ms = clock ? clock.remaining(side) : control.kind === 'clock' ? control.baseMs : 0;
    const text = formatClock(ms);
    c.dataset.side = side === RED ? 'red' : 'black';
    c.dataset.ms = String(Math.max(0, Math.round(ms)));
    c.dataset.running = clock?.running() === side ? 'yes' : 'no';
    c.dataset.low = clock && ms < LOW_TIME_MS ? 'yes' : 'no';
    c.querySelector('.play-clock-name')!.textContent = sideName(side, t);
    c.querySelector('.play-clock-time')!.textContent = text;
    c.setAttribute('aria-label', t('play.clock', { side: sideName(side, t), time: text }));
  }

  function renderClocks(): void {
    renderClock(panelClocks[RED], RED);
    renderClock(panelClocks[BLACK], BLACK);
    const human = game?.human ?? RED;
    renderClock(boardClocks.bottom, human);
    renderClock(boardClocks.top, (human ^ 1) as Color);
    clocks.hidden = game === null || game.clock === null;
  }

  function render(): void {
    const g = game;
    const over = g?.end ?? null;
    root.dataset.state = g === null ? 'idle' : over ? 'over' : 'playing';
    if (over) {
      root.dataset.result = over.result;
      root.dataset.reason = over.reason;
    } else {
      delete root.dataset.result;
      delete root.dataset.reason;
    }
    tcText.textContent = t('play.timeControl');
    sideText.textContent = t('play.side');
    fromText.textContent = t('play.from');
    levelText.textContent = t('play.level');
    ruleText.textContent = t('play.rule');
    startButton.textContent = t('play.start');
    resignButton.textContent = t(resignArmed !== null ? 'play.confirmResign' : 'play.resign');
    drawButton.textContent = t('play.offerDraw');
    takebackButton.textContent = t('play.takeback');
    reviewButton.textContent = t('play.review');
    againButton.textContent = t('play.newGame');
    const playing = g !== null && !over;
    setup.hidden = playing;
    actions.hidden = !playing;
    result.hidden = !over;
    resultText.textContent = over ? endWords(over, t) : '';
    if (!g) status.textContent = t('play.status.idle');
    else if (over) status.textContent = '';
    else if (thinking || g.kirinToMove()) status.textContent = t('play.status.thinking');
    else status.textContent = t('play.status.yourMove', { side: sideName(g.human, t) });
    if (note && playing) status.textContent += ` · ${note}`;
    else if (control.kind === 'movetime' && playing)
      status.textContent += ` · ${t('play.tc.perMoveValue', { seconds: control.moveMs / 1000 })}`;
    takebackButton.disabled = !playing || g.moves.length === 0;
    showTcInputs();
    renderClocks();
  }

  // ---- Wiring ----
  tcSelect.addEventListener('change', () => {
    error.textContent = '';
    showTcInputs();
    const tc = chosenControl();
    if (tc) control = tc;
    if (!game) renderClocks();
  });
  levelMode.addEventListener('change', () => {
    const elo = levelMode.value === 'elo';
    levelInput.min = elo ? '1280' : '0';
    levelInput.max = elo ? '3133' : '20';
    levelInput.value = elo ? '1500' : '20';
  });
  ruleSelect.addEventListener('change', () => host.repetitionRules?.().choose(ruleSelect.value));
  startButton.addEventListener('click', start);
  againButton.addEventListener('click', start);
  resignButton.addEventListener('click', resign);
  drawButton.addEventListener('click', offerDraw);
  takebackButton.addEventListener('click', takeBack);
  reviewButton.addEventListener('click', () => {
    if (record) host.review(record);
  });

  fillSelects();
  render();

  return {
    element: root,
    boardClocks,
    active: () => game !== null && game.end === null,
    playerToMove: () => game !== null && game.playerToMove() && !thinking,
    playerMove(move: Move): boolean {
      const g = game;
      if (!g || !g.playerToMove() || thinking) return false;
      const r = g.play(move, g.human);
      if (!r.ok) {
        if (g.end) finish(g.end);
        return false;
      }
      note = '';
      if (r.value) {
        // The board shows the move first (it does when this returns), then the game ends.
        const end = r.value;
        queueMicrotask(() => finish(end));
        return true;
      }
      render();
      void kirinTurn();
      return true;
    },
    refresh(): void {
      fillSelects();
      render();
    },
    abandon(): void {
      if (!game) return;
      generation++;
      thinking = false;
      if (engine.searching()) engine.stop();
      game.clock?.stop();
      restoreEngine();
      if (ticker !== null) clearInterval(ticker);
      ticker = null;
      game = null;
      render();
    },
  };
}
