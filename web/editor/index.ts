// The board editor's surface for the page's shell (docs/BROWSER.md, "Rooms:
// play, library, editor").

export { mountEditor, type EditorPanel } from './panel.js';
export type { EditorHost, Translate } from './host.js';
export { EDITOR_MESSAGES } from './messages.js';
