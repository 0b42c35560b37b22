// What the board editor needs from the page (the shell): the player's
// language, where to start, and what to do with the position made. The shell
// implements EditorHost and mounts the editor with mountEditor (panel.ts).

import type { FenErrorCode, KirinError } from '../../src/browser/index.js';
import type { BoardTheme, PieceSet } from '../board/drawing.js';

/** A message in the player's language: the key's text with its `{name}` placeholders filled. */
type Translate = (key: string, params?: Readonly<Record<string, string | number>>) => string;

export interface EditorHost {
  /** Message texts in the player's language (the editor's keys are in messages.ts). */
  t: Translate;
  /** The position the editor opens with (e.g. the one shown on the board); absent: the standard start. */
  startFen?(): string;
  /** The player pressed "use this position": a FEN the rules core accepts. The page sets up a new game from it. */
  usePosition(fen: string): void;
  /** The piece set and board theme the page's board shows (absent: traditional pieces on wood). */
  look?(): { set: PieceSet; theme: BoardTheme };
  /**
   * The rules core's refusal of a position in the player's words (the page
   * translates the error's code; the message comes without the FEN, which the
   * editor shows beside it); absent: the core's own message.
   */
  describe?(error: KirinError<FenErrorCode>): string;
}
