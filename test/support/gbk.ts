// GBK (GB18030's two-byte part) and Big5 encoding for tests: turns text into the
// bytes an older Chinese program would write (Big5: Taiwan's and Hong Kong's,
// the Chinese Chess Practical Dataset's), so that the decoders can be tested on
// real games' text. TextEncoder writes UTF-8 only, so each table is built once
// from the platform's own decoder over every two-byte code.

const tables = new Map<string, Map<string, number>>();

/** Lead bytes and trail-byte ranges of each encoding's two-byte codes. */
const RANGES: Readonly<Record<'gb18030' | 'big5', { lead: [number, number]; trail: [number, number][] }>> = {
  gb18030: {
    lead: [0x81, 0xfe],
    trail: [
      [0x40, 0x7e],
      [0x80, 0xfe],
    ],
  },
  big5: {
    lead: [0x81, 0xfe],
    trail: [
      [0x40, 0x7e],
      [0xa1, 0xfe],
    ],
  },
};

function encodeTable(encoding: 'gb18030' | 'big5'): Map<string, number> {
  const cached = tables.get(encoding);
  if (cached) return cached;
  const table = new Map<string, number>();
  const decoder = new TextDecoder(encoding);
  const { lead, trail } = RANGES[encoding];
  for (let l = lead[0]; l <= lead[1]; l++)
    for (const [lo, hi] of trail)
      for (let t = lo; t <= hi; t++) {
        const ch = decoder.decode(new Uint8Array([l, t]));
        if (ch.length === 1 && ch !== '\ufffd' && !table.has(ch)) table.set(ch, (l << 8) | t);
      }
  tables.set(encoding, table);
  return table;
}

function encode(text: string, encoding: 'gb18030' | 'big5'): Uint8Array {
  const t = encodeTable(encoding);
  const out: number[] = [];
  for (const ch of text) {
    const c = ch.codePointAt(0)!;
    if (c < 0x80) {
      out.push(c);
      continue;
    }
    const code = t.get(ch);
    if (code === undefined) throw new Error(`no ${encoding} code for '${ch}'`);
    out.push(code >> 8, code & 0xff);
  }
  return new Uint8Array(out);
}

/** The GBK bytes of `text` (ASCII as itself); throws on a character GBK lacks. */
export function encodeGbk(text: string): Uint8Array {
  return encode(text, 'gb18030');
}

/** The Big5 bytes of `text` (ASCII as itself); throws on a character Big5 lacks (simplified 马, 进). */
export function encodeBig5(text: string): Uint8Array {
  return encode(text, 'big5');
}
