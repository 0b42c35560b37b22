// The text of a game file's bytes: UTF-8 (with or without a byte-order mark),
// UTF-16 with a byte-order mark, or else GB18030, the superset of GBK and GB2312
// that older Chinese programs (XQStudio, 象棋巫师, computer-championship PGNs) write.

/** The encodings `decodeText` tells apart. */
export type TextEncoding = 'utf-8' | 'utf-16le' | 'utf-16be' | 'gb18030';

/** A file's text and the encoding it was read in. */
export interface DecodedText {
  readonly text: string;
  readonly encoding: TextEncoding;
}

/**
 * Decodes a text file: a byte-order mark decides; otherwise UTF-8 when the
 * bytes are valid UTF-8 (plain ASCII is), else GB18030. GB18030 maps every byte
 * sequence to some text, so this never fails; a file in yet another encoding
 * comes out garbled, and its moves then fail to read.
 */
export function decodeText(bytes: Uint8Array): DecodedText {
  if (bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf)
    return { text: new TextDecoder('utf-8').decode(bytes.subarray(3)), encoding: 'utf-8' };
  if (bytes.length >= 2 && bytes[0] === 0xff && bytes[1] === 0xfe)
    return { text: new TextDecoder('utf-16le').decode(bytes.subarray(2)), encoding: 'utf-16le' };
  if (bytes.length >= 2 && bytes[0] === 0xfe && bytes[1] === 0xff)
    return { text: new TextDecoder('utf-16be').decode(bytes.subarray(2)), encoding: 'utf-16be' };
  try {
    return { text: new TextDecoder('utf-8', { fatal: true }).decode(bytes), encoding: 'utf-8' };
  } catch {
    return { text: new TextDecoder('gb18030').decode(bytes), encoding: 'gb18030' };
  }
}

/** GB18030 text of the bytes (for XQF's strings and comments). */
export function decodeGb18030(bytes: Uint8Array): string {
  return new TextDecoder('gb18030').decode(bytes);
}
