// The page: an analysis board and a game against Kirin, on the library's
// browser build (web/dist/kirin.js; the search runs in web/dist/worker.js).
// Everything about the game - legal moves, FEN, notation, game files, the
// judgement of the selected Repetition Rule - comes from the library; this file
// draws and listens.
//
// The game is a tree of moves (the library's Game: a main line and its
// variations); `path` is the moves from the start to the position shown. The
// engine analyses that position (Analysis on) or plays its side when the
// position shown is the end of the line (Analysis off).

import {
  BLACK,
  Engine,
  REPETITION_RULES,
  RED,
  START_FEN,
  addMove,
  annotateGame,
  browserSupport,
  classifyOpening,
  formatLine,
  formatMove,
  formatReviewScore,
  formatScore,
  judge,
  legalMoves,
  materialCount,
  moveFrom,
  moveTo,
  moveToUci,
  newGame,
  parseGames,
  parseLegalMove,
  prepareNetworkDecoder,
  readGames,
  reviewChartSvg,
  reviewGame,
  reviewMoveTexts,
  squareName,
  toCp,
  wdl,
  writePgn,
  NOTATIONS,
  Position,
  type Game,
  type GameErrorCode,
  type Move,
  type MoveNode,
  type MoveTree,
  type Notation,
  type Result,
  type Review,
  type SearchInfo,
} from '../src/browser/index.js';
import { PIECE_NAMES, arrowsSvg, boardSvg, glyphSprite, pieceSvg, type Arrow } from './drawing.js';
import { readLink, writeLink } from './link.js';
import { nagMark, pathTo, plyLabel, renderMoveList, type MoveMark, type RenderedList } from './movelist.js';

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

// ---- State ---------------------------------------------------------------------

let game: Game = newGame();
/** The moves from the start to the position shown. */
let path: MoveNode[] = [];
/** The position shown (game.fen and the moves of `path`). */
let pos: Position = new Position();
let human: 0 | 1 = RED;
let flipped = false;
let notation: Notation = 'chinese';
let selected = -1;
/** Bumped whenever the position shown or the game changes: an older search's output is ignored. */
let generation = 0;
let thinking = false;
/** This browser can search (browserSupport): without it the page is a board and a move list. */
let canSearch = false;
/** Bumped with every static-evaluation request: only the latest answer is shown. */
let evalRequest = 0;
/** The lines of the last search (index: multipv - 1): the analysis of the position shown, or Kirin's last move's. */
let lines: SearchInfo[] = [];
/** The position `lines` are about and its ply in the game. */
let linesAt: { pos: Position; ply: number } = { pos, ply: 0 };
function clearLines(): void {
  lines = [];
  linesAt = { pos, ply: path.length };
  bookLine = null;
}
/** The last score Kirin's search gave, from Red, and the positions it is about (the searched one and after its move). */
let lastScore: { fens: string[]; red: number; material: number; depth: number } | null = null;
/** Moves Kirin played from its opening book. */
const bookMoves = new Set<MoveNode>();
/** Kirin's last move when it came from the book (shown in place of a search's line), and where it was played. */
let bookLine: { move: Move; at: Position; ply: number } | null = null;
/** The last review, and the main-line moves it reviewed (review.plies[i] is reviewed[i]). */
let review: { result: Review; reviewed: MoveNode[] } | null = null;
/** The review running: cancel() stops it. */
let reviewing: AbortController | null = null;
/** The move list as drawn (to find a clicked move). */
let listed: RenderedList = { nodes: [], parents: new Map() };

const cells: HTMLButtonElement[] = [];

function analysing(): boolean {
  return $<HTMLInputElement>('analysis').checked;
}

function gameOver(p: Position): string | null {
  const j = judge(p, engine.ruleConfig());
  if (j.result === 'none') return null;
  const who = j.result === 'draw' ? 'Draw' : `${j.result === 'red' ? 'Red' : 'Black'} wins`;
  return `${who}: ${j.reason}`;
}

/** The tree the next move hangs from: the last move of `path`, or the game. */
function here(): MoveTree {
  return path.length > 0 ? path[path.length - 1] : game;
}

/** The position after the first `n` moves of `moves` from the game's start. */
function positionAfter(moves: readonly MoveNode[]): Position {
  const r = Position.fromFen(game.fen);
  const p = r.ok ? r.value : new Position();
  p.reserve(moves.length + 1);
  for (const n of moves) p.doMove(n.move);
  return p;
}

/** The line through the position shown: `path`, then the first moves after it to the end. */
function currentLine(): MoveNode[] {
  const line = [...path];
  for (let t = here().children[0]; t !== undefined; t = t.children[0]) line.push(t);
  return line;
}

function sideName(c: number): string {
  return c === RED ? 'Red' : 'Black';
}

// ---- Scores ----------------------------------------------------------------------

/** A score from Red (internal units) as players read it: +1.25 in pawns, #5 / #-3 for a mate in moves. */
function scoreText(red: number, material: number): string {
  const f = formatScore(red, material, 'PawnValueNormalized', engine.winRateModel());
  const [kind, n] = f.split(' ');
  if (kind === 'mate') return `#${n}`;
  const cp = Number(n);
  return (cp > 0 ? '+' : cp < 0 ? '-' : '') + (Math.abs(cp) / 100).toFixed(2);
}

/** Red's expected score (win 1, draw 1/2) for a score from Red, by the engine's WDL model. */
function redShare(red: number, material: number): number {
  const [w, d] = wdl(red, material, engine.winRateModel());
  return (w + d / 2) / 1000;
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
  const arrows = document.createElement('div');
  arrows.id = 'arrows';
  board.appendChild(arrows);
}

function renderBoard(): void {
  const targets = new Set<number>();
  if (selected >= 0) for (const m of legalMoves(pos)) if (moveFrom(m) === selected) targets.add(moveTo(m));
  const last = path.length > 0 ? path[path.length - 1].move : 0;
  for (let sq = 0; sq < 90; sq++) {
    const file = sq % 9;
    const rank = (sq / 9) | 0;
    const col = flipped ? 8 - file : file;
    const row = flipped ? rank : 9 - rank;
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
  $('board-area').dataset.flipped = flipped ? 'yes' : 'no';
  renderArrows();
}

/** The best moves of the analysis (one arrow per line, MultiPV), on the board. */
function renderArrows(): void {
  const arrows: Arrow[] = [];
  if (analysing() && linesAt.pos === pos)
    lines.forEach((info, i) => {
      const m = info?.pv[0];
      if (m) arrows.push({ from: moveFrom(m), to: moveTo(m), line: i + 1, uci: moveToUci(m) });
    });
  else if (review && !reviewing) {
    // The review's best move in the position shown.
    const i = reviewedIndex();
    const best = i >= 0 ? review.result.positions[i].lines[0]?.pv[0] : undefined;
    const m = best ? parseLegalMove(pos, best) : null;
    if (m?.ok) arrows.push({ from: moveFrom(m.value), to: moveTo(m.value), line: 1, uci: best! });
  }
  $('arrows').innerHTML = arrows.length > 0 ? arrowsSvg(arrows, flipped) : '';
}

/** The evaluation bar: Red's share (its expected score) of the position shown, as far as a search has told. */
function renderEvalBar(): void {
  const fen = pos.fen();
  let score: { red: number; material: number; depth: number } | null = null;
  if (analysing() && lines[0] && linesAt.pos === pos) {
    const stm = lines[0].score;
    score = { red: pos.side === RED ? stm : -stm, material: materialCount(pos), depth: lines[0].depth };
  } else if (lastScore && lastScore.fens.includes(fen)) score = lastScore;
  const bar = $('evalbar');
  const i = score ? -1 : reviewedIndex();
  if (i >= 0 && review) {
    // The review's score of the position shown.
    const s = review.result.positions[i].score;
    bar.style.setProperty('--red', `${(s.redWin * 100).toFixed(1)}%`);
    bar.dataset.redShare = s.redWin.toFixed(3);
    bar.setAttribute('aria-label', `evaluation bar: ${formatReviewScore(s)} for Red (review)`);
    bar.title = `${formatReviewScore(s)} for Red (the review's search; Red's expected score ${Math.round(s.redWin * 100)}%)`;
    return;
  }
  const share = score ? redShare(score.red, score.material) : 0.5;
  bar.style.setProperty('--red', `${(share * 100).toFixed(1)}%`);
  bar.dataset.redShare = score ? share.toFixed(3) : '';
  const text = score ? scoreText(score.red, score.material) : '';
  bar.setAttribute('aria-label', score ? `evaluation bar: ${text} for Red` : 'evaluation bar: no evaluation');
  bar.title = score ? `${text} for Red at depth ${score.depth} (Red's expected score ${Math.round(share * 100)}%)` : '';
}

/** The review's glyphs by class. */
const REVIEW_GLYPHS: Record<string, string> = { inaccuracy: '?!', mistake: '?', blunder: '??' };

/** The position shown as a position of the review (its index), or -1 when the review does not cover it. */
function reviewedIndex(): number {
  if (!review) return -1;
  const r = review.reviewed;
  if (path.length > r.length) return -1;
  for (let i = 0; i < path.length; i++) if (path[i] !== r[i]) return -1;
  return path.length;
}

/** A move's mark: the review's class where the review covers it, else the game file's annotation. */
function markOf(node: MoveNode, ply: number): MoveMark | null {
  if (review && review.reviewed[ply - 1] === node) {
    const p = review.result.plies[ply - 1];
    const glyph = REVIEW_GLYPHS[p.classification];
    if (!glyph) return null;
    return {
      kind: p.classification,
      glyph,
      title: `${p.classification}: ${sideName(p.side === 'red' ? RED : BLACK)}'s win chance ${Math.round(100 * p.winBefore)}% -> ${Math.round(100 * p.winAfter)}%`,
    };
  }
  return nagMark(node);
}

function renderMoves(): void {
  const list = $('moves');
  listed = renderMoveList(list, game, {
    notation,
    current: path.length > 0 ? path[path.length - 1] : null,
    mark: markOf,
    book: bookMoves,
  });
  const cur = list.querySelector<HTMLElement>('.move.current');
  if (cur) {
    // Keep the move shown in view, inside the list only (the page does not jump).
    const top = cur.offsetTop - list.offsetTop;
    if (top < list.scrollTop || top + cur.offsetHeight > list.scrollTop + list.clientHeight)
      list.scrollTop = Math.max(0, top - list.clientHeight / 2);
  } else if (path.length === 0) list.scrollTop = 0;
  const h = game.headers;
  const players = h.Red || h.Black ? `${h.Red ?? '?'} – ${h.Black ?? '?'}` : '';
  $('game-info').textContent = [players, h.Event, h.Date, game.result !== '*' ? game.result : '']
    .filter((x) => x)
    .join(', ');
}

/**
 * The search's lines (MultiPV): each line's score from Red and its moves in the
 * player's notation. The analysis's lines are of the position shown, and a
 * click on a move plays the line up to it; after Kirin's move its line is shown.
 */
function renderLines(): void {
  const box = $('lines');
  box.replaceChildren();
  renderBookMoves();
  if (bookLine && lines.length === 0) {
    const row = document.createElement('div');
    row.className = 'line book';
    row.dataset.line = '1';
    const label = plyLabel(game.fen, bookLine.ply);
    const text = formatMove(bookLine.at, bookLine.move, { notation });
    row.innerHTML = '<span class="score">book</span><span class="pv"></span>';
    const pv = row.querySelector('.pv')!;
    pv.append(`${label.number}.${label.black ? '..' : ''} `);
    const m = document.createElement('span');
    m.className = 'pv-move';
    m.dataset.uci = moveToUci(bookLine.move);
    m.textContent = text.ok ? text.value : moveToUci(bookLine.move);
    pv.appendChild(m);
    box.appendChild(row);
    $('info').hidden = true;
    return;
  }
  const at = linesAt.pos;
  const live = at === pos;
  const first = lines[0];
  const red = (info: SearchInfo): number => (at.side === RED ? info.score : -info.score);
  $('info').hidden = !first;
  $('score').textContent = first ? scoreText(red(first), materialCount(at)) : '-';
  $('depth').textContent = first ? String(first.depth) : '-';
  $('nodes').textContent = first ? String(first.nodes) : '-';
  $('nps').textContent = first ? String(first.nps) : '-';
  lines.forEach((info, i) => {
    if (!info) return;
    const row = document.createElement('div');
    row.className = 'line';
    row.dataset.line = String(i + 1);
    const score = document.createElement('span');
    score.className = 'score';
    score.textContent = scoreText(red(info), materialCount(at));
    row.appendChild(score);
    const pv = document.createElement('span');
    pv.className = 'pv';
    const names = formatLine(at, info.pv, { notation });
    if (names.ok) {
      names.value.forEach((text, k) => {
        const label = plyLabel(game.fen, linesAt.ply + k);
        if (k === 0 || !label.black) pv.append(`${label.number}.${label.black && k === 0 ? '..' : ''} `);
        const m = document.createElement('span');
        m.className = live ? 'pv-move live' : 'pv-move';
        m.dataset.index = String(k);
        m.dataset.uci = moveToUci(info.pv[k]);
        m.textContent = text;
        if (live) m.addEventListener('click', () => playLine(info.pv.slice(0, k + 1)));
        pv.appendChild(m);
        pv.append(' ');
      });
    } else pv.textContent = info.pv.map(moveToUci).join(' ');
    row.appendChild(pv);
    box.appendChild(row);
  });
}

/** With Analysis on: the opening book's moves for the position shown, with their share and games. */
function renderBookMoves(): void {
  const box = $('book-moves');
  const moves = analysing() && canSearch ? engine.bookMoves() : [];
  // The engine's position is the position shown once next() has set it.
  const shown = engine.fen() === pos.fen() ? moves : [];
  box.hidden = shown.length === 0;
  box.textContent = shown.length === 0 ? '' : 'Book: ';
  shown.slice(0, 6).forEach((b, i) => {
    const t = formatMove(pos, b.move, { notation });
    const m = document.createElement('span');
    m.className = 'book-move';
    m.dataset.uci = b.uci;
    m.textContent = `${t.ok ? t.value : b.uci} ${Math.round(100 * b.share)}%`;
    m.title = `${b.games} games: ${b.wins} won, ${b.draws} drawn, ${b.losses} lost by the side that played it`;
    m.addEventListener('click', () => playLine([b.move]));
    if (i > 0) box.append(', ');
    box.appendChild(m);
  });
}

let linesQueued = false;
/** Redraws what a search's output changes, once per frame at most. */
function queueSearchOutput(): void {
  if (linesQueued) return;
  linesQueued = true;
  requestAnimationFrame(() => {
    linesQueued = false;
    renderLines();
    renderArrows();
    renderEvalBar();
  });
}

function renderStatus(): void {
  const over = gameOver(pos);
  const side = sideName(pos.side);
  const status = $('status');
  status.dataset.over = over ? 'yes' : 'no';
  if (over) status.textContent = `Game over. ${over}`;
  else if (analysing()) status.textContent = `Analysis: ${side} to move`;
  else if (thinking) status.textContent = `Kirin is thinking (${side})...`;
  else if (here().children.length > 0) status.textContent = `Move ${path.length} of the game (${side} to move)`;
  else status.textContent = pos.side === human ? `Your move (${side})` : `Kirin to move (${side})`;
  $('eval-status').textContent = `Evaluation: ${engine.evaluationName()}`;
  // The ECCO opening of the moves to the position shown.
  const opening = classifyOpening(
    path.map((n) => moveToUci(n.move)),
    game.fen,
  );
  $('opening').textContent = opening.ok
    ? [opening.value.code, opening.value.name, opening.value.variation].filter((x) => x !== '').join(' ')
    : '';
}

/** The address holds the game: the start FEN, the line shown and the move shown. */
function updateLink(): void {
  const line = currentLine();
  const hash = writeLink({
    fen: game.fen === START_FEN ? null : game.fen,
    moves: line.map((n) => moveToUci(n.move)),
    ply: path.length,
    flipped,
  });
  const url = `${location.pathname}${location.search}${hash}`;
  if (location.hash !== hash) history.replaceState(null, '', url);
  $<HTMLInputElement>('share-url').value = location.href;
}

/** The review's chart (the move shown marked), each side's accuracy, and what it says of the move shown. */
function renderReview(): void {
  const chart = $('review-chart');
  const said = $('review-move');
  if (!review) {
    chart.replaceChildren();
    $('review-summary').replaceChildren();
    said.textContent = '';
    return;
  }
  const r = review.result;
  const i = reviewedIndex();
  chart.innerHTML = reviewChartSvg(r, {
    width: 600,
    height: 120,
    currentPly: i >= 0 ? i : undefined,
    moves: { notation },
  });
  const summary = $('review-summary');
  summary.replaceChildren();
  for (const side of ['red', 'black'] as const) {
    const s = r[side];
    const row = document.createElement('div');
    row.className = `side ${side}`;
    row.dataset.side = side;
    row.textContent =
      `${side === 'red' ? 'Red' : 'Black'}: accuracy ${s.accuracy === null ? '-' : `${s.accuracy.toFixed(1)}%`}, ` +
      `${s.inaccuracies} inaccurac${s.inaccuracies === 1 ? 'y' : 'ies'}, ${s.mistakes} mistake${s.mistakes === 1 ? '' : 's'}, ` +
      `${s.blunders} blunder${s.blunders === 1 ? '' : 's'}`;
    summary.appendChild(row);
  }
  said.textContent = '';
  if (i > 0) {
    const p = r.plies[i - 1];
    const [played, best] = reviewMoveTexts(r, { notation })[i - 1];
    const glyph = REVIEW_GLYPHS[p.classification] ?? '';
    const verdict =
      p.classification === 'best'
        ? "Kirin's best move"
        : p.classification === 'good'
          ? 'a good move'
          : `${p.classification}: ${sideName(p.side === 'red' ? RED : BLACK)}'s win chance ` +
            `${Math.round(100 * p.winBefore)}% -> ${Math.round(100 * p.winAfter)}%` +
            (best !== null ? `; best ${best} (${formatReviewScore(p.scoreBefore)})` : '');
    said.textContent = `${p.moveNumber}${p.side === 'red' ? '.' : '...'} ${played}${glyph} ${formatReviewScore(p.scoreAfter)}, ${verdict}`;
  }
}

function render(): void {
  renderBoard();
  renderMoves();
  renderReview();
  renderLines();
  renderEvalBar();
  renderStatus();
  $('fen').textContent = pos.fen();
  updateLink();
}

/**
 * Shows the static evaluation of the current position as the search thread
 * computes it (the evaluation Kirin plays with): #eval-static, its exact value
 * in data-value (internal units, side to move) and the position in data-fen.
 * Asked before a search starts, so it is answered at once.
 */
async function showStaticEval(): Promise<void> {
  const token = ++evalRequest;
  const shown = pos;
  const el = $('eval-static');
  let r;
  try {
    r = await engine.searchThreadEvaluation();
  } catch (e) {
    if (token === evalRequest) el.textContent = `Static evaluation failed: ${(e as Error).message}`;
    return;
  }
  if (token !== evalRequest) return;
  el.dataset.fen = shown.fen();
  el.dataset.value = r.value === null ? '' : String(r.value);
  el.dataset.evaluation = r.evaluation;
  const side = sideName(shown.side);
  el.textContent =
    r.value === null
      ? `Static evaluation: none (${side} is in check); search thread: ${r.evaluation}`
      : `Static evaluation: ${(toCp(r.value, materialCount(shown), 'PawnValueNormalized', engine.winRateModel()) / 100).toFixed(2)} ` +
        `for ${side} (${r.value} internal units); search thread: ${r.evaluation}`;
}

// ---- The game ------------------------------------------------------------------

/** Shows the position after `moves` (a path of the game's tree) and lets the engine go on from there. */
function goTo(moves: MoveNode[]): void {
  path = moves;
  pos = positionAfter(path);
  selected = -1;
  clearLines();
  generation++;
  void next();
}

/** A new game record (an imported one, a FEN, the start): the position shown is its start, or `ply` moves in. */
function setGame(g: Game, ply = 0): void {
  game = g;
  review = null;
  bookMoves.clear();
  lastScore = null;
  const line: MoveNode[] = [];
  for (let t = game.children[0]; t !== undefined && line.length < ply; t = t.children[0]) line.push(t);
  goTo(line);
}

/**
 * Plays `move` in the position shown: the game's next move when it is that one,
 * else a new variation (Analysis), or a new main line from here (a game
 * against Kirin: the moves played after here stay as a variation).
 */
function playMove(move: Move): MoveNode {
  const parent = here();
  const node = addMove(parent, move);
  if (!analysing()) {
    const i = parent.children.indexOf(node);
    if (i > 0) {
      parent.children.splice(i, 1);
      parent.children.unshift(node);
    }
  }
  goTo([...path, node]);
  return node;
}

/** Plays a line of the analysis up to the move clicked: the moves go into the game as a variation. */
function playLine(moves: readonly Move[]): void {
  const p = pos.clone();
  p.reserve(moves.length + 1);
  let tree = here();
  const added = [...path];
  for (const m of moves) {
    if (!(p.pseudoLegal(m) && p.legal(m))) break;
    const node = addMove(tree, m);
    added.push(node);
    p.doMove(m);
    tree = node;
  }
  goTo(added);
}

function clickSquare(sq: number): void {
  if (reviewing || gameOver(pos) || (!analysing() && (thinking || pos.side !== human))) return;
  if (selected >= 0) {
    const m = legalMoves(pos).find((mv) => moveFrom(mv) === selected && moveTo(mv) === sq);
    if (m !== undefined) {
      playMove(m);
      return;
    }
  }
  const pc = pos.board[sq];
  selected = pc && pc >> 3 === pos.side && sq !== selected ? sq : -1;
  renderBoard();
}

/** Stops the search in progress (only a search: Engine.stop would also cut the warm-up short). */
function stopSearch(): void {
  if (engine.searching()) engine.stop();
}

/** After every change of the position shown or the game: the engine's move, or a new analysis. */
async function next(): Promise<void> {
  const gen = generation;
  stopSearch();
  thinking = false;
  render();
  if (!canSearch || reviewing) return;
  await engine.waitIdle();
  if (gen !== generation) return;
  const r = engine.setPosition(
    game.fen,
    path.map((n) => moveToUci(n.move)),
  );
  if (!r.ok) {
    $('status').textContent = r.error.message;
    return;
  }
  void showStaticEval();
  renderBookMoves();
  if (gameOver(pos)) return;
  if (analysing()) return analyse(gen);
  if (pos.side !== human && here().children.length === 0) return engineMove(gen);
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

/** The analysis's MultiPV (1 for a game against Kirin: its strength settings play one line). */
function applyMultiPv(): void {
  const n = analysing() ? $<HTMLSelectElement>('multipv').value : '1';
  const r = engine.options.set('MultiPV', n);
  if (!r.ok) $('option-error').textContent = r.error.message;
}

async function engineMove(gen: number): Promise<void> {
  applyLevel();
  applyMultiPv();
  const seconds = Number($<HTMLInputElement>('movetime').value);
  const movetime = Number.isFinite(seconds) && seconds > 0 ? Math.round(seconds * 1000) : 1000;
  const searched = pos;
  const searchedPly = path.length;
  thinking = true;
  renderStatus();
  let best: Move;
  let score = 0;
  let depth = 0;
  let fromBook = false;
  try {
    await engine.ready(); // the clock starts after the warm-up
    if (gen !== generation) return;
    const r = await engine.go(
      { movetime, startTime: Date.now() },
      {
        info: (i) => {
          if (gen !== generation || i.multipv !== 1) return;
          lines = [i];
          queueSearchOutput();
        },
      },
    );
    best = r.bestMove;
    score = r.score;
    depth = r.depth;
    fromBook = r.book === true;
  } catch (e) {
    thinking = false;
    $('status').textContent = `Search failed: ${(e as Error).message}`;
    return;
  }
  if (gen !== generation) return; // the game changed meanwhile (take back, new game)
  thinking = false;
  if (best === 0) return renderStatus();
  if (fromBook) {
    // A book move: no search, no score; the move says where it came from.
    const node = playMove(best);
    bookMoves.add(node);
    bookLine = { move: best, at: searched, ply: searchedPly };
    renderMoves();
    renderLines();
    return;
  }
  const red = searched.side === RED ? score : -score;
  const fens = [searched.fen()];
  const after = searched.clone();
  after.reserve(1);
  after.doMove(best);
  fens.push(after.fen());
  lastScore = { fens, red, material: materialCount(searched), depth };
  const shown = lines;
  playMove(best);
  // Kirin's line stays in view after its move.
  lines = shown;
  linesAt = { pos: searched, ply: searchedPly };
  renderLines();
  renderEvalBar();
}

async function analyse(gen: number): Promise<void> {
  applyMultiPv();
  try {
    await engine.ready();
    if (gen !== generation) return;
    await engine.go(
      { infinite: true, startTime: Date.now() },
      {
        info: (i) => {
          if (gen !== generation) return;
          lines[i.multipv - 1] = i;
          queueSearchOutput();
        },
      },
    );
  } catch (e) {
    $('status').textContent = `Search failed: ${(e as Error).message}`;
  }
}

/** Takes back the last move (a game against Kirin: back to your move), removing it from the game. */
function takeBack(): void {
  if (path.length === 0) return;
  const line = path.slice(0, -1);
  if (!analysing()) {
    const start = Position.fromFen(game.fen);
    const startSide = start.ok ? start.value.side : RED;
    while (line.length > 0 && (startSide ^ (line.length & 1)) !== human) line.pop();
  }
  const parent = line.length > 0 ? line[line.length - 1] : game;
  const removed = path[line.length];
  parent.children = parent.children.filter((c) => c !== removed);
  goTo(line);
}

// ---- Navigation ------------------------------------------------------------------

function back(): void {
  if (path.length > 0) goTo(path.slice(0, -1));
}
function forward(): void {
  const nextMove = here().children[0];
  if (nextMove) goTo([...path, nextMove]);
}
function toStart(): void {
  if (path.length > 0) goTo([]);
}
function toEnd(): void {
  const line = currentLine();
  if (line.length > path.length) goTo(line);
}
function flip(): void {
  flipped = !flipped;
  renderBoard();
  updateLink();
}

function onKey(ev: KeyboardEvent): void {
  if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
  const t = ev.target as HTMLElement | null;
  if (t && (t.tagName === 'INPUT' || t.tagName === 'TEXTAREA' || t.tagName === 'SELECT' || t.isContentEditable)) return;
  const keys: Record<string, () => void> = {
    ArrowLeft: back,
    ArrowRight: forward,
    ArrowUp: toStart,
    Home: toStart,
    ArrowDown: toEnd,
    End: toEnd,
    f: flip,
  };
  const action = keys[ev.key];
  if (!action) return;
  ev.preventDefault();
  action();
}

// ---- Review ------------------------------------------------------------------------

/**
 * Reviews the game's main line (docs/REVIEW.md: the library's reviewGame, the
 * review `kirin review` runs), every position searched by the page's search
 * thread at the nodes asked for, from the last position back. Shows the
 * progress, can be cancelled; when it ends, the chart, the accuracies and the
 * marks in the move list.
 */
async function startReview(): Promise<void> {
  if (reviewing || !canSearch) return;
  const nodes = Number($<HTMLInputElement>('review-nodes').value);
  if (!Number.isSafeInteger(nodes) || nodes < 1) {
    $('review-status').textContent = `nodes ${$<HTMLInputElement>('review-nodes').value}: not a positive whole number`;
    return;
  }
  const reviewed = currentLineFromStart();
  if (reviewed.length === 0) {
    $('review-status').textContent = 'no moves to review';
    return;
  }
  const controller = new AbortController();
  reviewing = controller;
  generation++; // the analysis or Kirin's move stops
  stopSearch();
  clearLines();
  review = null;
  const progress = $<HTMLProgressElement>('review-progress');
  progress.hidden = false;
  progress.max = reviewed.length + 1;
  progress.value = 0;
  $('review-start').hidden = true;
  $('review-cancel').hidden = false;
  $('review-status').textContent = 'Reviewing...';
  document.body.dataset.review = 'running';
  render();
  await engine.waitIdle();
  // The review searches every position: no move may come from the book.
  engine.options.set('OwnBook', 'false');
  const r = await reviewGame(
    engine,
    { startFen: game.fen, moves: reviewed.map((n) => moveToUci(n.move)) },
    {
      nodes,
      signal: controller.signal,
      onProgress: (p) => {
        progress.value = p.done;
        $('review-status').textContent = `Reviewing: ${p.done} of ${p.total} positions`;
      },
    },
  );
  engine.options.set('OwnBook', 'true');
  reviewing = null;
  progress.hidden = true;
  $('review-start').hidden = false;
  $('review-cancel').hidden = true;
  if (r.ok) {
    review = { result: r.value, reviewed };
    const seconds = (r.value.timeMs / 1000).toFixed(1);
    $('review-status').textContent =
      `Reviewed ${reviewed.length} moves at ${nodes} nodes a position in ${seconds} s (${r.value.evaluation})`;
    document.body.dataset.review = 'done';
  } else {
    $('review-status').textContent =
      r.error.code === 'cancelled' ? 'Review cancelled' : `Review failed: ${r.error.message}`;
    document.body.dataset.review = r.error.code === 'cancelled' ? 'cancelled' : 'failed';
  }
  generation++;
  void next();
}

// ---- Game files and the address -----------------------------------------------

/** The games read from a file or a text: the good ones offered, the bad ones' errors said. */
let imported: Game[] = [];

function showImport(results: Result<Game, GameErrorCode>[], source: string): void {
  const good = results.flatMap((r) => (r.ok ? [r.value] : []));
  const bad = results.flatMap((r) => (r.ok ? [] : [r.error.message]));
  const errors =
    bad.length === 0
      ? ''
      : `${source}: ${bad.length} of ${results.length} game${results.length > 1 ? 's' : ''} could not be read: ` +
        bad.slice(0, 3).join('; ') +
        (bad.length > 3 ? '; ...' : '');
  $('import-error').textContent = results.length === 0 ? `${source}: no game in it` : errors;
  const pick = $<HTMLSelectElement>('import-games');
  pick.replaceChildren();
  imported = good;
  good.forEach((g, i) => {
    const h = g.headers;
    const who = h.Red || h.Black ? `${h.Red ?? '?'} – ${h.Black ?? '?'}` : `game ${i + 1}`;
    pick.add(new Option(`${i + 1}. ${[who, h.Event, h.Date].filter((x) => x).join(', ')}`, String(i)));
  });
  pick.hidden = good.length < 2;
  if (good.length > 0) openGame(good[0]);
}

/** Opens an imported game on the board, at its start, for analysis. */
function openGame(g: Game): void {
  $<HTMLInputElement>('analysis').checked = true;
  setGame(g);
}

function importText(): void {
  const text = $<HTMLTextAreaElement>('pgn').value;
  if (text.trim() === '') {
    $('import-error').textContent = 'paste a game (PGN, or moves in any notation) first';
    return;
  }
  showImport(parseGames(text), 'the text');
}

function importFile(file: File): void {
  file.arrayBuffer().then(
    (b) => showImport(readGames(new Uint8Array(b), file.name), file.name),
    (e: Error) => ($('import-error').textContent = `${file.name}: ${e.message}`),
  );
}

/** The date as PGN writes it (YYYY.MM.DD). */
function pgnDate(d: Date): string {
  const two = (n: number): string => String(n).padStart(2, '0');
  return `${d.getFullYear()}.${two(d.getMonth() + 1)}.${two(d.getDate())}`;
}

/** The game as PGN in the player's notation (UCI is written as ICCS), into the text box and as a download. */
function exportPgn(): void {
  const g: Game = { ...game, headers: { ...game.headers } };
  if (Object.keys(g.headers).length === 0) {
    g.headers.Event = 'Kirin analysis board';
    g.headers.Date = pgnDate(new Date());
  }
  if (g.result === '*') {
    const end = positionAfter(currentLineFromStart());
    const j = judge(end, engine.ruleConfig());
    if (j.result !== 'none') g.result = j.result === 'red' ? '1-0' : j.result === 'black' ? '0-1' : '1/2-1/2';
  }
  // A reviewed game goes out with the review: scores, marks, the best lines.
  const reviewedMain =
    review !== null &&
    review.reviewed.length === currentLineFromStart().length &&
    review.reviewed.every((n, i) => n === currentLineFromStart()[i]);
  const annotated = reviewedMain && review ? annotateGame(g, review.result, { notation, annotator: 'Kirin' }) : null;
  const r = writePgn(annotated?.ok ? annotated.value : g, { notation });
  if (!r.ok) {
    $('import-error').textContent = `export: ${r.error.message}`;
    return;
  }
  $<HTMLTextAreaElement>('pgn').value = r.value;
  $('import-error').textContent = '';
  const a = document.createElement('a');
  a.href = URL.createObjectURL(new Blob([r.value], { type: 'application/x-chess-pgn;charset=utf-8' }));
  a.download = 'kirin-game.pgn';
  a.click();
  setTimeout(() => URL.revokeObjectURL(a.href), 10_000);
}

/** The game's main line. */
function currentLineFromStart(): MoveNode[] {
  const line: MoveNode[] = [];
  for (let t = game.children[0]; t !== undefined; t = t.children[0]) line.push(t);
  return line;
}

/** Opens the game the address names (#fen=...&moves=...&ply=...); false when it names none or a bad one (said on the page). */
function openLink(): boolean {
  const link = readLink(location.hash);
  if (!link) return false;
  const fen = link.fen ?? START_FEN;
  const start = Position.fromFen(fen);
  if (!start.ok) {
    $('fen-error').textContent = `the address's FEN: ${start.error.message}`;
    return false;
  }
  const g = newGame(fen);
  const p = start.value;
  p.reserve(link.moves.length + 1);
  let tree: MoveTree = g;
  for (let i = 0; i < link.moves.length; i++) {
    const m = parseLegalMove(p, link.moves[i]);
    if (!m.ok) {
      $('fen-error').textContent = `the address's move ${i + 1}: ${m.error.message}; the moves before it are shown`;
      break;
    }
    tree = addMove(tree, m.value);
    p.doMove(m.value);
  }
  flipped = link.flipped;
  $<HTMLInputElement>('analysis').checked = true;
  setGame(g, link.ply ?? link.moves.length);
  return true;
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
  renderStatus();
  if (analysing()) {
    generation++; // the analysis restarts with the new evaluation
    clearLines();
    void next();
  } else void showStaticEval();
}

/** The notation the player chose last time on this browser (Chinese the first time). */
function savedNotation(): Notation {
  try {
    const n = localStorage.getItem('kirin.notation');
    return (NOTATIONS as readonly string[]).includes(n ?? '') ? (n as Notation) : 'chinese';
  } catch {
    return 'chinese';
  }
}

function wire(): void {
  const rule = $<HTMLSelectElement>('rule');
  for (const r of REPETITION_RULES) rule.add(new Option(r, r, false, r === engine.ruleConfig().repetitionRule));
  rule.addEventListener('change', () => {
    const r = engine.options.set('Repetition Rule', rule.value);
    $('option-error').textContent = r.ok ? '' : r.error.message;
    generation++;
    void next();
  });
  $('side').addEventListener('change', () => {
    human = $<HTMLSelectElement>('side').value === 'black' ? BLACK : RED;
    flipped = human === BLACK;
    engine.newGame();
    setGame(newGame());
  });
  $('newgame').addEventListener('click', () => {
    engine.newGame();
    setGame(newGame());
  });
  $('takeback').addEventListener('click', takeBack);
  $('analysis').addEventListener('change', () => {
    selected = -1;
    clearLines();
    generation++;
    void next();
  });
  $('multipv').addEventListener('change', () => {
    clearLines();
    generation++;
    void next();
  });
  const pickNotation = $<HTMLSelectElement>('notation');
  pickNotation.value = notation;
  pickNotation.addEventListener('change', () => {
    notation = pickNotation.value as Notation;
    try {
      localStorage.setItem('kirin.notation', notation);
    } catch {
      // A browser that keeps nothing: the choice lasts for this page.
    }
    renderMoves();
    renderLines();
    renderReview();
  });
  $('moves').addEventListener('click', (ev) => {
    const span = (ev.target as HTMLElement).closest<HTMLElement>('.move[data-node]');
    if (!span) return;
    const node = listed.nodes[Number(span.dataset.node)];
    if (node) goTo(pathTo(node, listed.parents));
  });
  $('nav-start').addEventListener('click', toStart);
  $('nav-back').addEventListener('click', back);
  $('nav-forward').addEventListener('click', forward);
  $('nav-end').addEventListener('click', toEnd);
  $('flip').addEventListener('click', flip);
  document.addEventListener('keydown', onKey);
  $('level-mode').addEventListener('change', () => {
    $<HTMLInputElement>('level').value = $<HTMLSelectElement>('level-mode').value === 'elo' ? '1500' : '20';
    applyLevel();
  });
  $('level').addEventListener('change', applyLevel);
  $('fen-set').addEventListener('click', () => {
    const fen = $<HTMLInputElement>('fen-input').value.trim();
    const r = fen === '' ? null : Position.fromFen(fen);
    const error = r === null ? 'enter a FEN' : r.ok ? '' : r.error.message;
    $('fen-error').textContent = error;
    if (!error) setGame(newGame(fen));
  });
  $('import-text').addEventListener('click', importText);
  $<HTMLInputElement>('import-file').addEventListener('change', (ev) => {
    const file = (ev.target as HTMLInputElement).files?.[0];
    if (file) importFile(file);
  });
  $<HTMLSelectElement>('import-games').addEventListener('change', (ev) => {
    const g = imported[Number((ev.target as HTMLSelectElement).value)];
    if (g) openGame(g);
  });
  $('export-pgn').addEventListener('click', exportPgn);
  $('review-start').addEventListener('click', () => void startReview());
  $('review-cancel').addEventListener('click', () => reviewing?.abort());
  $('review-chart').addEventListener('click', (ev) => {
    const hit = (ev.target as Element).closest('[data-ply]');
    if (!hit || !review) return;
    const ply = Number(hit.getAttribute('data-ply'));
    if (Number.isSafeInteger(ply) && ply >= 0 && ply <= review.reviewed.length) goTo(review.reviewed.slice(0, ply));
  });
  $('share-copy').addEventListener('click', () => {
    const url = $<HTMLInputElement>('share-url');
    url.select();
    navigator.clipboard?.writeText(url.value).then(
      () => ($('share-note').textContent = 'copied'),
      () => ($('share-note').textContent = 'select and copy the address'),
    );
  });
  // The page writes its address with replaceState (no hashchange): this is a player's own edit.
  window.addEventListener('hashchange', () => openLink());
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
    const text = support.problems.filter((p) => p.blocking === blocking).map((p) => p.message);
    const el = $(id);
    el.hidden = text.length === 0;
    el.textContent = text.join(' ');
  };
  say('fatal', true);
  say('notice', false);
  return support.canSearch;
}

function main(): void {
  buildBoard();
  notation = savedNotation();
  wire();
  engine.onMessage = (line) => ($('option-error').textContent = line);
  canSearch = showSupport();
  // The game the address names, else a new one; the search thread starts and shows the evaluation it plays with.
  if (!openLink()) setGame(newGame());
  document.body.dataset.ready = 'yes';
}

main();
