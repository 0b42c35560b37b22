// Text that becomes part of an engine command: the one guard of every place
// where a name, a value, a position or a move list is written into a line of
// UCI or UCCI (the match runner's engine wrapper, the protocol's `setoption`,
// the library's option setter). A line break inside such text ends the command
// and starts another one: `Hash=16\nsetoption name Debug Log File value ~/.bashrc`
// sets two options, the second chosen by whoever wrote the first. So a field
// with a control character is refused, whole, with its name: C0 (CR, LF, TAB,
// NUL ...), DEL, C1 (NEL among them), and Unicode's line and paragraph
// separators. Nothing of a refused command is sent.
//
// API
//   checkCommandText(field, text): Result<string, 'command-text'>
//     `text` itself when it has no control character; else an error naming the
//     field, the character and its offset ("option Hash value: LF at offset 2 ...").
//   checkCommandFields(fields): Result<null, 'command-text'>
//     Every [field, text] pair checked in order; the first refusal.
//   shownText(text): string
//     A piece of untrusted text fit to name a field in a message: quoted, its
//     control characters escaped, at most 60 characters.

import { err, ok, type Result } from './result.js';

export type CommandTextCode = 'command-text';

const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;

const NAMES: Record<number, string> = { 0: 'NUL', 9: 'TAB', 10: 'LF', 13: 'CR', 27: 'ESC', 0x7f: 'DEL', 0x85: 'NEL' };

function characterName(code: number): string {
  return NAMES[code] ?? `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
}

/** `text` when it may go into an engine command as `field`; else why not (the field, the character, its offset). */
export function checkCommandText(field: string, text: string): Result<string, CommandTextCode> {
  if (typeof text !== 'string') return err('command-text', `${field}: not text (${typeof text})`);
  const m = CONTROL.exec(text);
  if (m === null) return ok(text);
  return err(
    'command-text',
    `${field}: ${characterName(m[0].charCodeAt(0))} at offset ${m.index} (control characters are not allowed ` +
      `in text sent to an engine; nothing was sent)`,
  );
}

/** Every field checked in order; the first refusal. */
export function checkCommandFields(
  fields: Iterable<readonly [field: string, text: string]>,
): Result<null, CommandTextCode> {
  for (const [field, text] of fields) {
    const r = checkCommandText(field, text);
    if (!r.ok) return r;
  }
  return ok(null);
}

/** Untrusted text fit to name a field in a message: quoted, control characters escaped, at most 60 characters. */
export function shownText(text: string): string {
  const t = String(text);
  return JSON.stringify(t.length > 60 ? `${t.slice(0, 60)}...` : t).replace(
    /[\u007f-\u009f\u2028\u2029]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}
