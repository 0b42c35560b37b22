// The library room's surface for the page's shell: the games kept in the
// browser (IndexedDB), their panel, and the session (docs/BROWSER.md, "The
// library").

export { openLibrary } from './library.js';
export { mountLibrary, type LibraryRoom } from './room.js';
