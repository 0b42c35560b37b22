// Every room's messages, by room name (a room's keys start with its name and a
// dot). A new room adds its catalog here; web/i18n/i18n.test.ts checks them all
// (the boot script's, pwa, are said before the page runs: web/pwa/boot.ts).

import { ANALYSIS_MESSAGES } from '../analysis/messages.js';
import { GAME_MESSAGES } from '../game/messages.js';
import { IO_MESSAGES } from '../io/messages.js';
import { EDITOR_MESSAGES } from '../editor/messages.js';
import { EXPLORER_MESSAGES } from '../explorer/messages.js';
import { LIBRARY_MESSAGES } from '../library/messages.js';
import { MOVES_MESSAGES } from '../moves/messages.js';
import { PLAY_MESSAGES } from '../play/messages.js';
import { PRACTICE_MESSAGES } from '../practice/messages.js';
import { PWA_MESSAGES } from '../pwa/messages.js';
import { REFEREE_MESSAGES } from '../referee/messages.js';
import { REVIEW_MESSAGES } from '../review/messages.js';
import { SETTINGS_MESSAGES } from '../settings/messages.js';
import { SHELL_MESSAGES } from '../shell/messages.js';
import type { RoomMessages } from './catalog.js';

export const ROOM_MESSAGES: Readonly<Record<string, RoomMessages>> = {
  shell: SHELL_MESSAGES,
  game: GAME_MESSAGES,
  moves: MOVES_MESSAGES,
  analysis: ANALYSIS_MESSAGES,
  review: REVIEW_MESSAGES,
  io: IO_MESSAGES,
  settings: SETTINGS_MESSAGES,
  play: PLAY_MESSAGES,
  library: LIBRARY_MESSAGES,
  editor: EDITOR_MESSAGES,
  explorer: EXPLORER_MESSAGES,
  practice: PRACTICE_MESSAGES,
  pwa: PWA_MESSAGES,
  referee: REFEREE_MESSAGES,
};
