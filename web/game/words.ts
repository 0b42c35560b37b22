// The game in the player's words: the sides, a judgement (红胜 / 黑胜 / 和棋 and
// why), and the library's errors by their codes. The library's own message
// (English) is the detail: in English it is the whole text; in Chinese it
// follows the translated words in brackets, as it names the move, the square
// or the piece.

import type { Judgement, KirinError } from '../../src/browser/index.js';
import type { Translate } from '../i18n/i18n.js';
import { GAME_MESSAGES } from './messages.js';

/** A side's name (RED 0, BLACK 1; or the library's 'red' / 'black'). */
export function sideName(t: Translate, side: number | 'red' | 'black'): string {
  return t(side === 0 || side === 'red' ? 'game.red' : 'game.black');
}

/** A judgement that ends the game in words (红胜（将死）, Red wins: checkmate); '' while the game goes on. */
export function judgementText(t: Translate, j: Judgement): string {
  if (j.result === 'none') return '';
  const result = t(`game.result.${j.result}`);
  let reason = t(`game.reason.${j.code}`);
  if (j.byDrawRule) reason = t('game.reason.by-draw-rule', { reason, winner: sideName(t, j.result as 'red') });
  return t('game.over', { result, reason });
}

/** The error codes with words of their own. */
const KNOWN = new Set(
  Object.keys(GAME_MESSAGES.en)
    .filter((k) => k.startsWith('game.error.'))
    .map((k) => k.slice('game.error.'.length)),
);

/** A library error in words: its code's, with the library's message as the detail. */
export function errorText(t: Translate, e: KirinError<string>): string {
  if (!KNOWN.has(e.code)) return e.message;
  return t('game.error.detail', { text: t(`game.error.${e.code}`), detail: e.message });
}
