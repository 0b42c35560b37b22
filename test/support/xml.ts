// A small XML reader for the tests: checks that a document is well-formed
// (one root, tags nested and closed, attributes quoted and unique, only the
// predefined and numeric entities, no stray '<' or '&') and returns its
// elements with their attributes and parents. Enough for the SVG the product
// writes (no DOCTYPE, CDATA or processing instructions but an XML declaration).
// Not part of the engine.

export interface XmlElement {
  readonly name: string;
  readonly attributes: Readonly<Record<string, string>>;
  readonly parent: XmlElement | null;
  /** The text directly inside it, entities decoded. */
  text: string;
}

const NAME = /^[A-Za-z_:][-A-Za-z0-9_:.]*/;

function decode(text: string, at: number): string {
  return text.replace(/&([^;]*);?/g, (whole, body: string) => {
    if (!whole.endsWith(';')) throw new Error(`offset ${at}: '&' without ';'`);
    const named: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
    if (body in named) return named[body];
    const m = /^#(?:x([0-9a-fA-F]+)|([0-9]+))$/.exec(body);
    if (!m) throw new Error(`offset ${at}: unknown entity &${body};`);
    return String.fromCodePoint(m[1] !== undefined ? parseInt(m[1], 16) : Number(m[2]));
  });
}

/** Every element of a well-formed document in document order; throws with the offset where it is not. */
export function parseXml(doc: string): XmlElement[] {
  const elements: XmlElement[] = [];
  const open: XmlElement[] = [];
  let i = 0;
  let rootClosed = false;
  if (doc.startsWith('<?xml')) {
    const end = doc.indexOf('?>');
    if (end < 0) throw new Error('unterminated XML declaration');
    i = end + 2;
  }
  while (i < doc.length) {
    const lt = doc.indexOf('<', i);
    const text = doc.slice(i, lt < 0 ? doc.length : lt);
    if (text.trim() !== '') {
      if (open.length === 0) throw new Error(`offset ${i}: text outside the root element`);
      open[open.length - 1].text += decode(text, i);
    } else if (text.includes('&')) decode(text, i);
    if (lt < 0) break;
    i = lt;
    if (doc.startsWith('<!--', i)) {
      const end = doc.indexOf('-->', i + 4);
      if (end < 0) throw new Error(`offset ${i}: unterminated comment`);
      i = end + 3;
      continue;
    }
    if (doc.startsWith('</', i)) {
      const m = NAME.exec(doc.slice(i + 2));
      const name = m?.[0] ?? '';
      const close = doc.indexOf('>', i);
      if (!m || close < 0 || doc.slice(i + 2 + name.length, close).trim() !== '')
        throw new Error(`offset ${i}: bad end tag`);
      const top = open.pop();
      if (!top || top.name !== name) throw new Error(`offset ${i}: </${name}> closes <${top?.name ?? 'nothing'}>`);
      if (open.length === 0) rootClosed = true;
      i = close + 1;
      continue;
    }
    const m = NAME.exec(doc.slice(i + 1));
    if (!m) throw new Error(`offset ${i}: '<' not starting a tag`);
    if (rootClosed || (open.length === 0 && elements.length > 0)) throw new Error(`offset ${i}: a second root`);
    let j = i + 1 + m[0].length;
    const attributes: Record<string, string> = {};
    for (;;) {
      const ws = /^\s*/.exec(doc.slice(j))![0].length;
      j += ws;
      if (doc.startsWith('/>', j) || doc[j] === '>') break;
      if (ws === 0) throw new Error(`offset ${j}: attributes need white space between them`);
      const a = /^([A-Za-z_:][-A-Za-z0-9_:.]*)\s*=\s*("([^"<]*)"|'([^'<]*)')/.exec(doc.slice(j));
      if (!a) throw new Error(`offset ${j}: bad attribute`);
      if (a[1] in attributes) throw new Error(`offset ${j}: attribute ${a[1]} twice`);
      attributes[a[1]] = decode(a[3] ?? a[4], j);
      j += a[0].length;
    }
    const el: XmlElement = { name: m[0], attributes, parent: open[open.length - 1] ?? null, text: '' };
    elements.push(el);
    if (doc.startsWith('/>', j)) {
      if (open.length === 0) rootClosed = true;
      i = j + 2;
    } else {
      open.push(el);
      i = j + 1;
    }
  }
  if (open.length > 0) throw new Error(`<${open[open.length - 1].name}> is not closed`);
  if (elements.length === 0) throw new Error('no root element');
  return elements;
}
