// The page's languages at run time: the rooms' catalogs joined into one per
// language (web/i18n/rooms.ts lists them), the player's language picked from
// the browser's preferences or their own choice, `t(key, params)` for a
// message, and the page's fixed labels translated through their data-i18n
// attributes (language.ts picks the language). Chinese is the page's first language: a key missing from a
// catalog falls back to Simplified Chinese, then to the key itself (the unit
// test web/i18n/i18n.test.ts makes sure no key is missing).

import { LANGUAGES, type Catalog, type Language, type RoomMessages } from './catalog.js';

/** Message parameters: `{name}` in a message is replaced by `params.name`. */
export type Params = Readonly<Record<string, string | number>>;

/** A message in the language in use. */
export type Translate = (key: string, params?: Params) => string;

/** The rooms' catalogs joined, per language; throws on a key without its room's prefix or one given twice. */
export function joinCatalogs(rooms: Readonly<Record<string, RoomMessages>>): Record<Language, Catalog> {
  const out = Object.fromEntries(LANGUAGES.map((l) => [l, {} as Record<string, string>])) as Record<
    Language,
    Record<string, string>
  >;
  for (const [room, messages] of Object.entries(rooms))
    for (const lang of LANGUAGES)
      for (const [key, text] of Object.entries(messages[lang])) {
        if (!key.startsWith(`${room}.`)) throw new Error(`room ${room}: key ${key} lacks the prefix ${room}.`);
        if (key in out[lang]) throw new Error(`key ${key} is given twice`);
        out[lang][key] = text;
      }
  return out;
}

/** The placeholders of a message (`{name}`), sorted, each once. */
export function placeholders(text: string): string[] {
  return [...new Set([...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]))].sort();
}

/** `text` with its placeholders filled; one without a value stays as written. */
export function fill(text: string, params: Params = {}): string {
  return text.replace(/\{(\w+)\}/g, (all, name: string) => (name in params ? String(params[name]) : all));
}

/** A translator for `lang` over joined catalogs. */
export function translator(catalogs: Readonly<Record<Language, Catalog>>, lang: Language): Translate {
  const first = catalogs[LANGUAGES[0]];
  return (key, params) => fill(catalogs[lang][key] ?? first[key] ?? key, params);
}

/** The attributes a fixed label may carry, and what each one translates. */
const ATTRIBUTES: readonly [string, (el: HTMLElement, text: string) => void][] = [
  ['data-i18n', (el, text) => (el.textContent = text)],
  ['data-i18n-title', (el, text) => (el.title = text)],
  ['data-i18n-aria-label', (el, text) => el.setAttribute('aria-label', text)],
  ['data-i18n-placeholder', (el, text) => el.setAttribute('placeholder', text)],
];

/** Translates the fixed labels under `root`: each element's data-i18n* attributes name its messages. */
export function translateLabels(root: ParentNode, t: Translate): void {
  for (const [attr, apply] of ATTRIBUTES)
    for (const el of root.querySelectorAll<HTMLElement>(`[${attr}]`)) apply(el, t(el.getAttribute(attr)!));
}
