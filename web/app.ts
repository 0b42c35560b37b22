// The page: play Kirin or let it analyse, on the library's browser build
// (web/dist/kirin.js; the search runs in web/dist/worker.js). Everything about
// the game - legal moves, FEN, the judgement of the selected Repetition Rule -
// comes from the library; this file only draws and listens.

import {
  BLACK,
  Engine,
  REPETITION_RULES,
  RED,
  START_FEN,
  browserSupport,
  classifyOpening,
  formatScore,
  judge,
  legalMoves,
  materialCount,
  moveFrom,
  prepareNetworkDecoder,
  moveTo,
  moveToUci,
  squareName,
  toCp,
  type Move,
  Position,
  type SearchInfo,
} from '../src/browser/index.js';
import { PIECE_NAMES, boardSvg, glyphSprite, pieceSvg } from './drawing.js';

const $ = <T extends HTMLElement = HTMLElement>(id: string): T => {
  const el = document.getElementById(id);
  if (!el) throw new Error(`the page has no #${id}`);
  return el as T;
};

// The search thread starts with the page and first runs the warm-up search (as
// the command line's does): JavaScript runs slowly until compiled, and a cold
// thread's first searches would reach a fraction of the depth.
const engine = new Engine({ warmup: true });
// The page opens from Kirin's default book, by weight among the masters' moves: varied openings.
engine.options.set('OwnBook', 'true');
// The WebAssembly zstd decoder compiles meanwhile, for the network a player may load.
const decoderReady = prepareNetworkDecoder();
let startFen = START_FEN;
let moves: string[] = [];
let human: 0 | 1 = RED;
let selected = -1;
/** Bumped whenever the game changes: a search started for an older game is ignored. */
let generation = 0;
let thinking = false;
/** Bumped with every static-evaluation request: only the latest answer is shown. */
let evalRequest = 0;

const cells: HTMLButtonElement[] = [];

function analysing(): boolean {
  return $<HTMLInputElement>('analysis').checked;
}

function current(): Position {
  return engine.position();
}

function gameOver(pos: Position): string | null {
  const j = judge(pos, engine.ruleConfig());
  if (j.result === 'none') return null;
  const who = j.result === 'draw' ? 'Draw' : `${j.result === 'red' ? 'Red' : 'Black'} wins`;
  return `${who}: ${j.reason}`;
}

// ---- Drawing -------------------------------------------------------------------

function buildBoard(): void {
  const board = $('board');
  board.innerHTML = glyphSprite() + boardSvg();
  for (let sq = 0; sq < 90; sq++) {
    const b = document.createElement('button');
    b.type = 'button';
    b.className = 'cell';
    b.dataset.square = squareName(sq);
    b.addEventListener('click', () => clickSquare(sq));
    board.appendChild(b);
    cells.push(b);
  }
}

function render(): void {
  const pos = current();
  const flip = human === BLACK && !analysing();
  const targets = new Set<number>();
  if (selected >= 0) for (const m of legalMoves(pos)) if (moveFrom(m) === selected) targets.add(moveTo(m));
  const last = moves.length > 0 ? pos.lastMove() : 0;
  for (let sq = 0; sq < 90; sq++) {
    const file = sq % 9;
    const rank = (sq / 9) | 0;
    const col = flip ? 8 - file : file;
    const row = flip ? rank : 9 - rank;
    const b = cells[sq];
    b.style.left = `${(col * 100) / 9}%`;
    b.style.top = `${row * 10}%`;
    const pc = pos.board[sq];
    b.innerHTML = pc ? pieceSvg(pc) : '';
    b.setAttribute(
      'aria-label',
      pc ? `${squareName(sq)}: ${pc >> 3 ? 'black' : 'red'} ${PIECE_NAMES[pc & 7]}` : squareName(sq),
    );
    b.classList.toggle('selected', sq === selected);
    b.classList.toggle('target', targets.has(sq));
    b.classList.toggle('last', last !== 0 && (moveFrom(last) === sq || moveTo(last) === sq));
  }
  $('fen').textContent = pos.fen();
  const list = $('moves');
  list.innerHTML = '';
  moves.forEach((m) => {
    const li = document.createElement('li');
    li.textContent = m;
    li.dataset.uci = m;
    list.appendChild(li);
  });
  list.scrollTop = list.scrollHeight;
  const over = gameOver(pos);
  const side = pos.side === RED ? 'Red' : 'Black';
  const status = $('status');
  status.dataset.over = over ? 'yes' : 'no';
  if (over) status.textContent = `Game over. ${over}`;
  else if (analysing()) status.textContent = `Analysis: ${side} to move`;
  else if (thinking) status.textContent = `Kirin is thinking (${side})...`;
  else status.textContent = pos.side === human ? `Your move (${side})` : `Kirin to move (${side})`;
  $('eval-status').textContent = `Evaluation: ${engine.evaluationName()}`;
  const opening = classifyOpening(moves, startFen);
  $('opening').textContent = opening.ok
    ? [opening.value.code, opening.value.name, opening.value.variation].filter((x) => x !== '').join(' ')
    : '';
}

/**
 * Shows the static evaluation of the current position as the search thread
 * computes it (the evaluation Kirin plays with): #eval-static, its exact value
 * in data-value (internal units, side to move) and the position in data-fen.
 * Asked before a search starts, so it is answered at once.
 */
async function showStaticEval(): Promise<void> {
  const token = ++evalRequest;
  const pos = current();
  const el = $('eval-static');
  let r;
  try {
    r = await engine.searchThreadEvaluation();
  } catch (e) {
    if (token === evalRequest) el.textContent = `Static evaluation failed: ${(e as Error).message}`;
    return;
  }
  if (token !== evalRequest) return;
  el.dataset.fen = pos.fen();
  el.dataset.value = r.value === null ? '' : String(r.value);
  el.dataset.evaluation = r.evaluation;
  const side = pos.side === RED ? 'Red' : 'Black';
  el.textContent =
    r.value === null
      ? `Static evaluation: none (${side} is in check); search thread: ${r.evaluation}`
      : `Static evaluation: ${(toCp(r.value, materialCount(pos), 'PawnValueNormalized', engine.winRateModel()) / 100).toFixed(2)} ` +
        `for ${side} (${r.value} internal units); search thread: ${r.evaluation}`;
}

function showInfo(info: SearchInfo, pos: Position): void {
  if (info.multipv !== 1) return;
  $('score').textContent = formatScore(info.score, materialCount(pos), engine.scoreType(), engine.winRateModel());
  $('score-side').textContent = `${pos.side === RED ? 'Red' : 'Black'} to move`;
  $('depth').textContent = String(info.depth);
  $('nodes').textContent = String(info.nodes);
  $('nps').textContent = String(info.nps);
  $('pv').textContent = info.pv.map((m: Move) => moveToUci(m)).join(' ');
}

// ---- The game ------------------------------------------------------------------

/** Sets the game (the engine checks it); returns the error message or null. */
function setGame(fen: string, list: string[]): string | null {
  const r = engine.setPosition(fen, list);
  if (!r.ok) return r.error.message;
  startFen = fen;
  moves = list;
  selected = -1;
  generation++;
  return null;
}

function clickSquare(sq: number): void {
  const pos = current();
  if (gameOver(pos) || (!analysing() && (thinking || pos.side !== human))) return;
  if (selected >= 0) {
    const m = legalMoves(pos).find((mv) => moveFrom(mv) === selected && moveTo(mv) === sq);
    if (m !== undefined) {
      void play(moveToUci(m));
      return;
    }
  }
  const pc = pos.board[sq];
  selected = pc && pc >> 3 === pos.side && sq !== selected ? sq : -1;
  render();
}

async function play(uci: string): Promise<void> {
  const err = setGame(startFen, [...moves, uci]);
  if (err) $('status').textContent = err;
  await next();
}

/** Stops the search in progress (only a search: Engine.stop would also cut the warm-up short). */
function stopSearch(): void {
  if (engine.searching()) engine.stop();
}

/** After every change of the game: the engine's move, or a new analysis. */
async function next(): Promise<void> {
  stopSearch();
  await engine.waitIdle();
  thinking = false;
  render();
  void showStaticEval();
  const pos = current();
  if (gameOver(pos)) return;
  if (analysing()) return analyse(pos);
  if (pos.side !== human) return engineMove(pos);
}

function applyLevel(): void {
  const mode = $<HTMLSelectElement>('level-mode').value;
  const value = $<HTMLInputElement>('level').value;
  const o = engine.options;
  const r =
    mode === 'elo'
      ? (o.set('UCI_LimitStrength', 'true'), o.set('UCI_Elo', value))
      : (o.set('UCI_LimitStrength', 'false'), o.set('Skill Level', value));
  $('option-error').textContent = r.ok ? '' : r.error.message;
}

async function engineMove(pos: Position): Promise<void> {
  applyLevel();
  const seconds = Number($<HTMLInputElement>('movetime').value);
  const movetime = Number.isFinite(seconds) && seconds > 0 ? Math.round(seconds * 1000) : 1000;
  const gen = generation;
  thinking = true;
  render();
  let best: Move;
  try {
    await engine.ready(); // the clock starts after the warm-up
    if (gen !== generation) return;
    const r = await engine.go({ movetime, startTime: Date.now() }, { info: (i) => showInfo(i, pos) });
    best = r.bestMove;
    if (r.book) {
      $('depth').textContent = 'book';
      $('pv').textContent = `book: ${moveToUci(best)}`;
    }
  } catch (e) {
    thinking = false;
    $('status').textContent = `Search failed: ${(e as Error).message}`;
    return;
  }
  if (gen !== generation) return; // the game changed meanwhile (take back, new game)
  thinking = false;
  if (best === 0) return render();
  await play(moveToUci(best));
}

async function analyse(pos: Position): Promise<void> {
  const gen = generation;
  try {
    await engine.ready();
    if (gen !== generation) return;
    await engine.go({ infinite: true, startTime: Date.now() }, { info: (i) => gen === generation && showInfo(i, pos) });
  } catch (e) {
    $('status').textContent = `Search failed: ${(e as Error).message}`;
  }
}

async function takeBack(): Promise<void> {
  if (moves.length === 0) return;
  stopSearch();
  await engine.waitIdle();
  const list = moves.slice(0, -1);
  if (!analysing()) {
    // Back to a position where it is your move.
    const startSide = new Position(startFen).side;
    while (list.length > 0 && (startSide ^ (list.length & 1)) !== human) list.pop();
  }
  setGame(startFen, list);
  await next();
}

// ---- Controls ------------------------------------------------------------------

/** Uses a network (bytes from a URL or a file); a bad one is refused with its error and the evaluation stays. */
async function loadNetwork(bytes: Uint8Array, name: string): Promise<void> {
  await decoderReady;
  const r = engine.loadNetworkBytes(bytes, name);
  $('eval-error').textContent = r.ok ? '' : `${r.error.message}. The evaluation stays: ${engine.evaluationName()}`;
  if (!r.ok) return;
  engine.options.set('Use NNUE', 'true'); // a loaded network plays, also after Classical
  evaluationChanged();
}

/** After a change of evaluation: the analysis restarts; otherwise the static evaluation is shown again. */
function evaluationChanged(): void {
  render();
  if (analysing()) {
    generation++; // the analysis restarts with the new evaluation
    void next();
  } else void showStaticEval();
}

function wire(): void {
  const rule = $<HTMLSelectElement>('rule');
  for (const r of REPETITION_RULES) rule.add(new Option(r, r, false, r === engine.ruleConfig().repetitionRule));
  rule.addEventListener('change', () => {
    const r = engine.options.set('Repetition Rule', rule.value);
    $('option-error').textContent = r.ok ? '' : r.error.message;
    void next();
  });
  $('side').addEventListener('change', () => {
    human = $<HTMLSelectElement>('side').value === 'black' ? BLACK : RED;
    setGame(START_FEN, []);
    engine.newGame();
    void next();
  });
  $('newgame').addEventListener('click', () => {
    setGame(START_FEN, []);
    engine.newGame();
    void next();
  });
  $('takeback').addEventListener('click', () => void takeBack());
  $('analysis').addEventListener('change', () => {
    selected = -1;
    generation++;
    void next();
  });
  $('level-mode').addEventListener('change', () => {
    $<HTMLInputElement>('level').value = $<HTMLSelectElement>('level-mode').value === 'elo' ? '1500' : '20';
    applyLevel();
  });
  $('level').addEventListener('change', applyLevel);
  $('fen-set').addEventListener('click', () => {
    const fen = $<HTMLInputElement>('fen-input').value.trim();
    const err = fen === '' ? 'enter a FEN' : setGame(fen, []);
    $('fen-error').textContent = err ?? '';
    if (!err) void next();
  });
  $('eval-load').addEventListener('click', () => {
    const url = $<HTMLInputElement>('eval-url').value.trim();
    if (!url) return;
    $('eval-error').textContent = `loading ${url}...`;
    fetch(url)
      .then(async (r) => {
        if (!r.ok) throw new Error(`HTTP ${r.status} ${r.statusText}`);
        return new Uint8Array(await r.arrayBuffer());
      })
      .then(
        (bytes) => loadNetwork(bytes, url),
        (e: Error) =>
          ($('eval-error').textContent = `${url}: ${e.message}. The evaluation stays: ${engine.evaluationName()}`),
      );
  });
  $<HTMLInputElement>('eval-file').addEventListener('change', (ev) => {
    const file = (ev.target as HTMLInputElement).files?.[0];
    if (!file) return;
    $('eval-error').textContent = `loading ${file.name}...`;
    file.arrayBuffer().then(
      (b) => loadNetwork(new Uint8Array(b), file.name),
      (e: Error) =>
        ($('eval-error').textContent = `${file.name}: ${e.message}. The evaluation stays: ${engine.evaluationName()}`),
    );
  });
  $('eval-embedded').addEventListener('click', () => {
    // Kirin's embedded network: no file, networks on.
    const r = engine.options.set('EvalFile', '');
    const u = engine.options.set('Use NNUE', 'true');
    $('eval-error').textContent = !r.ok ? r.error.message : !u.ok ? u.error.message : '';
    evaluationChanged();
  });
  $('eval-classical').addEventListener('click', () => {
    const r = engine.options.set('Use NNUE', 'false');
    $('eval-error').textContent = r.ok ? '' : r.error.message;
    evaluationChanged();
  });
}

/**
 * What this browser lacks, said on the page: #fatal when Kirin cannot search
 * (not cross-origin isolated, no SharedArrayBuffer), #notice when it plays
 * slower (no WebAssembly SIMD). Returns whether Kirin can search.
 */
function showSupport(): boolean {
  const support = browserSupport();
  const say = (id: string, blocking: boolean): void => {
    const lines = support.problems.filter((p) => p.blocking === blocking).map((p) => p.message);
    const el = $(id);
    el.hidden = lines.length === 0;
    el.textContent = lines.join(' ');
  };
  say('fatal', true);
  say('notice', false);
  return support.canSearch;
}

function main(): void {
  buildBoard();
  wire();
  engine.onMessage = (line) => ($('option-error').textContent = line);
  const searching = showSupport();
  render();
  // Starts the search thread and shows the evaluation it plays with.
  if (searching) void showStaticEval();
  document.body.dataset.ready = 'yes';
}

main();
