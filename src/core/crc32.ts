// CRC-32 (IEEE 802.3: the polynomial of zlib, gzip and PNG), the checksum of
// Kirin's own file formats: the opening book, the explorer and the self-play
// chains.

const TABLE = (() => {
  const t = new Int32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c;
  }
  return t;
})();

/** The CRC-32 of `bytes`, continuing from `crc` (0 to start: `crc32(b, crc32(a))` is the CRC of a then b). */
export function crc32(bytes: Uint8Array, crc = 0): number {
  let c = ~crc;
  for (let i = 0; i < bytes.length; i++) c = TABLE[(c ^ bytes[i]) & 255] ^ (c >>> 8);
  return ~c >>> 0;
}
