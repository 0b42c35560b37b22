// GBK (GB18030's two-byte part) encoding for tests: turns text into the bytes
// an older Chinese program would write, so that the decoders can be tested on
// real games' text. Built once from the platform's own GB18030 decoder.

let table: Map<string, number> | null = null;

function encodeTable(): Map<string, number> {
  if (table) return table;
  table = new Map();
  const decoder = new TextDecoder('gb18030');
  for (let lead = 0x81; lead <= 0xfe; lead++)
    for (let trail = 0x40; trail <= 0xfe; trail++) {
      if (trail === 0x7f) continue;
      const ch = decoder.decode(new Uint8Array([lead, trail]));
      if (ch.length === 1 && ch !== '\ufffd' && !table.has(ch)) table.set(ch, (lead << 8) | trail);
    }
  return table;
}

/** The GBK bytes of `text` (ASCII as itself); throws on a character GBK lacks. */
export function encodeGbk(text: string): Uint8Array {
  const t = encodeTable();
  const out: number[] = [];
  for (const ch of text) {
    const c = ch.codePointAt(0)!;
    if (c < 0x80) {
      out.push(c);
      continue;
    }
    const code = t.get(ch);
    if (code === undefined) throw new Error(`no GBK code for '${ch}'`);
    out.push(code >> 8, code & 0xff);
  }
  return new Uint8Array(out);
}
