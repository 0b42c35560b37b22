// The page's language: the player's own choice when they made one (kept by
// the settings, web/settings/prefs.ts), else the browser's preferences. Pure,
// and shared by the page (web/app.ts) and the boot script (web/pwa/boot.ts),
// which runs first and says in the same language why the page cannot search.

import { LANGUAGES, type Language } from './catalog.js';

/**
 * The page's language for the browser's preferences (navigator.languages, most
 * wanted first): the first Chinese or English one decides (zh-TW, zh-HK, zh-MO
 * and zh-Hant are Traditional Chinese, other Chinese tags Simplified); a browser
 * that asks only for other languages gets English, one that asks for none
 * Simplified Chinese.
 */
export function pickLanguage(preferences: readonly string[]): Language {
  for (const tag of preferences) {
    const t = tag.toLowerCase();
    if (t === 'zh' || t.startsWith('zh-'))
      return /^zh-(hant|tw|hk|mo)\b/.test(t) || /-hant\b/.test(t) ? 'zh-Hant' : 'zh-Hans';
    if (t === 'en' || t.startsWith('en-')) return 'en';
  }
  return preferences.length > 0 ? 'en' : 'zh-Hans';
}

/** True for a language of the page. */
function isLanguage(s: string | null | undefined): s is Language {
  return (LANGUAGES as readonly string[]).includes(s ?? '');
}

/** The language to show: `chosen` (the player's kept choice) when it is one of the page's, else pickLanguage. */
export function chooseLanguage(chosen: string | null, preferences: readonly string[]): Language {
  return isLanguage(chosen) ? chosen : pickLanguage(preferences);
}
