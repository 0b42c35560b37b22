// The library room's surface for the page's shell: the games kept in the
// browser (IndexedDB), their panel, and the session (docs/BROWSER.md, "Rooms:
// play, library, editor").

export { GameLibrary, openLibrary, type OpenedGame, type Session, type ImportReport } from './library.js';
export { mountLibraryPanel, type LibraryPanel } from './panel.js';
export type { LibraryHost, Translate } from './host.js';
export type { GameRecord, GameSource } from './record.js';
export { LIBRARY_MESSAGES } from './messages.js';
