// The shape of the page's messages: each room of web/ that shows text keeps its
// own catalog (`messages.ts` beside it) in the page's three languages, with the
// same keys in each; web/i18n/ joins them and picks the player's language.
// A message is plain text with `{name}` placeholders filled at run time.

/** The page's languages: Simplified Chinese (the first), Traditional Chinese, English. */
export const LANGUAGES = ['zh-Hans', 'zh-Hant', 'en'] as const;
export type Language = (typeof LANGUAGES)[number];

/** Message key -> text, `{name}` marking a value filled in when shown. */
export type Catalog = Readonly<Record<string, string>>;

/** One room's messages in every language (the keys are the room's name, a dot, then the message's). */
export type RoomMessages = Readonly<Record<Language, Catalog>>;
