// The board editor on the page: the 摆棋 button of the board's tools opens the
// editor (panel.ts) in a dialog over the page, on the position shown, drawn in
// the board's pieces and colours; "use this position" sets up a new game from
// it (the analysis board's: a game against Kirin that runs is abandoned), and
// a position the rules core refuses is said in the player's words.

import { newGame } from '../../src/browser/index.js';
import type { BoardTheme, PieceSet } from '../board/drawing.js';
import { errorText } from '../game/words.js';
import type { PageContext } from '../page.js';
import { mountEditor, type EditorPanel } from './panel.js';

export interface EditorDialog {
  /** The <dialog> the editor opens in, its body (the editor's root) and its close button. */
  dialog: HTMLDialogElement;
  root: HTMLElement;
  close: HTMLElement;
  /** The button that opens it. */
  open: HTMLElement;
}

/** Wires the editor's dialog; `look` is the board's piece set and theme. */
export function mountEditorDialog(
  ctx: PageContext,
  parts: EditorDialog,
  look: () => { set: PieceSet; theme: BoardTheme },
): void {
  let panel: EditorPanel | null = null;
  parts.open.addEventListener('click', () => {
    // Mounted the first time it is wanted: most visits never set up a position.
    panel ??= mountEditor(parts.root, {
      t: (key, params) => ctx.t(key, params),
      startFen: () => ctx.pos.fen(),
      look,
      describe: (e) => errorText(ctx.t, e),
      usePosition(fen) {
        parts.dialog.close();
        ctx.setMode('analysis');
        ctx.setGame(newGame(fen));
        ctx.showTab('moves');
      },
    });
    panel.load(ctx.pos.fen());
    parts.dialog.showModal();
  });
  parts.close.addEventListener('click', () => parts.dialog.close());
  ctx.onChange((c) => {
    if (c.kind === 'view' && panel !== null) panel.refresh();
  });
}
