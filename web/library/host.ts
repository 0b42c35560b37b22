// What the library panel needs from the page (the shell): the player's
// language, the notation, and a way to open a kept game on the board. The
// shell implements LibraryHost and mounts the panel with mountLibraryPanel
// (panel.ts) over a library from openLibrary (library.ts).

import type { Notation } from '../../src/browser/index.js';
import type { OpenedGame } from './library.js';

/** A message in the player's language: the key's text with its `{name}` placeholders filled. */
type Translate = (key: string, params?: Readonly<Record<string, string | number>>) => string;

export interface LibraryHost {
  /** Message texts in the player's language (the panel's keys are in messages.ts). */
  t: Translate;
  /**
   * Opens a kept game on the board: the game (headers, comments, variations),
   * its review when it has one that fits the main line, and its record (keep
   * `record.id`: the page saves changes with GameLibrary.update and the
   * session with saveSession under it).
   */
  open(opened: OpenedGame): void;
  /** The notation the page shows moves in: Export writes the games in it. */
  notation(): Notation;
  /** Offers `text` as a file named `name` to download (default: a link with `download`, clicked). */
  download?(name: string, text: string): void;
}
