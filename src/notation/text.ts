// The text of a game file's bytes. The encodings game files come in: UTF-8 (with
// or without a byte-order mark), UTF-16 (with a byte-order mark, or told by the
// NUL bytes of its ASCII characters), GB18030 (the superset of GBK and GB2312
// that older mainland programs write: XQStudio, 象棋巫师, computer-championship
// PGNs) and Big5 (Taiwan and Hong Kong: the Chinese Chess Practical Dataset).
// GB18030 and Big5 both take almost any byte pair, so the bytes alone cannot
// tell them apart: `textCandidates` lists the decodings a file may be in, and
// the PGN reader keeps the one whose games read best (pgn.ts).

import { err, ok, type Result } from '../core/result.js';

/** The encodings game files are read in. */
export type TextEncoding = 'utf-8' | 'utf-16le' | 'utf-16be' | 'gb18030' | 'big5';

/** Every encoding `decodeText` reads, in the order a reader tries them. */
export const TEXT_ENCODINGS: readonly TextEncoding[] = Object.freeze([
  'utf-8',
  'utf-16le',
  'utf-16be',
  'gb18030',
  'big5',
]);

/** The names an encoding goes by (lower case) for `textEncoding`. */
const ENCODING_NAMES: Readonly<Record<string, TextEncoding>> = {
  'utf-8': 'utf-8',
  utf8: 'utf-8',
  'utf-16': 'utf-16le',
  'utf-16le': 'utf-16le',
  utf16le: 'utf-16le',
  'utf-16be': 'utf-16be',
  utf16be: 'utf-16be',
  gb18030: 'gb18030',
  gbk: 'gb18030',
  gb2312: 'gb18030',
  cp936: 'gb18030',
  big5: 'big5',
  'big5-hkscs': 'big5',
  cp950: 'big5',
};

/** A file's text and the encoding it was read in. */
export interface DecodedText {
  readonly text: string;
  readonly encoding: TextEncoding;
}

/**
 * The encoding a name stands for: utf-8, utf-16le, utf-16be (utf-16 is
 * little-endian), gb18030 (also gbk, gb2312, cp936) or big5 (also big5-hkscs,
 * cp950), in any case; the error lists them.
 */
export function textEncoding(name: string): Result<TextEncoding, 'encoding-unknown'> {
  const e = ENCODING_NAMES[name.trim().toLowerCase()];
  return e !== undefined
    ? ok(e)
    : err('encoding-unknown', `unknown encoding '${name}' (utf-8, utf-16le, utf-16be, gbk or gb18030, big5)`);
}

/** The encoding a byte-order mark at the start says, with the mark's length; null without one. */
function byteOrderMark(bytes: Uint8Array): { encoding: TextEncoding; length: number } | null {
  if (bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf)
    return { encoding: 'utf-8', length: 3 };
  if (bytes.length >= 2 && bytes[0] === 0xff && bytes[1] === 0xfe) return { encoding: 'utf-16le', length: 2 };
  if (bytes.length >= 2 && bytes[0] === 0xfe && bytes[1] === 0xff) return { encoding: 'utf-16be', length: 2 };
  return null;
}

/**
 * UTF-16 without a byte-order mark, told by its NUL bytes: the ASCII characters
 * a game file is full of (tags, move numbers, spaces) have a NUL high byte, at
 * odd offsets in little-endian text and at even ones in big-endian. Text in an
 * 8-bit encoding has no NUL at all. Null when the pattern is not there.
 */
function utf16ByNuls(bytes: Uint8Array): TextEncoding | null {
  const n = Math.min(bytes.length, 8192) & ~1;
  if (n < 4) return null;
  let even = 0;
  let odd = 0;
  for (let i = 0; i < n; i += 2) {
    if (bytes[i] === 0) even++;
    if (bytes[i + 1] === 0) odd++;
  }
  const pairs = n / 2;
  if (odd >= pairs * 0.1 && even <= pairs * 0.01) return 'utf-16le';
  if (even >= pairs * 0.1 && odd <= pairs * 0.01) return 'utf-16be';
  return null;
}

function isUtf8(bytes: Uint8Array): boolean {
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return true;
  } catch {
    return false;
  }
}

/**
 * The encodings the bytes may be in, most likely first: the one a byte-order
 * mark names; UTF-16 when its NUL pattern is there; UTF-8 when the bytes are
 * valid UTF-8 (plain ASCII is); else GB18030 and Big5, which a reader tells
 * apart by what reads (pgn.ts).
 */
export function textCandidates(bytes: Uint8Array): TextEncoding[] {
  const bom = byteOrderMark(bytes);
  if (bom) return [bom.encoding];
  const utf16 = utf16ByNuls(bytes);
  if (utf16) return [utf16];
  if (isUtf8(bytes)) return ['utf-8'];
  return ['gb18030', 'big5'];
}

/**
 * The text of the bytes in `encoding` (a byte-order mark of that encoding is
 * dropped); without one, in the first of `textCandidates`. Never fails: a
 * byte sequence the encoding does not have becomes U+FFFD, and moves written
 * in a wrong encoding then fail to read.
 */
export function decodeText(bytes: Uint8Array, encoding?: TextEncoding): DecodedText {
  const bom = byteOrderMark(bytes);
  const e = encoding ?? (bom ? bom.encoding : textCandidates(bytes)[0]);
  const body = bom && bom.encoding === e ? bytes.subarray(bom.length) : bytes;
  return { text: new TextDecoder(e).decode(body), encoding: e };
}

/**
 * How many characters of a decoded text are unlikely in a game file: U+FFFD
 * (bytes the encoding does not have) and anything outside ASCII, the CJK
 * ideographs, CJK punctuation and the full-width forms (Big5 read as GBK gives
 * kana and bopomofo: 'キき', 'ㄊ'; GBK read as Big5 gives U+FFFD). The reader's
 * tie-break between decodings that read the same games.
 */
export function oddCharacters(text: string): number {
  let odd = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) continue;
    if (c >= 0x4e00 && c <= 0x9fff) continue;
    if (c >= 0x3000 && c <= 0x303f) continue;
    if (c >= 0xff00 && c <= 0xffef) continue;
    odd++;
  }
  return odd;
}

/**
 * The text of a string field in an 8-bit encoding (XQF's titles, names and
 * comments): `encoding` when given, else GB18030.
 */
export function decodeLegacy(bytes: Uint8Array, encoding: TextEncoding = 'gb18030'): string {
  return new TextDecoder(encoding).decode(bytes);
}
