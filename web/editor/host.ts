// What the board editor needs from the page (the shell): the player's
// language, where to start, and what to do with the position made. The shell
// implements EditorHost and mounts the editor with mountEditor (panel.ts).

/** A message in the player's language: the key's text with its `{name}` placeholders filled. */
export type Translate = (key: string, params?: Readonly<Record<string, string | number>>) => string;

export interface EditorHost {
  /** Message texts in the player's language (the editor's keys are in messages.ts). */
  t: Translate;
  /** The position the editor opens with (e.g. the one shown on the board); absent: the standard start. */
  startFen?(): string;
  /** The player pressed "use this position": a FEN the rules core accepts. The page sets up a new game from it. */
  usePosition(fen: string): void;
}
