// The board editor's surface for the page's shell: the 摆棋 dialog
// (docs/BROWSER.md, "The board editor").

export { mountEditorDialog } from './room.js';
