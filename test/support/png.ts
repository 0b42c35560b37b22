// Pixels of a PNG file, enough for the page tests to read Chromium's
// screenshots: 8-bit greyscale, RGB or RGBA (with or without alpha), not
// interlaced, every filter type. Anything else is refused with an Error.

import { inflateSync } from 'node:zlib';

export interface Pixels {
  width: number;
  height: number;
  /** RGBA, 4 bytes a pixel, row after row. */
  rgba: Uint8Array;
}

const SIGNATURE = [137, 80, 78, 71, 13, 10, 26, 10];
/** Colour type -> channels: 0 grey, 2 RGB, 4 grey + alpha, 6 RGBA. */
const CHANNELS: Record<number, number> = { 0: 1, 2: 3, 4: 2, 6: 4 };

function paeth(a: number, b: number, c: number): number {
  const p = a + b - c;
  const pa = Math.abs(p - a);
  const pb = Math.abs(p - b);
  const pc = Math.abs(p - c);
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

export function decodePng(file: Uint8Array): Pixels {
  if (file.length < 8 || SIGNATURE.some((b, i) => file[i] !== b)) throw new Error('not a PNG file');
  const view = new DataView(file.buffer, file.byteOffset, file.byteLength);
  let width = 0;
  let height = 0;
  let channels = 0;
  const idat: Uint8Array[] = [];
  for (let at = 8; at + 8 <= file.length;) {
    const len = view.getUint32(at);
    const type = String.fromCharCode(...file.subarray(at + 4, at + 8));
    const data = file.subarray(at + 8, at + 8 + len);
    if (data.length !== len) throw new Error(`PNG chunk ${type} is truncated`);
    if (type === 'IHDR') {
      width = view.getUint32(at + 8);
      height = view.getUint32(at + 12);
      const [depth, colour, , , interlace] = data.subarray(8, 13);
      channels = CHANNELS[colour] ?? 0;
      if (depth !== 8 || channels === 0 || interlace !== 0)
        throw new Error(`unsupported PNG: bit depth ${depth}, colour type ${colour}, interlace ${interlace}`);
    } else if (type === 'IDAT') idat.push(data);
    else if (type === 'IEND') break;
    at += 12 + len;
  }
  if (width === 0 || height === 0) throw new Error('PNG without IHDR');
  const raw = inflateSync(Buffer.concat(idat));
  const stride = width * channels;
  if (raw.length !== height * (stride + 1))
    throw new Error(`PNG data is ${raw.length} bytes, not ${height * (stride + 1)}`);
  const rows = new Uint8Array(height * stride);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)];
    const src = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    const out = rows.subarray(y * stride, (y + 1) * stride);
    const up = y > 0 ? rows.subarray((y - 1) * stride, y * stride) : new Uint8Array(stride);
    for (let i = 0; i < stride; i++) {
      const a = i >= channels ? out[i - channels] : 0;
      const b = up[i];
      const c = i >= channels ? up[i - channels] : 0;
      let v: number;
      switch (filter) {
        case 0:
          v = src[i];
          break;
        case 1:
          v = src[i] + a;
          break;
        case 2:
          v = src[i] + b;
          break;
        case 3:
          v = src[i] + ((a + b) >> 1);
          break;
        case 4:
          v = src[i] + paeth(a, b, c);
          break;
        default:
          throw new Error(`PNG row ${y} has filter type ${filter}`);
      }
      out[i] = v & 255;
    }
  }
  const rgba = new Uint8Array(width * height * 4);
  for (let p = 0; p < width * height; p++) {
    const s = p * channels;
    const grey = channels < 3;
    rgba[p * 4] = rows[s];
    rgba[p * 4 + 1] = grey ? rows[s] : rows[s + 1];
    rgba[p * 4 + 2] = grey ? rows[s] : rows[s + 2];
    rgba[p * 4 + 3] = channels === 4 ? rows[s + 3] : channels === 2 ? rows[s + 1] : 255;
  }
  return { width, height, rgba };
}
