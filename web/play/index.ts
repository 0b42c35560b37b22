// The play room's surface for the page's shell: the panel and what it needs.
// A game against Kirin on the clock (docs/BROWSER.md, "Rooms: play, library,
// editor").

export { mountPlayPanel, type PlayPanel } from './panel.js';
export type { PlayHost, PlaySound, Translate } from './host.js';
export { endWords, type EndReason, type GameEnd } from './end.js';
export { PLAY_MESSAGES } from './messages.js';
