// The play room's surface for the page's shell: a game against Kirin on the
// clock (docs/BROWSER.md, "Playing Kirin").

export { mountPlay, type PlayRoom } from './room.js';
