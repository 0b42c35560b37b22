// The board editor's panel: a board of its own (drawn with the page's SVG
// board and pieces in the player's piece set and board theme,
// web/board/drawing.ts, so that it looks like the page's board), a palette of the fourteen pieces, a move tool
// and a remove tool. A piece is placed by picking it in the palette and
// clicking squares, or dragged from the palette onto the board; a piece on the
// board is dragged elsewhere, or off the board (or right-clicked) to remove it.
// The side to move, clear, start position, flip, and the FEN both ways. The
// rules core checks the position as it changes (model.ts) and says what is
// wrong in its own words; "use this position" hands a legal FEN to the page.

import { RED, squareName, type FenErrorCode, type KirinError, type Result } from '../../src/browser/index.js';
import { BOARD_THEMES, boardSvg, pieceSvg, svgUrl } from '../board/drawing.js';
import type { EditorHost } from './host.js';
import { BoardEditorModel, PALETTE } from './model.js';

export interface EditorPanel {
  /** The panel (the root given to mountEditor). */
  readonly element: HTMLElement;
  /** The position being edited. */
  readonly model: BoardEditorModel;
  /** Sets the board from a FEN; a FEN the rules core refuses is refused with its error and the board stays. */
  load(fen: string): Result<null, FenErrorCode>;
  /** Writes every text again in the current language (after the page switched it). */
  refresh(): void;
}

/** The palette's tools: a piece code to place, or moving and removing pieces. */
type Tool = number | 'move' | 'erase';

const STYLE = `
.kirin-editor { display: flex; flex-direction: column; gap: .6em; }
.kirin-editor .editor-main { display: flex; gap: .8em; align-items: flex-start; flex-wrap: wrap; }
.kirin-editor .editor-board { position: relative; width: min(400px, calc(100vw - 48px)); aspect-ratio: 9 / 10;
  background-size: 100% 100%; border-radius: 4px; box-shadow: 0 1px 4px rgba(0, 0, 0, .35);
  touch-action: none; user-select: none; -webkit-user-select: none; }
.kirin-editor .editor-cell { position: absolute; width: calc(100% / 9); height: 10%; padding: 0; border: 0;
  background: transparent; display: flex; align-items: center; justify-content: center; cursor: pointer; }
.kirin-editor .editor-cell.selected { background: rgba(60, 120, 220, .3); border-radius: 50%; }
.kirin-editor .editor-palette { display: grid; grid-template-columns: repeat(7, 2.6em); gap: .25em; align-content: start; }
.kirin-editor .editor-palette button { width: 2.6em; height: 2.6em; padding: 0; border: 1px solid transparent;
  border-radius: .3em; background: transparent; display: flex; align-items: center; justify-content: center;
  cursor: pointer; touch-action: none; }
.kirin-editor .editor-palette button[aria-pressed="true"] { border-color: #2a7ae2; background: rgba(42, 122, 226, .15); }
.kirin-editor .editor-palette .editor-tool { grid-column: span 3; font-size: .85em; width: auto; border-color: var(--line, #8886); }
.kirin-editor .editor-cell > svg { width: 94%; height: 94%; }
.kirin-editor .editor-palette button > svg { width: 100%; height: 100%; }
.kirin-editor-ghost { position: fixed; width: 2.8em; height: 2.8em; pointer-events: none; z-index: 1000;
  transform: translate(-50%, -50%); }
.kirin-editor-ghost > svg { width: 100%; height: 100%; }
.kirin-editor .editor-controls, .kirin-editor .editor-fen-row { display: flex; flex-wrap: wrap; gap: .4em; align-items: center; }
.kirin-editor .editor-fen-row label { display: flex; flex: 1; gap: .4em; align-items: center; min-width: 12em; }
.kirin-editor .editor-fen { flex: 1; min-width: 8em; font-family: monospace; }
.kirin-editor .editor-status[data-valid="no"] { color: var(--error, #b00020); }
.kirin-editor .editor-hint { font-size: .85em; opacity: .8; }
`;

function injectStyle(doc: Document): void {
  if (doc.getElementById('kirin-editor-style')) return;
  const style = doc.createElement('style');
  style.id = 'kirin-editor-style';
  style.textContent = STYLE;
  doc.head.appendChild(style);
}

/** A core FEN message without its `invalid FEN "...": ` lead (the FEN is shown beside it). */
function coreReason(message: string): string {
  return message.replace(/^invalid FEN "[^"]*": /, '');
}

/** Pointer travel (px) under which a press is a click, not a drag. */
const DRAG_THRESHOLD = 4;

/** Mounts the board editor into `root` (emptied first). */
export function mountEditor(root: HTMLElement, host: EditorHost): EditorPanel {
  const doc = root.ownerDocument;
  injectStyle(doc);
  const t = host.t;
  /** A piece (colour << 3 | type) drawn as the page's board draws it, in the player's set and theme. */
  const pieceDrawing = (pc: number): string => {
    const look = host.look?.() ?? { set: 'traditional', theme: 'wood' };
    return pieceSvg(look.set, (pc >> 3) as 0 | 1, pc & 7, BOARD_THEMES[look.theme]);
  };
  /** The rules core's refusal in the player's words (the page's), or its own message. */
  const refusal = (e: KirinError<FenErrorCode>): string =>
    host.describe?.({ ...e, message: coreReason(e.message) }) ?? coreReason(e.message);
  const model = new BoardEditorModel();
  const start = host.startFen?.();
  if (start !== undefined && !model.load(start).ok) model.start();
  root.replaceChildren();
  root.classList.add('kirin-editor');

  let tool: Tool = 'move';
  /** The square picked with the move tool (click, then click where it goes), or -1. */
  let selected = -1;
  let flipped = false;

  const main = doc.createElement('div');
  main.className = 'editor-main';
  const board = doc.createElement('div');
  board.className = 'editor-board';
  const cells: HTMLButtonElement[] = [];
  for (let sq = 0; sq < 90; sq++) {
    const b = doc.createElement('button');
    b.type = 'button';
    b.className = 'editor-cell';
    b.dataset.square = squareName(sq);
    board.appendChild(b);
    cells.push(b);
  }
  const palette = doc.createElement('div');
  palette.className = 'editor-palette';
  palette.setAttribute('role', 'toolbar');
  const toolButtons = new Map<Tool, HTMLButtonElement>();
  const addTool = (tl: Tool, className: string): void => {
    const b = doc.createElement('button');
    b.type = 'button';
    b.className = className;
    if (typeof tl === 'number') {
      b.innerHTML = pieceDrawing(tl);
      b.dataset.piece = String(tl);
    } else b.dataset.tool = tl;
    palette.appendChild(b);
    toolButtons.set(tl, b);
  };
  for (const pc of PALETTE) addTool(pc, 'editor-piece');
  addTool('move', 'editor-tool');
  addTool('erase', 'editor-tool');
  main.append(board, palette);

  const controls = doc.createElement('div');
  controls.className = 'editor-controls';
  const sideLabel = doc.createElement('span');
  const side = doc.createElement('select');
  side.className = 'editor-side';
  const button = (className: string, onClick: () => void): HTMLButtonElement => {
    const b = doc.createElement('button');
    b.type = 'button';
    b.className = className;
    b.addEventListener('click', onClick);
    return b;
  };
  const clearButton = button('editor-clear', () => {
    model.clear();
    changed();
  });
  const startButton = button('editor-start', () => {
    model.start();
    changed();
  });
  const flipButton = button('editor-flip', () => {
    flipped = !flipped;
    render();
  });
  controls.append(sideLabel, side, clearButton, startButton, flipButton);

  const fenRow = doc.createElement('div');
  fenRow.className = 'editor-fen-row';
  const fenLabel = doc.createElement('label');
  const fenText = doc.createElement('span');
  const fenInput = doc.createElement('input');
  fenInput.className = 'editor-fen';
  fenInput.spellcheck = false;
  fenLabel.append(fenText, fenInput);
  const loadButton = button('editor-load', () => {
    const r = model.load(fenInput.value.trim());
    if (!r.ok) {
      status.dataset.valid = 'no';
      status.textContent = t('editor.invalid', { message: refusal(r.error) });
      return;
    }
    changed();
  });
  fenRow.append(fenLabel, loadButton);
  const status = doc.createElement('div');
  status.className = 'editor-status';
  status.setAttribute('role', 'status');
  const hint = doc.createElement('div');
  hint.className = 'editor-hint';
  const useButton = button('editor-use', () => {
    const v = model.validate();
    if (v.ok) host.usePosition(v.value);
  });
  root.append(main, controls, fenRow, status, useButton, hint);

  function pieceName(pc: number): string {
    return t(`editor.piece.${pc >> 3 === RED ? 'red' : 'black'}${pc & 7}`);
  }

  function render(): void {
    const look = host.look?.() ?? { set: 'traditional', theme: 'wood' };
    board.style.backgroundImage = svgUrl(boardSvg(look.set, BOARD_THEMES[look.theme]));
    for (let sq = 0; sq < 90; sq++) {
      const file = sq % 9;
      const rank = (sq / 9) | 0;
      const b = cells[sq];
      b.style.left = `${((flipped ? 8 - file : file) * 100) / 9}%`;
      b.style.top = `${(flipped ? rank : 9 - rank) * 10}%`;
      const pc = model.pieceOn(sq);
      b.innerHTML = pc ? pieceDrawing(pc) : '';
      b.dataset.piece = pc ? String(pc) : '';
      b.classList.toggle('selected', sq === selected);
      b.setAttribute(
        'aria-label',
        pc ? t('editor.squarePiece', { square: squareName(sq), piece: pieceName(pc) }) : squareName(sq),
      );
    }
    for (const [tl, b] of toolButtons) {
      b.setAttribute('aria-pressed', tl === tool ? 'true' : 'false');
      const label = typeof tl === 'number' ? pieceName(tl) : t(`editor.tool.${tl}`);
      b.title = label;
      b.setAttribute('aria-label', label);
      if (typeof tl !== 'number') b.textContent = label;
    }
    palette.setAttribute('aria-label', t('editor.palette'));
    sideLabel.textContent = t('editor.side');
    const keep = String(model.side);
    side.replaceChildren(new Option(t('editor.side.red'), '0'), new Option(t('editor.side.black'), '1'));
    side.value = keep;
    clearButton.textContent = t('editor.clear');
    startButton.textContent = t('editor.start');
    flipButton.textContent = t('editor.flip');
    fenText.textContent = `${t('editor.fen')} `;
    loadButton.textContent = t('editor.load');
    useButton.textContent = t('editor.use');
    hint.textContent = t('editor.hint');
    if (doc.activeElement !== fenInput) fenInput.value = model.fen();
    const v = model.validate();
    status.dataset.valid = v.ok ? 'yes' : 'no';
    status.dataset.code = v.ok ? '' : v.error.code;
    status.textContent = v.ok ? t('editor.valid') : t('editor.invalid', { message: refusal(v.error) });
    useButton.disabled = !v.ok;
    root.dataset.fen = model.fen();
  }

  /** After a change of the position: the selection is dropped and all is drawn again. */
  function changed(): void {
    selected = -1;
    fenInput.value = model.fen();
    render();
  }

  /** A click on a square with the current tool. */
  function clickSquare(sq: number): void {
    if (typeof tool === 'number') {
      // The same piece again takes it away (a quick way to undo a click).
      if (model.pieceOn(sq) === tool) model.remove(sq);
      else model.place(sq, tool);
      return changed();
    }
    if (tool === 'erase') {
      model.remove(sq);
      return changed();
    }
    if (selected >= 0 && selected !== sq) {
      model.move(selected, sq);
      return changed();
    }
    selected = selected === sq || model.pieceOn(sq) === 0 ? -1 : sq;
    render();
  }

  // ---- Pointer: clicks, and drags from the palette or the board ----
  let press: { x: number; y: number; piece: number; from: number; tool: Tool | null; id: number } | null = null;
  let ghost: HTMLElement | null = null;

  function cellAt(x: number, y: number): number {
    const hit = doc.elementFromPoint(x, y)?.closest<HTMLElement>('.editor-cell');
    if (!hit || !board.contains(hit)) return -1;
    return cells.indexOf(hit as HTMLButtonElement);
  }

  function onPointerDown(ev: PointerEvent): void {
    if (ev.button !== 0) return;
    const target = ev.target as Element;
    const paletteButton = target.closest<HTMLElement>('.editor-palette button');
    const cell = target.closest<HTMLElement>('.editor-cell');
    if (paletteButton) {
      const tl = [...toolButtons].find(([, b]) => b === paletteButton)?.[0] ?? null;
      press = {
        x: ev.clientX,
        y: ev.clientY,
        piece: typeof tl === 'number' ? tl : 0,
        from: -1,
        tool: tl,
        id: ev.pointerId,
      };
    } else if (cell && board.contains(cell)) {
      const sq = cells.indexOf(cell as HTMLButtonElement);
      press = {
        x: ev.clientX,
        y: ev.clientY,
        piece: tool === 'move' ? model.pieceOn(sq) : 0,
        from: sq,
        tool: null,
        id: ev.pointerId,
      };
    } else return;
    ev.preventDefault();
  }

  function onPointerMove(ev: PointerEvent): void {
    if (!press || ev.pointerId !== press.id || press.piece === 0) return;
    if (!ghost && Math.hypot(ev.clientX - press.x, ev.clientY - press.y) < DRAG_THRESHOLD) return;
    if (!ghost) {
      ghost = doc.createElement('div');
      ghost.className = 'kirin-editor-ghost';
      ghost.innerHTML = pieceDrawing(press.piece);
      doc.body.appendChild(ghost);
    }
    ghost.style.left = `${ev.clientX}px`;
    ghost.style.top = `${ev.clientY}px`;
  }

  function onPointerUp(ev: PointerEvent): void {
    if (!press || ev.pointerId !== press.id) return;
    const p = press;
    press = null;
    if (ghost) {
      // A drag: from the palette, a piece placed; from the board, moved, or removed off the board.
      ghost.remove();
      ghost = null;
      const to = cellAt(ev.clientX, ev.clientY);
      if (p.from < 0) {
        if (to >= 0) model.place(to, p.piece);
      } else if (to < 0) model.remove(p.from);
      else model.move(p.from, to);
      return changed();
    }
    // A click.
    if (p.tool !== null) {
      tool = p.tool;
      selected = -1;
      return render();
    }
    if (p.from >= 0) clickSquare(p.from);
  }

  root.addEventListener('pointerdown', onPointerDown);
  doc.addEventListener('pointermove', onPointerMove);
  doc.addEventListener('pointerup', onPointerUp);
  doc.addEventListener('pointercancel', () => {
    press = null;
    ghost?.remove();
    ghost = null;
  });
  board.addEventListener('contextmenu', (ev) => {
    const cell = (ev.target as Element).closest<HTMLElement>('.editor-cell');
    if (!cell) return;
    ev.preventDefault();
    model.remove(cells.indexOf(cell as HTMLButtonElement));
    changed();
  });
  // Keyboard: Enter or Space on a square or a palette button acts as a click.
  root.addEventListener('keydown', (ev) => {
    if (ev.key !== 'Enter' && ev.key !== ' ') return;
    const target = ev.target as Element;
    const cell = target.closest<HTMLElement>('.editor-cell');
    const paletteButton = target.closest<HTMLElement>('.editor-palette button');
    if (cell) clickSquare(cells.indexOf(cell as HTMLButtonElement));
    else if (paletteButton) {
      tool = [...toolButtons].find(([, b]) => b === paletteButton)?.[0] ?? tool;
      render();
    } else return;
    ev.preventDefault();
  });
  side.addEventListener('change', () => {
    model.side = side.value === '1' ? 1 : 0;
    render();
  });
  fenInput.addEventListener('keydown', (ev) => {
    if (ev.key === 'Enter') loadButton.click();
  });

  render();
  return {
    element: root,
    model,
    load(fen: string) {
      const r = model.load(fen);
      if (r.ok) changed();
      return r;
    },
    refresh: render,
  };
}
